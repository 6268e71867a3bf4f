"""Damage computation step (rulebook §3.3): every weapon of the turn hits external threats at once.

All targeting happens before anything is removed.  Damage on one threat is summed, its shield
subtracted once, the rest placed as damage cubes.  Appendix rules (§7.1) hook in by card trait:
stealth, cryoshield, pulse-stripped shields, Swarm, Jellyfish's negative shield (plain data),
Marauder's shield bonus, Juggernaut and rockets, Behemoth and interceptors, the Leviathan
Tanker's death, Nemesis' retaliation and the asteroids' break-up.
"""

from __future__ import annotations

from collections import defaultdict

from engine import board
from engine.board import distance
from engine.resolution.crew_effects import knock_out
from engine.resolution.internal_threats import destroy
from engine.resolution.ship_damage import heavy_laser_damage, light_laser_damage, pulse_range
from engine.state import Mission, ThreatState
from engine.threats.ops import attack_bonus, run_attack, shield_of


def targetable(t: ThreatState, weapon: str) -> bool:
    """Can `weapon` ('heavy', 'light', 'pulse', 'rocket', 'interceptors') aim at this threat?"""
    if not t.present or t.internal:
        return False
    card = t.card
    if not t.visible:  # Stealth/Phantom Fighter until X: every weapon ignores it
        return False
    if card.has("untargetable_at_range_3") and distance(t.position) == 3:
        return False
    if weapon == "heavy" and card.has("heavy_laser_immune"):
        return False
    return not (weapon == "rocket" and card.has("rocket_immune"))


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
    hits: dict[ThreatState, list[tuple[str, int]]] = defaultdict(list)
    externals = m.present_threats(internal=False)
    pulse_fired = False
    behemoth_pilot = None
    rocket_hit_juggernaut: ThreatState | None = None

    if weapons:
        for st, bonus in ship.cannons.items():
            zone = board.zone_of(st)
            if st == "lower_white":
                pulse_fired = True
                rng = pulse_range(m)
                for t in externals:
                    if targetable(t, "pulse") and distance(t.position) <= rng:
                        hits[t].append(("pulse cannon", board.PULSE_DAMAGE + bonus))
                continue
            weapon = "heavy" if st.startswith("upper") else "light"
            dmg = heavy_laser_damage(m, zone) if weapon == "heavy" else light_laser_damage(m, zone)
            target = _nearest([t for t in externals if t.zone == zone and targetable(t, weapon)])
            if target is not None:
                hits[target].append((f"{weapon} laser {zone}", dmg + bonus))
            else:
                m.emit("no_target", weapon=f"{weapon} laser {zone}")

    if ship.rocket_in_flight:
        ship.rocket_in_flight = False
        jugg = [t for t in externals if t.card.has("rocket_magnet") and t.visible]
        target = (
            jugg[0]
            if jugg
            else _nearest(
                [t for t in externals if targetable(t, "rocket") and distance(t.position) <= board.ROCKET_RANGE]
            )
        )
        if target is None:
            m.emit("no_target", weapon="rocket")
        elif target.card.has("rocket_fizzles"):
            m.emit("rocket_fizzles", threat=target.card.id)  # Phantom Fighter: aimed at, no effect
        else:
            hits[target].append(("rocket", board.ROCKET_DAMAGE))
            if target.card.has("rocket_magnet"):
                rocket_hit_juggernaut = target

    if weapons:
        for p in m.crew:
            if p.intercepting and not p.knocked_out and p.station == board.SPACE:
                in_range = [t for t in externals if targetable(t, "interceptors") and distance(t.position) == 1]
                bonus = 1 if p.intercept_heroic else 0
                if len(in_range) == 1:
                    t = in_range[0]
                    dmg = board.INTERCEPTOR_SINGLE_DAMAGE + bonus
                    if t.card.has("behemoth"):
                        dmg += 6  # §7.1 Behemoth: 9 (heroic 10), and the pilot is knocked out
                        behemoth_pilot = p
                    hits[t].append(("interceptors", dmg))
                else:
                    for t in in_range:
                        hits[t].append(("interceptors", board.INTERCEPTOR_SPREAD_DAMAGE + bonus))

    # --- sum, subtract shields once, place damage (all targeting is done) -------------------
    for t in m.end_of_step:
        t.damage_this_step = 0
    destroyed_now: list[ThreatState] = []
    for t, shots in hits.items():
        total = sum(d for _, d in shots)
        if t.cryoshield:
            t.cryoshield = False  # §7.1 Cryoshield: the first step it is targeted it takes nothing
            m.emit("cryoshield", threat=t.card.id, absorbed=total, weapons=[w for w, _ in shots])
            continue
        shield = shield_of(m, t)
        if pulse_fired and t.card.has("pulse_strips_shield") and distance(t.position) <= pulse_range(m):
            shield = 0  # §7.1 Energy Cloud / Maelstrom
        net = max(0, total - shield)
        if t.card.has("swarm"):
            net = min(net, 1)  # §7.1 Swarm: one damage per step, whatever hits it
        m.emit(
            "threat_damage",
            threat=t.card.id,
            number=t.number,
            weapons=[w for w, _ in shots],
            total=total,
            shield=shield,
            damage=net,
        )
        if net > 0:
            t.damage += net
            t.damage_this_step += net
        if t.damage >= t.health:
            destroyed_now.append(t)
    for t in sorted(destroyed_now, key=lambda t: t.sort_key):
        destroy(m, t, None, "damage")

    # §7.1 Leviathan Tanker: its destruction puts one cube on every other external threat.
    for lev in [t for t in destroyed_now if t.card.has("leviathan")]:
        for t in m.present_threats(internal=False):
            t.damage += 1
            t.damage_this_step += 1
            m.emit(
                "threat_damage",
                threat=t.card.id,
                number=t.number,
                weapons=[f"{lev.card.id} explosion"],
                total=1,
                shield=0,
                damage=1,
            )
            if t.damage >= t.health:
                destroyed_now.append(t)
                destroy(m, t, None, "Leviathan Tanker explosion")

    if rocket_hit_juggernaut is not None:
        rocket_hit_juggernaut.shield += 1  # §7.1 Juggernaut: +1 shield after each rocket hit
    if behemoth_pilot is not None:
        knock_out(m, behemoth_pilot, cause="Behemoth")

    # End of the step: Nemesis retaliates, destroyed asteroids break up (lowest number first).
    for t in m.end_of_step:
        if t.card.has("retaliates") and t.damage_this_step > 0:
            m.emit("retaliation", threat=t.card.id)
            for zone in board.ZONES:
                run_attack(m, t, zone, 1 + attack_bonus(m, t))
        elif t.card.breakup_per_breakpoint and t in destroyed_now and t.breakpoints:
            amount = t.card.breakup_per_breakpoint * t.breakpoints
            m.emit("breakup", threat=t.card.id, breakpoints=t.breakpoints)
            run_attack(m, t, t.zone or "white", amount + attack_bonus(m, t))

    ship.cannons.clear()
