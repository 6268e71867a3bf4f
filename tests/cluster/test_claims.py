"""Shard claims on PostgreSQL (bot/platform/claims.py): one process per shard, fencing, a standby that takes
over a dead process's shards (and frees its flight leases), a restart in place that does not
wait for its dead predecessor's claim to lapse, and LISTEN/NOTIFY waking a standby at once."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from bot.platform.claims import ClaimRefused, ShardClaims
from bot.platform.cluster import ShardPlan
from bot.platform.settings import Settings
from bot.platform.storage import claims as rows


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def make(storage: Any, clock: Clock, process: str, shards: str, **kw: Any) -> ShardClaims:
    from bot.platform.cluster import parse_shard_ids

    kw.setdefault("ttl", 6.0)
    kw.setdefault("heartbeat", 0.05)
    plan = ShardPlan.build(parse_shard_ids(shards), 4)
    return ShardClaims(storage, plan, process=process, clock=clock, **kw)


async def test_a_second_process_for_a_claimed_shard_is_refused(pg_storages: Any) -> None:
    clock = Clock()
    first = make(await pg_storages(), clock, "host-a:100", "0-1")
    assert await first.claim() == [0, 1]
    second = make(await pg_storages(), clock, "host-b:200", "1-2")
    with pytest.raises(ClaimRefused, match="shard 1 is run by process host-a:100"):
        await second.claim()
    # the refused process kept nothing (not even shard 2, which was free)
    assert {c.shard_id: c.holder for c in await rows.claims(first.storage)} == {0: "host-a:100", 1: "host-a:100"}
    assert await first.renew() == []


async def test_a_lapsed_claim_is_taken_and_its_old_holder_is_fenced_off(pg_storages: Any) -> None:
    clock = Clock()
    old = make(await pg_storages(), clock, "host-a:100", "0-1")
    await old.claim()
    token = old.tokens[0]
    clock.now += 7  # the old holder stalled past its TTL
    new = make(await pg_storages(), clock, "host-b:200", "0-1", standby=True, explicit=False)
    assert await asyncio.wait_for(new.wait(), 5) == [0, 1]
    assert new.tokens[0] == token + 1  # a new fencing token
    # the stalled process comes back: its renewal finds the shards gone
    assert await old.renew() == [0, 1]
    takeover = await rows.last_takeover(new.storage)
    assert takeover is not None and (takeover.taker, takeover.previous, takeover.shards, takeover.reason) == (
        "host-b:200",
        "host-a:100",
        "0-1",
        "lapsed",
    )


async def test_a_renewal_that_fails_for_a_whole_ttl_gives_the_shards_up(pg_storages: Any) -> None:
    clock = Clock()
    storage = await pg_storages()
    claims = make(storage, clock, "host-a:100", "0")
    await claims.claim()

    async def down(*_a: Any, **_k: Any) -> set[int]:
        raise OSError("connection refused")

    claims_renew = rows.renew
    rows.renew = down  # type: ignore[assignment]
    try:
        clock.now += 2
        assert await claims.renew() == []  # one miss: still ours
        clock.now += 4
        assert await claims.renew() == [0]  # a whole TTL without renewal: maybe another's now
    finally:
        rows.renew = claims_renew


async def test_a_restart_in_place_takes_its_dead_predecessors_shards_and_leases_at_once(pg_storages: Any) -> None:
    clock = Clock()
    storage = await pg_storages()
    dead = make(storage, clock, "host-a:100", "2-3", alive=lambda pid: False)
    await dead.claim()
    await storage.acquire_lease("flight:f1", "host-a:100", now=clock.now, ttl=30)
    # another identity on the same host must wait (it cannot know the claim is its own)
    stranger = make(await pg_storages(), clock, "host-a:300", "2-3", name="other", alive=lambda pid: False)
    with pytest.raises(ClaimRefused):
        await stranger.claim()
    restarted = make(await pg_storages(), clock, "host-a:101", "2-3", alive=lambda pid: pid != 100)
    assert await restarted.claim() == [2, 3]  # no wait for the 6 s TTL
    assert await storage.acquire_lease("flight:f1", "host-a:101", now=clock.now, ttl=30)  # free at once
    takeover = await rows.last_takeover(storage)
    assert takeover is not None and takeover.reason == "predecessor"
    # a live predecessor is not taken from
    alive = make(await pg_storages(), clock, "host-a:102", "2-3", alive=lambda pid: True)
    with pytest.raises(ClaimRefused):
        await alive.claim()


async def test_a_standby_wakes_on_notify_when_its_shards_are_handed_back(pg_storages: Any) -> None:
    clock = Clock()
    holder = make(await pg_storages(), clock, "host-a:100", "0-3")
    await holder.claim()
    standby = make(await pg_storages(), clock, "host-b:200", "0-3", standby=True, heartbeat=30.0)
    waiting = asyncio.create_task(standby.wait())
    await asyncio.sleep(0.5)
    assert not waiting.done()
    members = await rows.members(holder.storage, since=0)
    assert [(m.process, m.role) for m in members] == [("host-a:100", "active"), ("host-b:200", "standby")]
    started = time.monotonic()
    await holder.close()  # a clean stop: released, NOTIFY
    assert await asyncio.wait_for(waiting, 5) == [0, 1, 2, 3]
    woke = time.monotonic() - started
    print(f"\nstandby woken by NOTIFY after {woke * 1000:.0f} ms (its poll period: 30 s)")
    assert woke < 5
    await standby.close()


async def test_a_standby_without_shards_of_its_own_leaves_free_shards_alone(pg_storages: Any) -> None:
    clock = Clock()
    standby = make(await pg_storages(), clock, "host-b:200", "0-3", standby=True, explicit=False)
    waiting = asyncio.create_task(standby.wait())
    await asyncio.sleep(0.3)
    assert not waiting.done()  # nobody ever ran them: they wait for their own processes
    first = make(await pg_storages(), clock, "host-a:100", "0-1")
    await first.claim()
    clock.now += 10  # it dies
    assert await asyncio.wait_for(waiting, 5) == [0, 1]


def test_claim_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="CLAIM_HEARTBEAT_S"):
        Settings(_env_file=None, claim_ttl_s=3, claim_heartbeat_s=2)
    with pytest.raises(ValueError, match="DATABASE_URL"):
        Settings(_env_file=None, standby=True)
    ok = Settings(_env_file=None, claim_ttl_s=4, claim_heartbeat_s=1, database_url="postgresql://x/y", standby=True)
    assert (ok.claim_ttl_s, ok.claim_heartbeat_s, ok.flight_lease_ttl_s) == (4, 1, 30)


async def test_about_shows_the_holders_the_standbys_and_the_last_takeover(pg_storages: Any) -> None:
    from bot.platform.claims import cluster_lines

    clock = Clock()
    active = make(await pg_storages(), clock, "host-a:100", "0-1")
    await active.claim()
    standby = make(await pg_storages(), clock, "host-s:300", "0-3", standby=True, explicit=False)
    waiting = asyncio.create_task(standby.wait())
    await asyncio.sleep(0.3)
    assert await cluster_lines(active) == [
        "Shard claims: host-a:100 0-1",
        "Standing by: host-s:300",
        "Last takeover: none",
    ]
    clock.now += 10  # host-a dies
    assert await asyncio.wait_for(waiting, 5) == [0, 1]
    lines = await cluster_lines(standby)
    assert lines[0] == "Shard claims: host-s:300 0-1" and lines[1] == "Standing by: none"
    assert lines[2] == "Last takeover: host-s:300 took shards 0-1 from host-a:100 (its claim lapsed), 0 s ago"


def test_standby_is_a_flag_of_the_command_line() -> None:
    from bot.__main__ import parse_args

    assert parse_args(["--standby", "--shard-count", "4"]) == {"standby": True, "shard_count": 4}
    assert "standby" not in parse_args([])
