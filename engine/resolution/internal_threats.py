"""Fighting internal threats during the player actions step (rulebook §3.2, appendix §7.2).

Malfunctions are repaired by the A/B/C action of the system they cover (the lowest-numbered
repairable one first); intruders are fought with the battlebots action in their station (the
lowest number first).  Special cases by trait: Slime tokens, Contamination tokens, the Nuclear
Device's three-at-once rule, multi-station malfunctions' bonus, Unstable Warheads' rocket health.
"""

from __future__ import annotations

from engine import board
from engine.resolution.crew_effects import knock_out
from engine.state import CrewMember, Mission, ThreatState
from engine.vocab import HitHow, Station


def destroy(m: Mission, t: ThreatState, by: CrewMember | None, how: HitHow, source: str | None = None) -> None:
    """The threat is beaten: the captain takes its card (rulebook §3.2/§3.3).  `source`: the card
    whose explosion did it (Leviathan Tanker)."""
    m.retire(t, "destroyed")
    if m.log_enabled:
        m.emit(
            "threat_destroyed",
            threat=t.card.id,
            number=t.number,
            by=by.name if by else None,
            how=how,
            source=source,
        )
    if not t.card.traits:
        return  # most cards: nothing more happens (the checks below are by trait)
    if t.card.has("fissure"):
        for z in board.ZONES:
            m.ship.multiplier[z] = 1
    if t.card.has("overheated"):
        # §7.2 Overheated Reactor: whoever is in lower red or lower blue at this moment is knocked out.
        for p in m.crew:
            if p.station in ("lower_red", "lower_blue") and not p.knocked_out:
                knock_out(m, p, cause=t.card.id)
    if t.card.has("seeker") and by is not None:
        # §7.2 Seeker: the crew member who destroys it is knocked out, his squad disabled.
        knock_out(m, by, cause=t.card.id)


def hit(m: Mission, t: ThreatState, amount: int, by: CrewMember | None, how: HitHow) -> None:
    """Put `amount` damage cubes on an internal threat and destroy it when they reach its health."""
    t.damage += amount
    if m.log_enabled:
        m.emit(
            "threat_hit",
            threat=t.card.id,
            number=t.number,
            amount=amount,
            damage=t.damage,
            health=t.health,
            by=by.name if by else None,
            how=how,
        )
    if t.damage >= t.health:
        destroy(m, t, by, how)


def repair(m: Mission, p: CrewMember, mal: ThreatState, heroic: bool) -> None:
    """One repair action on a malfunction (heroic: 2 cubes)."""
    amount = 2 if heroic else 1
    mal.stations_hit.add(p.post)
    if mal.card.has("needs_three"):
        # §7.2 Nuclear Device: only three repairs in the same turn do anything.
        mal.hits_this_turn += 1
        if m.log_enabled:
            m.emit("repair_attempt", threat=mal.card.id, player=p.name, count=mal.hits_this_turn)
        if mal.hits_this_turn == 3:
            hit(m, mal, 1, p, "repair")
        return
    hit(m, mal, amount, p, "repair")


def multi_station_bonus(m: Mission) -> None:
    """End of the player actions step: BattleBot Uprising / Power System Overload bonus (§7.2)."""
    for t in m.multi_station:
        if t.present and set(t.stations) <= t.stations_hit:
            hit(m, t, len(t.stations) - 1, None, "all_repaired")


def slimed(m: Mission, st: Station) -> bool:
    """Does `st` hold a slime token?  Tokens of a slime past its Z stay on the ship (§7.2)."""
    return any(t.appeared and t.slime and any(tok[0] == st for tok in t.slime) for t in m.slimes)


def intruder_targets(m: Mission, st: Station) -> list[ThreatState]:
    found: list[ThreatState] = []
    for t in m.threats:
        if not t.present or t.card.damaged_by != "battlebots":
            continue
        if t.card.has("slime"):
            if any(tok[0] == st for tok in t.slime):
                found.append(t)
        elif t.card.has("contamination"):
            if st in t.stations:
                found.append(t)
        elif t.station == st:
            found.append(t)
    return found


def battlebot_attack(m: Mission, p: CrewMember, heroic: bool) -> None:
    """The battlebots action aboard (§3.2): 1 damage to the lowest-numbered intruder here."""
    if p.bots != "active":
        if m.log_enabled:
            m.emit("no_effect", player=p.name, action="x", reason="no_active_bots")
        return
    st = p.post
    targets = intruder_targets(m, st)
    if not targets:
        if m.log_enabled:
            m.emit("no_effect", player=p.name, action="x", reason="no_intruder")
        return
    t = targets[0]
    if t.card.has("slime"):
        tok = next(tok for tok in t.slime if tok[0] == p.station)
        tok[1] -= 1
        t.damage += 1 if tok is t.slime[0] and tok[2] else 0
        if m.log_enabled:
            m.emit(
                "threat_hit",
                threat=t.card.id,
                number=t.number,
                amount=1,
                station=p.station,
                by=p.name,
                how="battlebots",
                token_health=tok[1],
            )
        if tok[1] <= 0:
            t.slime.remove(tok)
            if not t.slime:
                destroy(m, t, p, "battlebots")
    elif t.card.has("contamination"):
        t.stations.remove(st)
        t.damage += 1
        if m.log_enabled:
            m.emit(
                "threat_hit",
                threat=t.card.id,
                number=t.number,
                amount=1,
                station=p.station,
                by=p.name,
                how="battlebots",
                damage=t.damage,
                health=t.health,
            )
        if t.damage >= t.health:
            t.stations.clear()  # §7.2: removing the third token removes the fourth too
            destroy(m, t, p, "battlebots")
    else:
        hit(m, t, 1, p, "battlebots")
    fires_back = t.card.returns_fire == "always" or (t.card.returns_fire == "after_x" and t.grown_up)
    if fires_back and not heroic and p.bots == "active":
        p.bots = "disabled"
        if m.log_enabled:
            m.emit("returns_fire", threat=t.card.id, player=p.name)


def fissure(m: Mission) -> ThreatState | None:
    for t in m.threats:
        if t.present and t.card.has("fissure"):
            return t
    return None
