"""Threat tokens moving and the named behaviours threat cards are made of (rulebook §3.4, §7).

A token moves `speed` spaces toward the ship and does the X, Y or Z of every lettered space it
crosses or stops on; Z ends its life (the crew "survived" it).  Each X/Y/Z is a list of ops in the
card data, and each op name maps to one function here (`OPS`, with the parameters it reads).  The
55 base cards need nothing else; a new card is data, and a new op only when its text does
something no op does yet.  Movement lives here with the ops because the Scout's Y moves the other
threats: both directions of that call stay inside this module.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.board import ZONES, Crossing, neighbour, other_deck, zone_of
from engine.resolution.crew_effects import delay, knock_out
from engine.resolution.internal_threats import destroy, slimed
from engine.resolution.ship_damage import damage_zone, threat_attack
from engine.state import CrewMember, Mission, Program, ShipDestroyed, Step, ThreatState, own_zone
from engine.threats.catalog import Op, ThreatCard
from engine.vocab import EnergyStore, Station, Zone

# --- shared helpers ------------------------------------------------------------------------------


def _amount(m: Mission, t: ThreatState, value: Any) -> int:
    if isinstance(value, int):
        return value
    if value == "remaining_health":
        return t.remaining_health
    if value == "2*remaining_health":
        return 2 * t.remaining_health
    if value == "3*remaining_health":
        return 3 * t.remaining_health
    if value == "energy_in_central_reactor":
        return m.ship.reactors["white"]
    if value == "players_in_station":
        return len(m.crew_in(t.station)) if t.station else 0
    if value == "floor(damage_taken/2)":
        return t.damage // 2
    raise ValueError(f"unknown amount {value!r}")


def _zones(t: ThreatState, spec: Any) -> list[Zone]:
    if spec in ("own", "own_zone"):
        return [own_zone(t)]
    if spec in ("all", "all_zones"):
        return list(ZONES)
    if spec == "other_zones":
        return [z for z in ZONES if z != own_zone(t)]
    return list(spec)


def _condition(t: ThreatState, cond: str | None) -> bool:
    if cond is None:
        return True
    if cond == "damaged":
        return t.damage > 0
    if cond.startswith("damage_taken<"):
        return t.damage < int(cond.split("<", 1)[1])
    raise ValueError(f"unknown condition {cond!r}")


def _tokens_stations(t: ThreatState) -> list[Station]:
    """Stations the threat occupies: intruder token, malfunction systems, slime / contamination tokens."""
    if t.slime:
        return [tok[0] for tok in t.slime]
    if t.station is not None:
        return [t.station]
    return list(t.stations)


# --- the ops -----------------------------------------------------------------------------------


def op_attack(m: Mission, t: ThreatState, op: Op) -> None:
    cond = op.get("condition")
    if cond is not None and not _condition(t, cond):
        if m.log_enabled:
            m.emit("no_effect_threat", threat=t.card.id, reason="condition_unmet")
        return
    kind = op.get("damage_type", "standard")
    target = op.get("target")
    if target == "own_stations_each":
        # Contamination Y: one attack per contaminated station, in that station's zone.
        for st in list(t.stations):
            threat_attack(m, t, (zone_of(st), _amount(m, t, op["amount"]), False, False))
        return
    if "slime" in t.card.traits:
        # Slime Z: every slime token attacks its own zone.
        for st in _tokens_stations(t):
            threat_attack(m, t, (zone_of(st), _amount(m, t, op["amount"]), False, False))
        return
    amount = op["amount"]
    if not isinstance(amount, int):
        amount = _amount(m, t, amount)
    pierce = kind == "ignores_shields"
    double = kind == "double_through_shields"
    if target == "own_zone" and "zones" not in op:  # most cards: one attack on its own zone
        threat_attack(m, t, (None, amount, pierce, double))
        return
    for zone in _zones(t, op.get("zones", op.get("target", "own_zone"))):
        threat_attack(m, t, (zone, amount, pierce, double))


def op_repair(m: Mission, t: ThreatState, op: Op) -> None:
    amount = _amount(m, t, op["amount"])
    healed = min(amount, t.damage)
    t.damage -= healed
    if m.log_enabled:
        m.emit("threat_repairs", threat=t.card.id, amount=healed, damage=t.damage)


def op_self_damage(m: Mission, t: ThreatState, op: Op) -> None:
    """Nemesis hurts itself through its own shield; dying this way still counts as destroyed."""
    t.damage += op["amount"]
    if m.log_enabled:
        m.emit("self_damage", threat=t.card.id, amount=op["amount"], damage=t.damage)
    if t.damage >= t.health:
        destroy(m, t, None, "self_damage")


def op_speed(m: Mission, t: ThreatState, op: Op) -> None:
    t.set_speed(t.speed + op["delta"])
    if m.log_enabled:
        m.emit("threat_speed", threat=t.card.id, speed=t.speed)


def op_shield(m: Mission, t: ThreatState, op: Op) -> None:
    t.shield += op["delta"]
    if m.log_enabled:
        m.emit("threat_shield", threat=t.card.id, shield=t.shield)


def op_set_shield(m: Mission, t: ThreatState, op: Op) -> None:
    t.shield = op["value"]
    if m.log_enabled:
        m.emit("threat_shield", threat=t.card.id, shield=t.shield)


def op_reveal(m: Mission, t: ThreatState, op: Op) -> None:
    t.visible = True
    if m.log_enabled:
        m.emit("threat_visible", threat=t.card.id)


def op_attack_bonus(m: Mission, t: ThreatState, op: Op) -> None:
    """Scout X: from now on external threats attack with +amount (only the others with
    `others_only`), until it is destroyed; read by ship_damage.attack_bonus (§7.1)."""
    t.attack_aura = op["amount"]
    t.aura_others_only = bool(op.get("others_only", False))
    if m.log_enabled:
        m.emit("threat_aura", threat=t.card.id)


def op_shield_bonus(m: Mission, t: ThreatState, op: Op) -> None:
    """Marauder X: every external threat, itself included, has +amount shield until it is
    destroyed; read by damage_step.shield_of (§7.1)."""
    t.shield_aura = op["amount"]
    if m.log_enabled:
        m.emit("threat_aura", threat=t.card.id)


def op_count_breakpoint(m: Mission, t: ThreatState, op: Op) -> None:
    if m.log_enabled:
        m.emit("threat_breakpoint", threat=t.card.id, passed=t.breakpoints)


def _drain(m: Mission, t: ThreatState, op: Op, store: dict[Zone, int], name: EnergyStore) -> None:
    """Shields or reactors lose energy; Crossed Wires turns each lost unit into 1 damage, and the
    Saboteur attacks instead when the reactor is already empty ("else")."""
    for zone in _zones(t, op["zones"]):
        have = store[zone]
        if have == 0 and "else" in op:
            run_op(m, t, op["else"])
            continue
        lost = have if op["amount"] == "all" else min(have, op["amount"])
        store[zone] -= lost
        if m.log_enabled:
            m.emit("energy_lost", threat=t.card.id, system=name, zone=zone, amount=lost)
        if op.get("damage_per_unit") and lost:
            damage_zone(m, zone, lost * op["damage_per_unit"] * m.ship.multiplier[zone], t.card.id)


def op_drain_shields(m: Mission, t: ThreatState, op: Op) -> None:
    _drain(m, t, op, m.ship.shields, "shield")


def op_drain_reactor(m: Mission, t: ThreatState, op: Op) -> None:
    _drain(m, t, op, m.ship.reactors, "reactor")


def op_reactor_to_shield(m: Mission, t: ThreatState, op: Op) -> None:
    """Crossed Wires X: the central reactor empties into the central shield; what does not fit hurts."""
    zone: Zone = op["zone"]
    energy = m.ship.reactors[zone]
    m.ship.reactors[zone] = 0
    fits = max(0, min(energy, m.ship.shield_cap[zone] - m.ship.shields[zone]))
    m.ship.shields[zone] += fits
    over = energy - fits
    if m.log_enabled:
        m.emit("energy_moved", threat=t.card.id, amount=fits, overflow=over)
    if over:
        damage_zone(m, zone, over * m.ship.multiplier[zone], t.card.id)


def op_delay(m: Mission, t: ThreatState, op: Op) -> None:
    """Threat delays hit the NEXT turn's action (rulebook §3.4; decision 1)."""
    for p in _players(m, t, op["where"]):
        delay(m, p, m.turn + 1, cause=t.card.id)


def op_knock_out(m: Mission, t: ThreatState, op: Op) -> None:
    victims = _players(m, t, op["where"])
    flt = op.get("filter")
    if flt == "has_battlebots":
        victims = [p for p in victims if p.bots is not None]
    elif flt == "no_battlebots":
        victims = [p for p in victims if p.bots is None]
    exempt = set(op.get("except", ()))
    for p in victims:
        if p.station not in exempt:
            knock_out(m, p, cause=t.card.id)


def _players(m: Mission, t: ThreatState, where: Any) -> list[CrewMember]:
    """Crew members aboard a place; players in space are never affected (§3.2 interceptors)."""
    if where == "ship":
        return m.crew_aboard()
    if where == "own_zone":
        zone = own_zone(t)
        return [p for p in m.crew_aboard() if zone_of(p.post) == zone]
    if where == "own_station":
        return m.crew_in(t.station) if t.station else []
    if where == "own_stations":
        stations = set(_tokens_stations(t))
        return [p for p in m.crew_aboard() if p.station in stations]
    stations = set(where)
    return [p for p in m.crew_aboard() if p.station in stations]


def op_lose(m: Mission, t: ThreatState, op: Op) -> None:
    if m.log_enabled:
        m.emit("ship_lost", threat=t.card.id)
    raise ShipDestroyed(threat=t.card.id)


def op_move(m: Mission, t: ThreatState, op: Op) -> None:
    """Intruders walk through doors and change decks regardless of the lifts (§3.4)."""
    d = op["dir"]
    frm = t.station
    assert frm is not None
    to = other_deck(frm) if d == "change_deck" else neighbour(frm, d)
    if to is None:
        if m.log_enabled:
            m.emit("threat_stays", threat=t.card.id, station=frm)
        return
    t.station = to
    if m.log_enabled:
        m.emit("threat_moves", threat=t.card.id, frm=frm, to=to)


def op_move_to_most_players(m: Mission, t: ThreatState, op: Op) -> None:
    """§7.2 Seeker: to the adjacent station with strictly the most crew; a tie means it stays."""
    frm = t.station
    assert frm is not None
    options = [s for s in (neighbour(frm, "red"), neighbour(frm, "blue"), other_deck(frm)) if s]
    counts = sorted(((len(m.crew_in(s)), s) for s in options), reverse=True)
    if counts[0][0] > 0 and (len(counts) == 1 or counts[0][0] > counts[1][0]):
        t.station = counts[0][1]
        if m.log_enabled:
            m.emit("threat_moves", threat=t.card.id, frm=frm, to=t.station)
    else:
        if m.log_enabled:
            m.emit("threat_stays", threat=t.card.id, station=frm)


def op_if_damaged(m: Mission, t: ThreatState, op: Op) -> None:
    run_op(m, t, op["then"] if t.damage > 0 else op["else"])


def op_grow_up(m: Mission, t: ThreatState, op: Op) -> None:
    t.grown_up = True
    if m.log_enabled:
        m.emit("threat_grows_up", threat=t.card.id)


def op_destroy_rocket(m: Mission, t: ThreatState, op: Op) -> None:
    """Slime (blue) X: `count` rockets aboard are lost (rockets in flight are not aboard)."""
    if m.ship.rockets == 0:
        if m.log_enabled:
            m.emit("no_effect_threat", threat=t.card.id, reason="no_rockets")
        return
    for _ in range(min(op["count"], m.ship.rockets)):
        m.ship.rockets -= 1
        if m.log_enabled:
            m.emit("rocket_destroyed", threat=t.card.id, rockets_left=m.ship.rockets)
        rockets_lost(m)


def rockets_lost(m: Mission) -> None:
    """§7.2 Unstable Warheads: each rocket lost while it is present lowers its health by one."""
    for w in m.threats:
        if w.present and w.card.has("rockets_are_health"):
            w.health -= 1
            if w.damage >= w.health:
                destroy(m, w, None, "rocket_lost")


def op_disable_stored_bots(m: Mission, t: ThreatState, op: Op) -> None:
    st = op["station"]
    if m.ship.depots.get(st) == "ready":
        m.ship.depots[st] = "disabled"
        if m.log_enabled:
            m.emit("bots_disabled", threat=t.card.id, station=st)
    else:
        if m.log_enabled:
            m.emit("no_effect_threat", threat=t.card.id, reason="no_stored_bots")


def op_destroy_fuel(m: Mission, t: ThreatState, op: Op) -> None:
    if m.ship.fuel > 0:
        m.ship.fuel -= 1
        if m.log_enabled:
            m.emit("fuel_destroyed", threat=t.card.id, capsules_left=m.ship.fuel)


def op_spread(m: Mission, t: ThreatState, op: Op) -> None:
    """§7.2 Slime Y: every slime token spreads one station in its direction unless a slime token
    is already there: any slime's, even one left behind after that slime's Z (decision 17)."""
    for tok in list(t.slime):
        to = neighbour(tok[0], op["dir"])
        if to is None or slimed(m, to):
            if m.log_enabled:
                m.emit("slime_blocked", threat=t.card.id, frm=tok[0])
            continue
        t.slime.append([to, 1, False])
        if m.log_enabled:
            m.emit("slime_spreads", threat=t.card.id, frm=tok[0], to=to)


def op_multiplier(m: Mission, t: ThreatState, op: Op) -> None:
    """§7.2 Fissure: two damage tokens per damage, in red after X and everywhere after Y."""
    for zone in _zones(t, op["zones"]):
        m.ship.multiplier[zone] = op["factor"]
    if m.log_enabled:
        m.emit("damage_doubled", threat=t.card.id, zones=_zones(t, op["zones"]))


def op_contaminate_on_entry(m: Mission, t: ThreatState, op: Op) -> None:
    """Contamination Z: entering one of its stations knocks you out from now on (§7.2)."""
    for st in t.stations:
        m.ship.contaminated_entry.setdefault(st, t.card.id)


def op_move_others(m: Mission, t: ThreatState, op: Op) -> None:
    """§7.1 Scout Y: every other external threat moves one space, in token order, doing the X/Y/Z
    it crosses.  The Russian text says only "other threats"; the Slovak one (seed 001) says "all
    other external" (všetkých ostatných vonkajších), which settles it."""
    for other in list(m.externals):
        if other is not t and other.present:
            move_threat(m, other, op["spaces"])


@dataclass(frozen=True, slots=True)
class OpSpec:
    """One op: the function that does it and the parameters it reads from the card data."""

    run: Callable[[Mission, ThreatState, Op], None]
    params: frozenset[str] = frozenset()


def _spec(run: Callable[[Mission, ThreatState, Op], None], *params: str) -> OpSpec:
    return OpSpec(run, frozenset(params))


OPS: dict[str, OpSpec] = {
    "attack": _spec(op_attack, "amount", "target", "zones", "damage_type", "condition"),
    "repair": _spec(op_repair, "amount"),
    "self_damage": _spec(op_self_damage, "amount"),
    "speed": _spec(op_speed, "delta"),
    "shield": _spec(op_shield, "delta"),
    "set_shield": _spec(op_set_shield, "value"),
    "reveal": _spec(op_reveal),
    "global_external_attack_bonus": _spec(op_attack_bonus, "amount", "others_only"),
    "global_external_shield_bonus": _spec(op_shield_bonus, "amount"),
    "count_breakpoint": _spec(op_count_breakpoint),
    "drain_shields": _spec(op_drain_shields, "zones", "amount", "damage_per_unit", "else"),
    "drain_reactor": _spec(op_drain_reactor, "zones", "amount", "damage_per_unit", "else"),
    "reactor_to_shield": _spec(op_reactor_to_shield, "zone"),
    "delay_players": _spec(op_delay, "where"),
    "knock_out": _spec(op_knock_out, "where", "filter", "except"),
    "lose_game": _spec(op_lose),
    "move": _spec(op_move, "dir"),
    "move_to_most_players": _spec(op_move_to_most_players),
    "if_damaged": _spec(op_if_damaged, "then", "else"),
    "grow_up": _spec(op_grow_up),
    "destroy_rocket": _spec(op_destroy_rocket, "count"),
    "disable_stored_battlebots": _spec(op_disable_stored_bots, "station"),
    "destroy_fuel_capsule": _spec(op_destroy_fuel),
    "spread": _spec(op_spread, "dir"),
    "zone_damage_multiplier": _spec(op_multiplier, "zones", "factor"),
    "contaminate_on_entry": _spec(op_contaminate_on_entry),
    "move_other_external_threats": _spec(op_move_others, "spaces"),
}


_RUN = {name: spec.run for name, spec in OPS.items()}  # one lookup less per op run


def run_op(m: Mission, t: ThreatState, op: Op) -> None:
    _RUN[op["op"]](m, t, op)


# --- cards' X/Y/Z as prepared steps ----------------------------------------------------------------
# A step is an op's function and the argument it takes: the op itself, or for the commonest op
# (a fixed attack) `threat_attack` with its parameters read once per card instead of on every
# letter a token crosses.  A token keeps its card's program (ThreatState.program).
_PROGRAMS: dict[str, tuple[ThreatCard, Program]] = {}


def program(card: ThreatCard) -> Program:
    """The card's X, Y and Z as steps, prepared on first use (kept with the card they came from)."""
    entry = _PROGRAMS.get(card.id)
    if entry is None or entry[0] is not card:
        steps = {letter: tuple(step for op in ops for step in _steps(card, op)) for letter, ops in card.actions.items()}
        entry = _PROGRAMS[card.id] = (card, steps)
    return entry[1]


def _steps(card: ThreatCard, op: Op) -> tuple[Step, ...]:
    """An op as steps: an unconditional attack of a fixed amount on the card's own zone, on every
    zone or on named zones becomes one `threat_attack` per zone, its parameters read here once;
    any other op runs as written."""
    amount = op.get("amount")
    target = op.get("target")
    if (
        op["op"] == "attack"
        and op.keys() <= {"op", "amount", "target", "damage_type", "zones"}
        and ("zones" in op or target in ("own_zone", "all_zones"))
        and isinstance(amount, int)
        and not card.has("slime")
    ):
        kind = op.get("damage_type", "standard")
        pierce, double = kind == "ignores_shields", kind == "double_through_shields"
        zones: tuple[Zone | None, ...]  # as op_attack reads them; None: the threat's own zone
        if "zones" in op:
            zones = tuple(op["zones"])
        else:
            zones = (None,) if target == "own_zone" else ZONES
        return tuple((threat_attack, (zone, amount, pierce, double)) for zone in zones)
    return ((_RUN[op["op"]], op),)


# --- movement (§3.4) ---------------------------------------------------------------------------------


def move_threat(m: Mission, t: ThreatState, spaces: int) -> None:
    """Move `spaces` toward the ship, acting on each X/Y/Z crossed (Z: the threat is survived).
    The threat actions step moves every token by its speed with `follow_route` directly."""
    follow_route(m, t, *t.track.routes_for(spaces)[t.position])


def follow_route(m: Mission, t: ThreatState, end: int, crossings: tuple[Crossing, ...]) -> None:
    """Move along a route from the token's space (board.Track.routes: where the move ends and the
    lettered spaces it crosses or reaches): each does the card's X, Y or Z there, in order; Z ends
    the token's life."""
    start = t.position
    while crossings:
        for space, letter, left in crossings:
            t.position = space
            if m.log_enabled:
                m.emit("threat_action", threat=t.card.id, number=t.number, letter=letter)
            for run, arg in t.program[letter]:
                run(m, t, arg)
                if t.fate is not None:  # e.g. Nemesis destroyed by its own attack
                    return
            if letter == "Z":
                survive(m, t)
                return
            if t.position != space:
                # A Scout's Y among these steps moved this token (a second Scout's Y moving the
                # first while it moves): the rest of the move goes on from where it is now.
                end, crossings = t.track.routes_for(left)[t.position]
                break
        else:
            break
    t.position = end
    if m.log_enabled:
        m.emit("threat_moved", threat=t.card.id, number=t.number, frm=start, to=end)


def survive(m: Mission, t: ThreatState) -> None:
    """After Z the threat leaves the track.  A malfunction's system stays broken for good;
    slime and contamination tokens stay on the ship (§3.4, §7.2)."""
    m.retire(t, "survived")
    letter = t.card.damaged_by
    if t.card.internal_type == "malfunction" and letter in ("A", "B", "C"):
        for st in t.stations:
            m.ship.broken.add((st, letter))
            m.systems_out.setdefault((st, letter), [])
    if m.log_enabled:
        m.emit("threat_survived", threat=t.card.id, number=t.number)
