"""Scoring (rulebook §4; decision 5 and 6).

Threat points (survived / destroyed values), minus the damage of all zones, minus the most
damaged zone once more, minus 2 per knocked-out crew member, minus 1 per battlebot squad disabled
at the end, plus visual confirmation (best single turn per phase).  A lost mission scores nothing.
"""

from __future__ import annotations

from engine import board
from engine.state import Mission


def threat_points(fate: str | None, survived: int, destroyed: int) -> int:
    if fate == "destroyed":
        return destroyed
    if fate == "survived":
        return survived
    return 0


def disabled_squads(m: Mission) -> int:
    """Squads carried disabled plus squads disabled in their depots (counted in plain loops: this
    runs once per resolved mission)."""
    count = 0
    for p in m.crew:
        if p.bots == "disabled":
            count += 1
    for state in m.ship.depots.values():
        if state == "disabled":
            count += 1
    return count


def observation_points(best_per_phase: list[int]) -> list[int]:
    """Points of each phase's best visual confirmation (at most five crew, so five observers)."""
    table = board.OBSERVATION_POINTS
    first, second, third = best_per_phase  # board.PHASE_LAST_TURNS: three phases
    return [table[first], table[second], table[third]]


def score(m: Mission) -> dict[str, int]:
    threats = 0
    for t in m.threats:
        if t.fate is not None:
            threats += threat_points(t.fate, t.card.points_survived, t.card.points_destroyed)
    damage = [len(tokens) for tokens in m.ship.damage.values()]
    knocked = sum(1 for p in m.crew if p.knocked_out)
    table = board.OBSERVATION_POINTS
    observation = sum(table[n] for n in m.ship.observation_best)
    parts = {
        "threats": threats,
        "damage": -sum(damage),
        "worst_zone": -max(damage),
        "knocked_out": -2 * knocked,
        "battlebots": -disabled_squads(m),
        "observation": observation,
    }
    parts["total"] = sum(parts.values())
    return parts
