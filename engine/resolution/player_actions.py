"""Player actions step (rulebook §3.2): each crew member in action order plays the card of the turn.

Codes: a/b/c = A/B/C of the station, x = battlebots, < > = red/blue arrow, ^ = gravolift,
- = nothing, A/B/X = heroic A/B/battlebots, 1-6 = heroic move.  An A/B/C action on a system
covered by a malfunction repairs it instead of using it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import board
from engine.board import HEROIC_MOVES, ZONE_OF, neighbour, other_deck, zone_of
from engine.resolution.crew_effects import delay, enter
from engine.resolution.internal_threats import (
    battlebot_attack,
    fissure,
    hit,
    repair,
)
from engine.resolution.ship_damage import lift_damaged
from engine.state import CrewMember, Mission
from engine.vocab import POSITIONS, ActionCode, EnergyStore, NoEffectReason, Position, Station, Zone


def play_turn(m: Mission) -> None:
    """Every crew member in action order plays the card of the turn (`_PLAYS`: what each code does
    from each position).  An A, B or C repairs a malfunction covering that system, else uses it
    unless a malfunction broke it for good."""
    i = m.turn - 1
    out = m.systems_out
    for p in m.crew:
        if p.knocked_out:
            # the card still lies on the board: the captain's log says why it did nothing
            if m.log_enabled and p.actions[i] != board.BLANK:
                m.emit("no_effect", player=p.name, action=p.actions[i], reason="knocked_out")
            continue
        st = p.station
        play = _PLAYS[p.actions[i]][st]
        if play is None:
            continue  # a blank card aboard
        do, system, detail = play
        if out and system in out:  # (a card that uses no system has None there)
            covering = out[system]
            if covering:
                repair(m, p, covering[0], detail)  # the lowest-numbered malfunction there
            elif m.log_enabled:
                m.emit("no_effect", player=p.name, action=system[1], reason="system_broken")
            continue
        do(m, p, st, detail)


def _arrow(m: Mission, p: CrewMember, st: Station, code: ActionCode) -> None:
    target = neighbour(st, "red" if code == "<" else "blue")
    if target is None:
        if m.log_enabled:
            m.emit("no_effect", player=p.name, action=code, reason="hull_end")
    else:
        enter(m, p, target, how="red_arrow" if code == "<" else "blue_arrow")


def _heroic_move(m: Mission, p: CrewMember, st: Station, code: ActionCode) -> None:
    """Heroic move (§3.2): straight to the station, no lift is used."""
    target = HEROIC_MOVES[code]
    if target != st:
        enter(m, p, target, how="heroic_move")


def _battlebots_action(m: Mission, p: CrewMember, st: Station, code: ActionCode) -> None:
    battlebot_attack(m, p, heroic=code == "X")


def _gravolift(m: Mission, p: CrewMember, st: Station, code: ActionCode) -> None:
    zone = zone_of(st)
    busy = zone in m.ship.lifts_used
    broken = lift_damaged(m, zone)
    m.ship.lifts_used.add(zone)
    enter(m, p, other_deck(st), how="gravolift")
    if busy or broken:
        # §3.2: you still move, but your next action is delayed.
        delay(m, p, m.turn + 1, cause="lift_damaged" if broken else "lift_busy")


def _keep_intercepting(m: Mission, p: CrewMember, st: Position, heroic: bool) -> None:
    """§3.2 Interceptors in later turns: the battlebots action keeps you out there, attacking."""
    p.intercepting = True
    p.intercept_heroic = heroic
    _fissure_repair(m, p)
    if m.log_enabled:
        m.emit("interceptors", player=p.name, heroic=p.intercept_heroic)


def _come_back(m: Mission, p: CrewMember, st: Position, code: ActionCode) -> None:
    """§3.2 Interceptors: any other card brings the pilot back to upper red; a card that is not
    blank is delayed by the return."""
    p.intercepting = False
    m.ship.in_space = None
    enter(m, p, "upper_red", how="return")
    if code != board.BLANK:
        delay(m, p, m.turn, cause="return_from_space")


def _fissure_repair(m: Mission, p: CrewMember) -> None:
    """§7.2 Fissure: while it is open the interceptors hit it (1 damage) instead of external threats."""
    f = fissure(m)
    if f is not None:
        p.intercepting = False
        hit(m, f, 2 if p.intercept_heroic else 1, p, "interceptors")


# --- the systems, one function each -----------------------------------------------------------


def _cannon(m: Mission, p: CrewMember, st: Station, heroic: bool) -> None:
    """Heavy lasers and the pulse cannon take 1 energy from their zone's reactor; light lasers
    have their own battery.  Each cannon fires once a turn."""
    ship = m.ship
    cannons = ship.cannons
    if st in cannons:
        if m.log_enabled:
            m.emit("no_effect", player=p.name, action="A", reason="cannon_fired")
        return
    zone = _REACTOR_FED[st]
    if zone is not None:
        reactors = ship.reactors
        if reactors[zone] <= 0:
            if m.log_enabled:
                m.emit("no_effect", player=p.name, action="A", reason="no_energy")
            return
        reactors[zone] -= 1
    cannons[st] = 1 if heroic else 0
    if m.log_enabled:
        m.emit("fire", player=p.name, station=st, heroic=heroic)


# The zone whose reactor feeds each station's cannon; None for the light lasers' own battery.
_REACTOR_FED: dict[Station, Zone | None] = {
    st: None if st in ("lower_red", "lower_blue") else zone_of(st) for st in board.STATIONS
}


def _energy(m: Mission, p: CrewMember, st: Station, heroic: bool) -> None:
    """Energy transfer (§3.2), B of a shield or side-reactor station: fill the destination to
    capacity from a reactor, as far as it goes.  Heroic B: if at least one unit moved, one more
    comes from the supply, even past capacity."""
    ship = m.ship
    src_zone, dst_name, dst_zone = _ENERGY_ROUTES[st]
    if dst_name == "shield":
        dst = ship.shields
        moved = ship.shield_cap[dst_zone] - dst[dst_zone]  # the room left
    else:
        dst = ship.reactors
        moved = ship.reactor_cap[dst_zone] - dst[dst_zone]
    reactors = ship.reactors
    have = reactors[src_zone]
    if moved > have:
        moved = have
    if moved > 0:
        reactors[src_zone] = have - moved
        extra = 1 if heroic else 0
        dst[dst_zone] += moved + extra
    else:
        moved = extra = 0
    if m.log_enabled and not moved:  # a B that moved nothing: the log says why
        room = dst[dst_zone] < (ship.shield_cap if dst_name == "shield" else ship.reactor_cap)[dst_zone]
        m.emit("no_effect", player=p.name, action="B", reason="no_energy" if room else "already_full")
    elif m.log_enabled:
        m.emit(
            "energy",
            player=p.name,
            src="reactor",
            src_zone=src_zone,
            dst=dst_name,
            dst_zone=dst_zone,
            amount=moved,
            heroic_bonus=extra,
        )


# Where B moves energy: upper stations from their zone's reactor to its shield, lower red and
# lower blue from the central reactor to their own (lower white's B is refuelling).
_ENERGY_ROUTES: dict[Station, tuple[Zone, EnergyStore, Zone]] = {
    **{st: (ZONE_OF[st], "shield", ZONE_OF[st]) for st in ("upper_red", "upper_white", "upper_blue")},
    **{st: ("white", "reactor", ZONE_OF[st]) for st in ("lower_red", "lower_blue")},
}


def _refuel(m: Mission, p: CrewMember, st: Station, heroic: bool) -> None:
    """Refuel the central reactor: spend a fuel capsule, fill to capacity from the supply."""
    ship = m.ship
    if ship.fuel <= 0:
        if m.log_enabled:
            m.emit("no_effect", player=p.name, action="B", reason="no_fuel")
        return
    ship.fuel -= 1
    moved = max(0, ship.reactor_cap["white"] - ship.reactors["white"])
    ship.reactors["white"] += moved
    extra = 1 if heroic and moved > 0 else 0
    ship.reactors["white"] += extra
    if m.log_enabled:
        m.emit("refuel", player=p.name, amount=moved, heroic_bonus=extra, capsules_left=ship.fuel)


def _interceptors(m: Mission, p: CrewMember, st: Station, heroic: bool) -> None:
    """Launch the interceptors: a leader of active battlebots flies out; they attack this turn."""
    if p.bots != "active" or m.ship.in_space is not None:
        reason: NoEffectReason = "space_taken" if m.ship.in_space is not None else "no_active_bots"
        if m.log_enabled:
            m.emit("no_effect", player=p.name, action="C", reason=reason)
        return
    m.ship.in_space = p
    frm = p.station
    p.station = board.SPACE
    p.intercepting = True
    p.intercept_heroic = False
    if m.log_enabled:
        m.emit("move", player=p.name, frm=frm, to=board.SPACE, how="launch")
    _fissure_repair(m, p)


def _maintenance(m: Mission, p: CrewMember, st: Station, heroic: bool) -> None:
    phase = board.PHASE_OF[m.turn]
    maintained = m.ship.maintained
    if m.log_enabled:
        first = phase not in maintained
        maintained.add(phase)
        counted = first and m.turn <= board.COMPUTER_CHECK_TURNS[phase - 1]
        m.emit("maintenance", player=p.name, phase=phase, counted=counted)
    else:
        maintained.add(phase)


def _battlebots(m: Mission, p: CrewMember, st: Station, heroic: bool) -> None:
    """Take the squad stored here, or reactivate your own disabled squad."""
    ship = m.ship
    if p.bots == "disabled":
        p.bots = "active"
        if m.log_enabled:
            m.emit("bots", player=p.name, what="reactivated")
    elif p.bots is None and ship.depots.get(st) is not None:
        # Slime's black cube: a squad disabled in its depot follows its leader still disabled.
        p.bots = "active" if ship.depots[st] == "ready" else "disabled"
        ship.depots[st] = None
        if m.log_enabled:
            m.emit("bots", player=p.name, what="picked_up" if p.bots == "active" else "picked_up_disabled")
    else:
        if m.log_enabled:
            m.emit("no_effect", player=p.name, action="C", reason="no_bots_to_take")


def _observe(m: Mission, p: CrewMember, st: Station, heroic: bool) -> None:
    m.ship.observers += 1
    if m.log_enabled:
        m.emit("observe", player=p.name, count=m.ship.observers)


def _rocket(m: Mission, p: CrewMember, st: Station, heroic: bool) -> None:
    ship = m.ship
    if ship.rockets <= 0 or ship.rocket_launched:
        reason: NoEffectReason = "no_rocket" if ship.rockets <= 0 else "rocket_fired"
        if m.log_enabled:
            m.emit("no_effect", player=p.name, action="C", reason=reason)
        return
    ship.rockets -= 1
    ship.rocket_launched = True
    if m.log_enabled:
        m.emit("rocket_launched", player=p.name, rockets_left=ship.rockets)


SystemUse = Callable[[Mission, CrewMember, Station, bool], None]
# The A/B/C system of every station (§1 ship picture), by station then letter.
SYSTEMS: dict[Station, dict[str, SystemUse]] = {
    "upper_red": {"A": _cannon, "B": _energy, "C": _interceptors},
    "upper_white": {"A": _cannon, "B": _energy, "C": _maintenance},
    "upper_blue": {"A": _cannon, "B": _energy, "C": _battlebots},
    "lower_red": {"A": _cannon, "B": _energy, "C": _battlebots},
    "lower_white": {"A": _cannon, "B": _refuel, "C": _observe},
    "lower_blue": {"A": _cannon, "B": _energy, "C": _rocket},
}

# What a card does when played: the function, the system it uses ((station, letter): a
# malfunction there is repaired instead, a broken one does nothing) and the detail passed to the
# function (heroic or not for a system, the code for the other cards).
Play = tuple[Callable[[Mission, CrewMember, Any, Any], None], tuple[Station, str] | None, Any]
_SYSTEM_CODES: dict[ActionCode, tuple[str, bool]] = {
    "a": ("A", False),
    "b": ("B", False),
    "c": ("C", False),
    "A": ("A", True),
    "B": ("B", True),
}
_OTHER_CARDS: dict[ActionCode, Callable[[Mission, CrewMember, Station, ActionCode], None]] = {
    "<": _arrow,
    ">": _arrow,
    "^": _gravolift,
    "x": _battlebots_action,
    "X": _battlebots_action,
    **dict.fromkeys(HEROIC_MOVES, _heroic_move),
}


def _play(code: ActionCode, where: Position) -> Play | None:
    """What `code` does from `where` (None: nothing, a blank card aboard)."""
    if where == board.SPACE:  # §3.2: in space only the battlebots action keeps the pilot out
        if code in ("x", "X"):
            return _keep_intercepting, None, code == "X"
        return _come_back, None, code
    if code in _SYSTEM_CODES:
        letter, heroic = _SYSTEM_CODES[code]
        return SYSTEMS[where][letter], (where, letter), heroic
    if code == board.BLANK:
        return None
    return _OTHER_CARDS[code], None, code


# Every card code from every position: the turn reads one table entry per crew member.
_PLAYS: dict[ActionCode, dict[Position, Play | None]] = {
    code: {where: _play(code, where) for where in POSITIONS} for code in board.ACTION_CODES
}
