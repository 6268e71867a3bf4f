"""The Alien Activation helper: Hit dice against an alien's stored values, and hero damage tracks.

The crew says which heroes are in range of how many aliens of one type; the helper rolls, for each
hero, `dice_per_alien` Hit dice per alien in range, counts the dice at or above the Hit value and
reports damage.  Aliens with fixed damage deal it without a roll.  The rulebook's worked example
(Shooters: 2 in range of Gerid, he rolls 5 and 1, takes 1 damage) is a test vector.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from engine.common.dice import count_at_least, roll_d6s
from engine.elite.datapack import AlienAbility, HeroTrack
from engine.elite.errors import EliteError
from engine.elite.vocab import HeroId


@dataclass(frozen=True, slots=True)
class HeroRoll:
    hero: HeroId
    aliens_in_range: int
    rolls: tuple[int, ...]
    damage: int


class ActivationError(EliteError, ValueError):
    """The alien's stats do not say how to roll (the crew reads the card instead)."""


def hit_chance(hit_value: int) -> float:
    """Chance of one Hit die scoring at `hit_value`+: (7 - v) / 6."""
    if not 1 <= hit_value <= 6:
        raise ValueError("a Hit value is 1..6")
    return (7 - hit_value) / 6


def roll_ability(rng: random.Random, ability: AlienAbility, in_range: Mapping[HeroId, int]) -> tuple[HeroRoll, ...]:
    """Roll an alien type's ability against every hero in range (hero -> aliens of that type in range)."""
    out: list[HeroRoll] = []
    for hero, aliens in in_range.items():
        if aliens < 0:
            raise ActivationError("negative_in_range", hero=hero)
        if aliens == 0:
            continue
        if ability.fixed_damage is not None:
            out.append(HeroRoll(hero, aliens, (), ability.fixed_damage * aliens))
        elif ability.hit_value is not None:
            rolls = roll_d6s(rng, ability.dice_per_alien * aliens)
            out.append(HeroRoll(hero, aliens, rolls, count_at_least(rolls, ability.hit_value) * ability.damage_per_hit))
        else:
            raise ActivationError("no_ability")
    return tuple(out)


@dataclass(frozen=True, slots=True)
class DamageResult:
    """Where the marker ends, how many dice were locked (+) or freed (-), and whether the hero died."""

    position: int
    dice_locked: int
    died: bool


def apply_damage(track: HeroTrack, position: int, damage: int) -> DamageResult:
    """Move a damage marker (0 = leftmost cell) right by damage, or left by healing (negative).

    Crossing a threshold to the right locks a die; crossing it back frees it.  Moving past the
    rightmost cell kills the hero, and the game is lost at once.
    """
    if not 0 <= position < track.length:
        raise ValueError(f"the marker is on cells 0..{track.length - 1}, not {position}")
    target = position + damage
    if target > track.length - 1:
        return DamageResult(track.length - 1, sum(1 for t in track.thresholds if t > position), True)
    target = max(0, target)
    if target >= position:
        locked = sum(1 for t in track.thresholds if position < t <= target)
    else:
        locked = -sum(1 for t in track.thresholds if target < t <= position)
    return DamageResult(target, locked, False)
