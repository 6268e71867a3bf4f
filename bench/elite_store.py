"""ELITE steps through the store: what one press costs now that a game is a stored session.

    .venv/bin/python bench/elite_store.py [--steps 300] [--presses 5] [--pg postgresql://...]

Every ELITE step is one unit of work (bot/games/elite/storage.py): load the session (locked),
restore the game from its snapshot, apply the step, snapshot it, save with a version check.
Figures (the last line is one JSON object with all of them), per backend:
  * step_ms p50/p99: one +15 s press, one at a time (the host alone);
  * burst_ms p50/p99: `--presses` presses at the same instant from as many processes' cogs over
    one database (each its own lock: they meet at the version check and retry);
  * lost: presses acknowledged but missing from the stored game (must be 0);
  * document_bytes: the stored document after the run (engine snapshot + the bot's fields).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.games.elite._cog import EliteCog  # noqa: E402
from bot.games.elite._document import GameDoc, new_state  # noqa: E402
from bot.games.elite._session import Session  # noqa: E402
from bot.games.elite.storage import EliteStore  # noqa: E402
from bot.platform.storage import SqliteStorage  # noqa: E402
from engine.elite.game import EliteGame  # noqa: E402
from engine.elite.setup import EliteConfig  # noqa: E402

CHANNEL, GUILD, HOST = 555, 42, 1
CONFIG = {"map": "crash_site", "mission": "exploration", "difficulty": "hard", "players": 4}


def cog_over(storage: Any) -> EliteCog:
    cog = EliteCog(SimpleNamespace(settings=SimpleNamespace(default_language="en"), storage=storage))
    cog.use_voice = False
    return cog


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 2)


async def run(storage: Any, steps: int, presses: int) -> dict[str, Any]:
    config = EliteConfig.model_validate({**CONFIG, "heroes": ("kara", "gerid", "akosha", "kinje")})
    first = cog_over(storage)
    game = EliteGame(config, 7, first.game_clock, None)
    session = Session(game, "en", HOST, CHANNEL)
    doc = GameDoc(GUILD, CHANNEL, HOST, "en", 7, config.model_dump(mode="json"))
    await EliteStore(storage).start(GUILD, CHANNEL, new_state(doc, session), None, host_id=HOST)
    for _ in range(3):  # event, spawn: the Action Phase, where +15 s applies
        await first.change(CHANNEL, "next", [])
    single: list[float] = []
    for _ in range(steps):
        began = time.perf_counter()
        await first.change(CHANNEL, "adjust", [15])
        single.append((time.perf_counter() - began) * 1000)
    cogs = [cog_over(storage) for _ in range(presses)]
    burst: list[float] = []
    acknowledged = 0

    async def press(cog: EliteCog) -> None:
        nonlocal acknowledged
        began = time.perf_counter()
        await cog.change(CHANNEL, "adjust", [15])
        burst.append((time.perf_counter() - began) * 1000)
        acknowledged += 1

    for _ in range(max(1, steps // presses)):
        await asyncio.gather(*(press(c) for c in cogs))
    stored = await EliteStore(storage).game(CHANNEL)
    assert stored is not None
    kept = [a[1] for a in stored.state["actions"]].count("adjust") - steps
    return {
        "step_ms": {"p50": pct(single, 0.5), "p99": pct(single, 0.99)},
        "burst_ms": {"p50": pct(burst, 0.5), "p99": pct(burst, 0.99), "presses": presses},
        "lost": acknowledged - kept,
        "document_bytes": len(json.dumps(stored.state)),
        "mean_step_ms": round(statistics.fmean(single), 2),
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--presses", type=int, default=5)
    parser.add_argument("--pg", default="", help="a PostgreSQL URL: also measure that backend")
    args = parser.parse_args()
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        sqlite = SqliteStorage(Path(tmp) / "bench.sqlite3")
        await sqlite.open()
        try:
            figures["sqlite"] = await run(sqlite, args.steps, args.presses)
        finally:
            await sqlite.close()
    if args.pg:
        from bot.platform.storage.postgres import PostgresStorage

        pg = PostgresStorage(args.pg, schema=f"bench_{uuid.uuid4().hex[:12]}", drop_schema_on_close=True)
        await pg.open()
        try:
            figures["postgres"] = await run(pg, args.steps, args.presses)
        finally:
            await pg.close()
    for backend, numbers in figures.items():
        print(
            f"{backend}: step p50 {numbers['step_ms']['p50']} ms, p99 {numbers['step_ms']['p99']} ms; "
            f"{args.presses} at once p50 {numbers['burst_ms']['p50']} ms, p99 {numbers['burst_ms']['p99']} ms; "
            f"lost {numbers['lost']}; document {numbers['document_bytes']} bytes"
        )
    print(json.dumps(figures))


if __name__ == "__main__":
    asyncio.run(main())
