"""Resolution speed: random 4-crew, 8-threat missions resolved in-process on one core.

The headline figure is full-length missions per second: turns resolved per second / 13.  Random
crews lose many random missions part-way and a lost mission stops resolving at once, so missions
per second alone would flatter the engine; turns / 13 is the rate if every mission ran all 13
turns, as a real survived game does.  Target: 5,000 full-length missions/s on one core.

Rates are measured in CPU time of this process (`time.process_time`), so other work on a shared
machine does not skew them; the wall-clock rate is printed too.  The same games are resolved
`--repeat` times and the best run counts, as timeit does: on a shared virtual machine a run now and
then loses several percent to the host (the instruction count per game does not change, see
valgrind's callgrind), and the best run is the engine's own speed; the median run is printed too.
Ends with one JSON line, e.g.
{"full_length_per_s": 5200, "missions_per_s": 9800, "n": 5000, ...}.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
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
    ap.add_argument("--repeat", type=int, default=5, help="runs over the same games; the best counts")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    games = [Game.model_validate(random_game(rng)) for _ in range(args.n)]
    resolve(games[0])  # warm caches (card data)
    best_cpu = best_wall = float("inf")
    cpu_times = []
    outcomes = {"survived": 0, "destroyed": 0}
    turns = 0
    for _ in range(args.repeat):
        outcomes = {"survived": 0, "destroyed": 0}
        turns = 0
        wall, cpu = time.perf_counter(), time.process_time()
        for g in games:
            res = resolve(g)
            outcomes[res.outcome] += 1
            turns += res.lost.turn if res.lost else 13
        cpu_times.append(time.process_time() - cpu)
        best_cpu = min(best_cpu, cpu_times[-1])
        best_wall = min(best_wall, time.perf_counter() - wall)
    full = turns / 13 / best_cpu
    median_full = turns / 13 / statistics.median(cpu_times)
    rate = args.n / best_cpu
    print(
        f"resolved {args.n} missions in {best_cpu:.2f} s of CPU ({best_wall:.2f} s wall): {rate:.0f} missions/s "
        f"({outcomes['survived']} survived, {outcomes['destroyed']} destroyed, {turns / args.n:.1f} turns on average)"
    )
    print(
        f"full-length missions: {full:.0f}/s of CPU, {turns / 13 / best_wall:.0f}/s wall (target 5,000); "
        f"median of {args.repeat} runs {median_full:.0f}/s of CPU"
    )
    print(
        json.dumps(
            {
                "full_length_per_s": round(full),
                "missions_per_s": round(rate),
                "n": args.n,
                "turns": turns,
                "full_length_per_s_wall": round(turns / 13 / best_wall),
                "full_length_per_s_median": round(median_full),
            }
        )
    )


if __name__ == "__main__":
    main()
