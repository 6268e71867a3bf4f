"""Twenty flights, five players each, clicking at once while other traffic fails around them.

The bug this guards against: one shared connection, and a ROLLBACK after a failed write (a busy
channel, a stale version) undid other flights' writes that sat between their execute and commit;
about one acknowledged click in five disappeared and the event logs disagreed with the state.
Here every click that was acknowledged (its call returned) must be in the stored state and in the
event log, and the two must agree, click for click and in the same order.

Once through the storage API (per backend), once through the bot's own flight service.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bot.games.space_alert.logbook import Logbook
from bot.games.space_alert.mission import ids as _ids
from bot.games.space_alert.mission._station import card_key
from bot.games.space_alert.mission.storage import FlightRecord, Flights
from bot.platform.storage import ChannelBusy, StaleWrite, Storage
from engine.flight.views import card_view
from tests.bot.helpers import World, click, new_bot, open_lobby, stop_bot
from tests.bot.storage_backends import bot_backend, open_storage, storage
from tests.bot.test_storage import record
from tests.bot.test_storage_units import entry_for

__all__ = ["bot_backend", "open_storage", "storage"]  # fixtures used by the tests below

FLIGHTS = 20
PLAYERS = 5
CLICKS = 8  # per player


async def test_concurrent_clicks_with_failing_traffic_are_never_lost(storage: Storage) -> None:
    rng = random.Random(9)
    fids = [f"{i:04x}f00d" for i in range(FLIGHTS)]
    for i, fid in enumerate(fids):
        r = record(fid, channel=1000 + i)
        r.status, r.state = "flying", {"clicks": []}
        await Flights(storage).create_flight(r)
    acknowledged: dict[str, set[str]] = {fid: set() for fid in fids}
    failures = {"busy": 0, "stale": 0}

    async def unit_of_work_click(fid: str, name: str) -> None:
        def add(r: FlightRecord) -> dict[str, Any]:
            assert r.state is not None
            r.state["clicks"].append(name)
            return {"kind": "click", "actor_id": 1, "payload": {"click": name}}

        await Flights(storage).update_flight(fid, add)
        acknowledged[fid].add(name)

    async def old_style_click(fid: str, name: str) -> None:
        # load / mutate / save as the bot does today, retried on a stale version
        for _ in range(50):
            r = await Flights(storage).load_flight(fid)
            assert r is not None and r.state is not None
            r.state["clicks"].append(name)
            await asyncio.sleep(rng.random() / 1000)
            try:
                await Flights(storage).save_flight(r, {"kind": "click", "payload": {"click": name}})
            except StaleWrite:
                continue
            acknowledged[fid].add(name)
            return

    async def busy_channel(i: int) -> None:
        with pytest.raises(ChannelBusy):
            await Flights(storage).create_flight(record(f"{i:04x}beef", channel=1000 + i))
        failures["busy"] += 1

    async def stale_writer(fid: str) -> None:
        r = await Flights(storage).load_flight(fid)
        assert r is not None and r.state is not None
        await asyncio.sleep(0.002)  # others save meanwhile
        r.state["clicks"].append("never")
        try:
            await Flights(storage).save_flight(r, {"kind": "click", "payload": {"click": "never"}})
        except StaleWrite:
            failures["stale"] += 1
            return
        acknowledged[fid].add("never")  # not stale after all: then it counts like any click

    async def player(fid: str, p: int) -> None:
        for c in range(CLICKS):
            await asyncio.sleep(rng.random() / 500)
            name = f"p{p}c{c}"
            if (p + c) % 3 == 0:
                await old_style_click(fid, name)
            else:
                await unit_of_work_click(fid, name)

    noise: list[Any] = []
    for i, fid in enumerate(fids):
        noise += [busy_channel(i), busy_channel(i), stale_writer(fid)]
        noise.append(storage.set_setting(i, "language", "ru"))
    players = [player(fid, p) for fid in fids for p in range(PLAYERS)]
    mixed = players + noise
    rng.shuffle(mixed)
    await asyncio.gather(*mixed)

    assert failures["busy"] == 2 * FLIGHTS and failures["stale"] > 0
    for fid in fids:
        stored = await Flights(storage).load_flight(fid)
        assert stored is not None and stored.state is not None
        logged = [e["payload"]["click"] for e in await Flights(storage).flight_events(fid) if e["kind"] == "click"]
        assert stored.state["clicks"] == logged, fid  # state and log agree, in order
        assert set(logged) == acknowledged[fid]  # every acknowledged click, and only those
        assert len(logged) == len(set(logged))
        assert len(acknowledged[fid] - {"never"}) == PLAYERS * CLICKS
    # a finish in the middle of all that stays one entry
    one = await Flights(storage).load_flight(fids[0])
    assert one is not None
    finishes = [Flights(storage).finish_flight(one, entry_for(one)) for _ in range(3)]
    results = await asyncio.gather(*finishes, return_exceptions=True)
    assert sum(r is True for r in results) == 1 and len(await Logbook(storage).entries(1)) == 1


# -- through the bot ------------------------------------------------------------------------------------
class Server:
    """Several worlds (one channel and crew each) wired into one bot's lookups."""

    def __init__(self, bot: Any, count: int) -> None:
        self.worlds = [World(bot) for _ in range(count)]
        bot.get_channel = self._channel
        bot.get_guild = self._guild

    def _channel(self, channel_id: int) -> Any:
        return next((c for w in self.worlds if (c := w._channel(channel_id)) is not None), None)

    def _guild(self, guild_id: int) -> Any:
        return next((w.guild for w in self.worlds if w.guild.id == guild_id), None)


async def _start(bot: Any, world: World) -> tuple[str, list[Any]]:
    crew = [world.member(f"P{i}") for i in range(PLAYERS)]
    fid, _ = await open_lobby(bot, world, crew[0], voice="off")
    for m in crew[1:]:
        await click(world, m, _ids.make(fid, "join"))
    await click(world, crew[0], _ids.make(fid, "roles"), ["captain", "comms", "security"])
    inter = await click(world, crew[0], _ids.make(fid, "start"))
    assert inter.log[-1].kind == "edit_message", inter.log
    return fid, crew


async def test_twenty_flights_through_the_bot(tmp_path: Path, clock: Any, bot_backend: str) -> None:
    from tests.bot.helpers import FakeClock

    assert isinstance(clock, FakeClock)
    bot = await new_bot(tmp_path / "sa.sqlite3", clock)
    try:
        server = Server(bot, FLIGHTS)
        flights = [await _start(bot, w) for w in server.worlds]
        cog = bot.get_cog("Mission")
        clock.advance(12)  # the first cards are dealt
        for fid, _ in flights:
            await cog.flights.tick(fid)
        placed: dict[str, list[tuple[str, str, int]]] = {fid: [] for fid, _ in flights}

        async def player(world: World, fid: str, member: Any) -> None:
            stored = await Flights(bot.storage).load_flight(fid)
            hand = next(m for m in stored.state["members"] if m["name"] == member.display_name)["hand"]
            for turn, card in zip((1, 2), hand, strict=False):
                cid = _ids.make(fid, "place", member.id, card_key(card_view(card)))
                inter = await click(world, member, cid, [f"a.{turn}"])
                # acknowledged: the hand was redrawn (at once, or after the 2-s watchdog deferred it)
                if inter.log[-1].kind in ("edit_message", "edit_original"):
                    placed[fid].append((member.display_name, card, turn))

        async def busy(world: World, member: Any) -> None:
            inter = world.interaction(member)
            await cog.mission_start.callback(cog, inter, mission="S1-1", language="en", voice="off")
            assert inter.log[-1].ephemeral  # refused: the channel has a flight

        olds = {fid: await Flights(bot.storage).load_flight(fid) for fid, _ in flights}  # read before any click

        async def stale(fid: str) -> None:
            old = olds[fid]
            for _ in range(400):  # until a click of the crew has been saved since our read
                await asyncio.sleep(0.005)
                if (await Flights(bot.storage).load_flight(fid)).version > old.version:
                    break
            old.notes["stale"] = True
            with pytest.raises(StaleWrite):
                await Flights(bot.storage).save_flight(old, {"kind": "stale"})

        work: list[Any] = []
        for world, (fid, crew) in zip(server.worlds, flights, strict=True):
            work += [player(world, fid, m) for m in crew]
            work += [busy(world, crew[i]) for i in range(1, PLAYERS)] + [stale(fid) for _ in range(3)]
        random.Random(3).shuffle(work)
        await asyncio.gather(*work)

        for fid, _crew in flights:
            stored = await Flights(bot.storage).load_flight(fid)
            boards = {
                (m["name"], slot["card"], int(turn))
                for m in stored.state["members"]
                for turn, slot in m["board"].items()
                if slot and slot.get("card")
            }
            events = await Flights(bot.storage).flight_events(fid)
            logged = {
                (e["payload"]["command"]["player"], e["payload"]["command"]["card"], e["payload"]["command"]["turn"])
                for e in events
                if e["kind"] == "place" and e["payload"].get("command")
            }
            assert len(placed[fid]) == PLAYERS * 2, fid
            assert set(placed[fid]) == logged == boards, fid
            assert not any(e["kind"] == "stale" for e in events)
    finally:
        await stop_bot(bot)


async def test_finish_killed_between_logbook_and_status_then_restarted(
    tmp_path: Path, clock: Any, monkeypatch: pytest.MonkeyPatch, bot_backend: str
) -> None:
    """The bot writes the logbook entry, then dies before the flight is marked finished; after the
    restart the timer finishes it again: one logbook entry, the channel free, no endless retry."""
    from bot.games.space_alert.mission.storage import FlightTransaction
    from tests.bot.helpers import start_flight

    db = tmp_path / "sa.sqlite3"
    bot1 = await new_bot(db, clock)
    world = World(bot1)
    fid, _ann, _bob = await start_flight(bot1, world)
    real_save = FlightTransaction.save_flight

    async def dies_after_the_logbook(
        tx: FlightTransaction, record: FlightRecord, event: dict[str, Any] | None = None
    ) -> Any:
        if event is not None and event.get("kind") == "finished":
            assert await tx.tx.rows("SELECT id FROM logbook WHERE flight_id = ?", (fid,))  # step one is done
            raise RuntimeError("killed between the two steps")
        return await real_save(tx, record, event)

    monkeypatch.setattr(FlightTransaction, "save_flight", dies_after_the_logbook)
    clock.advance(2000)
    with pytest.raises(RuntimeError, match="killed"):
        await bot1.get_cog("Mission").flights.tick(fid)
    monkeypatch.setattr(FlightTransaction, "save_flight", real_save)
    await stop_bot(bot1)

    bot2 = await new_bot(db, clock, world=world)
    try:
        assert (await Flights(bot2.storage).load_flight(fid)).status == "flying"  # the status never got written
        assert await bot2.get_cog("Mission").flights.tick(fid) is None  # finished this time
        assert len(await Logbook(bot2.storage).entries(world.guild.id)) == 1
        assert (await Flights(bot2.storage).load_flight(fid)).status == "finished"
        assert await Flights(bot2.storage).active_flight_in_channel(world.channel.id) is None
    finally:
        await stop_bot(bot2)
