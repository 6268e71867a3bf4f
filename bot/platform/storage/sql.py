"""The SQL both backends share: every statement of a unit of work, and every read.

SQLite and PostgreSQL speak the same SQL for everything the bot does (INSERT ... RETURNING,
ON CONFLICT ... DO UPDATE, window functions, partial unique indexes), so the statements live
here once, written with `?` placeholders.  A backend supplies how to run a statement (`rows`,
`run`, `many`; PostgreSQL turns `?` into `$n`) and a `Dialect` for the few differences: its
name (a game's repository keys its own backend-specific SQL by it), whether a read in a
transaction locks the row, and which driver exception is a constraint violation.  No game's table
is named here: each game's repository runs its statements through the same core (Space Alert's
flights: bot/games/space_alert/mission/storage.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from bot.platform.storage.base import Undo, UnitsOfWork
from bot.platform.storage.platform import PlatformReads, PlatformWrites
from bot.platform.storage.rows import now
from bot.platform.storage.session_outbox import SessionOutboxReads, SessionOutboxWrites
from bot.platform.storage.sessions import SessionReads, SessionWrites
from bot.platform.storage.web import WebReads


@dataclass(frozen=True)
class Dialect:
    """What differs between the backends' SQL."""

    # "sqlite" or "postgres": what a game's repository keys its backend-specific SQL by
    name: str
    # appended to the read that decides a write inside a transaction ("" when the transaction
    # already holds the database's write lock, as SQLite's BEGIN IMMEDIATE does)
    for_update: str
    # the driver's exception for a violated UNIQUE constraint (a busy channel)
    unique_violation: tuple[type[BaseException], ...]


class SqlTransaction(PlatformWrites, SessionWrites, SessionOutboxWrites):
    """The statements of one unit of work; a backend subclass runs them on its connection."""

    dialect: Dialect

    def __init__(self, storage: object) -> None:
        self.storage = storage
        self.owner = asyncio.current_task()
        self.open = True
        self.undo = Undo()
        # what a game's repository read in this unit of work and may reuse until it ends (the rows
        # it locked stay as read), under a key of the repository's own
        self.memo: dict[str, Any] = {}

    # -- what a backend provides ---------------------------------------------------------------
    async def rows(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        raise NotImplementedError

    async def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Execute one statement; the number of rows it changed."""
        raise NotImplementedError

    async def many(self, sql: str, params: list[tuple[Any, ...]]) -> None:
        raise NotImplementedError

    # -- settings, outbox -----------------------------------------------------------
    async def set_setting(self, guild_id: int, key: str, value: Any) -> None:
        await self.run(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
            (guild_id, key, json.dumps(value)),
        )

    async def store_posts(self, key: str, payloads: list[dict[str, Any]]) -> None:
        stamp = now()
        if payloads:  # the outbox's key column is still named flight_id (migrations 0001)
            await self.many(
                "INSERT INTO outbox (flight_id, payload, created_at) VALUES (?, ?, ?)",
                [(key, json.dumps(p, ensure_ascii=False), stamp) for p in payloads],
            )

    async def update_post(self, post_id: int, payload: dict[str, Any]) -> None:
        await self.run("UPDATE outbox SET payload = ? WHERE id = ?", (json.dumps(payload, ensure_ascii=False), post_id))

    async def delete_post(self, post_id: int) -> None:
        await self.run("DELETE FROM outbox WHERE id = ?", (post_id,))

    async def stage_post(self, key: str, payload: dict[str, Any]) -> int:
        found = await self.rows(
            "INSERT INTO outbox (flight_id, payload, created_at) VALUES (?, ?, ?) RETURNING id",
            (key, json.dumps(payload, ensure_ascii=False), now()),
        )
        return int(found[0][0])


# The unit of work the current task is in, if any (a nested `transaction()` joins it).
CURRENT_TX: ContextVar[SqlTransaction | None] = ContextVar("storage_transaction", default=None)


class SqlStorage(UnitsOfWork, PlatformReads, SessionReads, SessionOutboxReads, WebReads):
    """The reads of `Storage` and the frame of a unit of work; a backend provides `_fetch`
    (committed data, or the caller's own transaction), `transaction()`, `open()` and `close()`."""

    dialect: Dialect

    async def _fetch(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        raise NotImplementedError

    async def fetch(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        """The SQL core's read for a game's repository (bot/games/*/storage.py)."""
        return await self._fetch(sql, params)

    def _joined(self) -> SqlTransaction | None:
        """The caller's own open transaction on this storage (same task), if it is in one."""
        tx = CURRENT_TX.get()
        if tx is not None and tx.open and tx.storage is self and tx.owner is asyncio.current_task():
            return tx
        return None

    async def schema_versions(self) -> list[int]:
        return [int(r[0]) for r in await self._fetch("SELECT version FROM schema_version ORDER BY version")]

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqlTransaction]:
        joined = self._joined()
        if joined is not None:  # nested in the same task: part of the outer unit of work
            yield joined
            return
        async with self._new_unit() as tx:
            yield tx

    def _new_unit(self) -> contextlib.AbstractAsyncContextManager[SqlTransaction]:
        """A fresh unit of work on this backend (a backend builds it with `_unit`)."""
        raise NotImplementedError

    @contextlib.asynccontextmanager
    async def _unit(
        self,
        tx: SqlTransaction,
        begin: Callable[[], Awaitable[Any]],
        commit: Callable[[], Awaitable[Any]],
        rollback: Callable[[], Awaitable[Any]],
    ) -> AsyncIterator[SqlTransaction]:
        """Begin; commit if the block ends normally; else roll back, put the caller's records
        back as they were (`Undo`) and re-raise."""
        token = CURRENT_TX.set(tx)
        try:
            await begin()
            try:
                yield tx
                await commit()
            except BaseException:
                with contextlib.suppress(Exception):
                    await rollback()
                tx.undo.run()
                raise
            tx.undo.forget()
        finally:
            tx.open = False
            with contextlib.suppress(ValueError):  # a generator finalised in another context
                CURRENT_TX.reset(token)

    # -- settings, outbox (reads) ------------------------------------------------------
    async def get_setting(self, guild_id: int, key: str) -> Any | None:
        found = await self._fetch("SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key))
        return json.loads(found[0][0]) if found else None

    async def pending_posts(self) -> list[tuple[int, str, dict[str, Any]]]:
        found = await self._fetch("SELECT id, flight_id, payload FROM outbox ORDER BY id")
        return [(int(r[0]), r[1], json.loads(r[2])) for r in found]

    # -- several processes, one database ----------------------------------------------------
    # Times are unix seconds from the caller's clock (bot/platform/cluster.py), so tests can move them by
    # hand; processes on several machines need their clocks in sync (NTP), which servers have.
    async def acquire_lease(self, name: str, holder: str, *, now: float, ttl: float) -> bool:
        # One statement: insert, or renew our own, or take an expired one.  The upsert locks the
        # row (PostgreSQL) or runs under the write lock (SQLite), so of two racers one wins.
        async with self.transaction() as tx:
            won = await tx.rows(
                "INSERT INTO leases (name, holder, expires_at) VALUES (?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at"
                " WHERE leases.holder = excluded.holder OR leases.expires_at <= ? RETURNING holder",
                (name, holder, float(now + ttl), float(now)),
            )
        return bool(won)

    async def renew_leases(self, names: Iterable[str], holder: str, *, now: float, ttl: float) -> set[str]:
        # One statement per 500 names instead of one per lease: a process with hundreds of flights
        # renews them all in a few milliseconds.  A row still naming us is ours (nobody took it).
        wanted = sorted(set(names))
        kept: set[str] = set()
        async with self.transaction() as tx:
            for start in range(0, len(wanted), 500):
                chunk = wanted[start : start + 500]
                found = await tx.rows(
                    f"UPDATE leases SET expires_at = ? WHERE holder = ? AND name IN ({', '.join('?' * len(chunk))})"
                    " RETURNING name",
                    (float(now + ttl), holder, *chunk),
                )
                kept.update(str(r[0]) for r in found)
        return kept

    async def release_lease(self, name: str, holder: str) -> bool:
        async with self.transaction() as tx:
            return await tx.run("DELETE FROM leases WHERE name = ? AND holder = ?", (name, holder)) > 0

    async def release_leases(self, holder: str) -> int:
        async with self.transaction() as tx:
            return await tx.run("DELETE FROM leases WHERE holder = ?", (holder,))

    async def lease_holder(self, name: str, *, now: float) -> str | None:
        found = await self._fetch("SELECT holder FROM leases WHERE name = ? AND expires_at > ?", (name, float(now)))
        return str(found[0][0]) if found else None

    async def reserve_identify(self, bucket: int, *, now: float, spacing: float) -> float:
        # The slot is max(now, last + spacing), stored in the same statement: two processes asking
        # at once get slots `spacing` apart.  Returns how long to wait before identifying.
        async with self.transaction() as tx:
            slot = await tx.rows(
                "INSERT INTO identify_slots (bucket, last_at) VALUES (?, ?)"
                " ON CONFLICT (bucket) DO UPDATE SET last_at = CASE"
                " WHEN identify_slots.last_at + ? > excluded.last_at THEN identify_slots.last_at + ?"
                " ELSE excluded.last_at END RETURNING last_at",
                (int(bucket), float(now), float(spacing), float(spacing)),
            )
        return max(0.0, float(slot[0][0]) - now)

    async def get_cluster_value(self, key: str) -> str | None:
        found = await self._fetch("SELECT value FROM cluster_values WHERE key = ?", (key,))
        return str(found[0][0]) if found else None

    async def set_cluster_value(self, key: str, value: str) -> None:
        async with self.transaction() as tx:
            await tx.run(
                "INSERT INTO cluster_values (key, value, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
                (key, value, now()),
            )
