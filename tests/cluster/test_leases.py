"""Flight leases in the database: one holder at a time, renewal, expiry and takeover."""

from __future__ import annotations

import asyncio

from bot.platform.cluster import Cluster, ShardPlan
from tests.bot.helpers import FakeClock
from tests.cluster.conftest import Opener

TTL = 30.0


async def test_one_holder_until_expiry_then_takeover(storages: Opener) -> None:
    a, b = await storages(), await storages()
    now = 1000.0
    assert await a.acquire_lease("flight:f1", "host-a:1", now=now, ttl=TTL)
    assert not await b.acquire_lease("flight:f1", "host-b:2", now=now + 1, ttl=TTL)
    assert await b.lease_holder("flight:f1", now=now + 1) == "host-a:1"
    # the holder renews: still its own, expiry moved on
    assert await a.acquire_lease("flight:f1", "host-a:1", now=now + 20, ttl=TTL)
    assert not await b.acquire_lease("flight:f1", "host-b:2", now=now + 40, ttl=TTL)  # renewed to 50
    # a stops renewing (it died): past expiry b takes it, and a cannot renew any more
    assert await b.acquire_lease("flight:f1", "host-b:2", now=now + 50, ttl=TTL)
    assert not await a.acquire_lease("flight:f1", "host-a:1", now=now + 51, ttl=TTL)
    assert await a.lease_holder("flight:f1", now=now + 51) == "host-b:2"
    assert await a.lease_holder("flight:f1", now=now + 81) is None  # expired: nobody's


async def test_release_only_by_the_holder(storages: Opener) -> None:
    a, b = await storages(), await storages()
    for fid in ("f1", "f2", "f3"):
        assert await a.acquire_lease(f"flight:{fid}", "a", now=0.0, ttl=TTL)
    assert not await b.release_lease("flight:f1", "b")
    assert await b.lease_holder("flight:f1", now=1.0) == "a"
    assert await a.release_lease("flight:f1", "a")
    assert await b.acquire_lease("flight:f1", "b", now=1.0, ttl=TTL)  # at once, no expiry wait
    assert await a.release_leases("a") == 2
    assert await b.acquire_lease("flight:f2", "b", now=1.0, ttl=TTL)
    assert await b.acquire_lease("flight:f3", "b", now=1.0, ttl=TTL)


async def test_racing_processes_never_both_win(pg_storages: Opener) -> None:
    stores = [await pg_storages() for _ in range(4)]
    for round_ in range(10):
        name = f"flight:race{round_}"
        results = await asyncio.gather(
            *(s.acquire_lease(name, f"p{i}-{j}", now=5.0, ttl=TTL) for j in range(3) for i, s in enumerate(stores))
        )
        assert sum(results) == 1, results


async def test_cluster_over_sqlite_holds_every_lease_without_the_database(storages: Opener) -> None:
    storage = await storages()
    cluster = Cluster(storage, shared=False, process="solo")
    assert await cluster.acquire("f1") and cluster.holds("f1")
    assert await storage.lease_holder("flight:f1", now=0.0) is None  # nothing written
    assert await cluster.step() == []


async def test_cluster_keeper_reports_a_lost_lease_and_sweeps(storages: Opener) -> None:
    clock = FakeClock(0.0)
    a = Cluster(await storages(), shared=True, process="a", clock=clock, ttl=TTL)
    b = Cluster(await storages(), shared=True, process="b", clock=clock, ttl=TTL)
    lost: list[str] = []
    sweeps: list[str] = []

    async def on_lost(fid: str) -> None:
        lost.append(fid)

    async def on_sweep() -> None:
        sweeps.append("a")

    a.watch(on_lost=on_lost, on_sweep=on_sweep)
    assert await a.acquire("f1") and await a.acquire("f2")
    assert not await b.acquire("f1")
    clock.advance(10)
    assert await a.step() == [] and lost == [] and sweeps == ["a"]  # renewed to 40
    clock.advance(35)  # 45: a missed its renewals (a stalled process); b takes f1 over
    assert await b.acquire("f1")
    assert await a.step() == ["f1"]
    assert lost == ["f1"] and not a.holds("f1") and a.holds("f2")


async def test_clean_close_hands_leases_over_at_once(storages: Opener) -> None:
    clock = FakeClock(0.0)
    a = Cluster(await storages(), shared=True, process="a", clock=clock)
    b = Cluster(await storages(), shared=True, process="b", clock=clock)
    assert await a.acquire("f1")
    assert not await b.acquire("f1")
    await a.close()
    assert await b.acquire("f1")  # no waiting for expiry after a clean shutdown


def test_owns_follows_discords_shard_formula() -> None:
    plan = ShardPlan.build([0, 1, 2, 3], 8)
    for shard in range(8):
        guild_id = ((123456 - 123456 % 8 + shard) << 22) | 777  # the low 22 bits do not count
        assert plan.owns(guild_id) == (shard < 4)
    assert ShardPlan().owns(42) and plan.owns(None)


async def test_renewing_many_leases_at_once(storages: Opener) -> None:
    a, b = await storages(), await storages()
    names = [f"flight:n{i}" for i in range(600)]  # more than one statement's worth
    for name in names:
        assert await a.acquire_lease(name, "a", now=0.0, ttl=TTL)
    assert await b.acquire_lease("flight:n7", "b", now=TTL + 1, ttl=TTL)  # expired, taken over
    kept = await a.renew_leases([*names, "flight:never"], "a", now=TTL + 2, ttl=TTL)
    assert kept == set(names) - {"flight:n7"}
    assert await b.lease_holder("flight:n599", now=2 * TTL) == "a"  # renewed: not expired yet
    assert not await b.acquire_lease("flight:n599", "b", now=2 * TTL, ttl=TTL)
