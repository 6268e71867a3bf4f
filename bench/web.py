"""The web logbook at size: 100,000 logged flights and 20,000 players in SQLite, every page
requested through the real aiohttp app (in-process, one event loop: one core), p50/p99 printed.

Target: p99 under 50 ms per page.  The data is bench/records.py's (`fill`: long-tailed players,
30 % of the servers public, campaigns), plus server names and, for 100 public flights, the final
snapshot of a played flight so their pages carry the captain's log and pictures.  Flight pages are
measured warm (the replay cached, as for a shared link opened again) and cold (resolved and laid
out from scratch); pictures drawn and cached.  Ends with one JSON line of the figures.

    python bench/web.py [--flights 100000] [--players 20000] [--samples 300] [--db path]
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from aiohttp.test_utils import TestClient, TestServer  # noqa: E402

from bench.records import _measure, arguments, filled  # noqa: E402
from bot.platform.storage.sqlite import SqliteStorage  # noqa: E402
from bot.platform.storage.web import NAME_SETTING  # noqa: E402
from bot.web.app import REPLAYS, make_app  # noqa: E402
from bot.web.replays import Replays  # noqa: E402
from tests.pictures.flights import play  # noqa: E402

WITH_SNAPSHOT = 100


def add_snapshots(conn: sqlite3.Connection, count: int, seed: int) -> list[str]:
    """Names for the public servers and a played flight's snapshot behind `count` public flights
    (on a reused database: the flights that have one)."""
    existing = [r[0] for r in conn.execute("SELECT id FROM flights WHERE status = 'finished' ORDER BY id")]
    if existing:
        return existing
    rng = random.Random(seed)
    public = [r[0] for r in conn.execute("SELECT guild_id FROM guild_settings WHERE key = 'leaderboard'")]
    conn.executemany(
        "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)",
        [(g, NAME_SETTING, json.dumps(f"Server {g}")) for g in public],
    )
    flight, _journal = play(["Ann", "Bob", "Cid"])
    state = json.dumps(flight.to_dict())
    marks = ",".join("?" * len(public))
    rows = conn.execute(f"SELECT flight_id, guild_id FROM logbook WHERE guild_id IN ({marks})", public).fetchall()
    chosen = rng.sample(rows, min(count, len(rows)))
    options = json.dumps({"mission": "S1-1", "seed": 2, "normal": "white", "serious": "white"})
    crew = json.dumps([{"user_id": 1, "name": "Ann", "roles": []}])
    conn.executemany(
        "INSERT INTO flights (id, guild_id, channel_id, host_id, status, language, options, crew, state,"
        " created_at, updated_at) VALUES (?, ?, ?, 1, 'finished', 'en', ?, ?, ?, '2026-01-01', '2026-01-01')",
        [(fid, g, g * 10, options, crew, state) for fid, g in chosen],
    )
    conn.commit()
    return [fid for fid, _g in chosen]


async def measure(db: Path, players: int, samples: int, seed: int, flights: list[str]) -> dict[str, Any]:
    rng = random.Random(seed)
    with sqlite3.connect(db) as raw:
        public = [r[0] for r in raw.execute("SELECT guild_id FROM guild_settings WHERE key = 'leaderboard'")]
        # a career page exists for players who flew on a public server; busy ones are asked for more
        careers = raw.execute(
            "SELECT user_id, SUM(flights) FROM career_totals WHERE guild_id IN"
            " (SELECT guild_id FROM guild_settings WHERE key = 'leaderboard') GROUP BY user_id"
        ).fetchall()
    user_ids = [int(u) for u, _n in careers]
    weights = [float(n) for _u, n in careers]
    store = SqliteStorage(db)
    await store.open()
    replays = Replays()
    app = make_app(store, replays=replays)
    out: dict[str, Any] = {}
    try:
        async with TestClient(TestServer(app)) as client:

            async def page(path: str) -> None:
                response = await client.get(path)
                await response.read()
                assert response.status == 200, (path, response.status)

            def player() -> str:
                return f"/p/{rng.choices(user_ids, weights)[0]}"

            def lang() -> str:
                return rng.choice(["", "?lang=ru", "?lang=cs", "?lang=sk", "?lang=en"])

            for fid in flights:  # the replays a shared link has already warmed
                await page(f"/f/{fid}")
            out["index"] = await _measure(samples, lambda: page("/" + lang()))
            out["index_json"] = await _measure(samples, lambda: page("/index.json"))
            out["server"] = await _measure(samples, lambda: page(f"/s/{rng.choice(public)}{lang()}"))
            out["server_json"] = await _measure(samples, lambda: page(f"/s/{rng.choice(public)}.json"))
            out["flight_warm"] = await _measure(samples, lambda: page(f"/f/{rng.choice(flights)}{lang()}"))
            out["flight_json"] = await _measure(samples, lambda: page(f"/f/{rng.choice(flights)}.json"))
            out["player"] = await _measure(samples, lambda: page(player() + lang()))
            out["player_json"] = await _measure(samples, lambda: page(player() + ".json"))

            async def cold() -> None:
                app[REPLAYS].replays = type(replays.replays)(64)  # forget every replay
                await page(f"/f/{rng.choice(flights)}")

            out["flight_cold"] = await _measure(max(20, samples // 10), cold)
            fid = flights[0]
            start = time.perf_counter()
            await page(f"/f/{fid}/turn/5.png")
            out["picture_first"] = {"ms": round((time.perf_counter() - start) * 1000, 2)}
            out["picture_cached"] = await _measure(samples, lambda: page(f"/f/{fid}/turn/5.png"))
    finally:
        await store.close()
    return out


def main() -> None:
    args = arguments(__doc__)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "web.sqlite3"
        flights = filled(db, args, lambda conn: add_snapshots(conn, WITH_SNAPSHOT, args.seed))
        figures = asyncio.run(measure(db, args.players, args.samples, args.seed, flights))
    for name, fig in figures.items():
        print(f"{name:>15}: " + ", ".join(f"{k} {v}" for k, v in fig.items()))
    pages = {k: v for k, v in figures.items() if k != "flight_cold" and "p99_ms" in v}
    worst = max(fig["p99_ms"] for fig in pages.values())
    print(json.dumps({"flights": args.flights, "players": args.players, "worst_page_p99_ms": worst, **figures}))


if __name__ == "__main__":
    main()
