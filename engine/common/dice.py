"""Seeded dice: every roll comes from a `random.Random` the caller owns, so a seed replays a game."""

from __future__ import annotations

import random


def roll_d6(rng: random.Random) -> int:
    """One six-sided die, 1..6."""
    return rng.randint(1, 6)


def roll_d6s(rng: random.Random, count: int) -> tuple[int, ...]:
    """`count` six-sided dice, in the order they were rolled."""
    if count < 0:
        raise ValueError("cannot roll a negative number of dice")
    return tuple(roll_d6(rng) for _ in range(count))


def count_at_least(rolls: tuple[int, ...], target: int) -> int:
    """How many dice show `target` or more (a 'hit on N+' test)."""
    return sum(1 for r in rolls if r >= target)
