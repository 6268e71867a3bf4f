"""Damage to the ship (rulebook §3.4 "Атака x", "Наносит x повреждений") and the damage tokens.

External attacks are absorbed point for point by the zone's shield; what gets through draws one
damage token per point from that zone's pile.  Internal threats' damage ignores shields.  A zone
that must take a seventh token is destroyed and the mission is lost at once.
"""

from __future__ import annotations

from engine import board
from engine.state import Mission, ShipDestroyed


def attack_zone(
    m: Mission,
    zone: str,
    amount: int,
    source: str,
    *,
    shields: bool = True,
    double: bool = False,
) -> None:
    """One attack of `amount` on `zone`.  `double`: Destroyer, every point past the shield counts twice."""
    if amount <= 0:
        return
    absorbed = 0
    if shields:
        absorbed = min(m.ship.shields[zone], amount)
        m.ship.shields[zone] -= absorbed
    through = amount - absorbed
    if double:
        through *= 2
    through *= m.ship.multiplier[zone]  # Fissure (§7.2): two tokens per damage
    m.emit(
        "attack",
        zone=zone,
        amount=amount,
        absorbed=absorbed,
        damage=through,
        source=source,
        ignores_shields=not shields,
    )
    damage_zone(m, zone, through, source)


def damage_zone(m: Mission, zone: str, points: int, source: str) -> None:
    """Draw `points` damage tokens in `zone`, applying each token's effect as it is drawn."""
    ship = m.ship
    for _ in range(points):
        pile = ship.piles[zone]
        if not pile:
            m.emit("zone_destroyed", zone=zone, source=source)
            raise ShipDestroyed(f"zone {zone} destroyed", zone=zone)
        token = pile.pop(0)
        ship.damage[zone].append(token)
        _token_effect(m, zone, token)
        m.emit("damage_token", zone=zone, token=token, total=len(ship.damage[zone]), source=source)


def _token_effect(m: Mission, zone: str, token: str) -> None:
    ship = m.ship
    if token == "shield":
        ship.shield_cap[zone] -= 1
        ship.shields[zone] = min(ship.shields[zone], ship.shield_cap[zone])
    elif token == "reactor":
        ship.reactor_cap[zone] -= 1
        ship.reactors[zone] = min(ship.reactors[zone], ship.reactor_cap[zone])
    # lift, upper_cannon, lower_cannon are read where they matter; structural has no effect.


def heavy_laser_damage(m: Mission, zone: str) -> int:
    return board.HEAVY_LASER_DAMAGE[zone] - (1 if m.ship.has_token(zone, "upper_cannon") else 0)


def light_laser_damage(m: Mission, zone: str) -> int:
    return board.LIGHT_LASER_DAMAGE - (1 if m.ship.has_token(zone, "lower_cannon") else 0)


def pulse_range(m: Mission) -> int:
    return 1 if m.ship.has_token("white", "lower_cannon") else board.PULSE_RANGE


def lift_damaged(m: Mission, zone: str) -> bool:
    return m.ship.has_token(zone, "lift")
