"""The storage methods of the platform's features (careers, campaigns, school, schedules), once per
backend (tests/bot/storage_backends.py): SQLite always, PostgreSQL when a server answers.  ELITE's
own tables are tested with the game (tests/elite/test_storage.py)."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from bot.games.elite.storage import EliteStore
from bot.games.space_alert.campaign.storage import CampaignRecord, Campaigns
from bot.games.space_alert.logbook import Logbook, LogbookCrew, LogbookEntry
from bot.games.space_alert.stats.storage import Careers
from bot.games.space_alert.storage import CustomMissions, School, SchoolRecord, save_school_record
from bot.platform.storage import ChannelBusy, SqliteStorage, StaleWrite, Storage
from bot.platform.storage.platform import ScheduleRecord
from tests.bot.storage_backends import open_storage, storage

__all__ = ["open_storage", "storage"]  # fixtures used by the tests below

ANN, BOB = 10_000_000_000_000_001, 10_000_000_000_000_002  # 64-bit Discord ids


def flight(
    guild: int,
    *,
    total: int = 30,
    outcome: str = "survived",
    mission: str = "S2-1",
    threats: list[dict[str, Any]] | None = None,
    destroyed_by: str | None = None,
    campaign_id: str | None = None,
    crew: list[LogbookCrew] | None = None,
) -> LogbookEntry:
    return LogbookEntry(
        guild_id=guild,
        channel_id=5,
        flown_at="2026-11-23T08:00:00+00:00",
        mission_id=mission,
        normal_difficulty="white",
        serious_difficulty="yellow",
        language="en",
        outcome=outcome,
        crew=crew if crew is not None else [LogbookCrew("Ann", ANN, ["captain"]), LogbookCrew("Bob", BOB, [])],
        result={"threats": threats or []},
        total=total,
        destroyed_by=destroyed_by,
        campaign_id=campaign_id,
    )


THREATS = [
    {"id": "E1-01", "fate": "destroyed"},
    {"id": "SE1-01", "fate": "destroyed"},
    {"id": "I1-01", "fate": "survived"},
    {"id": "SI1-01", "fate": "destroyed"},
    {"id": "NOT-A-CARD", "fate": "destroyed"},  # unknown to the catalog: no row
]

ELITE_ROW: dict[str, Any] = {
    "game": "elite",
    "map": "a",
    "mission": "exploration",
    "difficulty": "normal",
    "players": 3,
    "heroes": ["akosha", "gerid", "marcus"],
    "rounds": 6,
    "result": "victory",
    "cause": None,
    "bosses_killed": 2,
    "seed": 1234,
}


# -- careers ---------------------------------------------------------------------------------------
async def test_logbook_entry_writes_threat_rows_and_career_totals(storage: Storage) -> None:
    await Logbook(storage).add(flight(1, threats=THREATS, total=40))
    await Logbook(storage).add(flight(1, outcome="destroyed", total=0, destroyed_by="SE1-01"))
    rows = await Careers(storage).career_rows(ANN)
    assert rows.by_difficulty == [("white", "yellow", 2, 1, 40)]
    assert dict(rows.decks) == {"common_external": 1, "serious_external": 1, "serious_internal": 1}
    assert rows.killer == ("SE1-01", 1)
    assert sorted(rows.roles) == [('["captain"]', 2)]
    assert [h[1:] for h in rows.history] == [(0, "destroyed"), (40, "survived")]  # newest first
    assert (await Careers(storage).career_rows(BOB)).decks == rows.decks  # counted for every member aboard


async def test_career_scope_shows_own_and_public_servers_only(storage: Storage) -> None:
    await Logbook(storage).add(flight(1, total=10))
    await Logbook(storage).add(flight(2, total=20))
    await Logbook(storage).add(flight(3, total=30))
    await storage.set_setting(3, "leaderboard", "public")
    everywhere = await Careers(storage).career_rows(ANN)
    from_guild_1 = await Careers(storage).career_rows(ANN, 1)
    assert everywhere.by_difficulty[0][2] == 3
    assert from_guild_1.by_difficulty == [("white", "yellow", 2, 2, 40)]  # guild 1 and public guild 3
    assert sorted(h[1] for h in from_guild_1.history) == [10, 30]


async def test_leaderboard_pages_and_campaign_lines_apart(storage: Storage) -> None:
    for total in (5, 50, 25, 15):
        await Logbook(storage).add(flight(1, total=total))
    await Logbook(storage).add(flight(1, total=99, campaign_id="c1"))  # a campaign line: not a single flight
    first = await Careers(storage).leaderboard_page("S2-1", "white", "yellow", guild_id=1, size=3)
    assert (first.count, first.pages) == (4, 2)
    assert [r.total for r in first.rows] == [50, 25, 15] and first.rows[0].crew == ("Ann", "Bob")
    second = await Careers(storage).leaderboard_page("S2-1", "white", "yellow", guild_id=1, page=1, size=3)
    assert [(r.rank, r.total) for r in second.rows] == [(4, 5)]
    assert (await Careers(storage).leaderboard_page("S2-1", "white", "yellow", guild_id=None)).count == 0  # not public
    await storage.set_setting(1, "leaderboard", "public")
    assert (await Careers(storage).leaderboard_page("S2-1", "white", "yellow", guild_id=None)).count == 4
    lines = await Careers(storage).player_logbook_lines(ANN)
    assert len(lines) == 5 and lines[0][5] == "c1"
    assert [line[4] for line in await Careers(storage).guild_logbook_lines(1, size=2)] == [99, 15]


# -- campaigns ---------------------------------------------------------------------------------------
async def test_campaign_session_stored_one_running_per_channel(open_storage: Any) -> None:
    storage = await open_storage()
    doc = {"session": {"phase": "vote"}, "members": {str(ANN): "Ann"}, "host": ANN}
    await Campaigns(storage).save(CampaignRecord("c1", 1, 5, doc, crew=[(ANN, "Ann"), (None, "android")]))
    with pytest.raises(ChannelBusy):
        await Campaigns(storage).save(CampaignRecord("c2", 1, 5, doc))
    again = await open_storage()  # a restart
    running = await Campaigns(again).running(5)
    assert running is not None and running.id == "c1" and running.state == doc
    assert running.crew == [(ANN, "Ann"), (None, "android")]
    assert [c.id for c in await Campaigns(again).all_running()] == ["c1"]

    running.status, running.total, running.missions = "finished", 42, 3
    await Campaigns(again).save(running)
    assert await Campaigns(again).running(5) is None
    stored = await Campaigns(again).campaign("c1")
    assert stored is not None and stored.finished_at and stored.total == 42
    board = await Careers(again).campaign_leaderboard_page(guild_id=1)
    assert [(r.total, r.crew) for r in board.rows] == [(42, ("Ann",))]
    await Campaigns(again).save(CampaignRecord("c2", 1, 5, doc))  # the channel is free again


async def test_school_progress_changes_are_a_versioned_unit_of_work(open_storage: Any) -> None:
    """Two school flights of one player ending at once (two channels): both are counted."""
    storage = await open_storage()

    def flown(record: Any) -> bool:
        record.progress["flights"] = record.progress.get("flights", 0) + 1
        return True

    await asyncio.gather(*(School(storage).change(ANN, flown) for _ in range(4)))
    assert await School(storage).progress(ANN) == {"flights": 4}


async def test_campaign_changes_are_a_versioned_unit_of_work(open_storage: Any) -> None:
    """Five members' votes at once: each is applied to the stored document as it is then, so all
    five are stored; a save of an outdated copy is refused (StaleWrite), not written over."""
    storage = await open_storage()
    doc: dict[str, Any] = {"session": {"phase": "vote"}, "votes": {}, "members": {}, "host": ANN}
    await Campaigns(storage).save(CampaignRecord("c1", 1, 5, doc))

    def vote(member: int) -> Any:
        def change(record: CampaignRecord) -> bool:
            record.state["votes"][str(member)] = "white"
            return True

        return change

    await asyncio.gather(*(Campaigns(storage).change(5, vote(m)) for m in range(5)))
    stored = await Campaigns(storage).running(5)
    assert stored is not None and sorted(stored.state["votes"]) == ["0", "1", "2", "3", "4"]
    stale = await Campaigns(storage).running(5)
    assert stale is not None
    await Campaigns(storage).change(5, vote(9))
    with pytest.raises(StaleWrite):
        await Campaigns(storage).save(stale)
    assert await Campaigns(storage).change(6, vote(1)) is None  # no campaign there


async def test_guild_settings_in_one_read(storage: Storage) -> None:
    assert await storage.guild_settings(1) == {}
    await storage.set_setting(1, "language", "sk")
    await storage.set_setting(1, "channels", [ANN])
    await storage.set_setting(2, "voice", False)
    assert await storage.guild_settings(1) == {"language": "sk", "channels": [ANN]}
    assert await storage.guild_settings(2) == {"voice": False}


# -- flight school and schedules --------------------------------------------------------------------
async def test_school_progress_per_player(storage: Storage) -> None:
    assert await School(storage).progress(ANN) is None
    await School(storage).replace(ANN, {"done": ["movement"]})
    await School(storage).replace(ANN, {"done": ["movement", "energy"]})
    assert await School(storage).progress(ANN) == {"done": ["movement", "energy"]}
    assert await School(storage).progress(BOB) is None


async def test_schedules_survive_a_restart(open_storage: Any) -> None:
    storage = await open_storage()
    late = ScheduleRecord(1, 5, ANN, 2_000_000_000.5, "S2-3", options={"normal": "yellow"})
    soon = ScheduleRecord(2, 6, BOB, 1_900_000_000.0, "S1-1", campaign=True)
    assert await storage.add_schedule(late) == late.id
    await storage.add_schedule(soon)
    again = await open_storage()
    pending = await again.pending_schedules()
    assert [(s.mission, s.campaign, s.options) for s in pending] == [
        ("S1-1", True, {}),
        ("S2-3", False, {"normal": "yellow"}),
    ]
    assert pending[1].at == 2_000_000_000.5 and pending[1].host_id == ANN
    assert await again.mark_schedule(soon.id or 0, reminded=True, done=False)
    assert [s.reminded for s in await again.pending_schedules(2)] == [True]
    await again.mark_schedule(soon.id or 0, reminded=True, done=True)
    assert [s.id for s in await again.pending_schedules()] == [late.id]
    assert not await again.mark_schedule(999_999, reminded=True, done=True)
    # a claim: of two processes acting on the same row, one wins
    assert await again.mark_schedule(late.id or 0, reminded=True, done=False, was_reminded=False)
    assert not await again.mark_schedule(late.id or 0, reminded=True, done=False, was_reminded=False)


async def test_a_failed_unit_of_work_leaves_no_feature_rows(storage: Storage) -> None:
    with pytest.raises(RuntimeError):
        async with storage.transaction() as tx:
            await EliteStore(storage).record(1, ELITE_ROW)  # a game's repository joins the unit of work
            await save_school_record(tx, SchoolRecord(ANN, {"done": []}))
            raise RuntimeError("boom")
    assert await EliteStore(storage).rows(1) == [] and await School(storage).progress(ANN) is None


async def test_stopgap_campaigns_move_to_their_table(tmp_path: Path) -> None:
    """A database from before migration 0006 with a campaign in the settings stopgap."""
    source = Path(__file__).resolve().parents[2] / "migrations" / "sqlite"
    older = tmp_path / "older"
    older.mkdir()
    for path in sorted(source.glob("000[1-5]_*.sql")):
        shutil.copy(path, older / path.name)
    db = tmp_path / "sa.sqlite3"
    before = SqliteStorage(db, migrations_dir=older)
    await before.open()
    doc = {"session": {"phase": "vote", "campaign": {"lines": [{}]}}, "members": {str(ANN): "Ann"}, "host": ANN}
    await before.set_setting(1, "campaign:55", doc)
    await before.set_setting(1, "campaign:56", {**doc, "session": {"phase": "finished"}})
    await before.set_setting(1, "campaigns", [55])
    await before.set_setting(1, "language", "cs")
    await before.close()

    after = SqliteStorage(db)
    await after.open()
    try:
        moved = await Campaigns(after).running(55)
        assert moved is not None and moved.state == doc and moved.guild_id == 1 and moved.missions == 1
        assert await Campaigns(after).running(56) is None  # a finished one is not revived
        assert await after.guild_settings(1) == {"language": "cs"}
    finally:
        await after.close()


async def test_games_stored_before_migration_0007_carry_on(tmp_path: Path) -> None:
    """An ELITE game and a campaign stored before 0007: the game gets an id, its host and a version,
    the campaign a version; both go on through their units of work, and the channel stays taken."""
    source = Path(__file__).resolve().parents[2] / "migrations" / "sqlite"
    older = tmp_path / "older"
    older.mkdir()
    for path in sorted(source.glob("000[1-6]_*.sql")):
        shutil.copy(path, older / path.name)
    db = tmp_path / "sa.sqlite3"
    before = SqliteStorage(db, migrations_dir=older)
    await before.open()
    async with before.transaction() as tx:
        await tx.run(
            "INSERT INTO elite_games (channel_id, guild_id, state, pack, updated_at) VALUES (?, ?, ?, ?, ?)",
            (9, 1, '{"host_id": 77, "actions": []}', None, "2026-01-01 00:00:00"),
        )
    doc = {"session": {"phase": "vote"}, "members": {str(ANN): "Ann"}, "host": ANN}
    async with before.transaction() as tx:
        await tx.run(
            "INSERT INTO campaigns (id, guild_id, channel_id, status, state, missions, started_at)"
            " VALUES ('c1', 1, 5, 'running', ?, 0, '2026-01-01 00:00:00')",
            (json.dumps(doc),),
        )
    await before.close()

    after = SqliteStorage(db)
    await after.open()
    try:
        elite = EliteStore(after)
        game = await elite.game(9)
        assert game is not None and (game.id, game.host_id, game.version) == ("legacy-9", 77, 1)
        with pytest.raises(ChannelBusy):
            await elite.start(1, 9, {"actions": []}, None)

        def step(record: Any) -> bool:
            record.state["actions"].append([0.0, "next"])
            return True

        changed = await elite.change(9, step)
        assert changed is not None and changed.version == 2
        campaign = await Campaigns(after).change(5, lambda r: r.state.update(voted=True) is None)
        assert campaign is not None and campaign.version == 2 and campaign.state["voted"]
    finally:
        await after.close()


async def test_a_server_that_never_chose_a_language_speaks_the_bots_default(storage: Storage) -> None:
    from bot.platform.hosting.server_settings import load_settings

    assert (await load_settings(storage, 1, "ru")).language == "ru"  # DEFAULT_LANGUAGE=ru
    assert (await load_settings(storage, 1)).language == "en"
    await storage.set_setting(1, "language", "cs")
    assert (await load_settings(storage, 1, "ru")).language == "cs"  # the server's own choice wins


async def test_two_custom_missions_uploaded_at_once_cannot_both_pass_the_limit(storage: Storage) -> None:
    """The server's count limit is checked in the unit of work that stores the mission: two uploads
    at the same moment under a limit of two missions (one stored already) store one, refuse one."""
    custom = CustomMissions(storage)
    assert await custom.add(1, "first", "First", {"id": "first"}, ANN) is None

    def refuse(existing: int) -> str | None:
        return "full" if existing >= 2 else None

    answers = await asyncio.gather(*(custom.add(1, mid, mid, {"id": mid}, BOB, refuse) for mid in ("second", "third")))
    assert sorted(a or "stored" for a in answers) == ["full", "stored"]
    assert len(await custom.missions(1)) == 2
