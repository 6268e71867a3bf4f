"""Damage to the ship (rulebook §3.4 "Атака x", "Наносит x повреждений") and the damage tokens.

External attacks are absorbed point for point by the zone's shield; what gets through draws one
damage token per point from that zone's pile.  Internal threats' damage ignores shields.  A zone
that must take a seventh token is destroyed and the mission is lost at once.  The Scout's attack
bonus is added here, where every threat attack passes.
"""

from __future__ import annotations

from engine.state import Mission, ShipDestroyed, ThreatState, own_zone
from engine.vocab import Zone


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


# One attack: (the zone, None for the threat's own zone; the amount; ignores shields; doubled
# past the shield).  A tuple, so that a card's prepared steps can hold one (card_actions.program).
Attack = tuple[Zone | None, int, bool, bool]


def threat_attack(m: Mission, t: ThreatState, attack: Attack) -> None:
    """An attack by threat `t` (rulebook §3.4 "Атака").  An external threat's attack gets the
    Scout's bonus and is absorbed point for point by the zone's shield, unless it ignores shields;
    an internal threat's damage ignores shields.  Doubled: Destroyer, every point past the shield
    counts twice; a Fissure doubles the tokens drawn.  What gets through draws damage tokens."""
    zone, amount, pierce, double = attack
    if zone is None:
        zone = t.zone if t.zone is not None else own_zone(t)
    ship = m.ship
    absorbed = 0
    if t.internal:
        shields = False
    else:
        if m.attack_auras:
            amount += attack_bonus(m, t)
        shields = not pierce
    if amount <= 0:
        return
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
            source=t.card.id,
            ignores_shields=not shields,
        )
    if through:
        damage_zone(m, zone, through, t.card.id)


def damage_zone(m: Mission, zone: Zone, points: int, source: str) -> None:
    """Draw `points` damage tokens in `zone`, applying each token's effect as it is drawn: a shield
    or reactor token lowers that system's capacity, a cannon token weakens a cannon
    (`Ship.weaken_cannon`); a lift token is read where it matters (`lift_damaged`) and a
    structural token has no effect.  `source`: the card that did the damage."""
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
        if token == "shield":
            cap = ship.shield_cap[zone] - 1
            ship.shield_cap[zone] = cap
            if ship.shields[zone] > cap:
                ship.shields[zone] = cap
        elif token == "reactor":
            cap = ship.reactor_cap[zone] - 1
            ship.reactor_cap[zone] = cap
            if ship.reactors[zone] > cap:
                ship.reactors[zone] = cap
        elif token == "upper_cannon" or token == "lower_cannon":
            ship.weaken_cannon(zone, token)
        if m.log_enabled:
            m.emit("damage_token", zone=zone, token=token, total=len(taken), source=source)


def lift_damaged(m: Mission, zone: Zone) -> bool:
    return "lift" in m.ship.damage[zone]
