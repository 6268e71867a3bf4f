"""What shard claims keep in PostgreSQL (issue 25; the logic is in bot/platform/claims.py).

Only the shared store has claims: SQLite serves one process, which runs every shard by
construction.  Every function takes the PostgreSQL storage and runs its own short transaction;
times are unix seconds from the caller's clock, so the tests can move them by hand.  Releases
and takeovers NOTIFY the `channel(storage, ...)` channels, so a waiting standby (and every
process's flight sweep) wakes at once instead of at its next poll.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bot.platform.storage.postgres import PostgresStorage

log = logging.getLogger(__name__)

CLAIMS = "claims"  # a shard was released or taken over
LEASES = "leases"  # flight leases were handed back: sweep now


@dataclass(frozen=True)
class Claim:
    """One row of `shard_claims`."""

    shard_id: int
    shard_count: int
    holder: str
    identity: str
    token: int
    expires_at: float
    claimed_at: float

    def live(self, now: float) -> bool:
        return self.expires_at > now


@dataclass(frozen=True)
class Member:
    """One row of `cluster_members`."""

    process: str
    identity: str
    role: str
    shards: str
    started_at: float
    seen_at: float


@dataclass(frozen=True)
class Takeover:
    at: float
    taker: str
    previous: str
    shards: str
    reason: str


def channel(storage: PostgresStorage, name: str) -> str:
    """The NOTIFY channel of `name` in this storage's schema (tests run many schemas side by side)."""
    return f"sa_{name}_{storage.schema or 'public'}"


def _claim(row: Any) -> Claim:
    return Claim(int(row[0]), int(row[1]), str(row[2]), str(row[3]), int(row[4]), float(row[5]), float(row[6]))


_CLAIM_COLUMNS = "shard_id, shard_count, holder, identity, token, expires_at, claimed_at"


async def claims(storage: PostgresStorage, shard_ids: Iterable[int] | None = None) -> list[Claim]:
    """The claim rows of these shards (every shard when None), by shard."""
    if shard_ids is None:
        found = await storage.pool.fetch(f"SELECT {_CLAIM_COLUMNS} FROM shard_claims ORDER BY shard_id")
    else:
        found = await storage.pool.fetch(
            f"SELECT {_CLAIM_COLUMNS} FROM shard_claims WHERE shard_id = ANY($1::int[]) ORDER BY shard_id",
            list(shard_ids),
        )
    return [_claim(r) for r in found]


async def take(
    storage: PostgresStorage,
    shard_ids: Iterable[int],
    *,
    shard_count: int,
    holder: str,
    identity: str,
    now: float,
    ttl: float,
    dead: Iterable[str] = (),
) -> dict[int, int]:
    """Claim each shard that is free, lapsed, already ours or held by a holder in `dead`; the
    shards won with their fencing tokens.  All or nothing is not needed: the caller decides."""
    won: dict[int, int] = {}
    takeable = [holder, *dead]
    async with storage.pool.acquire() as conn, conn.transaction():
        for shard in shard_ids:
            row = await conn.fetchrow(
                "INSERT INTO shard_claims (shard_id, shard_count, holder, identity, token, expires_at, claimed_at)"
                " VALUES ($1, $2, $3, $4, 1, $5, $6)"
                " ON CONFLICT (shard_id) DO UPDATE SET shard_count = excluded.shard_count, holder = excluded.holder,"
                " identity = excluded.identity, expires_at = excluded.expires_at, claimed_at = excluded.claimed_at,"
                " token = shard_claims.token + 1"
                " WHERE shard_claims.expires_at <= $6 OR shard_claims.holder = ANY($7::text[])"
                " RETURNING token",
                shard,
                shard_count,
                holder,
                identity,
                now + ttl,
                now,
                takeable,
            )
            if row is not None:
                won[shard] = int(row[0])
    return won


async def renew(storage: PostgresStorage, tokens: dict[int, int], holder: str, *, now: float, ttl: float) -> set[int]:
    """Extend the claims this process holds with these tokens; the shards still ours."""
    if not tokens:
        return set()
    shards = sorted(tokens)
    found = await storage.pool.fetch(
        "UPDATE shard_claims SET expires_at = $1 FROM unnest($2::int[], $3::bigint[]) AS mine(shard, token)"
        " WHERE shard_claims.shard_id = mine.shard AND shard_claims.token = mine.token AND shard_claims.holder = $4"
        " RETURNING shard_claims.shard_id",
        now + ttl,
        shards,
        [tokens[s] for s in shards],
        holder,
    )
    return {int(r[0]) for r in found}


async def release(storage: PostgresStorage, holder: str) -> int:
    """Hand back every claim of `holder` and forget it as a member; wakes the waiting standbys."""
    async with storage.pool.acquire() as conn, conn.transaction():
        status = await conn.execute("DELETE FROM shard_claims WHERE holder = $1", holder)
        await conn.execute("DELETE FROM cluster_members WHERE process = $1", holder)
        await conn.execute("SELECT pg_notify($1, $2)", channel(storage, CLAIMS), holder)
    return int(status.rsplit(" ", 1)[-1])


async def free_leases_of(storage: PostgresStorage, holders: Iterable[str], *, now: float) -> int:
    """Drop the flight leases of processes that hold no live claim any more (they died): their
    flights' clocks resume here at once instead of after the flight lease's TTL."""
    status = await storage.pool.execute(
        "DELETE FROM leases WHERE holder = ANY($1::text[]) AND NOT EXISTS"
        " (SELECT 1 FROM shard_claims c WHERE c.holder = leases.holder AND c.expires_at > $2)",
        list(holders),
        now,
    )
    return int(status.rsplit(" ", 1)[-1])


async def seen(
    storage: PostgresStorage, *, process: str, identity: str, role: str, shards: str, started_at: float, now: float
) -> None:
    """This process is alive (its heartbeat): its row in `cluster_members`."""
    await storage.pool.execute(
        "INSERT INTO cluster_members (process, identity, role, shards, started_at, seen_at)"
        " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (process) DO UPDATE SET role = excluded.role,"
        " shards = excluded.shards, seen_at = excluded.seen_at",
        process,
        identity,
        role,
        shards,
        started_at,
        now,
    )


async def members(storage: PostgresStorage, *, since: float) -> list[Member]:
    found = await storage.pool.fetch(
        "SELECT process, identity, role, shards, started_at, seen_at FROM cluster_members"
        " WHERE seen_at > $1 ORDER BY role, process",
        since,
    )
    return [Member(str(r[0]), str(r[1]), str(r[2]), str(r[3]), float(r[4]), float(r[5])) for r in found]


async def record_takeover(
    storage: PostgresStorage, *, at: float, taker: str, previous: str, shards: str, reason: str
) -> None:
    async with storage.pool.acquire() as conn, conn.transaction():
        await conn.execute(
            "INSERT INTO takeovers (at, taker, previous, shards, reason) VALUES ($1, $2, $3, $4, $5)",
            at,
            taker,
            previous,
            shards,
            reason,
        )
        await conn.execute("DELETE FROM cluster_members WHERE process = $1", previous)
        await conn.execute("SELECT pg_notify($1, $2)", channel(storage, LEASES), previous)


async def last_takeover(storage: PostgresStorage) -> Takeover | None:
    row = await storage.pool.fetchrow(
        "SELECT at, taker, previous, shards, reason FROM takeovers ORDER BY id DESC LIMIT 1"
    )
    return Takeover(float(row[0]), str(row[1]), str(row[2]), str(row[3]), str(row[4])) if row else None


async def notify(storage: PostgresStorage, name: str, payload: str = "") -> None:
    with contextlib.suppress(Exception):
        await storage.pool.execute("SELECT pg_notify($1, $2)", channel(storage, name), payload)


class Listener:
    """A dedicated connection LISTENing to some of the channels above; `callback(name)` is called
    (on the event loop) for each notification.  A dead connection is noticed by the caller's
    polling, which goes on regardless: notifications only make it faster."""

    def __init__(self, storage: PostgresStorage, names: Iterable[str], callback: Callable[[str], None]) -> None:
        self.storage = storage
        self.names = list(names)
        self.callback = callback
        self._conn: Any = None

    async def start(self) -> None:
        import asyncpg

        from bot.platform.storage.postgres import CONNECT_TIMEOUT_S

        try:
            self._conn = await asyncpg.connect(self.storage.url, timeout=CONNECT_TIMEOUT_S)
            for name in self.names:

                def heard(_conn: Any, _pid: int, _channel: str, _payload: str, name: str = name) -> None:
                    self.callback(name)

                await self._conn.add_listener(channel(self.storage, name), heard)
        except Exception as exc:  # polling still works; log and go on
            log.warning("cannot LISTEN for cluster notifications (%s); polling only", exc)
            await self.close()

    async def close(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close(timeout=2)
