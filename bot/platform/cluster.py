"""Which process runs what when several bot processes share one database.

Discord splits a big bot into shards; a guild lives on shard `(guild_id >> 22) % shard_count`,
and only the gateway session of that shard hears its interactions.  Each process runs some
shards (`ShardPlan`), so it *owns* those guilds: only it arms their flights' timers and speaks in
their voice channels.  Owning the shard is not enough during a rolling restart (old and new
process both think they hold it for a moment) or after a crash (nobody says the old one is gone),
so running a flight's clock also needs a *lease* in the database (`Cluster`): taken before the
timer is armed, renewed while it runs, lost when the holder stops renewing.  With SQLite (one
process by construction) the lease is trivially held and never touches the database.

`IdentifyGate` keeps Discord's start-up rule (one IDENTIFY per 5 s per rate-limit bucket) across
processes by booking time slots in the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import socket
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.platform.settings import Settings
    from bot.platform.storage import Storage

log = logging.getLogger(__name__)

LEASE_TTL_S = 30.0  # a dead process's flights wait at most this long for a successor
# Discord: one IDENTIFY per 5 s per bucket.  Slots are booked before connecting, so the previous
# IDENTIFY left its process a little after its own slot; without a margin a restart's first
# IDENTIFY could arrive 4.99 s after it, be refused, and cost another 5 s.
IDENTIFY_SPACING_S = 5.0 + 0.5
MAX_SHARDS = 65536

_RANGE = re.compile(r"^(\d+)(?:-(\d+))?$")


def process_name() -> str:
    """This process as operators see it in logs and in the leases table: host:pid."""
    return f"{socket.gethostname()}:{os.getpid()}"


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord puts a guild on."""
    return (guild_id >> 22) % shard_count


def parse_shard_ids(text: str) -> list[int]:
    """'0-3', '0,2,5', '0-3,8-11' -> the shard ids, in order.  ValueError says what is wrong."""
    ids: list[int] = []
    parts = [p.strip() for p in text.split(",")]
    if not text.strip() or any(not p for p in parts):
        raise ValueError(f"{text!r} is not a list of shard ids (like 0-3 or 0,2,5)")
    for part in parts:
        match = _RANGE.match(part)
        if not match:
            raise ValueError(f"{part!r} is not a shard id or a range like 0-3")
        first = int(match.group(1))
        last = int(match.group(2)) if match.group(2) is not None else first
        if last < first:
            raise ValueError(f"range {part!r} runs backwards")
        if last >= MAX_SHARDS:
            raise ValueError(f"shard id {last} is too large")
        ids.extend(range(first, last + 1))
    if len(set(ids)) != len(ids):
        raise ValueError(f"{text!r} names a shard twice")
    return ids


@dataclass(frozen=True)
class ShardPlan:
    """The shards this process runs.  `shard_count` None: not sharded (one process, every guild)."""

    shard_ids: tuple[int, ...] | None = None
    shard_count: int | None = None

    @classmethod
    def build(cls, shard_ids: Iterable[int] | None, shard_count: int | None) -> ShardPlan:
        """A checked plan; ValueError (one line for the operator) when it makes no sense."""
        ids = tuple(shard_ids) if shard_ids is not None else None
        if shard_count is None:
            if ids is not None:
                raise ValueError("--shards (SHARD_IDS) needs --shard-count (SHARD_COUNT): the total over all processes")
            return cls()
        if not 1 <= shard_count <= MAX_SHARDS:
            raise ValueError(f"the shard count must be between 1 and {MAX_SHARDS}, not {shard_count}")
        if ids is None:
            ids = tuple(range(shard_count))
        if not ids:
            raise ValueError("--shards names no shard")
        if len(set(ids)) != len(ids):
            raise ValueError("--shards names a shard twice")
        outside = [i for i in ids if not 0 <= i < shard_count]
        if outside:
            raise ValueError(
                f"shard {outside[0]} does not exist: with {shard_count} shards the ids are 0-{shard_count - 1}"
            )
        return cls(ids, shard_count)

    @classmethod
    def from_settings(cls, settings: Settings) -> ShardPlan:
        return cls.build(settings.shard_ids, settings.shard_count)

    @property
    def sharded(self) -> bool:
        return self.shard_count is not None

    @property
    def every_shard(self) -> bool:
        """This process runs the whole bot (so it needs no shared database)."""
        return self.shard_count is None or len(self.shard_ids or ()) == self.shard_count

    def owns(self, guild_id: int | None) -> bool:
        if self.shard_count is None or self.shard_ids is None:
            return True
        if guild_id is None:  # a DM: whoever heard it answers it
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    def describe(self) -> str:
        if self.shard_count is None:
            return "unsharded"
        return f"shards {compact(self.shard_ids or ())} of {self.shard_count}"


def compact(ids: Iterable[int]) -> str:
    """[0, 1, 2, 3, 6] -> '0-3,6' (the same form --shards takes)."""
    out: list[str] = []
    run: list[int] = []
    for i in sorted(ids):
        if run and i == run[-1] + 1:
            run.append(i)
            continue
        if run:
            out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [i]
    if run:
        out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
    return ",".join(out)


LostHandler = Callable[[str], Awaitable[None]]
SweepHandler = Callable[[], Awaitable[None]]


class Cluster:
    """This process's view of the others: which guilds it owns and which flights' clocks it runs.

    `shared` is True over a database other processes use (PostgreSQL); then every clock is
    guarded by a lease row `flight:<id>`.  Otherwise (SQLite) every lease is trivially ours.
    The flight service asks `owns(guild_id)` before resuming a flight and `acquire(flight_id)`
    before each clock tick; `keep()` renews what is held every `ttl / 3` s, reports losses to
    `on_lost` and lets `on_sweep` pick up flights whose holder went away.
    """

    def __init__(
        self,
        storage: Storage,
        plan: ShardPlan | None = None,
        *,
        shared: bool = False,
        process: str | None = None,
        clock: Callable[[], float] = time.time,
        ttl: float = LEASE_TTL_S,
    ) -> None:
        self.storage = storage
        self.plan = plan or ShardPlan()
        self.shared = shared
        self.process = process or process_name()
        self.clock = clock
        self.ttl = ttl
        self._held: set[str] = set()
        # every game that keeps clocks under leases watches: (on_lost, on_sweep) pairs
        self._watchers: list[tuple[LostHandler, SweepHandler]] = []
        self._keeper: asyncio.Task[None] | None = None
        self._wake: asyncio.Event | None = None
        self._listener: Any = None

    @staticmethod
    def lease_name(flight_id: str) -> str:
        return f"flight:{flight_id}"

    # -- ownership -------------------------------------------------------------------------------
    def owns(self, guild_id: int | None) -> bool:
        """Does this process run the shard of `guild_id`?"""
        return self.plan.owns(guild_id)

    def holds(self, flight_id: str) -> bool:
        """As far as this process knows (the last acquire or renewal succeeded)."""
        return flight_id in self._held

    @property
    def held(self) -> set[str]:
        return set(self._held)

    async def acquire(self, flight_id: str) -> bool:
        """Take (or renew) the lease on a flight's clock; False when another live process has it."""
        if not self.shared:
            self._held.add(flight_id)
            return True
        ok = await self.storage.acquire_lease(self.lease_name(flight_id), self.process, now=self.clock(), ttl=self.ttl)
        if ok:
            self._held.add(flight_id)
        else:
            self._held.discard(flight_id)
        return ok

    async def release(self, flight_id: str) -> None:
        """The flight ended (or this process stops running it): let it go at once."""
        self._held.discard(flight_id)
        if self.shared:
            await self.storage.release_lease(self.lease_name(flight_id), self.process)

    async def renew(self) -> list[str]:
        """Renew every held lease; the flights whose lease was lost (taken after it expired)."""
        held = sorted(self._held)
        if not self.shared or not held:
            return []
        names = {self.lease_name(f): f for f in held}
        kept = await self.storage.renew_leases(names, self.process, now=self.clock(), ttl=self.ttl)
        lost = [flight for name, flight in names.items() if name not in kept]
        self._held.difference_update(lost)
        return lost

    # -- the keeper ------------------------------------------------------------------------------
    def watch(self, *, on_lost: LostHandler, on_sweep: SweepHandler) -> None:
        """What to do when a lease is lost (stop that timer) and on each sweep (claim the games of
        owned guilds that nobody runs).  Each game that keeps clocks watches; a handler ignores the
        lease names that are not its own."""
        self._watchers.append((on_lost, on_sweep))

    async def step(self) -> list[str]:
        """One keeper round: renew, report losses, sweep.  Returns the flights lost."""
        lost = await self.renew() if self.shared else []
        for flight_id in lost:
            log.warning("%s: lease lost to another process; its clock stops here", flight_id)
            for on_lost, _sweep in self._watchers:
                await on_lost(flight_id)
        if self.shared:
            for _lost, on_sweep in self._watchers:
                try:
                    await on_sweep()
                except Exception:  # one game's failing sweep never stops another's (or the renewals)
                    log.exception("a game's sweep failed; the next round tries again")
        return lost

    def start(self) -> None:
        """Run the keeper in the background (shared databases only)."""
        if self.shared and self._keeper is None:
            self._keeper = asyncio.create_task(self._keep(), name="cluster-keeper")

    def wake(self) -> None:
        """Run the next keeper round now (another process handed flight leases back)."""
        if self._wake is not None:
            self._wake.set()

    async def _keep(self) -> None:
        self._wake = asyncio.Event()
        if hasattr(self.storage, "pool"):  # PostgreSQL: LISTEN for handed-back leases
            from bot.platform.storage.claims import LEASES, Listener

            self._listener = Listener(self.storage, [LEASES], lambda _name: self.wake())  # type: ignore[arg-type]
            await self._listener.start()
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.ttl / 3)
            self._wake.clear()
            try:
                await self.step()
            except Exception:  # a database hiccup: the next round tries again before expiry
                log.exception("cluster keeper round failed")

    async def close(self) -> None:
        """Stop renewing and hand every lease back, so a successor resumes without waiting."""
        keeper, self._keeper = self._keeper, None
        if keeper is not None:
            keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await keeper
        listener, self._listener = self._listener, None
        if listener is not None:
            await listener.close()
        self._held.clear()
        if self.shared:
            with contextlib.suppress(Exception):
                released = await self.storage.release_leases(self.process)
                if released:
                    log.info("released %d flight lease(s) of %s", released, self.process)
                    if hasattr(self.storage, "pool"):
                        from bot.platform.storage.claims import LEASES, notify

                        await notify(self.storage, LEASES, self.process)  # type: ignore[arg-type]


class IdentifyGate:
    """Spaces IDENTIFYs `spacing` s apart per bucket (`shard_id % concurrency`) across every
    process on the database: each asks the database for the next free slot and sleeps until it.
    `clock` and `sleep` are injectable so the tests run in no time."""

    def __init__(
        self,
        storage: Storage,
        *,
        concurrency: int = 1,
        spacing: float = IDENTIFY_SPACING_S,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        self.storage = storage
        self.concurrency = max(1, concurrency)
        self.spacing = spacing
        self.clock = clock
        self.sleep = sleep

    def bucket(self, shard_id: int | None) -> int:
        return (shard_id or 0) % self.concurrency

    async def wait_turn(self, shard_id: int | None) -> float:
        """Book this shard's slot and sleep until it; the seconds waited."""
        wait = await self.storage.reserve_identify(self.bucket(shard_id), now=self.clock(), spacing=self.spacing)
        if wait > 0:
            log.info("shard %s: waiting %.1f s for its identify slot", shard_id, wait)
            await self.sleep(wait)
        return wait


def startup_line(plan: ShardPlan, process: str, backend: str) -> str:
    """The log line that tells an operator which process runs which shards."""
    return f"process {process} runs {plan.describe()} (storage: {backend})"


__all__ = [
    "IDENTIFY_SPACING_S",
    "LEASE_TTL_S",
    "Cluster",
    "IdentifyGate",
    "ShardPlan",
    "compact",
    "parse_shard_ids",
    "process_name",
    "shard_of",
    "startup_line",
]
