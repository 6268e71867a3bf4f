"""The named behaviours threat cards are made of: each X/Y/Z action is a list of ops (data), and
each op name maps to one function here.  The 55 base cards need nothing else; an expansion card
adds data, and a new op only when its text does something no op does yet.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.board import ZONES, neighbour, other_deck, zone_of
from engine.resolution.crew_effects import delay, knock_out
from engine.resolution.internal_threats import destroy, slimed
from engine.resolution.ship_damage import attack_zone, damage_zone
from engine.state import Mission, ShipDestroyed, ThreatState

Op = dict[str, Any]


# --- shared helpers ------------------------------------------------------------------------------


def own_zone(t: ThreatState) -> str:
    """External: its trajectory's zone.  Internal: the zone of the station its token is in."""
    if t.zone is not None:
        return t.zone
    if t.station is not None:
        return zone_of(t.station)
    if t.stations:
        return zone_of(t.stations[0])
    if t.slime:
        return zone_of(t.slime[0][0])
    return "white"


def attack_bonus(m: Mission, t: ThreatState) -> int:
    """§7.1 Scout: after its X every OTHER external threat attacks with +1, until it is destroyed."""
    if t.internal:
        return 0
    return sum(1 for s in m.scouts if s is not t and s.bonus_active and s.fate != "destroyed")


def shield_of(m: Mission, t: ThreatState) -> int:
    """Current shield: the card's, as changed by its own actions, +1 per active Marauder (§7.1)."""
    return t.shield + sum(1 for s in m.marauders if s.bonus_active and s.fate != "destroyed")


def run_attack(
    m: Mission, t: ThreatState, zone: str, amount: int, *, pierce: bool = False, double: bool = False
) -> None:
    attack_zone(m, zone, amount, t.card.id, shields=not (t.internal or pierce), double=double)


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


def _zones(t: ThreatState, spec: Any) -> list[str]:
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


def _tokens_stations(t: ThreatState) -> list[str]:
    """Stations the threat occupies: intruder token, malfunction systems, slime / contamination tokens."""
    if t.slime:
        return [tok[0] for tok in t.slime]
    if t.station is not None:
        return [t.station]
    return list(t.stations)


# --- the ops -----------------------------------------------------------------------------------


def op_attack(m: Mission, t: ThreatState, op: Op) -> None:
    if not _condition(t, op.get("condition")):
        m.emit("no_effect_threat", threat=t.card.id, reason=op.get("condition"))
        return
    kind = op.get("damage_type", "standard")
    if op.get("target") == "own_stations_each":
        # Contamination Y: one attack per contaminated station, in that station's zone.
        for st in list(t.stations):
            run_attack(m, t, zone_of(st), _amount(m, t, op["amount"]))
        return
    if t.card.has("slime"):
        # Slime Z: every slime token attacks its own zone.
        for st in _tokens_stations(t):
            run_attack(m, t, zone_of(st), _amount(m, t, op["amount"]))
        return
    amount = _amount(m, t, op["amount"])
    zones = _zones(t, op.get("zones", op.get("target", "own_zone")))
    for zone in zones:
        run_attack(
            m,
            t,
            zone,
            amount + attack_bonus(m, t),
            pierce=kind == "ignores_shields",
            double=kind == "double_through_shields",
        )


def op_repair(m: Mission, t: ThreatState, op: Op) -> None:
    amount = _amount(m, t, op["amount"])
    healed = min(amount, t.damage)
    t.damage -= healed
    m.emit("threat_repairs", threat=t.card.id, amount=healed, damage=t.damage)


def op_self_damage(m: Mission, t: ThreatState, op: Op) -> None:
    """Nemesis hurts itself through its own shield; dying this way still counts as destroyed."""
    t.damage += op["amount"]
    m.emit("self_damage", threat=t.card.id, amount=op["amount"], damage=t.damage)
    if t.damage >= t.health:
        destroy(m, t, None, "its own attack")


def op_speed(m: Mission, t: ThreatState, op: Op) -> None:
    t.speed += op["delta"]
    m.emit("threat_speed", threat=t.card.id, speed=t.speed)


def op_shield(m: Mission, t: ThreatState, op: Op) -> None:
    t.shield += op["delta"]
    m.emit("threat_shield", threat=t.card.id, shield=t.shield)


def op_set_shield(m: Mission, t: ThreatState, op: Op) -> None:
    t.shield = op["value"]
    m.emit("threat_shield", threat=t.card.id, shield=t.shield)


def op_reveal(m: Mission, t: ThreatState, op: Op) -> None:
    t.visible = True
    m.emit("threat_visible", threat=t.card.id)


def op_bonus(m: Mission, t: ThreatState, op: Op) -> None:
    """Scout X / Marauder X: switch on the aura read by attack_bonus / shield_of."""
    t.bonus_active = True
    m.emit("threat_aura", threat=t.card.id)


def op_count_breakpoint(m: Mission, t: ThreatState, op: Op) -> None:
    m.emit("threat_breakpoint", threat=t.card.id, passed=t.breakpoints)


def _drain(m: Mission, t: ThreatState, op: Op, store: dict[str, int], name: str) -> None:
    """Shields or reactors lose energy; Crossed Wires turns each lost unit into 1 damage, and the
    Saboteur attacks instead when the reactor is already empty ("else")."""
    for zone in _zones(t, op["zones"]):
        have = store[zone]
        if have == 0 and "else" in op:
            run_op(m, t, op["else"])
            continue
        lost = have if op["amount"] == "all" else min(have, op["amount"])
        store[zone] -= lost
        m.emit("energy_lost", threat=t.card.id, where=f"{name}:{zone}", amount=lost)
        if op.get("damage_per_unit") and lost:
            damage_zone(m, zone, lost * op["damage_per_unit"] * m.ship.multiplier[zone], t.card.id)


def op_drain_shields(m: Mission, t: ThreatState, op: Op) -> None:
    _drain(m, t, op, m.ship.shields, "shield")


def op_drain_reactor(m: Mission, t: ThreatState, op: Op) -> None:
    _drain(m, t, op, m.ship.reactors, "reactor")


def op_reactor_to_shield(m: Mission, t: ThreatState, op: Op) -> None:
    """Crossed Wires X: the central reactor empties into the central shield; what does not fit hurts."""
    zone = op["zone"]
    energy = m.ship.reactors[zone]
    m.ship.reactors[zone] = 0
    fits = max(0, min(energy, m.ship.shield_cap[zone] - m.ship.shields[zone]))
    m.ship.shields[zone] += fits
    over = energy - fits
    m.emit("energy_moved", threat=t.card.id, amount=fits, overflow=over)
    if over:
        damage_zone(m, zone, over * m.ship.multiplier[zone], t.card.id)


def op_delay(m: Mission, t: ThreatState, op: Op) -> None:
    """Threat delays hit the NEXT turn's action (rulebook §3.4; rules-decisions 1)."""
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


def _players(m: Mission, t: ThreatState, where: Any) -> list:
    """Crew members aboard a place; players in space are never affected (§3.2 interceptors)."""
    if where == "ship":
        return m.crew_aboard()
    if where == "own_zone":
        zone = own_zone(t)
        return [p for p in m.crew_aboard() if zone_of(p.station) == zone]
    if where == "own_station":
        return m.crew_in(t.station) if t.station else []
    if where == "own_stations":
        stations = set(_tokens_stations(t))
        return [p for p in m.crew_aboard() if p.station in stations]
    stations = set(where)
    return [p for p in m.crew_aboard() if p.station in stations]


def op_lose(m: Mission, t: ThreatState, op: Op) -> None:
    m.emit("ship_lost", threat=t.card.id)
    raise ShipDestroyed(t.card.id)


def op_move(m: Mission, t: ThreatState, op: Op) -> None:
    """Intruders walk through doors and change decks regardless of the lifts (§3.4)."""
    d = op["dir"]
    frm = t.station
    assert frm is not None
    to = other_deck(frm) if d == "change_deck" else neighbour(frm, d)
    if to is None:
        m.emit("threat_stays", threat=t.card.id, station=frm)
        return
    t.station = to
    m.emit("threat_moves", threat=t.card.id, frm=frm, to=to)


def op_move_to_most_players(m: Mission, t: ThreatState, op: Op) -> None:
    """§7.2 Seeker: to the adjacent station with strictly the most crew; a tie means it stays."""
    frm = t.station
    assert frm is not None
    options = [s for s in (neighbour(frm, "red"), neighbour(frm, "blue"), other_deck(frm)) if s]
    counts = sorted(((len(m.crew_in(s)), s) for s in options), reverse=True)
    if counts[0][0] > 0 and (len(counts) == 1 or counts[0][0] > counts[1][0]):
        t.station = counts[0][1]
        m.emit("threat_moves", threat=t.card.id, frm=frm, to=t.station)
    else:
        m.emit("threat_stays", threat=t.card.id, station=frm)


def op_if_damaged(m: Mission, t: ThreatState, op: Op) -> None:
    run_op(m, t, op["then"] if t.damage > 0 else op["else"])


def op_grow_up(m: Mission, t: ThreatState, op: Op) -> None:
    t.grown_up = True
    m.emit("threat_grows_up", threat=t.card.id)


def op_destroy_rocket(m: Mission, t: ThreatState, op: Op) -> None:
    if m.ship.rockets > 0:
        m.ship.rockets -= 1
        m.emit("rocket_destroyed", threat=t.card.id, rockets_left=m.ship.rockets)
        rockets_lost(m)
    else:
        m.emit("no_effect_threat", threat=t.card.id, reason="no rockets aboard")


def rockets_lost(m: Mission) -> None:
    """§7.2 Unstable Warheads: each rocket lost while it is present lowers its health by one."""
    for w in m.threats:
        if w.present and w.card.has("rockets_are_health"):
            w.health -= 1
            if w.damage >= w.health:
                destroy(m, w, None, "rocket lost")


def op_disable_stored_bots(m: Mission, t: ThreatState, op: Op) -> None:
    st = op["station"]
    if m.ship.depots.get(st) == "ready":
        m.ship.depots[st] = "disabled"
        m.emit("bots_disabled", threat=t.card.id, station=st)
    else:
        m.emit("no_effect_threat", threat=t.card.id, reason="no battlebots stored there")


def op_destroy_fuel(m: Mission, t: ThreatState, op: Op) -> None:
    if m.ship.fuel > 0:
        m.ship.fuel -= 1
        m.emit("fuel_destroyed", threat=t.card.id, capsules_left=m.ship.fuel)


def op_spread(m: Mission, t: ThreatState, op: Op) -> None:
    """§7.2 Slime Y: every slime token spreads one station in its direction unless a slime token
    is already there: any slime's, even one left behind after that slime's Z (decision 17)."""
    for tok in list(t.slime):
        to = neighbour(tok[0], op["dir"])
        if to is None or slimed(m, to):
            m.emit("slime_blocked", threat=t.card.id, frm=tok[0])
            continue
        t.slime.append([to, 1, False])
        m.emit("slime_spreads", threat=t.card.id, frm=tok[0], to=to)


def op_multiplier(m: Mission, t: ThreatState, op: Op) -> None:
    """§7.2 Fissure: two damage tokens per damage, in red after X and everywhere after Y."""
    for zone in _zones(t, op["zones"]):
        m.ship.multiplier[zone] = op["factor"]
    m.emit("damage_doubled", threat=t.card.id, zones=_zones(t, op["zones"]))


def op_contaminate_on_entry(m: Mission, t: ThreatState, op: Op) -> None:
    m.ship.contaminated_entry.update(t.stations)


def op_move_others(m: Mission, t: ThreatState, op: Op) -> None:
    """§7.1 Scout Y: every other external threat moves one space, in token order, doing the X/Y/Z
    it crosses.  The Russian text says only "other threats"; the Slovak one (seed 001) says "all
    other external" (všetkých ostatných vonkajších), which settles it."""
    from engine.resolution.threat_actions import move_threat  # threat_actions imports this module

    for other in m.present_threats(internal=False):
        if other is not t and other.present:
            move_threat(m, other, op["spaces"])


OPS: dict[str, Callable[[Mission, ThreatState, Op], None]] = {
    "attack": op_attack,
    "repair": op_repair,
    "self_damage": op_self_damage,
    "speed": op_speed,
    "shield": op_shield,
    "set_shield": op_set_shield,
    "reveal": op_reveal,
    "global_external_attack_bonus": op_bonus,
    "global_external_shield_bonus": op_bonus,
    "count_breakpoint": op_count_breakpoint,
    "drain_shields": op_drain_shields,
    "drain_reactor": op_drain_reactor,
    "reactor_to_shield": op_reactor_to_shield,
    "delay_players": op_delay,
    "knock_out": op_knock_out,
    "lose_game": op_lose,
    "move": op_move,
    "move_to_most_players": op_move_to_most_players,
    "if_damaged": op_if_damaged,
    "grow_up": op_grow_up,
    "destroy_rocket": op_destroy_rocket,
    "disable_stored_battlebots": op_disable_stored_bots,
    "destroy_fuel_capsule": op_destroy_fuel,
    "spread": op_spread,
    "zone_damage_multiplier": op_multiplier,
    "contaminate_on_entry": op_contaminate_on_entry,
    "move_other_external_threats": op_move_others,
}


def run_op(m: Mission, t: ThreatState, op: Op) -> None:
    OPS[op["op"]](m, t, op)


def unknown_ops() -> set[str]:
    """Ops named in the card data that no function implements (checked by a test)."""
    from engine.threats.catalog import base_cards

    names = set()
    for card in base_cards().values():
        for ops in card.actions.values():
            for op in ops:
                names.add(op["op"])
                for key in ("then", "else"):
                    if key in op:
                        names.add(op[key]["op"])
    return names - set(OPS)
