"""Start-up coordination: IDENTIFYs spaced >= 5 s per bucket across processes, and commands
synced once (by the process running shard 0, and only when the tree changed)."""

from __future__ import annotations

import asyncio
import itertools
from collections import defaultdict
from pathlib import Path
from typing import Any
from unittest.mock import AsyncMock

from bot.platform.client import SpaceAlertBot
from bot.platform.cluster import IdentifyGate
from bot.platform.settings import Settings
from bot.platform.storage import Storage
from tests.bot.helpers import FakeClock
from tests.cluster.conftest import Opener


class VirtualTime:
    """One clock for every fake process; `sleep` moves it forward (the test takes no real time)."""

    def __init__(self) -> None:
        self.clock = FakeClock(0.0)

    async def sleep(self, seconds: float) -> None:
        self.clock.advance(seconds)


async def test_two_processes_identify_at_least_5s_apart_per_bucket(storages: Opener) -> None:
    time = VirtualTime()
    gates = [
        IdentifyGate(await storages(), concurrency=2, clock=time.clock, sleep=time.sleep),
        IdentifyGate(await storages(), concurrency=2, clock=time.clock, sleep=time.sleep),
    ]
    identified: dict[int, list[float]] = defaultdict(list)
    # process 0 runs shards 0-3, process 1 shards 4-7; they start together and interleave
    for step in range(4):
        for proc, gate in enumerate(gates):
            shard = proc * 4 + step
            await gate.wait_turn(shard)
            identified[gate.bucket(shard)].append(time.clock())
    assert set(identified) == {0, 1}
    for times in identified.values():
        assert len(times) == 4
        gaps = [b - a for a, b in itertools.pairwise(times)]
        # more than Discord's 5 s: the IDENTIFY goes out a little after its booked slot, and one
        # arriving at 4.99 s is refused (seen with a restart against fakecord)
        assert all(gap >= 5.25 for gap in gaps), times
    # a shard of the other bucket does not wait for this one's slots: 8 identifies one after the
    # other take 22 s here (4 x 5.5), where a single bucket would need 38.5
    assert time.clock() == 22.0


async def test_simultaneous_bookings_get_distinct_slots(pg_storages: Opener) -> None:
    stores: list[Storage] = [await pg_storages(), await pg_storages()]
    waits = await asyncio.gather(*(s.reserve_identify(0, now=100.0, spacing=5.0) for _ in range(4) for s in stores))
    assert sorted(waits) == [0.0, 5.0, 10.0, 15.0, 20.0, 25.0, 30.0, 35.0]
    # a later start, after the slots have passed, goes at once
    assert await stores[0].reserve_identify(0, now=200.0, spacing=5.0) == 0.0


async def test_identify_hook_waits_for_the_other_process(storages: Opener, tmp_path: Path) -> None:
    time = VirtualTime()
    first, second = await storages(), await storages()
    bots = [_bot(first, tmp_path), _bot(second, tmp_path)]
    for bot in bots:
        bot._identify_gate = IdentifyGate(bot.storage, clock=time.clock, sleep=time.sleep)
    await bots[0].before_identify_hook(0, initial=True)
    await bots[1].before_identify_hook(4, initial=True)  # the other process's first shard
    assert time.clock() == 5.5


def _bot(storage: Storage, tmp_path: Path, **settings: Any) -> SpaceAlertBot:
    config = Settings(_env_file=None, database_path=tmp_path / "x.sqlite3", identify_concurrency=1, **settings)
    return SpaceAlertBot(settings=config, storage=storage, run_timers=False)


async def test_commands_synced_once_and_only_when_changed(storages: Opener, tmp_path: Path) -> None:
    url = {"database_url": "postgresql://unused/db"}  # several processes (the storage is given)
    runs: list[SpaceAlertBot] = []

    async def start(shards: str) -> AsyncMock:
        bot = _bot(await storages(), tmp_path, command_sync="global", shard_ids=shards, shard_count=4, **url)
        bot._connection.application_id = 4242
        sync = AsyncMock(return_value=[])
        bot.tree.sync = sync  # type: ignore[method-assign]
        from bot.platform.about._cog import AboutCog

        await bot.add_cog(AboutCog(bot))
        runs.append(bot)
        await bot.sync_commands()
        return sync

    assert (await start("0-1")).await_count == 1  # shard 0's process syncs
    assert (await start("2-3")).await_count == 0  # the other process leaves it
    assert (await start("0-1")).await_count == 0  # a restart with the same commands: no sync
    runs[-1].tree.add_command(_extra_command())
    runs[-1].tree.sync = again = AsyncMock(return_value=[])  # type: ignore[method-assign]
    await runs[-1].sync_commands()
    assert again.await_count == 1  # the tree changed: synced again


def _extra_command() -> Any:
    from discord import app_commands

    @app_commands.command(name="ping_extra", description="a new command")
    async def extra(interaction: Any) -> None:  # pragma: no cover - never invoked
        return None

    return extra
