"""Player actions step (rulebook §3.2): each crew member in action order plays the card of the turn.

Codes: a/b/c = A/B/C of the station, x = battlebots, < > = red/blue arrow, ^ = gravolift,
- = nothing, A/B/X = heroic A/B/battlebots, 1-6 = heroic move.  An A/B/C action on a system
covered by a malfunction repairs it instead of using it.
"""

from __future__ import annotations

from collections.abc import Callable

from engine import board
from engine.board import HEROIC_MOVES, neighbour, other_deck, zone_of
from engine.resolution.crew_effects import delay, enter
from engine.resolution.internal_threats import (
    battlebot_attack,
    fissure,
    hit,
    malfunctions_on,
    repair,
)
from engine.resolution.ship_damage import lift_damaged
from engine.state import CrewMember, Mission
from engine.vocab import ActionCode, EnergyStore, NoEffectReason, Station, Zone


def play_turn(m: Mission) -> None:
    i = m.turn - 1
    for p in m.crew:
        if not p.knocked_out:
            code = p.actions[i]
            p.intercepting = False
            if p.station == board.SPACE:
                _in_space(m, p, code)
            elif code != board.BLANK:
                _PLAY[code](m, p, code)


def play_card(m: Mission, p: CrewMember) -> None:
    """One crew member's card of the current turn (the same as one pass of `play_turn`)."""
    code = p.actions[m.turn - 1]
    p.intercepting = False
    if p.station == board.SPACE:
        _in_space(m, p, code)
    elif code != board.BLANK:
        _PLAY[code](m, p, code)


def _arrow(m: Mission, p: CrewMember, code: ActionCode) -> None:
    target = neighbour(p.post, "red" if code == "<" else "blue")
    if target is None:
        m.emit("no_effect", player=p.name, action=code, reason="hull_end")
    else:
        enter(m, p, target, how="red_arrow" if code == "<" else "blue_arrow")


def _heroic_move(m: Mission, p: CrewMember, code: ActionCode) -> None:
    """Heroic move (§3.2): straight to the station, no lift is used."""
    target = HEROIC_MOVES[code]
    if target != p.station:
        enter(m, p, target, how="heroic_move")


def _battlebots_action(m: Mission, p: CrewMember, code: ActionCode) -> None:
    battlebot_attack(m, p, heroic=code == "X")


def _system_action(m: Mission, p: CrewMember, code: ActionCode) -> None:
    """A, B or C of the station: repairs a malfunction covering that system, else uses it."""
    letter, heroic = _SYSTEM_CODES[code]
    st = p.post
    if m.malfunctions:
        mals = malfunctions_on(m, st, letter)
        if mals:
            repair(m, p, mals[0], heroic)
            return
    if m.ship.broken and (st, letter) in m.ship.broken:
        m.emit("no_effect", player=p.name, action=letter, reason="system_broken")
        return
    SYSTEMS[st][letter](m, p, heroic)


_SYSTEM_CODES: dict[ActionCode, tuple[str, bool]] = {
    "a": ("A", False),
    "b": ("B", False),
    "c": ("C", False),
    "A": ("A", True),
    "B": ("B", True),
}


def _gravolift(m: Mission, p: CrewMember, code: ActionCode = "^") -> None:
    zone = zone_of(p.post)
    busy = zone in m.ship.lifts_used
    broken = lift_damaged(m, zone)
    m.ship.lifts_used.add(zone)
    enter(m, p, other_deck(p.post), how="gravolift")
    if busy or broken:
        # §3.2: you still move, but your next action is delayed.
        delay(m, p, m.turn + 1, cause="lift_damaged" if broken else "lift_busy")


def _in_space(m: Mission, p: CrewMember, code: str) -> None:
    """§3.2 Interceptors in later turns: only the battlebots action keeps you out there."""
    if code in "xX":
        p.intercepting = True
        p.intercept_heroic = code == "X"
        _fissure_repair(m, p)
        m.emit("interceptors", player=p.name, heroic=p.intercept_heroic)
        return
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


def _cannon(m: Mission, p: CrewMember, heroic: bool) -> None:
    """Heavy lasers and the pulse cannon take 1 energy from their zone's reactor; light lasers
    have their own battery.  Each cannon fires once a turn."""
    st = p.post
    ship = m.ship
    if st in ship.cannons:
        m.emit("no_effect", player=p.name, action="A", reason="cannon_fired")
        return
    light = st in ("lower_red", "lower_blue")
    if not light:
        zone = zone_of(st)
        if ship.reactors[zone] <= 0:
            m.emit("no_effect", player=p.name, action="A", reason="no_energy")
            return
        ship.reactors[zone] -= 1
    ship.cannons[st] = 1 if heroic else 0
    if m.log_enabled:
        m.emit("fire", player=p.name, station=st, heroic=heroic)


def _shield(m: Mission, p: CrewMember, heroic: bool) -> None:
    zone = zone_of(p.post)
    _transfer(m, p, heroic, src=("reactor", zone), dst=("shield", zone))


def _side_reactor(m: Mission, p: CrewMember, heroic: bool) -> None:
    zone = zone_of(p.post)
    _transfer(m, p, heroic, src=("reactor", "white"), dst=("reactor", zone))


def _transfer(
    m: Mission, p: CrewMember, heroic: bool, src: tuple[EnergyStore, Zone], dst: tuple[EnergyStore, Zone]
) -> None:
    """Energy transfer (§3.2): fill the destination to capacity from the source, as far as it goes.
    Heroic B: if at least one unit moved, one more comes from the supply, even past capacity."""
    ship = m.ship
    store = {"reactor": (ship.reactors, ship.reactor_cap), "shield": (ship.shields, ship.shield_cap)}
    src_vals, _ = store[src[0]]
    dst_vals, dst_cap = store[dst[0]]
    moved = max(0, min(dst_cap[dst[1]] - dst_vals[dst[1]], src_vals[src[1]]))
    src_vals[src[1]] -= moved
    dst_vals[dst[1]] += moved
    extra = 1 if heroic and moved > 0 else 0
    dst_vals[dst[1]] += extra
    if m.log_enabled:
        m.emit(
            "energy",
            player=p.name,
            src=src[0],
            src_zone=src[1],
            dst=dst[0],
            dst_zone=dst[1],
            amount=moved,
            heroic_bonus=extra,
        )


def _refuel(m: Mission, p: CrewMember, heroic: bool) -> None:
    """Refuel the central reactor: spend a fuel capsule, fill to capacity from the supply."""
    ship = m.ship
    if ship.fuel <= 0:
        m.emit("no_effect", player=p.name, action="B", reason="no_fuel")
        return
    ship.fuel -= 1
    moved = max(0, ship.reactor_cap["white"] - ship.reactors["white"])
    ship.reactors["white"] += moved
    extra = 1 if heroic and moved > 0 else 0
    ship.reactors["white"] += extra
    m.emit("refuel", player=p.name, amount=moved, heroic_bonus=extra, capsules_left=ship.fuel)


def _interceptors(m: Mission, p: CrewMember, heroic: bool) -> None:
    """Launch the interceptors: a leader of active battlebots flies out; they attack this turn."""
    if p.bots != "active" or m.ship.in_space is not None:
        reason: NoEffectReason = "space_taken" if m.ship.in_space is not None else "no_active_bots"
        m.emit("no_effect", player=p.name, action="C", reason=reason)
        return
    m.ship.in_space = p
    frm = p.station
    p.station = board.SPACE
    p.intercepting = True
    p.intercept_heroic = False
    m.emit("move", player=p.name, frm=frm, to=board.SPACE, how="launch")
    _fissure_repair(m, p)


def _maintenance(m: Mission, p: CrewMember, heroic: bool) -> None:
    phase = board.phase_of(m.turn)
    first = phase not in m.ship.maintained
    m.ship.maintained.add(phase)
    m.emit("maintenance", player=p.name, phase=phase, counted=first and m.turn <= board.COMPUTER_CHECK_TURNS[phase - 1])


def _battlebots(m: Mission, p: CrewMember, heroic: bool) -> None:
    """Take the squad stored here, or reactivate your own disabled squad."""
    ship = m.ship
    st = p.post
    if p.bots == "disabled":
        p.bots = "active"
        m.emit("bots", player=p.name, what="reactivated")
    elif p.bots is None and ship.depots.get(st) is not None:
        # Slime's black cube: a squad disabled in its depot follows its leader still disabled.
        p.bots = "active" if ship.depots[st] == "ready" else "disabled"
        ship.depots[st] = None
        m.emit("bots", player=p.name, what="picked_up" if p.bots == "active" else "picked_up_disabled")
    else:
        m.emit("no_effect", player=p.name, action="C", reason="no_bots_to_take")


def _observe(m: Mission, p: CrewMember, heroic: bool) -> None:
    m.ship.observers += 1
    m.emit("observe", player=p.name, count=m.ship.observers)


def _rocket(m: Mission, p: CrewMember, heroic: bool) -> None:
    ship = m.ship
    if ship.rockets <= 0 or ship.rocket_launched:
        reason: NoEffectReason = "no_rocket" if ship.rockets <= 0 else "rocket_fired"
        m.emit("no_effect", player=p.name, action="C", reason=reason)
        return
    ship.rockets -= 1
    ship.rocket_launched = True
    m.emit("rocket_launched", player=p.name, rockets_left=ship.rockets)


SystemUse = Callable[[Mission, CrewMember, bool], None]
# The A/B/C system of every station (§1 ship picture), by station then letter.
SYSTEMS: dict[Station, dict[str, SystemUse]] = {
    "upper_red": {"A": _cannon, "B": _shield, "C": _interceptors},
    "upper_white": {"A": _cannon, "B": _shield, "C": _maintenance},
    "upper_blue": {"A": _cannon, "B": _shield, "C": _battlebots},
    "lower_red": {"A": _cannon, "B": _side_reactor, "C": _battlebots},
    "lower_white": {"A": _cannon, "B": _refuel, "C": _observe},
    "lower_blue": {"A": _cannon, "B": _side_reactor, "C": _rocket},
}

# What each card code does aboard (a blank does nothing; in space `_in_space` decides).
_PLAY: dict[ActionCode, Callable[[Mission, CrewMember, ActionCode], None]] = {
    "<": _arrow,
    ">": _arrow,
    "^": _gravolift,
    "x": _battlebots_action,
    "X": _battlebots_action,
    **dict.fromkeys(_SYSTEM_CODES, _system_action),
    **dict.fromkeys(HEROIC_MOVES, _heroic_move),
}
