"""The flight service on the storage's units of work: stale writes retried, finish once, and a
stored state no upgrade leads from ending its flight politely at every entry point.

Why these through the bot and not the storage alone: the storage retries what it is handed, but
only the bot decides what a retry re-applies (the whole click, from a fresh load) and what the
user sees when a flight cannot go on (one line in the channel, a private answer to the click).
"""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path
from typing import Any

import pytest

from bot.games.space_alert.logbook import Logbook
from bot.games.space_alert.mission import ids as _ids
from bot.games.space_alert.mission._station import card_key
from bot.games.space_alert.mission.storage import FlightRecord, Flights, FlightTransaction
from bot.platform.i18n import t
from bot.platform.storage import StaleWrite
from engine.flight.snapshot import SCHEMA_VERSION
from engine.flight.views import card_view
from tests.bot.helpers import World, channel_text, click, new_bot, start_flight, stop_bot, tick


async def _hand(bot: Any, fid: str, name: str) -> list[str]:
    stored = await Flights(bot.storage).load_flight(fid)
    return list(next(m for m in stored.state["members"] if m["name"] == name)["hand"])


def _placements(record: FlightRecord) -> set[tuple[str, str, int]]:
    assert record.state is not None
    return {
        (m["name"], slot["card"], int(turn))
        for m in record.state["members"]
        for turn, slot in m["board"].items()
        if slot and slot.get("card")
    }


async def test_a_stale_write_during_a_click_is_retried_and_the_click_lands(
    bot: Any, world: Any, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    fid, ann, bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights
    clock.advance(12)  # the first cards are dealt
    await tick(service, fid)
    old = await Flights(bot.storage).load_flight(fid)  # what Bob's click will first read: before Ann's card
    ann_card = (await _hand(bot, fid, "Ann"))[0]
    inter = await click(world, ann, _ids.make(fid, "place", ann.id, card_key(card_view(ann_card))), ["a.1"])
    assert inter.log[-1].kind == "edit_message"

    real_load, real_save = FlightTransaction.load_flight, FlightTransaction.save_flight
    stale = {"reads": 0, "refused": 0}

    async def first_read_is_stale(self: FlightTransaction, flight_id: str) -> FlightRecord | None:
        if flight_id == fid and stale["reads"] == 0:
            stale["reads"] += 1
            return copy.deepcopy(old)  # as if read just before Ann's click was saved
        return await real_load(self, flight_id)

    async def counting_save(self: FlightTransaction, record: FlightRecord, event: Any = None) -> FlightRecord:
        try:
            return await real_save(self, record, event)
        except StaleWrite:
            stale["refused"] += 1
            raise

    monkeypatch.setattr(FlightTransaction, "load_flight", first_read_is_stale)
    monkeypatch.setattr(FlightTransaction, "save_flight", counting_save)
    bob_card = (await _hand(bot, fid, "Bob"))[0]
    inter = await click(world, bob, _ids.make(fid, "place", bob.id, card_key(card_view(bob_card))), ["a.1"])

    assert stale == {"reads": 1, "refused": 1}  # the stale attempt was refused by its version
    assert inter.log[-1].kind == "edit_message" and not inter.log[-1].ephemeral  # the click landed
    stored = await Flights(bot.storage).load_flight(fid)
    assert {("Ann", ann_card, 1), ("Bob", bob_card, 1)} <= _placements(stored)  # Ann's card survived
    placed = [
        e["payload"]["command"]["player"] for e in await Flights(bot.storage).flight_events(fid) if e["kind"] == "place"
    ]
    assert placed == ["Ann", "Bob"]  # one journal entry per click: the refused attempt left none


async def test_a_click_that_keeps_meeting_stale_writes_gets_an_answer(
    bot: Any, world: Any, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    fid, _ann, bob = await start_flight(bot, world)
    before = await Flights(bot.storage).load_flight(fid)

    async def always_stale(self: FlightTransaction, record: FlightRecord, event: Any = None) -> FlightRecord:
        raise StaleWrite("another writer, every time")

    monkeypatch.setattr(FlightTransaction, "save_flight", always_stale)
    inter = await click(world, bob, _ids.make(fid, "station"))
    clock.advance(12)
    inter = await click(world, bob, _ids.make(fid, "station"))  # the deal is due: this click must save
    assert inter.log[-1].ephemeral and inter.log[-1].content == t("en", "error.busy")
    assert (await Flights(bot.storage).load_flight(fid)).version == before.version


async def test_finish_twice_writes_one_logbook_entry_and_frees_the_channel(bot: Any, world: Any, clock: Any) -> None:
    fid, _ann, _bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights
    clock.advance(2000)  # long past the end of the action round
    await service.tick(fid)  # the tick finds the round over and finishes the flight
    await asyncio.gather(service.finish(fid), service.finish(fid))  # a retried tick, a late click
    await service.finish(fid)
    await service.drain()
    assert len(await Logbook(bot.storage).entries(world.guild.id)) == 1
    assert (await Flights(bot.storage).load_flight(fid)).status == "finished"
    assert await Flights(bot.storage).active_flight_in_channel(world.channel.id) is None
    finished = [e for e in await Flights(bot.storage).flight_events(fid) if e["kind"] == "finished"]
    assert len(finished) == 1


async def test_a_finish_that_fails_between_its_steps_leaves_nothing_then_finishes_once(
    bot: Any, world: Any, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    fid, _ann, _bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights
    real_save = FlightTransaction.save_flight

    async def fails_after_the_logbook(self: FlightTransaction, record: FlightRecord, event: Any = None) -> Any:
        if event is not None and event.get("kind") == "finished":
            raise RuntimeError("killed between the logbook entry and the status")
        return await real_save(self, record, event)

    monkeypatch.setattr(FlightTransaction, "save_flight", fails_after_the_logbook)
    clock.advance(2000)
    with pytest.raises(RuntimeError, match="killed"):
        await service.tick(fid)
    assert await Logbook(bot.storage).entries(world.guild.id) == []  # the entry went with the transaction
    assert (await Flights(bot.storage).load_flight(fid)).status == "flying"
    monkeypatch.setattr(FlightTransaction, "save_flight", real_save)
    assert await service.tick(fid) is None
    await service.finish(fid)
    assert len(await Logbook(bot.storage).entries(world.guild.id)) == 1
    assert await Flights(bot.storage).active_flight_in_channel(world.channel.id) is None


# -- a stored state no upgrade leads from --------------------------------------------------------------
async def _make_unrestorable(bot: Any, fid: str, muted: int) -> None:
    """A snapshot written by a future bot (schema newer than this one), with a member muted."""
    await Flights(bot.storage).update_muted(fid, add={muted})
    record = await Flights(bot.storage).load_flight(fid)
    record.state = {**record.state, "schema_version": SCHEMA_VERSION + 1, "shape": "from the future"}
    await Flights(bot.storage).save_flight(record)


async def _assert_ended_politely(bot: Any, world: Any, fid: str, ann: Any, lang: str = "en") -> None:
    service = bot.get_cog("Mission").flights
    await service.drain()
    record = await Flights(bot.storage).load_flight(fid)
    assert record.status == "aborted" and record.notes["unrestorable"]
    kinds = [e["kind"] for e in await Flights(bot.storage).flight_events(fid)]
    assert kinds.count("unrestorable") == 1
    assert channel_text(world.channel).count(t(lang, "flight.unrestorable")) == 1
    assert [c.kwargs["mute"] for c in ann.edit.await_args_list][-1] is False  # unmuted
    assert await Flights(bot.storage).muted_members(fid) == []
    assert ("abort", fid) in bot.voice.calls  # the voice stops
    assert await Flights(bot.storage).active_flight_in_channel(world.channel.id) is None
    assert await service.tick(fid) is None  # the timer stops; nothing more is said
    await service.drain()
    assert channel_text(world.channel).count(t(lang, "flight.unrestorable")) == 1
    assert await Logbook(bot.storage).entries(world.guild.id) == []


@pytest.mark.parametrize("lang", ["en", "ru", "cs"])
async def test_an_unrestorable_state_ends_the_flight_at_the_tick(tmp_path: Path, clock: Any, lang: str) -> None:
    bot = await new_bot(tmp_path / "sa.sqlite3", clock)
    try:
        world = World(bot)
        fid, ann, _bob = await start_flight(bot, world, language=lang)
        await _make_unrestorable(bot, fid, ann.id)
        clock.advance(12)
        assert await bot.get_cog("Mission").flights.tick(fid) is None  # no traceback, the timer stops
        await _assert_ended_politely(bot, world, fid, ann, lang)
    finally:
        await stop_bot(bot)


async def test_an_unrestorable_state_answers_the_click_privately(bot: Any, world: Any) -> None:
    fid, ann, bob = await start_flight(bot, world)
    await _make_unrestorable(bot, fid, ann.id)
    inter = await click(world, bob, _ids.make(fid, "station"))
    assert inter.log[-1].ephemeral and inter.log[-1].content == t("en", "error.unrestorable")
    await _assert_ended_politely(bot, world, fid, ann)
    inter = await click(world, bob, _ids.make(fid, "station"))  # a later click: the flight is over
    assert inter.log[-1].ephemeral and inter.log[-1].content == t("en", "error.flight_over")


@pytest.mark.parametrize("entry", ["finish", "voice start"])
async def test_an_unrestorable_state_ends_the_flight_at_finish_and_voice_start(
    bot: Any, world: Any, entry: str
) -> None:
    fid, ann, _bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights
    await _make_unrestorable(bot, fid, ann.id)
    if entry == "finish":
        await service.finish(fid)
    else:
        await service.after_start(await Flights(bot.storage).load_flight(fid))
    await _assert_ended_politely(bot, world, fid, ann)


async def test_an_unrestorable_state_ends_the_flight_on_resume(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "sa.sqlite3"
    bot1 = await new_bot(db, clock)
    world = World(bot1)
    fid, ann, _bob = await start_flight(bot1, world)
    await _make_unrestorable(bot1, fid, ann.id)
    await stop_bot(bot1)
    bot2 = await new_bot(db, clock, world=world)  # resume_all meets the state at start-up
    try:
        await _assert_ended_politely(bot2, world, fid, ann)
    finally:
        await stop_bot(bot2)
