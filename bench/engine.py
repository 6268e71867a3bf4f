"""Resolution speed: random 4-crew, 8-threat missions resolved in-process on one core.

Prints missions/second and ends with one JSON line, e.g. {"missions_per_s": 2500, "n": 5000, ...}.
Target (engine issue): at least 2,000 missions/s.

Random crews lose most random missions part-way, and a lost mission stops resolving at once, so
the bench also reports `full_length_per_s`: turns resolved per second / 13, i.e. what the rate
would be if every mission ran all 13 turns (an upper bound on the cost of a real survived game).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Game, resolve
from engine.random_game import random_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("-n", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    games = [Game.model_validate(random_game(rng)) for _ in range(args.n)]
    resolve(games[0])  # warm caches (card data)
    start = time.perf_counter()
    outcomes = {"survived": 0, "destroyed": 0}
    turns = 0
    for g in games:
        res = resolve(g)
        outcomes[res.outcome] += 1
        turns += res.lost.turn if res.lost else 13
    elapsed = time.perf_counter() - start
    rate = args.n / elapsed
    full = turns / 13 / elapsed
    print(
        f"resolved {args.n} missions in {elapsed:.2f} s: {rate:.0f} missions/s "
        f"({outcomes['survived']} survived, {outcomes['destroyed']} destroyed, "
        f"{turns / args.n:.1f} turns on average)"
    )
    print(f"full-length equivalent: {full:.0f} missions/s of 13 turns")
    print(json.dumps({"missions_per_s": round(rate), "n": args.n, "full_length_per_s": round(full)}))


if __name__ == "__main__":
    main()
