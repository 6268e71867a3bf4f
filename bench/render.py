"""Picture speed: milliseconds per turn image and per overview, and the PNG sizes.

Renders every turn of the golden test flight (tests/pictures/flight.json: five crew, six threats,
all 13 turns) and of random 5-crew, 8-threat games, in one thread, as the bot does in
`asyncio.to_thread`.  Prints the figures and ends with one JSON line.
Target: under 100 ms per turn image on this machine.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.games.space_alert.pictures import Replay, render_overview, render_turn, resolve_with_states  # noqa: E402
from engine.random_game import random_game  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("-n", type=int, default=20, help="random games to render besides the golden flight")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lang", default="en")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    games = [json.loads((ROOT / "tests" / "pictures" / "flight.json").read_text(encoding="utf-8"))]
    games += [random_game(rng, crew=5, threats=8) for _ in range(args.n)]

    start = time.perf_counter()
    replays: list[Replay] = [resolve_with_states(g) for g in games]
    resolve_ms = (time.perf_counter() - start) * 1000 / len(games)

    render_turn(replays[0], 0, args.lang)  # fonts loaded once per process, like the bot
    turn_ms: list[float] = []
    sizes: list[int] = []
    for replay in replays:
        for i in range(len(replay.states)):
            t0 = time.perf_counter()
            data = render_turn(replay, i, args.lang)
            turn_ms.append((time.perf_counter() - t0) * 1000)
            sizes.append(len(data))
    over_ms: list[float] = []
    over_sizes: list[int] = []
    for replay in replays:
        t0 = time.perf_counter()
        data = render_overview(replay, args.lang)
        over_ms.append((time.perf_counter() - t0) * 1000)
        over_sizes.append(len(data))

    p95 = sorted(turn_ms)[int(len(turn_ms) * 0.95) - 1]
    print(f"resolve_with_states: {resolve_ms:.1f} ms per game ({len(games)} games)")
    print(
        f"turn image: median {statistics.median(turn_ms):.1f} ms, p95 {p95:.1f} ms, max {max(turn_ms):.1f} ms "
        f"over {len(turn_ms)} images; PNG median {statistics.median(sizes) // 1024} kB, max {max(sizes) // 1024} kB"
    )
    print(
        f"overview: median {statistics.median(over_ms):.1f} ms, max {max(over_ms):.1f} ms; "
        f"PNG max {max(over_sizes) // 1024} kB"
    )
    print(f"target < 100 ms per turn image: {'met' if max(turn_ms) < 100 else 'MISSED'}")
    print(
        json.dumps(
            {
                "turn_ms_median": round(statistics.median(turn_ms), 1),
                "turn_ms_p95": round(p95, 1),
                "turn_ms_max": round(max(turn_ms), 1),
                "overview_ms_median": round(statistics.median(over_ms), 1),
                "png_kb_max": max(sizes) // 1024,
                "overview_kb_max": max(over_sizes) // 1024,
                "images": len(turn_ms),
            }
        )
    )


if __name__ == "__main__":
    main()
