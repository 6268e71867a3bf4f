"""Records at scale: fills a SQLite database with 100,000 logged flights and 20,000 players and
prints the p50/p99 latency of the /stats, /leaderboard and /logbook queries.

Target: p99 under 50 ms each.  Schema: every migrations/sqlite file (the careers
indexes are in 0005); the queries run through the storage interface (SqliteStorage).  Players are drawn with a
long-tailed popularity (a few regulars fly hundreds of flights, most a handful), servers are 30 %
public, one flight in ten is a campaign line.  `fill` is also used by tests/hosting with small
numbers.  Ends with one JSON line of the figures.

    python bench/records.py [--flights 100000] [--players 20000] [--samples 300] [--db path]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot.games.space_alert.stats import queries  # noqa: E402
from bot.games.space_alert.stats.career import threat_rows  # noqa: E402
from bot.games.space_alert.stats.chart import render_score_chart  # noqa: E402
from bot.platform.storage.sqlite import SqliteStorage  # noqa: E402

MISSIONS = [f"S1-{n}" for n in range(1, 9)] + [f"S2-{n}" for n in range(1, 9)] + ["random"]
DIFFICULTIES = ["white", "mixed", "yellow"]
ROLES = [["captain"], ["comms"], ["security"], [], []]
THREATS = ["E1-01", "E1-05", "E1-07", "E1-10", "E2-07", "SE1-02", "I1-01", "I1-05", "I2-02", "SI1-03"]
FATES = ["destroyed", "destroyed", "survived", "not_appeared"]


def schema_files() -> list[Path]:
    """The SQLite migrations, in order."""
    files = sorted((ROOT / "migrations" / "sqlite").glob("[0-9][0-9][0-9][0-9]_*.sql"))
    if not files:
        raise FileNotFoundError("no migrations/sqlite/*.sql")
    return files


def create_schema(conn: sqlite3.Connection) -> None:
    """The storage's schema, marked as migrated so SqliteStorage opens the file as its own."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT (datetime('now')))"
    )
    for path in schema_files():
        conn.executescript(path.read_text(encoding="utf-8"))
        conn.execute("INSERT INTO schema_version (version, name) VALUES (?, ?)", (int(path.name[:4]), path.name))
    conn.commit()


def fill(conn: sqlite3.Connection, flights: int, players: int, *, guilds: int = 400, seed: int = 1) -> None:
    """Generated guilds, players, logged flights with crews and threats, and campaigns."""
    rng = random.Random(seed)
    user_ids = [10_000 + i for i in range(players)]
    weights = [1 / (rank + 1) ** 0.9 for rank in range(players)]  # long tail of popularity
    guild_ids = [500 + g for g in range(guilds)]
    conn.executemany(
        "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)",
        [(g, queries.PUBLIC_SETTING, queries.PUBLIC_VALUE) for g in guild_ids if rng.random() < 0.3],
    )
    logbook, crew, threats = [], [], []
    campaigns, campaign_crew = [], []
    campaign: tuple[str, int, list[int], int] | None = None  # (id, guild, crew, lines left)
    for fid in range(1, flights + 1):
        if campaign is None and rng.random() < 0.033:
            size = rng.randint(2, 5)
            members = list(dict.fromkeys(rng.choices(user_ids, weights, k=size)))
            campaign = (f"c{fid}", rng.choice(guild_ids), members, 3)
            campaigns.append((campaign[0], campaign[1], 1, "finished", "{}", 3, rng.randint(-10, 60), None, "", ""))
            campaign_crew += [(campaign[0], i, uid, f"player{uid}") for i, uid in enumerate(members)]
        if campaign is not None:
            cid, guild, members, left = campaign
            campaign = (cid, guild, members, left - 1) if left > 1 else None
        else:
            cid, guild = None, rng.choice(guild_ids)
            members = list(dict.fromkeys(rng.choices(user_ids, weights, k=rng.randint(2, 5))))
        survived = rng.random() < 0.7
        flown = f"2026-{1 + fid * 11 // flights:02d}-{1 + fid % 28:02d}T{fid % 24:02d}:00:00+00:00"
        result = {
            "threats": [
                {"id": tid, "turn": rng.randint(1, 8), "zone": None, "fate": rng.choice(FATES), "points": 2}
                for tid in rng.sample(THREATS, rng.randint(5, 8))
            ]
        }
        logbook.append(
            (
                fid,
                f"f{fid}",
                guild,
                guild * 10,
                flown,
                rng.choice(MISSIONS),
                rng.randrange(2**31),
                rng.choice(DIFFICULTIES),
                rng.choice(DIFFICULTIES),
                "en",
                "survived" if survived else "destroyed",
                None if survived else rng.choice(THREATS),
                rng.randint(-15, 45) if survived else 0,
                json.dumps(result),
                cid,
            )
        )
        crew += [(fid, i, uid, f"player{uid}", json.dumps(ROLES[i])) for i, uid in enumerate(members)]
        threats += threat_rows(fid, result)
    conn.executemany(
        "INSERT INTO logbook (id, flight_id, guild_id, channel_id, flown_at, mission_id, seed, normal_difficulty,"
        " serious_difficulty, language, outcome, destroyed_by, total, result, campaign_id)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        logbook,
    )
    conn.executemany(
        "INSERT INTO logbook_crew (logbook_id, position, user_id, name, roles) VALUES (?, ?, ?, ?, ?)", crew
    )
    conn.executemany(
        "INSERT INTO logbook_threats (logbook_id, position, card_id, deck, fate) VALUES (?, ?, ?, ?, ?)", threats
    )
    conn.executemany(
        "INSERT INTO campaigns (id, guild_id, channel_id, status, state, missions, total, destroyed_by, started_at,"
        " finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        campaigns,
    )
    conn.executemany(
        "INSERT INTO campaign_crew (campaign_id, position, user_id, name) VALUES (?, ?, ?, ?)", campaign_crew
    )
    conn.commit()
    conn.execute("ANALYZE")
    conn.commit()


async def _measure(samples: int, call: Callable[[], Awaitable[Any]]) -> dict[str, float]:
    times = []
    for _ in range(samples):
        start = time.perf_counter()
        await call()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return {
        "p50_ms": round(statistics.median(times), 2),
        "p99_ms": round(times[min(len(times) - 1, int(len(times) * 0.99))], 2),
        "max_ms": round(times[-1], 2),
    }


async def measure(db: Path, players: int, samples: int, seed: int) -> dict[str, dict[str, float]]:
    rng = random.Random(seed)
    user_ids = [10_000 + i for i in range(players)]
    weights = [1 / (rank + 1) ** 0.9 for rank in range(players)]
    with sqlite3.connect(db) as raw:
        guilds = [r[0] for r in raw.execute("SELECT DISTINCT guild_id FROM logbook").fetchall()]
    conn = SqliteStorage(db)
    await conn.open()
    try:

        def player() -> int:  # busy players ask for their stats more often: sample by popularity
            return rng.choices(user_ids, weights)[0]

        def board(guild_id: int | None, last_page: int) -> Awaitable[Any]:
            mission, normal, serious = rng.choice(MISSIONS), rng.choice(DIFFICULTIES), rng.choice(DIFFICULTIES)
            page = rng.randint(0, last_page)
            return queries.leaderboard(conn, mission, normal, serious, guild_id=guild_id, page=page)

        out = {
            "stats": await _measure(samples, lambda: queries.career(conn, player(), queries.Scope(rng.choice(guilds)))),
            "stats_everywhere": await _measure(samples, lambda: queries.career(conn, player())),
            "leaderboard_guild": await _measure(samples, lambda: board(rng.choice(guilds), 2)),
            "leaderboard_public": await _measure(samples, lambda: board(None, 20)),
            "leaderboard_campaigns": await _measure(
                samples, lambda: queries.campaign_leaderboard(conn, guild_id=None, page=rng.randint(0, 30))
            ),
            "logbook_player": await _measure(
                samples,
                lambda: queries.player_logbook(
                    conn, player(), queries.Scope(rng.choice(guilds)), page=rng.randint(0, 3)
                ),
            ),
            "logbook_guild": await _measure(
                samples, lambda: queries.guild_logbook(conn, rng.choice(guilds), page=rng.randint(0, 5))
            ),
        }
        busiest = await queries.career(conn, user_ids[0])
    finally:
        await conn.close()
    start = time.perf_counter()
    png = render_score_chart(busiest.history)
    out["chart_render"] = {"ms": round((time.perf_counter() - start) * 1000, 2), "bytes": len(png)}
    return out


def arguments(doc: str | None) -> argparse.Namespace:
    """The command line every records-sized bench takes (bench/records.py, bench/web.py)."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--flights", type=int, default=100_000)
    ap.add_argument("--players", type=int, default=20_000)
    ap.add_argument("--samples", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--db", type=Path, default=None, help="keep the database here (default: a temp file)")
    ap.add_argument("--reuse", action="store_true", help="measure the --db filled by an earlier run as it is")
    return ap.parse_args()


def filled(db: Path, args: argparse.Namespace, more: Callable[[sqlite3.Connection], Any] | None = None) -> Any:
    """A fresh database at `db` with the schema and `fill`'s data (then `more`'s); says how long it
    took and returns what `more` returned.  `--reuse` keeps an existing database (`more` still runs
    on it, reading only)."""
    if getattr(args, "reuse", False) and db.exists():
        with sqlite3.connect(db) as conn:
            return more(conn) if more else None
    db.unlink(missing_ok=True)
    start = time.perf_counter()
    conn = sqlite3.connect(db)
    try:
        create_schema(conn)
        fill(conn, args.flights, args.players, seed=args.seed)
        extra = more(conn) if more else None
    finally:
        conn.close()
    print(f"filled {args.flights} flights, {args.players} players in {time.perf_counter() - start:.1f} s")
    return extra


def main() -> None:
    args = arguments(__doc__)
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "records.sqlite3"
        filled(db, args)
        figures = asyncio.run(measure(db, args.players, args.samples, args.seed))
    for name, fig in figures.items():
        print(f"{name:>22}: " + ", ".join(f"{k} {v}" for k, v in fig.items()))
    worst = max(fig["p99_ms"] for fig in figures.values() if "p99_ms" in fig)
    print(json.dumps({"flights": args.flights, "players": args.players, "worst_p99_ms": worst, **figures}))


if __name__ == "__main__":
    main()
