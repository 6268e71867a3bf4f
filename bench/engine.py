"""Resolution speed: random 4-crew, 8-threat missions resolved in-process on one core.

Prints missions/second and ends with one JSON line, e.g. {"missions_per_s": 2500, "n": 5000}.
Target (engine issue): at least 2,000 missions/s.
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
    for g in games:
        outcomes[resolve(g).outcome] += 1
    elapsed = time.perf_counter() - start
    rate = args.n / elapsed
    print(f"resolved {args.n} missions in {elapsed:.2f} s: {rate:.0f} missions/s "
          f"({outcomes['survived']} survived, {outcomes['destroyed']} destroyed)")
    print(json.dumps({"missions_per_s": round(rate), "n": args.n}))


if __name__ == "__main__":
    main()
