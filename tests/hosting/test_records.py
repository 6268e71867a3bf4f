"""Careers, leaderboards and the logbook over a generated database (bench/records.py's filler,
small), checked against figures computed independently from the raw rows."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import sqlite3
from collections import Counter, defaultdict
from collections.abc import AsyncIterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from PIL import Image

from bot.games.space_alert.stats import queries
from bot.games.space_alert.stats.career import LogbookLine, deck_of, favourite_role, group_campaigns, threat_rows
from bot.games.space_alert.stats.chart import CHART_SIZE, render_score_chart, score_chart
from bot.platform.storage.sqlite import SqliteStorage

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_records", ROOT / "bench" / "records.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


records = _bench()


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("records") / "records.sqlite3"
    conn = sqlite3.connect(path)
    records.create_schema(conn)
    records.fill(conn, 1500, 120, guilds=12, seed=5)
    conn.close()
    return path


@contextlib.asynccontextmanager
async def opened(db: Path) -> AsyncIterator[SqliteStorage]:
    """The generated database as the bot's storage opens it (the queries go through it)."""
    storage = SqliteStorage(db)
    await storage.open()
    try:
        yield storage
    finally:
        await storage.close()


def raw(db: Path, sql: str, params: tuple[Any, ...] = ()) -> list[Any]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, params).fetchall()


def public_guilds(db: Path) -> set[int]:
    return {
        g
        for (g,) in raw(
            db, "SELECT guild_id FROM guild_settings WHERE key = 'leaderboard' AND value = ?", (queries.PUBLIC_VALUE,)
        )
    }


def flights_of(db: Path, user_id: int, visible: set[int] | None) -> list[tuple[Any, ...]]:
    rows = raw(
        db,
        "SELECT l.id, l.guild_id, l.normal_difficulty, l.serious_difficulty, l.outcome, l.total, l.destroyed_by,"
        " l.result, c.roles FROM logbook_crew c JOIN logbook l ON l.id = c.logbook_id WHERE c.user_id = ?",
        (user_id,),
    )
    return [r for r in rows if visible is None or r[1] in visible]


@pytest.mark.parametrize("scoped", [False, True])
async def test_career_matches_a_count_from_the_raw_rows(db: Path, scoped: bool) -> None:
    user = 10_000  # the busiest player of the long tail
    guild = raw(db, "SELECT guild_id FROM logbook GROUP BY guild_id ORDER BY guild_id LIMIT 1")[0][0]
    visible = ({guild} | public_guilds(db)) if scoped else None
    rows = flights_of(db, user, visible)
    assert len(rows) > 20
    async with opened(db) as conn:
        got = await queries.career(conn, user, queries.Scope(guild if scoped else None))
    assert got.flights == len(rows)
    assert got.survived == sum(1 for r in rows if r[4] == "survived")
    per_pair: dict[tuple[str, str], list[int]] = defaultdict(list)
    for r in rows:
        if r[4] == "survived":
            per_pair[(r[2], r[3])].append(r[5])
    for fig in got.by_difficulty:
        totals = per_pair.get((fig.normal, fig.serious), [])
        assert fig.survived == len(totals)
        assert fig.average_score == (pytest.approx(sum(totals) / len(totals)) if totals else None)
    decks: Counter[str] = Counter()
    for r in rows:
        for threat in json.loads(r[7])["threats"]:
            if threat["fate"] == "destroyed":
                decks[str(deck_of(threat["id"]))] += 1
    assert dict(got.destroyed_by_deck) == dict(decks)
    killers = Counter(r[6] for r in rows if r[4] == "destroyed")
    best = max(killers.values())
    assert (got.killer, got.killer_count) == (min(k for k, n in killers.items() if n == best), best)
    roles = Counter(r[8] for r in rows)
    assert got.favourite_role == favourite_role(roles.items())
    assert len(got.history) == min(len(rows), queries.HISTORY_POINTS)
    newest = max(rows, key=lambda r: r[0])
    assert got.history[-1][1:] == (newest[5], newest[4])  # oldest first, the newest flight last


async def test_triggers_count_threats_whichever_row_comes_first(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite3"
    conn = sqlite3.connect(path)
    records.create_schema(conn)
    result = {"threats": [{"id": "E1-07", "fate": "destroyed"}, {"id": "I1-01", "fate": "destroyed"}]}
    for fid, threats_first in ((1, True), (2, False)):
        conn.execute(
            "INSERT INTO logbook (id, guild_id, channel_id, flown_at, mission_id, normal_difficulty,"
            " serious_difficulty, language, outcome, total, result) VALUES (?, 7, 7, ?, 'S2-1', 'white', 'white',"
            " 'en', 'survived', 10, ?)",
            (fid, f"2026-01-0{fid}", json.dumps(result)),
        )
        crew = [(fid, 0, 42, "Ann", '["captain"]'), (fid, 1, None, "android", "[]")]
        insert_crew = "INSERT INTO logbook_crew (logbook_id, position, user_id, name, roles) VALUES (?, ?, ?, ?, ?)"
        insert_threats = (
            "INSERT INTO logbook_threats (logbook_id, position, card_id, deck, fate) VALUES (?, ?, ?, ?, ?)"
        )
        if threats_first:
            conn.executemany(insert_threats, threat_rows(fid, result))
            conn.executemany(insert_crew, crew)
        else:
            conn.executemany(insert_crew, crew)
            conn.executemany(insert_threats, threat_rows(fid, result))
    conn.commit()
    conn.close()
    async with opened(path) as db:
        got = await queries.career(db, 42)
    assert (got.flights, got.survived) == (2, 2)
    assert dict(got.destroyed_by_deck) == {"common_external": 2, "common_internal": 2}
    assert got.favourite_role == "captain"
    assert got.by_difficulty[0].average_score == 10


async def test_leaderboard_pages_cover_every_flight_once_best_first(db: Path) -> None:
    mission, normal, serious = raw(
        db,
        "SELECT mission_id, normal_difficulty, serious_difficulty FROM logbook WHERE outcome = 'survived'"
        " AND campaign_id IS NULL GROUP BY 1, 2, 3 ORDER BY COUNT(*) DESC LIMIT 1",
    )[0]
    expected = raw(
        db,
        "SELECT id, total, guild_id FROM logbook WHERE mission_id = ? AND normal_difficulty = ? AND"
        " serious_difficulty = ? AND outcome = 'survived' AND campaign_id IS NULL",
        (mission, normal, serious),
    )
    public = public_guilds(db)
    async with opened(db) as conn:
        first = await queries.leaderboard(conn, mission, normal, serious, guild_id=None, size=4)
        seen = []
        for page in range(first.pages + 1):  # one page past the end is clamped to the last
            got = await queries.leaderboard(conn, mission, normal, serious, guild_id=None, page=page, size=4)
            if page < first.pages:
                seen += list(got.rows)
        assert got.page == first.pages - 1
    want = sorted(((-t, i) for i, t, g in expected if g in public))
    assert first.count == len(want)
    assert [(-r.total, r.logbook_id) for r in seen] == want
    assert [r.rank for r in seen] == list(range(1, len(want) + 1))
    assert all(r.crew for r in seen)


async def test_guild_leaderboard_and_campaign_board(db: Path) -> None:
    guild = raw(db, "SELECT guild_id FROM logbook GROUP BY guild_id ORDER BY COUNT(*) DESC LIMIT 1")[0][0]
    mission, normal, serious = raw(
        db,
        "SELECT mission_id, normal_difficulty, serious_difficulty FROM logbook WHERE guild_id = ? AND"
        " outcome = 'survived' AND campaign_id IS NULL LIMIT 1",
        (guild,),
    )[0]
    async with opened(db) as conn:
        board = await queries.leaderboard(conn, mission, normal, serious, guild_id=guild, size=100)
        campaigns = await queries.campaign_leaderboard(conn, guild_id=None, size=5)
    assert board.rows and all(r.guild_id == guild for r in board.rows)
    assert [r.total for r in board.rows] == sorted((r.total for r in board.rows), reverse=True)
    assert (
        campaigns.count
        == raw(
            db,
            "SELECT COUNT(*) FROM campaigns WHERE status = 'finished' AND guild_id IN"
            " (SELECT guild_id FROM guild_settings WHERE key = 'leaderboard')",
        )[0][0]
    )
    assert [r.total for r in campaigns.rows] == sorted((r.total for r in campaigns.rows), reverse=True)


async def test_logbooks_newest_first_and_campaigns_bracketed(db: Path) -> None:
    async with opened(db) as conn:
        mine = await queries.player_logbook(conn, 10_000, size=30)
        guild_id = raw(db, "SELECT guild_id FROM logbook WHERE id = ?", (mine[0].id,))[0][0]
        guild = await queries.guild_logbook(conn, guild_id, size=5)
    assert [line.id for line in mine] == sorted((line.id for line in mine), reverse=True)
    assert guild and all(isinstance(line, LogbookLine) for line in guild)
    assert mine[0].id in {line.id for line in guild} or len(guild) == 5
    entries = group_campaigns(mine)
    assert sum(len(e) for e in entries) == len(mine)
    for entry in entries:
        assert len({line.campaign_id for line in entry}) == 1
        assert len(entry) == 1 or entry[0].campaign_id is not None


def test_chart_is_a_png_of_the_expected_size() -> None:
    history = [
        (f"2026-01-{d:02d}", total, "survived" if total else "destroyed")
        for d, total in enumerate([5, 0, 12, -3, 20], 1)
    ]
    for data in (history, [], history[:1]):
        png = render_score_chart(data)
        assert png.startswith(b"\x89PNG\r\n\x1a\n")
        image = Image.open(io.BytesIO(png))
        assert image.size == CHART_SIZE
    drawn = Image.open(io.BytesIO(render_score_chart(history))).convert("RGB")
    blank = Image.open(io.BytesIO(render_score_chart([]))).convert("RGB")
    assert drawn.tobytes() != blank.tobytes()  # the points are really drawn


async def test_chart_renders_off_the_event_loop() -> None:
    history = [("2026-01-01", 4, "survived"), ("2026-01-02", 9, "survived")]
    assert await score_chart(history, (320, 200)) == render_score_chart(history, (320, 200))
