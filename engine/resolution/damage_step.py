"""Damage computation step (rulebook §3.3): every weapon of the turn hits external threats at once.

Three parts, in the rulebook's order.  `aim`: every weapon picks its target before anything is
removed.  `apply_hits`: damage on one threat is summed, its shield subtracted once, the rest placed
as damage cubes.  `after_step`: what happens once the step is over (Leviathan Tanker's explosion,
Juggernaut's shield, Behemoth's pilot, Nemesis' retaliation, the asteroids' break-up).  Appendix
rules (§7.1) hook in by card trait.
"""

from __future__ import annotations

from engine import board
from engine.board import distance
from engine.resolution.crew_effects import knock_out
from engine.resolution.internal_threats import destroy
from engine.resolution.ship_damage import threat_attack
from engine.state import CrewMember, Mission, ThreatState
from engine.vocab import Station, Weapon


class Volley:
    """Everything the weapons of one damage step aimed at, before any damage is placed.

    A slotted class with no __init__ to run (a dataclass's costs a Python frame per damage step):
    `aim` sets every field."""

    __slots__ = ("behemoth_pilot", "pulse_fired", "rocket_hit_juggernaut", "totals", "weapons")
    totals: dict[ThreatState, int]  # damage aimed at each threat, in the order first aimed at
    weapons: dict[ThreatState, list[Weapon]] | None  # for the log: what hit each threat
    pulse_fired: bool
    behemoth_pilot: tuple[CrewMember, ThreatState] | None  # the pilot and the Behemoth hit
    rocket_hit_juggernaut: ThreatState | None

    def add(self, t: ThreatState, weapon: Weapon, damage: int) -> None:
        totals = self.totals
        totals[t] = totals[t] + damage if t in totals else damage
        if self.weapons is not None:
            self.weapons.setdefault(t, []).append(weapon)


_RANGE_2_END = board.RANGE_END[2]  # spaces past it are range 3
# The laser cannon of each station but lower white (the pulse cannon): heavy upstairs, light below.
_LASER_AT: dict[Station, Weapon] = {st: "heavy" if st.startswith("upper") else "light" for st in board.STATIONS}


def targetable(t: ThreatState, weapon: Weapon) -> bool:
    """Can `weapon` aim at this threat?  Stealth / Phantom Fighter until X: no weapon sees it;
    heavy-laser and rocket immunity and hiding at range 3 come from the card's traits (the
    mission builder turns them into `immune` and `hides_far`)."""
    if not t.present or t.internal or not t.visible or weapon in t.immune:
        return False
    return not (t.hides_far and distance(t.position) == 3)


def shield_of(m: Mission, t: ThreatState) -> int:
    """Current shield: the card's, as changed by its own actions, + every Marauder's bonus (§7.1)."""
    bonus = 0
    for s in m.shield_auras:
        if s.shield_aura and s.fate != "destroyed":
            bonus += s.shield_aura
    return t.shield + bonus


def _nearest(candidates: list[ThreatState]) -> ThreatState | None:
    """Nearest to the ship; on the same space the lowest token number."""
    if not candidates:
        return None
    return min(candidates, key=lambda t: (t.position, t.sort_key))


def damage_step(m: Mission, *, weapons: bool = True) -> None:
    """Resolve the damage step.  `weapons=False` is turn 13: only the turn-12 rocket hits (§3.6)."""
    ship = m.ship
    if not ship.rocket_in_flight and (not weapons or (not ship.cannons and ship.in_space is None)):
        return  # nothing fires this turn
    volley = aim(m, weapons)
    if volley.totals:
        destroyed = apply_hits(m, volley)
        after_step(m, volley, destroyed)
    else:  # nothing hit: no damage, so nothing happens after the step (the Behemoth's pilot and
        # the Juggernaut's shield need a hit too)
        for t in m.end_of_step:
            t.damage_this_step = 0
    ship.cannons.clear()


def aim(m: Mission, weapons: bool = True) -> Volley:
    """Targeting (§3.3): cannons, the rocket in flight and the interceptors pick their targets."""
    ship = m.ship
    volley = Volley()
    totals: dict[ThreatState, int] = {}
    volley.totals = totals
    volley.weapons = {} if m.log_enabled else None
    volley.pulse_fired = False
    volley.behemoth_pilot = volley.rocket_hit_juggernaut = None
    externals = m.externals  # in token order
    if weapons:
        for st, bonus in ship.cannons.items():
            if st == "lower_white":
                volley.pulse_fired = True
                reach = ship.pulse_reach
                for t in externals:  # every threat in range that the pulse cannon may hit
                    if (
                        t.visible
                        and "pulse" not in t.immune
                        and t.position <= reach
                        and not (t.hides_far and t.position > _RANGE_2_END)
                    ):
                        volley.add(t, "pulse", board.PULSE_DAMAGE + bonus)
                continue
            zone = board.ZONE_OF[st]
            weapon = _LASER_AT[st]
            # The nearest threat in the zone that `targetable` allows (present and external hold
            # for `externals`); in token order, so on the same space the lowest number stays.
            target: ThreatState | None = None
            for t in externals:
                if (
                    t.zone == zone
                    and t.visible
                    and weapon not in t.immune
                    and not (t.hides_far and t.position > _RANGE_2_END)
                    and (target is None or t.position < target.position)
                ):
                    target = t
            if target is not None:
                volley.add(target, weapon, ship.cannon_damage[st] + bonus)
            elif m.log_enabled:
                m.emit("no_target", weapon=weapon, zone=zone)

    if ship.rocket_in_flight:
        ship.rocket_in_flight = False
        _aim_rocket(m, volley, externals)

    if weapons and ship.in_space is not None:  # only a pilot flying the interceptors aims from space
        for p in m.crew:
            if p.intercepting and not p.knocked_out and p.station == board.SPACE:
                _aim_interceptors(volley, p, externals)
    return volley


def _aim_rocket(m: Mission, volley: Volley, externals: list[ThreatState]) -> None:
    """The rocket hits the Juggernaut wherever it is, else the nearest target at range 1-2."""
    magnets = [t for t in externals if t.card.traits and t.card.has("rocket_magnet") and t.visible]
    if magnets:
        target: ThreatState | None = magnets[0]
    else:
        target = _nearest(
            [t for t in externals if targetable(t, "rocket") and distance(t.position) <= board.ROCKET_RANGE]
        )
    if target is None:
        if m.log_enabled:
            m.emit("no_target", weapon="rocket", zone=None)
    elif target.card.has("rocket_fizzles"):
        if m.log_enabled:
            m.emit("rocket_fizzles", threat=target.card.id)  # Phantom Fighter: aimed at, no effect
    else:
        volley.add(target, "rocket", board.ROCKET_DAMAGE)
        if target.card.has("rocket_magnet"):
            volley.rocket_hit_juggernaut = target


def _aim_interceptors(volley: Volley, p: CrewMember, externals: list[ThreatState]) -> None:
    """3 to a lone threat at range 1, else 1 to each; +1 heroic (§3.2 interceptors)."""
    in_range = [t for t in externals if targetable(t, "interceptors") and distance(t.position) == 1]
    bonus = 1 if p.intercept_heroic else 0
    if len(in_range) == 1:
        t = in_range[0]
        dmg = board.INTERCEPTOR_SINGLE_DAMAGE + bonus
        if t.card.has("behemoth"):
            dmg += 6  # §7.1 Behemoth: 9 (heroic 10), and the pilot is knocked out
            volley.behemoth_pilot = (p, t)
        volley.add(t, "interceptors", dmg)
    else:
        for t in in_range:
            volley.add(t, "interceptors", board.INTERCEPTOR_SPREAD_DAMAGE + bonus)


def apply_hits(m: Mission, volley: Volley) -> list[ThreatState]:
    """Sum the damage on each threat, subtract its shield once, place the cubes; returns the threats
    destroyed, in token order (they are destroyed here)."""
    for t in m.end_of_step:
        t.damage_this_step = 0
    destroyed: list[ThreatState] = []
    reach = m.ship.pulse_reach if volley.pulse_fired else 0
    log = m.log_enabled
    for t, total in volley.totals.items():
        if t.cryoshield:
            t.cryoshield = False  # §7.1 Cryoshield: the first step it is targeted it takes nothing
            if log:
                m.emit("cryoshield", threat=t.card.id, absorbed=total, weapons=_weapons(volley, t))
            continue
        traits = t.card.traits
        if reach and traits and "pulse_strips_shield" in traits and t.position <= reach:
            shield = 0  # §7.1 Energy Cloud / Maelstrom: "equals 0", whatever bonus (decision 19)
        else:
            shield = shield_of(m, t) if m.shield_auras else t.shield
        net = total - shield if total > shield else 0
        if traits and "swarm" in traits and net > 1:
            net = 1  # §7.1 Swarm: one damage per step, whatever hits it
        if log:
            m.emit(
                "threat_damage",
                threat=t.card.id,
                number=t.number,
                zone=t.zone,
                weapons=_weapons(volley, t),
                total=total,
                shield=shield,
                damage=net,
            )
        if net > 0:
            t.damage += net
            t.damage_this_step += net
        if t.damage >= t.health:
            destroyed.append(t)
    if destroyed:
        if len(destroyed) > 1:
            destroyed.sort(key=_token_order)
        for t in destroyed:
            destroy(m, t, None, "damage")
    return destroyed


def _weapons(volley: Volley, t: ThreatState) -> list[Weapon]:
    return volley.weapons[t] if volley.weapons is not None else []


def _token_order(t: ThreatState) -> tuple[int, int, int, int]:
    return t.sort_key


def after_step(m: Mission, volley: Volley, destroyed: list[ThreatState]) -> None:
    """What the end of the damage step triggers (§7.1), in the rulebook's order."""
    # Leviathan Tanker: its destruction puts one cube on every other external threat.
    for lev in [t for t in destroyed if t.card.traits and t.card.has("leviathan")] if destroyed else ():
        for t in list(m.externals):
            t.damage += 1
            t.damage_this_step += 1
            if m.log_enabled:
                m.emit(
                    "threat_damage",
                    threat=t.card.id,
                    number=t.number,
                    zone=t.zone,
                    weapons=["explosion"],
                    source=lev.card.id,
                    total=1,
                    shield=0,
                    damage=1,
                )
            if t.damage >= t.health:
                destroyed.append(t)
                destroy(m, t, None, "explosion", source=lev.card.id)

    if volley.rocket_hit_juggernaut is not None:
        volley.rocket_hit_juggernaut.shield += 1  # §7.1 Juggernaut: +1 shield after each rocket hit
    if volley.behemoth_pilot is not None:
        pilot, behemoth = volley.behemoth_pilot
        knock_out(m, pilot, cause=behemoth.card.id)

    # Nemesis retaliates after any step that hurt it, even one that destroyed it (decision 16);
    # destroyed asteroids break up.  Lowest number first.
    for t in m.end_of_step:
        if "retaliates" in t.card.traits and t.damage_this_step > 0:
            if m.log_enabled:
                m.emit("retaliation", threat=t.card.id)
            for zone in board.ZONES:
                threat_attack(m, t, (zone, 1, False, False))
        elif t.card.breakup_per_breakpoint and t in destroyed and t.breakpoints:
            if m.log_enabled:
                m.emit("breakup", threat=t.card.id, breakpoints=t.breakpoints)
            threat_attack(m, t, (t.zone or "white", t.card.breakup_per_breakpoint * t.breakpoints, False, False))
