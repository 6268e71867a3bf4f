"""Units of work: every write commits whole or leaves nothing, and never undoes another's write.

Written against the `Storage` interface and run once per backend (tests/bot/storage_backends.py).
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

import pytest

from bot.games.space_alert.logbook import Logbook, LogbookCrew, LogbookEntry
from bot.games.space_alert.mission.storage import FlightRecord, Flights, FlightTransaction
from bot.platform.storage import ChannelBusy, StaleWrite, Storage, StorageError
from tests.bot.storage_backends import Opener, open_storage, storage
from tests.bot.test_storage import record

__all__ = ["open_storage", "storage"]  # fixtures used by the tests below

BIG = 2**63 - 1  # Discord ids are 64-bit snowflakes


def entry_for(flight: FlightRecord, total: int = 10) -> LogbookEntry:
    return LogbookEntry(
        flight_id=flight.id,
        guild_id=flight.guild_id,
        channel_id=flight.channel_id,
        flown_at="2026-01-01T00:00:00",
        mission_id="S2-1",
        normal_difficulty="white",
        serious_difficulty="white",
        language="en",
        outcome="survived",
        crew=[LogbookCrew("Ann", 7, ["captain"])],
        result={"outcome": "survived"},
        total=total,
    )


async def flying(storage: Storage, fid: str = "0000abcd", channel: int = 5) -> FlightRecord:
    made = await Flights(storage).create_flight(record(fid, channel))
    made.status = "flying"
    made.state = {"clicks": []}
    return await Flights(storage).save_flight(made, {"kind": "start"})


class Boom(Exception):
    pass


# -- one write, one unit of work ---------------------------------------------------------------------
async def test_a_failed_save_leaves_the_record_exactly_as_it_was(storage: Storage) -> None:
    current = await flying(storage)
    stale = copy.deepcopy(current)
    await Flights(storage).save_flight(current)
    before = copy.deepcopy(stale)
    stale.state = {"clicks": ["lost"]}
    with pytest.raises(StaleWrite):
        await Flights(storage).save_flight(stale, {"kind": "click"})
    assert stale.version == before.version and stale.updated_at == before.updated_at
    # and a ChannelBusy on save (reactivating into an occupied channel) is no different
    other = await Flights(storage).create_flight(record("2222abcd", channel=9))
    other.status = "aborted"
    await Flights(storage).save_flight(other)
    other.channel_id = 5
    other.status = "lobby"
    version = other.version
    with pytest.raises(ChannelBusy):
        await Flights(storage).save_flight(other)
    assert other.version == version


async def test_a_failed_create_in_one_channel_does_not_undo_another_flights_save(storage: Storage) -> None:
    # the minimal case of the lost clicks: A saves while B's create fails on a busy channel
    a = await flying(storage, "aaaa0000", channel=1)
    await Flights(storage).create_flight(record("bbbb0000", channel=2))

    async def click(n: int) -> None:
        async with storage.transaction() as tx:
            fresh = await FlightTransaction(tx).load_flight(a.id)
            assert fresh is not None and fresh.state is not None
            fresh.state["clicks"].append(n)
            await asyncio.sleep(0)  # let the failing create run in between
            await FlightTransaction(tx).save_flight(fresh, {"kind": "click", "payload": {"n": n}})

    async def busy() -> None:
        with pytest.raises(ChannelBusy):
            await Flights(storage).create_flight(record("cccc0000", channel=2))

    await asyncio.gather(click(1), busy(), click(2), busy(), click(3))
    stored = await Flights(storage).load_flight(a.id)
    assert stored is not None and stored.state is not None and sorted(stored.state["clicks"]) == [1, 2, 3]
    events = [e["payload"].get("n") for e in await Flights(storage).flight_events(a.id) if e["kind"] == "click"]
    assert events == stored.state["clicks"]  # the log and the state agree, in order


async def test_a_transaction_commits_whole_or_leaves_nothing(storage: Storage) -> None:
    flight = await flying(storage)
    version = flight.version
    with pytest.raises(Boom):
        async with storage.transaction() as tx:
            flight.state = {"clicks": ["x"]}
            await FlightTransaction(tx).save_flight(flight, {"kind": "click"})
            await tx.set_setting(1, "language", "ru")
            await tx.store_posts(flight.id, [{"op": "text"}])
            raise Boom
    assert flight.version == version  # the in-memory record is back as it was
    stored = await Flights(storage).load_flight(flight.id)
    assert stored is not None and stored.state == {"clicks": []} and stored.version == version
    assert await storage.get_setting(1, "language") is None and await storage.pending_posts() == []
    assert [e["kind"] for e in await Flights(storage).flight_events(flight.id)] == ["start"]
    # nested use in the same task joins the outer unit of work
    async with storage.transaction() as tx:
        await tx.set_setting(1, "language", "cs")
        await storage.set_setting(1, "voice", "on")
        assert await storage.get_setting(1, "language") == "cs"  # reads see their own writes
    assert await storage.get_setting(1, "voice") == "on"


# -- update_flight ------------------------------------------------------------------------------------
async def test_update_flight_loads_applies_and_saves(storage: Storage) -> None:
    flight = await flying(storage)

    def add(r: FlightRecord) -> dict[str, Any]:
        assert r.state is not None
        r.state["clicks"].append("a")
        return {"kind": "click", "actor_id": BIG, "payload": {"id": "a"}}

    saved = await Flights(storage).update_flight(flight.id, add)
    assert saved is not None and saved.version == flight.version + 1 and saved.state == {"clicks": ["a"]}
    events = await Flights(storage).flight_events(flight.id)
    assert events[-1]["kind"] == "click" and events[-1]["actor_id"] == BIG
    # a change that changes nothing writes nothing
    same = await Flights(storage).update_flight(flight.id, lambda r: None)
    assert same is not None and same.version == saved.version
    assert await Flights(storage).update_flight("ffffffff", add) is None


async def test_update_flight_that_raises_writes_nothing(storage: Storage) -> None:
    flight = await flying(storage)

    def fail(r: FlightRecord) -> dict[str, Any]:
        r.status = "aborted"
        raise Boom

    with pytest.raises(Boom):
        await Flights(storage).update_flight(flight.id, fail)
    stored = await Flights(storage).load_flight(flight.id)
    assert stored is not None and stored.status == "flying" and stored.version == flight.version


async def test_update_flight_retries_a_stale_write_then_gives_up(storage: Storage) -> None:
    flight = await flying(storage)
    calls: list[int] = []

    async def racing(r: FlightRecord) -> dict[str, Any]:
        calls.append(r.version)
        if len(calls) == 1:  # someone else saves between our load and our save
            r.version -= 1
        assert r.state is not None
        r.state["clicks"].append(len(calls))
        return {"kind": "click"}

    saved = await Flights(storage).update_flight(flight.id, racing)
    assert saved is not None and saved.state == {"clicks": [2]} and len(calls) == 2

    def always_stale(r: FlightRecord) -> dict[str, Any]:
        r.version -= 1
        return {"kind": "click"}

    with pytest.raises(StaleWrite, match="gave up after 3"):
        await Flights(storage).update_flight(flight.id, always_stale, attempts=3)


# -- finishing ------------------------------------------------------------------------------------------
async def test_finish_is_atomic_and_idempotent(storage: Storage) -> None:
    flight = await flying(storage)
    assert await Flights(storage).finish_flight(flight, entry_for(flight), {"kind": "finished"}) is True
    again = await Flights(storage).load_flight(flight.id)
    assert again is not None and again.status == "finished" and not again.active
    assert await Flights(storage).finish_flight(again, entry_for(again, total=99), {"kind": "finished"}) is False
    assert [e.total for e in await Logbook(storage).entries(1)] == [10]
    assert await Flights(storage).active_flight_in_channel(5) is None  # the channel is free
    assert [e["kind"] for e in await Flights(storage).flight_events(flight.id)] == ["start", "finished"]


async def test_finish_killed_between_its_steps_then_restarted(
    open_storage: Opener, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await open_storage()
    flight = await flying(first)
    # the logbook entry is written, then the process "dies" before the flight is marked finished
    kind = FlightTransaction
    original = kind.save_flight

    async def die(self: Any, rec: FlightRecord, event: Any = None) -> Any:
        if rec.status == "finished":
            raise Boom("killed")
        return await original(self, rec, event)

    monkeypatch.setattr(kind, "save_flight", die)
    with pytest.raises(Boom):
        await Flights(first).finish_flight(flight, entry_for(flight), {"kind": "finished"})
    monkeypatch.setattr(kind, "save_flight", original)
    assert flight.status == "flying"
    await first.close()

    restarted = await open_storage()
    assert await Logbook(restarted).entries(1) == []  # nothing half-done survived
    fresh = await Flights(restarted).load_flight(flight.id)
    assert fresh is not None and fresh.status == "flying"
    assert await Flights(restarted).finish_flight(fresh, entry_for(fresh), {"kind": "finished"}) is True
    assert await Flights(restarted).finish_flight(fresh, entry_for(fresh), {"kind": "finished"}) is False
    assert len(await Logbook(restarted).entries(1)) == 1
    assert await Flights(restarted).active_flight_in_channel(5) is None


async def test_the_old_two_step_finish_is_safe_to_repeat(storage: Storage) -> None:
    # bot code that still writes the entry, then the status: a retry must not duplicate the entry
    flight = await flying(storage)
    first = await Logbook(storage).add(entry_for(flight))
    assert await Logbook(storage).add(entry_for(flight)) == first
    flight.status = "finished"
    await Flights(storage).save_flight(flight, {"kind": "finished"})
    assert len(await Logbook(storage).entries(1)) == 1


# -- muted members, ids, outbox -------------------------------------------------------------------------
async def test_muted_members_are_rows_of_their_own(storage: Storage) -> None:
    flight = await flying(storage)
    assert await Flights(storage).update_muted(flight.id, add={BIG, 8}) == [8, BIG]
    assert await Flights(storage).update_muted(flight.id, add={9}, remove={8}) == [BIG, 9]
    stored = await Flights(storage).load_flight(flight.id)
    assert stored is not None and stored.notes["muted"] == [BIG, 9]  # what the bot reads today
    assert stored.version == flight.version + 2  # a change of the flight: stale copies must reload
    stored.notes["muted"] = [9]  # the bot's load/mutate/save path writes the table too
    stored.status = "finished"
    await Flights(storage).save_flight(stored)
    assert await Flights(storage).muted_members(flight.id) == [9]
    assert [r.id for r in await Flights(storage).ended_flights_with_muted_members()] == [flight.id]
    assert await Flights(storage).update_muted(flight.id, remove={9}) == []
    assert await Flights(storage).ended_flights_with_muted_members() == []


async def test_discord_ids_are_64_bit(storage: Storage) -> None:
    r = record("0000abcd")
    r.guild_id, r.channel_id, r.host_id, r.lobby_message_id = BIG, BIG - 1, BIG - 2, BIG - 3
    await Flights(storage).create_flight(r)
    stored = await Flights(storage).load_flight(r.id)
    assert stored is not None
    assert (stored.guild_id, stored.channel_id, stored.host_id, stored.lobby_message_id) == (
        BIG,
        BIG - 1,
        BIG - 2,
        BIG - 3,
    )
    await storage.set_setting(BIG, "language", "cs")
    assert await storage.get_setting(BIG, "language") == "cs"


async def test_outbox_keeps_order_and_updates(storage: Storage) -> None:
    flight = await flying(storage)
    await storage.store_posts(flight.id, [{"n": 1}, {"n": 2}])
    posts = await storage.pending_posts()
    assert [p[2] for p in posts] == [{"n": 1}, {"n": 2}]
    await storage.update_post(posts[0][0], {"n": 1, "half": True})
    await storage.delete_post(posts[1][0])
    assert [p[2] for p in await storage.pending_posts()] == [{"n": 1, "half": True}]


async def test_closed_storage_refuses_clearly(open_storage: Opener) -> None:
    s = await open_storage()
    await s.close()
    with pytest.raises(StorageError):
        await Flights(s).save_flight(record())


async def test_a_schema_newer_than_the_bot_is_refused(open_storage: Opener) -> None:
    from bot.platform.storage import SchemaTooNew
    from bot.platform.storage.migrate import load_migrations

    first = await open_storage()
    backend = "postgres" if type(first).__name__.startswith("Postgres") else "sqlite"
    known = len(load_migrations(backend=backend))
    async with first.transaction() as tx:
        raw: Any = tx
        await raw.run("INSERT INTO schema_version (version, name) VALUES (?, ?)", (known + 2, "9999_future.sql"))
    await first.close()
    with pytest.raises(SchemaTooNew, match=rf"database schema {known + 2} is newer than this bot \({known}\)"):
        await open_storage()
