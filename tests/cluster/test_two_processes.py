"""Two bot processes (two bot instances over fake Discord objects) sharing one PostgreSQL
database, shards 0 and 1 of 2: each resumes only its own guilds' flights, a killed process's
flights are taken over by its replacement with every plan intact, and no flight's clock ever
runs in two processes (the event log says which process wrote each clock moment)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.games.space_alert.logbook import Logbook
from bot.games.space_alert.mission import ids as _ids
from bot.games.space_alert.mission.storage import Flights
from bot.platform.client import SpaceAlertBot
from bot.platform.cluster import Cluster, ShardPlan, shard_of
from bot.platform.settings import Settings
from tests.bot.helpers import (
    FakeClock,
    RecordingVoice,
    World,
    click,
    find_id,
    last,
    open_station,
    select_options,
    start_flight,
    tick,
)
from tests.bot.storage_backends import PG_URL, drop_schema, postgres_reason

SHARDS = 2


class Processes:
    """Bot "processes" over one fresh schema, sharing one hand-moved clock."""

    def __init__(self, schema: str) -> None:
        self.schema = schema
        self.clock = FakeClock()
        self.bots: list[SpaceAlertBot] = []

    async def start(self, name: str, shard: int, world: World | None = None) -> SpaceAlertBot:
        from bot.platform.storage.postgres import PostgresStorage

        config = Settings(
            _env_file=None,
            discord_token=None,
            command_sync="off",
            database_url=PG_URL,
            shard_ids=str(shard),
            shard_count=SHARDS,
        )
        storage = PostgresStorage(PG_URL, schema=self.schema)
        await storage.open()
        cluster = Cluster(storage, ShardPlan.from_settings(config), shared=True, process=name, clock=self.clock)
        cluster.start = lambda: None  # type: ignore[method-assign]  # the test runs keeper rounds itself
        voice = RecordingVoice()
        bot = SpaceAlertBot(
            settings=config, storage=storage, clock=self.clock, run_timers=False, voice=voice, cluster=cluster
        )
        if world is not None:
            world.attach(bot)
        await bot.setup_hook()
        self.bots.append(bot)
        return bot

    async def kill(self, bot: SpaceAlertBot) -> None:
        """The process dies: no clean shutdown, its leases stay in the table until they expire."""
        service = bot.get_cog("Mission").flights  # type: ignore[union-attr]
        await service.drain()
        service.stop_all()
        await bot.storage.close()
        self.bots.remove(bot)

    async def stop(self, bot: SpaceAlertBot) -> None:
        """A clean shutdown: cogs unloaded, leases handed back."""
        await bot.get_cog("Mission").flights.drain()  # type: ignore[union-attr]
        for name in list(bot.cogs):
            await bot.remove_cog(name)
        await bot.cluster.close()
        await bot.storage.close()
        self.bots.remove(bot)


@pytest.fixture
async def procs() -> AsyncIterator[Processes]:
    if reason := await postgres_reason():
        pytest.skip(reason)
    schema = f"p_{uuid.uuid4().hex[:16]}"
    processes = Processes(schema)
    yield processes
    for bot in list(processes.bots):
        await processes.stop(bot)
    await drop_schema(schema)


def guild_world(bot: SpaceAlertBot, shard: int) -> World:
    """A world whose guild sits on `shard` (Discord's formula reads bits 22 and up)."""
    world = World(bot)
    base = world.guild.id >> 22
    world.guild.id = ((base - base % SHARDS + shard) << 22) | (world.guild.id & ((1 << 22) - 1))
    assert shard_of(world.guild.id, SHARDS) == shard
    return world


def service(bot: SpaceAlertBot) -> Any:
    return bot.get_cog("Mission").flights  # type: ignore[union-attr]


async def clock_writers(bot: SpaceAlertBot, fid: str) -> list[tuple[str, float]]:
    """(process, flight moment) of every clock event in the flight's log, in log order."""
    events = await Flights(bot.storage).flight_events(fid)
    return [(e["payload"]["process"], e["payload"]["at_s"]) for e in events if e["kind"] == "clock"]


def assert_clock_ran_once(writers: list[tuple[str, float]]) -> None:
    moments = [at for _proc, at in writers]
    assert moments == sorted(set(moments)), writers  # no moment twice, never backwards
    order = [proc for i, (proc, _at) in enumerate(writers) if i == 0 or writers[i - 1][0] != proc]
    assert len(order) == len(set(order)), writers  # handed over, never interleaved


async def board_of(bot: SpaceAlertBot, fid: str, name: str) -> dict[str, Any]:
    record = await Flights(bot.storage).load_flight(fid)
    assert record is not None and record.state is not None
    return dict(next(m for m in record.state["members"] if m["name"] == name)["board"])


async def test_each_process_resumes_only_its_guilds_flights(procs: Processes) -> None:
    a = await procs.start("host-a:1", 0)
    b = await procs.start("host-b:2", 1)
    w0, w1 = guild_world(a, 0), guild_world(b, 1)
    f0, *_ = await start_flight(a, w0)
    f1, *_ = await start_flight(b, w1)
    procs.clock.advance(12)
    assert await tick(service(a), f0) is not None and await tick(service(b), f1) is not None
    # a process asked to run the other shard's flight does nothing
    before = len(await Flights(a.storage).flight_events(f1))
    assert await tick(service(a), f1) is None
    assert len(await Flights(a.storage).flight_events(f1)) == before
    assert a.cluster.held == {f0} and b.cluster.held == {f1}

    # both restart cleanly; each new process picks up exactly its own guild's flight
    await procs.stop(a)
    await procs.stop(b)
    a2 = await procs.start("host-a:3", 0, w0)
    b2 = await procs.start("host-b:4", 1, w1)
    assert a2.cluster.held == {f0} and b2.cluster.held == {f1}
    procs.clock.advance(130)
    await tick(service(a2), f0)
    await tick(service(b2), f1)
    assert [p for p, _ in await clock_writers(a2, f0)] == ["host-a:1", "host-a:3"]
    assert [p for p, _ in await clock_writers(b2, f1)] == ["host-b:2", "host-b:4"]


async def test_a_killed_process_is_replaced_with_no_plan_lost(procs: Processes) -> None:
    a = await procs.start("host-a:1", 0)
    b = await procs.start("host-b:2", 1)
    w0, w1 = guild_world(a, 0), guild_world(b, 1)
    f0, ann, _bob = await start_flight(a, w0)
    f1, *_ = await start_flight(b, w1)
    procs.clock.advance(240)  # phase 2
    await tick(service(a), f0)
    await tick(service(b), f1)
    station = await open_station(w0, ann, f0)
    card = select_options(station.view, "pick")[0]
    inter = await click(w0, ann, find_id(station.view, "pick"), [card])
    inter = await click(w0, ann, find_id(last(inter).view, "place"), ["a.5"])
    assert last(inter).kind == "edit_message"
    plan = await board_of(a, f0, "Ann")
    assert "5" in plan

    await procs.kill(a)
    a2 = await procs.start("host-a:3", 0, w0)
    # the dead process's lease has not expired: the replacement waits, and so does the clock
    assert a2.cluster.held == set()
    procs.clock.advance(10)
    events = len(await Flights(a2.storage).flight_events(f0))
    assert await tick(service(a2), f0) is None
    assert await tick(service(b), f0) is None  # not b's shard, whatever the lease says
    assert len(await Flights(a2.storage).flight_events(f0)) == events
    # the lease expires; the keeper's sweep takes the flight over
    procs.clock.advance(25)
    await a2.cluster.step()
    await b.cluster.step()
    assert a2.cluster.held == {f0} and b.cluster.held == {f1}
    assert await board_of(a2, f0, "Ann") == plan  # nothing the crew planned was lost
    inter = await click(w0, ann, _ids.make(f0, "refresh", ann.id))
    assert inter.log[0].kind == "edit_message"  # the hand's buttons work in the new process

    procs.clock.advance(1000)
    assert await tick(service(a2), f0) is None
    assert await tick(service(b), f1) is None
    record = await Flights(a2.storage).load_flight(f0)
    assert record is not None and record.status == "finished"
    assert len(await Logbook(a2.storage).entries(w0.guild.id)) == 1
    assert a2.cluster.held == set()  # a finished flight's lease is handed back
    writers = await clock_writers(a2, f0)
    assert_clock_ran_once(writers)
    assert writers[0][0] == "host-a:1" and writers[-1][0] == "host-a:3"
    assert_clock_ran_once(await clock_writers(b, f1))


async def test_rolling_restart_never_runs_a_clock_twice(procs: Processes) -> None:
    old = await procs.start("host-a:1", 0)
    world = guild_world(old, 0)
    fid, *_ = await start_flight(old, world)
    procs.clock.advance(5)
    await tick(service(old), fid)
    new = await procs.start("host-a:2", 0)  # same shard, started before the old one stops
    world.attach(old)  # interactions still reach the old process meanwhile
    assert new.cluster.held == set()
    for _ in range(12):  # both timers fire at once, again and again
        procs.clock.advance(7)
        await asyncio.gather(service(old).tick(fid), service(new).tick(fid))
    assert new.cluster.held == set()
    await procs.stop(old)  # a clean stop hands the lease over at once
    world.attach(new)
    for _ in range(6):
        procs.clock.advance(7)
        await asyncio.gather(service(new).tick(fid))
    writers = await clock_writers(new, fid)
    assert_clock_ran_once(writers)
    assert {p for p, _ in writers} == {"host-a:1", "host-a:2"}
