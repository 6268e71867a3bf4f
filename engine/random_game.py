"""Random valid games, for property tests and the benchmark (not a mission generator: the
flight builds real missions from timelines).  Deterministic for a given `random.Random`."""

from __future__ import annotations

import random
from typing import Any

from engine import board
from engine.threats.catalog import base_cards


def random_game(rng: random.Random, crew: int = 4, threats: int = 8) -> dict[str, Any]:
    tracks = rng.sample(board.TRACK_IDS, 4)
    cards = list(base_cards().values())
    externals = [c for c in cards if not c.internal]
    internals = [c for c in cards if c.internal]
    placed = []
    ext_turns = rng.sample(range(1, 9), min(threats, 8))
    for i, turn in enumerate(sorted(ext_turns)):
        if i % 3 == 2:
            placed.append({"id": rng.choice(internals).id, "turn": turn})
        else:
            placed.append({"id": rng.choice(externals).id, "turn": turn, "zone": rng.choice(board.ZONES)})
    players = [{"name": f"P{i + 1}", "actions": _plan(rng, i)} for i in range(crew)]
    return {
        "tracks": dict(zip(("red", "white", "blue", "internal"), tracks, strict=True)),
        "players": players,
        "threats": placed,
        "seed": rng.randrange(1 << 30),
    }


# Plausible plans: each crew member mans one post, with some random noise, so that a fair share
# of random missions is survived and resolution runs all 13 turns (as real games mostly do).
_POSTS = (
    "c" + "aba" + "cab" + "acbab",  # bridge: computer, central laser, central shield
    "<" + "abaa" + "baba" + "aab",  # upper red gunner
    ">" + "abaa" + "baba" + "aab",  # upper blue gunner
    "^" + "baab" + "aaba" + "cab",  # lower white: refuel, pulse cannon
    "^<" + "aabaab" + "cxaa",  # lower red
)
_NOISE = "abcx<>^-ABX123456"


def plausible_plan(rng: random.Random, seat: int) -> str:
    """The codes a crew member in `seat` might plan: a post of their own, with some noise."""
    return _plan(rng, seat)


def _plan(rng: random.Random, i: int) -> str:
    base = list(_POSTS[i % len(_POSTS)][: board.TURNS].ljust(board.TURNS, "-"))
    for _ in range(rng.randrange(0, 4)):
        base[rng.randrange(board.TURNS)] = rng.choice(_NOISE)
    return "".join(base)
