"""A fixed corpus of seeded random games and a fingerprint of how the engine resolves them.

Speed work on the engine must not change a single result.  `test_resolve_digest` resolves the
first games of this corpus and compares one sha256 over their canonical output with a committed
value; this module run as a script prints one short hash per game, so two versions of the engine
can be compared game by game over thousands of games (and the first differing game found):

    PYTHONPATH=<old checkout> python -m tests.engine.resolve_corpus 5000 > old.txt
    PYTHONPATH=$PWD python -m tests.engine.resolve_corpus 5000 > new.txt
    diff old.txt new.txt | head

The games are generated here, not by engine/random_game.py, so that the corpus stays the same
when that generator changes; they are wilder than real missions on purpose (1-5 crew, 0-12
threats, duplicated cards, given damage tokens, aimless plans) to reach every rule.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Iterable, Iterator
from typing import Any

from engine import board, resolve
from engine.model import Game
from engine.threats.catalog import base_cards

# Card codes weighted toward using systems, as crews do; moves and heroic cards less often.
_CODES = "aaabbbcccxx<<>>^^----ABX123456"
_POSTS = (
    "cabacabacaba",  # bridge: computer, laser, shield
    "<abaababaaba",  # upper red gunner
    ">abaababaaba",  # upper blue gunner
    "^baabaabacab",  # lower white: refuel, pulse cannon
    "^<aabaabcxaa",  # lower red
    ">c<<cxxx-xxx",  # battlebots from upper blue, out on the interceptors
    "^<c^cxxaaacx",  # battlebots from lower red, interceptors, still in space at the end
    "^<cx>x>x<x^x",  # battlebots hunting intruders
    ">cxxx^xx<x<x",  # battlebots from upper blue, fighting where they stand
)


def _plan(rng: random.Random) -> str:
    if rng.random() < 0.5:
        plan = list(rng.choice(_POSTS))  # a crew member who mans one post, with some noise
        for _ in range(rng.randrange(5)):
            plan[rng.randrange(board.TURNS)] = rng.choice(_CODES)
        return "".join(plan)
    return "".join(rng.choice(_CODES) for _ in range(board.TURNS))


def corpus_game(index: int) -> dict[str, Any]:
    """Game number `index` of the corpus (a pure function of the index and the card data)."""
    rng = random.Random(f"resolve-corpus-{index}")
    cards = list(base_cards().values())
    externals = [c for c in cards if not c.internal]
    internals = [c for c in cards if c.internal]
    tracks = rng.sample(board.TRACK_IDS, 4)
    threats: list[dict[str, Any]] = []
    for _ in range(rng.choice((0, 1, 2, 3, 4, 5, 6, 6, 7, 8, 8, 9, 10, 12))):
        turn = rng.randint(1, 8)
        if rng.random() < 0.35:
            threats.append({"id": rng.choice(internals).id, "turn": turn})
        else:
            threats.append({"id": rng.choice(externals).id, "turn": turn, "zone": rng.choice(board.ZONES)})
    data: dict[str, Any] = {
        "tracks": dict(zip(("red", "white", "blue", "internal"), tracks, strict=True)),
        "players": [{"name": f"P{i + 1}", "actions": _plan(rng)} for i in range(rng.randint(1, 5))],
        "threats": threats,
        "seed": rng.randrange(1 << 62),
    }
    if rng.random() < 0.15:
        data["damage_tokens"] = {
            zone: rng.sample(board.DAMAGE_TOKEN_KINDS, rng.randint(0, 3)) for zone in rng.sample(board.ZONES, 2)
        }
    return data


def fingerprint(data: dict[str, Any]) -> bytes:
    """Everything a caller can see of the game's resolution: the JSON the CLI prints (with the log,
    key order included) and the Python values of the result with and without the log."""
    with_log = resolve(data, log=True)
    without = resolve(Game.model_validate(data))
    parts = (
        json.dumps(with_log.to_json_dict(with_log=True), ensure_ascii=False),
        repr(with_log.model_dump()),
        json.dumps(without.to_json_dict(), ensure_ascii=False),
        repr(without.model_dump()),
    )
    return "\n".join(parts).encode()


def game_hashes(count: int) -> Iterator[str]:
    for index in range(count):
        yield hashlib.sha256(fingerprint(corpus_game(index))).hexdigest()[:16]


def corpus_digest(indices: Iterable[int]) -> str:
    """One sha256 over the fingerprints of the corpus games with these numbers, in that order."""
    digest = hashlib.sha256()
    for index in indices:
        digest.update(fingerprint(corpus_game(index)))
    return digest.hexdigest()


if __name__ == "__main__":
    for line in game_hashes(int(sys.argv[1]) if len(sys.argv) > 1 else 2000):
        print(line)
