"""The web logbook's store additions (migrations sqlite/0009, postgres/0008): each server's totals
kept by a trigger (the counts and the newest row the pages and their cache keys read), filled from
the logbook for a database logged before the migration; on SQLite and PostgreSQL."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from bot.games.space_alert.campaign.storage import CampaignRecord, Campaigns
from bot.games.space_alert.logbook import Logbook, LogbookCrew
from bot.platform.storage import SqliteStorage
from tests.web import seed

RESULT = {"outcome": "survived", "threats": [], "score": {"total": 5}}


async def log(storage: Any, fid: str, guild: int, flown_at: str) -> None:
    await Logbook(storage).add(
        seed.entry(fid, guild, "S1-1", ("white", "white"), RESULT, flown_at=flown_at, crew=[LogbookCrew(name="Ann")])
    )


async def test_server_totals_follow_every_logged_flight(storage: Any) -> None:
    for guild in (1, 2):
        await storage.set_setting(guild, "leaderboard", "public")
    await log(storage, "f0000001", 1, "2026-11-02T20:00:00+00:00")
    await log(storage, "f0000002", 1, "2026-11-01T20:00:00+00:00")  # logged later, flown earlier
    await log(storage, "f0000003", 2, "2026-11-03T20:00:00+00:00")
    servers = {s.guild_id: s for s in await storage.public_servers()}
    assert (servers[1].games, servers[1].last_flown) == (2, "2026-11-02T20:00:00+00:00")
    assert (servers[2].games, servers[2].last_flown) == (1, "2026-11-03T20:00:00+00:00")
    before = {m.guild_id: m for m in await storage.public_marks()}
    await log(storage, "f0000004", 1, "2026-11-04T20:00:00+00:00")
    after = {m.guild_id: m for m in await storage.public_marks()}
    assert after[1].latest_id > before[1].latest_id and after[2] == before[2]  # only its server's changes


async def test_a_finished_elite_game_counts_and_changes_the_pages_marks(storage: Any) -> None:
    """ELITE's games are counted with the flights (as when the logbook kept them, migration
    sqlite/0011) without a logbook row: the count is part of every page's mark, so no cached page
    of the server, its flights or its players keeps the old count."""
    from bot.games.elite.storage import EliteStore
    from bot.games.space_alert.records.public import PublicLogbook
    from tests.hosting.test_feature_storage import ELITE_ROW

    await storage.set_setting(1, "leaderboard", "public")
    await log(storage, "f0000001", 1, "2026-11-02T20:00:00+00:00")
    public = PublicLogbook(storage)
    before = ((await storage.public_marks())[0], await public.flight_mark("f0000001"))
    await EliteStore(storage).record(1, ELITE_ROW)
    (server,) = await storage.public_servers()
    assert server.games == 2 and server.last_flown > "2026-11-02T20:00:00+00:00"
    after = ((await storage.public_marks())[0], await public.flight_mark("f0000001"))
    assert after[0].latest_id == before[0].latest_id and after[0] != before[0] and after[1] != before[1]
    assert [tuple(r) for r in await storage.fetch("SELECT COUNT(*) FROM logbook WHERE guild_id = 1")] == [(1,)]


async def test_a_servers_mark_changes_with_its_settings_and_ended_campaigns(storage: Any) -> None:
    await storage.set_setting(1, "leaderboard", "public")
    (first,) = await storage.public_marks([1, 99])  # unknown servers are simply absent
    await storage.set_setting(1, "language", "cs")
    (renamed,) = await storage.public_marks([1])
    assert renamed != first and renamed.language == "cs"
    await Campaigns(storage).save(
        CampaignRecord(id="c1", guild_id=1, channel_id=5, state={}, status="finished", missions=3, total=9)
    )
    (ended,) = await storage.public_marks([1])
    assert (ended.ended_campaigns, ended.campaign_versions) != (renamed.ended_campaigns, renamed.campaign_versions)
    await storage.set_setting(1, "leaderboard", "private")
    assert await storage.public_marks([1]) == [] and await storage.public_marks() == []


async def test_totals_of_flights_logged_before_the_migration(tmp_path: Path) -> None:
    source = Path(__file__).resolve().parents[2] / "migrations" / "sqlite"
    older = tmp_path / "older"
    older.mkdir()
    for path in sorted(source.glob("[0-9][0-9][0-9][0-9]_*.sql")):
        if "web_speed" in path.name:  # every migration before this one (its number may change)
            break
        shutil.copy(path, older / path.name)
    db = tmp_path / "sa.sqlite3"
    before = SqliteStorage(db, migrations_dir=older)
    await before.open()
    await before.set_setting(1, "leaderboard", "public")
    await log(before, "f0000001", 1, "2026-11-02T20:00:00+00:00")
    await log(before, "f0000002", 1, "2026-11-05T20:00:00+00:00")
    await before.close()

    after = SqliteStorage(db)
    await after.open()
    try:
        (server,) = await after.public_servers()
        assert (server.games, server.last_flown) == (2, "2026-11-05T20:00:00+00:00")
        (mark,) = await after.public_marks()
        assert mark.latest_id == 2
        await log(after, "f0000003", 1, "2026-11-06T20:00:00+00:00")
        assert (await after.public_servers())[0].games == 3
    finally:
        await after.close()
