"""Damage to the ship (rulebook §3.4 "Атака x", "Наносит x повреждений") and the damage tokens.

External attacks are absorbed point for point by the zone's shield; what gets through draws one
damage token per point from that zone's pile.  Internal threats' damage ignores shields.  A zone
that must take a seventh token is destroyed and the mission is lost at once.  The Scout's attack
bonus is added here, where every threat attack passes.
"""

from __future__ import annotations

from engine import board
from engine.state import Mission, ShipDestroyed, ThreatState
from engine.vocab import DamageTokenKind, Zone


def attack_bonus(m: Mission, t: ThreatState) -> int:
    """§7.1 Scout: after its X external threats attack with +its amount (every OTHER one, by its
    data), until it is destroyed; a Scout that did its Z keeps giving it.  Nemesis' retaliation
    and the asteroids' break-up count as attacks (Slovak rulebook, Scout)."""
    if t.internal:
        return 0
    bonus = 0
    for s in m.attack_auras:
        if s.attack_aura and s.fate != "destroyed" and not (s is t and s.aura_others_only):
            bonus += s.attack_aura
    return bonus


def threat_attack(
    m: Mission, t: ThreatState, zone: Zone, amount: int, pierce: bool = False, double: bool = False
) -> None:
    """An attack by threat `t`: internal threats' damage and `pierce` ignore shields; external
    attacks get the Scout's bonus (only an attack that has a value to raise)."""
    if t.internal:
        attack_zone(m, zone, amount, t.card.id, False, double)
    elif m.attack_auras:
        attack_zone(m, zone, amount + attack_bonus(m, t), t.card.id, not pierce, double)
    else:  # no card in this mission can raise attacks
        attack_zone(m, zone, amount, t.card.id, not pierce, double)


def attack_zone(
    m: Mission,
    zone: Zone,
    amount: int,
    source: str,
    shields: bool = True,
    double: bool = False,
) -> None:
    """One attack of `amount` on `zone` by card `source`.  `double`: Destroyer, every point past the
    shield counts twice."""
    if amount <= 0:
        return
    ship = m.ship
    absorbed = 0
    if shields:
        have = ship.shields[zone]
        absorbed = have if have < amount else amount
        ship.shields[zone] = have - absorbed
    through = amount - absorbed
    if double:
        through *= 2
    through *= ship.multiplier[zone]  # Fissure (§7.2): two tokens per damage
    if m.log_enabled:
        m.emit(
            "attack",
            zone=zone,
            amount=amount,
            absorbed=absorbed,
            damage=through,
            source=source,
            ignores_shields=not shields,
        )
    if through:
        damage_zone(m, zone, through, source)


def damage_zone(m: Mission, zone: Zone, points: int, source: str) -> None:
    """Draw `points` damage tokens in `zone`, applying each token's effect as it is drawn."""
    ship = m.ship
    pile = ship.piles[zone]
    taken = ship.damage[zone]
    for _ in range(points):
        if not pile:
            if m.log_enabled:
                m.emit("zone_destroyed", zone=zone, source=source)
            raise ShipDestroyed(zone=zone)
        token = pile.pop(0)
        taken.append(token)
        if token == "shield" or token == "reactor":
            _token_effect(m, zone, token)
        if m.log_enabled:
            m.emit("damage_token", zone=zone, token=token, total=len(taken), source=source)


def _token_effect(m: Mission, zone: Zone, token: DamageTokenKind) -> None:
    ship = m.ship
    if token == "shield":
        ship.shield_cap[zone] -= 1
        ship.shields[zone] = min(ship.shields[zone], ship.shield_cap[zone])
    elif token == "reactor":
        ship.reactor_cap[zone] -= 1
        ship.reactors[zone] = min(ship.reactors[zone], ship.reactor_cap[zone])
    # lift, upper_cannon, lower_cannon are read where they matter; structural has no effect.


def heavy_laser_damage(m: Mission, zone: Zone) -> int:
    return board.HEAVY_LASER_DAMAGE[zone] - (1 if "upper_cannon" in m.ship.damage[zone] else 0)


def light_laser_damage(m: Mission, zone: Zone) -> int:
    return board.LIGHT_LASER_DAMAGE - (1 if "lower_cannon" in m.ship.damage[zone] else 0)


def pulse_range(m: Mission) -> int:
    return 1 if "lower_cannon" in m.ship.damage["white"] else board.PULSE_RANGE


def lift_damaged(m: Mission, zone: Zone) -> bool:
    return "lift" in m.ship.damage[zone]
