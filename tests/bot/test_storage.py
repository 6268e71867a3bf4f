"""Migrations (empty database, re-applied, a failing one) and the storage interface.

The SQLite-specific tests take a path; the interface tests take the `storage` fixture and run
once per backend (tests/bot/storage_backends.py).
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path
from typing import Any

import pytest

from bot.games.space_alert.logbook import Logbook, LogbookCrew, LogbookEntry
from bot.games.space_alert.mission.storage import CrewMember, FlightRecord, Flights
from bot.games.space_alert.storage import CustomMissions
from bot.platform.storage import (
    ChannelBusy,
    MigrationError,
    SqliteStorage,
    StaleWrite,
    Storage,
)
from bot.platform.storage.migrate import load_migrations
from tests.bot.storage_backends import open_storage, storage

__all__ = ["open_storage", "storage"]  # fixtures used by the tests below


def record(fid: str = "0000abcd", channel: int = 5) -> FlightRecord:
    return FlightRecord(
        id=fid,
        guild_id=1,
        channel_id=channel,
        host_id=7,
        status="lobby",
        language="en",
        voice=False,
        time_scale=1.0,
        options={"mission": "S2-1", "normal": "white", "serious": "white", "seed": 3},
        crew=[CrewMember(7, "Ann", ["captain"])],
    )


async def test_migrations_from_empty_database_and_reapplied(tmp_path: Path) -> None:
    db = tmp_path / "sa.sqlite3"
    storage = SqliteStorage(db)
    await storage.open()
    assert await storage.schema_versions() == [m.version for m in load_migrations()]
    async with storage.conn.execute("PRAGMA journal_mode") as cur:
        assert (await cur.fetchone())[0] == "wal"
    await Flights(storage).create_flight(record())
    await storage.close()

    again = SqliteStorage(db)
    await again.open()  # applying twice is a no-op and keeps the data
    assert await again.schema_versions() == [m.version for m in load_migrations()]
    assert (await Flights(again).load_flight("0000abcd")) is not None
    from bot.platform.storage.migrate import apply_migrations

    assert await apply_migrations(again.conn) == []
    await again.close()


async def test_failed_migration_stops_with_a_clear_message(tmp_path: Path) -> None:
    migrations = tmp_path / "migrations"
    migrations.mkdir()
    existing = load_migrations()
    for m in existing:
        (migrations / m.name).write_text(m.sql)
    broken = f"{len(existing) + 1:04d}_broken.sql"
    (migrations / broken).write_text("CREATE TABLE ok_part (x INTEGER);\nCREATE TABLE flights (x);\n")
    storage = SqliteStorage(tmp_path / "sa.sqlite3", migrations_dir=migrations)
    with pytest.raises(MigrationError, match=rf"{broken[:4]}_broken\.sql failed"):
        await storage.open()
    assert storage._conn is None and storage._reader is None  # closed on the way out: no thread left
    # the failed file left nothing behind: the earlier versions only, no half-created table
    (migrations / broken).unlink()
    storage = SqliteStorage(tmp_path / "sa.sqlite3", migrations_dir=migrations)
    await storage.open()
    assert await storage.schema_versions() == [m.version for m in existing]
    async with storage.conn.execute("SELECT name FROM sqlite_master WHERE name = 'ok_part'") as cur:
        assert await cur.fetchone() is None
    await storage.close()
    shutil.rmtree(migrations)


async def test_one_active_flight_per_channel_and_version_check(storage: Storage) -> None:
    await Flights(storage).create_flight(record())
    with pytest.raises(ChannelBusy):
        await Flights(storage).create_flight(record("1111abcd"))
    first = await Flights(storage).load_flight("0000abcd")
    second = await Flights(storage).load_flight("0000abcd")
    assert first and second
    first.status = "flying"
    await Flights(storage).save_flight(first, {"kind": "start", "actor_id": 7})
    with pytest.raises(StaleWrite):
        await Flights(storage).save_flight(second)
    events = await Flights(storage).flight_events("0000abcd")
    assert [e["kind"] for e in events] == ["start"]
    assert [r.id for r in await Flights(storage).active_flights()] == ["0000abcd"]


async def test_logbook_filters_and_leaderboard(storage: Storage) -> None:
    def entry(total: int, outcome: str, mission: str = "S2-1", user: int = 7) -> LogbookEntry:
        return LogbookEntry(
            guild_id=1,
            channel_id=5,
            flown_at=f"2026-01-0{total % 9 + 1}T00:00:00",
            mission_id=mission,
            normal_difficulty="white",
            serious_difficulty="yellow",
            language="en",
            outcome=outcome,
            crew=[LogbookCrew("Ann", user, ["captain"]), LogbookCrew("Android 1", None, ["android"])],
            result={"outcome": outcome},
            total=total,
            destroyed_by="E1-01" if outcome == "destroyed" else None,
            penalties={"damage": -2},
            threat_points_destroyed=4,
        )

    await Logbook(storage).add(entry(10, "survived"))
    await Logbook(storage).add(entry(25, "survived"))
    await Logbook(storage).add(entry(3, "destroyed"))
    await Logbook(storage).add(entry(8, "survived", "S1-1", user=8))
    everything = await Logbook(storage).entries(1)
    assert len(everything) == 4  # lost flights are kept
    assert {e.destroyed_by for e in everything} == {None, "E1-01"}
    assert len(await Logbook(storage).entries(1, user_id=8)) == 1
    assert len(await Logbook(storage).entries(1, mission_id="S2-1")) == 3
    assert len(await Logbook(storage).entries(1, difficulty="yellow")) == 4
    assert await Logbook(storage).entries(2) == []
    board = await Logbook(storage).leaderboard(1)
    assert [(r.mission_id, r.total) for r in board] == [("S1-1", 8), ("S2-1", 25)]
    assert board[1].crew == ["Ann"]


async def test_settings_and_custom_missions(storage: Storage) -> None:
    assert await storage.get_setting(1, "language") is None
    await storage.set_setting(1, "language", "ru")
    await storage.set_setting(1, "language", "cs")
    assert await storage.get_setting(1, "language") == "cs"
    custom = CustomMissions(storage)  # Space Alert's table, over the SQL core
    assert await custom.add(1, "club-1", "Club night", {"id": "club-1"}, 7) is None
    assert (await custom.missions(1))["club-1"]["name"] == "Club night"
    assert await custom.add(1, "club-2", "Two", {"id": "club-2"}, 7, lambda n: f"full at {n}") == "full at 1"
    assert await custom.add(1, "club-1", "Again", {"id": "club-1"}, 7, lambda n: None if n == 0 else "no") is None
    assert list(await custom.missions(1)) == ["club-1"] and (await custom.missions(1))["club-1"]["name"] == "Again"
    assert await custom.remove(1, "club-1") is True
    assert await custom.remove(1, "club-1") is False
    assert await custom.missions(1) == {}


async def test_two_processes_opening_a_new_database_together_migrate_it_once(open_storage: Any) -> None:
    first, second = await asyncio.gather(open_storage(), open_storage())
    expected = [m.version for m in load_migrations(backend=type(first).__module__.rsplit(".", 1)[-1])]
    assert await first.schema_versions() == expected and await second.schema_versions() == expected
    await Flights(first).create_flight(record())
    assert (await Flights(second).load_flight("0000abcd")) is not None
