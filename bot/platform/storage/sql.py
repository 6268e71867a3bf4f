"""The SQL both backends share: every statement of a unit of work, and every read.

SQLite and PostgreSQL speak the same SQL for everything the bot does (INSERT ... RETURNING,
ON CONFLICT ... DO UPDATE, window functions, partial unique indexes), so the statements live
here once, written with `?` placeholders.  A backend supplies how to run a statement (`rows`,
`run`, `many`; PostgreSQL turns `?` into `$n`) and a `Dialect` for the few differences: how
the muted members are aggregated into JSON, whether a read in a transaction locks the row, and
which driver exception is a constraint violation.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from bot.platform.storage.base import (
    ACTIVE_STATUSES,
    ChannelBusy,
    FlightRecord,
    LeaderboardRow,
    LogbookCrew,
    LogbookEntry,
    StaleWrite,
    Undo,
    UnitsOfWork,
)
from bot.platform.storage.careers import CareerWrites
from bot.platform.storage.comparisons import ComparisonReads, ComparisonWrites
from bot.platform.storage.platform import PlatformReads, PlatformWrites
from bot.platform.storage.rows import (
    FLIGHT_COLUMNS,
    LOGBOOK_COLUMNS,
    crew_from_row,
    event_from_row,
    flight_from_row,
    flight_params,
    logbook_from_row,
    logbook_params,
    muted_of,
    now,
)
from bot.platform.storage.session_outbox import SessionOutboxReads, SessionOutboxWrites
from bot.platform.storage.sessions import SessionReads, SessionWrites
from bot.platform.storage.web import WebReads

_COLS = ", ".join(FLIGHT_COLUMNS)
_ACTIVE = ", ".join(f"'{s}'" for s in ACTIVE_STATUSES)


@dataclass(frozen=True)
class Dialect:
    """What differs between the backends' SQL."""

    # a correlated expression: the muted ids of `flights.id` as JSON array text, in muting order
    muted_json: str
    # appended to the read of a flight inside a transaction ("" when the transaction already
    # holds the database's write lock, as SQLite's BEGIN IMMEDIATE does)
    for_update: str
    # the driver's exception for a violated UNIQUE constraint (a busy channel)
    unique_violation: tuple[type[BaseException], ...]

    @property
    def select_flight(self) -> str:
        return f"SELECT {_COLS}, {self.muted_json} FROM flights"


def flight_of_row(row: Sequence[Any]) -> FlightRecord:
    *columns, muted = row
    return flight_from_row(columns, json.loads(muted) if muted else [])


class SqlTransaction(PlatformWrites, SessionWrites, SessionOutboxWrites, CareerWrites, ComparisonWrites):
    """The statements of one unit of work; a backend subclass runs them on its connection."""

    dialect: Dialect

    def __init__(self, storage: object) -> None:
        self.storage = storage
        self.owner = asyncio.current_task()
        self.open = True
        self.undo = Undo()
        # the muted ids of each flight as this unit of work read or wrote them: a save compares with
        # these instead of asking again (the flight's row lock keeps them current until the end)
        self._muted_seen: dict[str, list[int]] = {}

    # -- what a backend provides ---------------------------------------------------------------
    async def rows(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        raise NotImplementedError

    async def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Execute one statement; the number of rows it changed."""
        raise NotImplementedError

    async def many(self, sql: str, params: list[tuple[Any, ...]]) -> None:
        raise NotImplementedError

    # -- flights ---------------------------------------------------------------------------------
    async def load_flight(self, flight_id: str) -> FlightRecord | None:
        found = await self.rows(f"{self.dialect.select_flight} WHERE id = ?{self.dialect.for_update}", (flight_id,))
        if not found:
            return None
        record = flight_of_row(found[0])
        self._muted_seen[flight_id] = list(record.notes["muted"])
        return record

    async def create_flight(self, record: FlightRecord) -> FlightRecord:
        stamp = now()
        created = record.created_at or stamp
        try:
            await self.run(
                f"INSERT INTO flights ({_COLS}) VALUES ({', '.join('?' * len(FLIGHT_COLUMNS))})",
                flight_params(record, version=1, updated_at=stamp, created_at=created),
            )
        except self.dialect.unique_violation as exc:
            raise ChannelBusy("this channel already has an active flight") from exc
        await self._sync_muted(record.id, muted_of(record))
        self.undo.assign(record, version=1, created_at=created, updated_at=stamp)
        return record

    async def save_flight(self, record: FlightRecord, event: dict[str, Any] | None = None) -> FlightRecord:
        expected = record.version
        stamp = now()
        params = flight_params(record, version=expected + 1, updated_at=stamp, created_at=record.created_at)
        sets = ", ".join(f"{c} = ?" for c in FLIGHT_COLUMNS[1:])
        try:
            count = await self.run(
                f"UPDATE flights SET {sets} WHERE id = ? AND version = ?", (*params[1:], record.id, expected)
            )
        except self.dialect.unique_violation as exc:
            raise ChannelBusy("this channel already has an active flight") from exc
        if count != 1:
            raise StaleWrite(f"flight {record.id} changed since it was read")
        await self._sync_muted(record.id, muted_of(record))
        if event is not None:
            await self.add_event(record.id, event)
        self.undo.assign(record, version=expected + 1, updated_at=stamp)
        return record

    async def add_event(self, flight_id: str, event: dict[str, Any]) -> None:
        # seq is safe to compute here: the flight's row was just updated, so no other writer of
        # this flight gets past its own UPDATE until this transaction ends
        await self.run(
            "INSERT INTO flight_events (flight_id, seq, at, actor_id, kind, payload)"
            " VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM flight_events WHERE flight_id = ?), ?, ?, ?, ?)",
            (
                flight_id,
                flight_id,
                now(),
                event.get("actor_id"),
                str(event.get("kind", "?")),
                json.dumps(event.get("payload", {})),
            ),
        )

    async def _muted(self, flight_id: str) -> list[int]:
        found = await self.rows("SELECT user_id FROM flight_muted WHERE flight_id = ? ORDER BY seq", (flight_id,))
        return [int(r[0]) for r in found]

    async def _sync_muted(self, flight_id: str, wanted: list[int] | None) -> None:
        if wanted is None:
            return
        seen = self._muted_seen.get(flight_id)
        if (seen if seen is not None else await self._muted(flight_id)) == wanted:
            return
        self._muted_seen[flight_id] = list(wanted)
        await self.run("DELETE FROM flight_muted WHERE flight_id = ?", (flight_id,))
        if wanted:
            await self.many(
                "INSERT INTO flight_muted (flight_id, user_id, seq) VALUES (?, ?, ?)",
                [(flight_id, u, i) for i, u in enumerate(wanted)],
            )

    async def update_muted(self, flight_id: str, *, add: Iterable[int] = (), remove: Iterable[int] = ()) -> list[int]:
        found = await self.rows(f"SELECT version FROM flights WHERE id = ?{self.dialect.for_update}", (flight_id,))
        if not found:
            return []
        before = self._muted_seen[flight_id] = await self._muted(flight_id)
        gone = {int(u) for u in remove}
        after = [u for u in before if u not in gone] + sorted({int(u) for u in add} - set(before))
        if after != before:
            await self.run("UPDATE flights SET version = version + 1, updated_at = ? WHERE id = ?", (now(), flight_id))
            await self._sync_muted(flight_id, after)
        return after

    # -- logbook -----------------------------------------------------------------------------------
    async def add_logbook_entry(self, entry: LogbookEntry) -> int:
        if entry.flight_id is not None:
            found = await self.rows("SELECT id FROM logbook WHERE flight_id = ?", (entry.flight_id,))
            if found:  # a retried finish: the first entry stands
                self.undo.assign(entry, id=int(found[0][0]))
                return int(found[0][0])
        names = ", ".join(LOGBOOK_COLUMNS[1:])
        inserted = await self.rows(
            f"INSERT INTO logbook ({names}) VALUES ({', '.join('?' * (len(LOGBOOK_COLUMNS) - 1))}) RETURNING id",
            logbook_params(entry),
        )
        entry_id = int(inserted[0][0])
        if entry.crew:
            await self.many(
                "INSERT INTO logbook_crew (logbook_id, position, user_id, name, roles) VALUES (?, ?, ?, ?, ?)",
                [(entry_id, i, c.user_id, c.name, json.dumps(c.roles)) for i, c in enumerate(entry.crew)],
            )
        await self.add_threat_rows(entry_id, entry.result, entry.game)  # careers (storage/careers.py)
        self.undo.assign(entry, id=entry_id)
        return entry_id

    # -- settings, outbox -----------------------------------------------------------
    async def set_setting(self, guild_id: int, key: str, value: Any) -> None:
        await self.run(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
            (guild_id, key, json.dumps(value)),
        )

    async def store_posts(self, flight_id: str, payloads: list[dict[str, Any]]) -> None:
        stamp = now()
        if payloads:
            await self.many(
                "INSERT INTO outbox (flight_id, payload, created_at) VALUES (?, ?, ?)",
                [(flight_id, json.dumps(p, ensure_ascii=False), stamp) for p in payloads],
            )

    async def update_post(self, post_id: int, payload: dict[str, Any]) -> None:
        await self.run("UPDATE outbox SET payload = ? WHERE id = ?", (json.dumps(payload, ensure_ascii=False), post_id))

    async def delete_post(self, post_id: int) -> None:
        await self.run("DELETE FROM outbox WHERE id = ?", (post_id,))

    async def stage_post(self, flight_id: str, payload: dict[str, Any]) -> int:
        found = await self.rows(
            "INSERT INTO outbox (flight_id, payload, created_at) VALUES (?, ?, ?) RETURNING id",
            (flight_id, json.dumps(payload, ensure_ascii=False), now()),
        )
        return int(found[0][0])


# The unit of work the current task is in, if any (a nested `transaction()` joins it).
CURRENT_TX: ContextVar[SqlTransaction | None] = ContextVar("storage_transaction", default=None)


class SqlStorage(UnitsOfWork, PlatformReads, SessionReads, SessionOutboxReads, WebReads, ComparisonReads):
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

    # -- flights (the writes come from UnitsOfWork) ------------------------------------------------------
    async def load_flight(self, flight_id: str) -> FlightRecord | None:
        found = await self._fetch(f"{self.dialect.select_flight} WHERE id = ?", (flight_id,))
        return flight_of_row(found[0]) if found else None

    async def active_flight_in_channel(self, channel_id: int) -> FlightRecord | None:
        found = await self._fetch(
            f"{self.dialect.select_flight} WHERE channel_id = ? AND status IN ({_ACTIVE})", (channel_id,)
        )
        return flight_of_row(found[0]) if found else None

    async def active_flights(self) -> list[FlightRecord]:
        found = await self._fetch(f"{self.dialect.select_flight} WHERE status IN ({_ACTIVE}) ORDER BY created_at")
        return [flight_of_row(r) for r in found]

    async def ended_flights_with_muted_members(self) -> list[FlightRecord]:
        found = await self._fetch(
            f"{self.dialect.select_flight} WHERE status NOT IN ({_ACTIVE})"
            " AND EXISTS (SELECT 1 FROM flight_muted m WHERE m.flight_id = flights.id) ORDER BY created_at"
        )
        return [flight_of_row(r) for r in found]

    async def muted_members(self, flight_id: str) -> list[int]:
        found = await self._fetch("SELECT user_id FROM flight_muted WHERE flight_id = ? ORDER BY seq", (flight_id,))
        return [int(r[0]) for r in found]

    async def flight_events(self, flight_id: str) -> list[dict[str, Any]]:
        found = await self._fetch(
            "SELECT seq, at, actor_id, kind, payload FROM flight_events WHERE flight_id = ? ORDER BY seq",
            (flight_id,),
        )
        return [event_from_row(*r) for r in found]

    # -- logbook -------------------------------------------------------------------------------------
    async def _crew_of(self, ids: list[int]) -> dict[int, list[LogbookCrew]]:
        if not ids:
            return {}
        crews: dict[int, list[LogbookCrew]] = {i: [] for i in ids}
        marks = ", ".join("?" * len(ids))
        found = await self._fetch(
            f"SELECT logbook_id, user_id, name, roles FROM logbook_crew WHERE logbook_id IN ({marks})"
            " ORDER BY logbook_id, position",
            ids,
        )
        for lid, uid, name, roles in found:
            crews[lid].append(crew_from_row(uid, name, roles))
        return crews

    async def logbook(
        self,
        guild_id: int,
        *,
        user_id: int | None = None,
        mission_id: str | None = None,
        difficulty: str | None = None,
        limit: int = 10,
    ) -> list[LogbookEntry]:
        where = ["guild_id = ?", "game = 'space_alert'"]
        params: list[Any] = [guild_id]
        if user_id is not None:
            where.append("id IN (SELECT logbook_id FROM logbook_crew WHERE user_id = ?)")
            params.append(user_id)
        if mission_id:
            where.append("mission_id = ?")
            params.append(mission_id)
        if difficulty:
            where.append("(normal_difficulty = ? OR serious_difficulty = ?)")
            params.extend([difficulty, difficulty])
        params.append(limit)
        rows = await self._fetch(
            f"SELECT {', '.join(LOGBOOK_COLUMNS)} FROM logbook WHERE {' AND '.join(where)}"
            " ORDER BY flown_at DESC, id DESC LIMIT ?",
            params,
        )
        crews = await self._crew_of([r[0] for r in rows])
        return [logbook_from_row(r, crews.get(r[0], [])) for r in rows]

    async def leaderboard(self, guild_id: int, *, limit: int = 25) -> list[LeaderboardRow]:
        # Best surviving flight per (mission, difficulty pair); ties go to the earliest flight.
        rows = await self._fetch(
            """
            SELECT id, mission_id, normal_difficulty, serious_difficulty, total, flown_at FROM (
                SELECT id, mission_id, normal_difficulty, serious_difficulty, total, flown_at,
                    ROW_NUMBER() OVER (
                        PARTITION BY mission_id, normal_difficulty, serious_difficulty
                        ORDER BY total DESC, flown_at ASC, id ASC) AS rn
                FROM logbook WHERE guild_id = ? AND outcome = 'survived' AND game = 'space_alert') AS best
            WHERE rn = 1 ORDER BY mission_id, normal_difficulty, serious_difficulty LIMIT ?""",
            (guild_id, limit),
        )
        crews = await self._crew_of([r[0] for r in rows])
        return [
            LeaderboardRow(
                logbook_id=r[0],
                mission_id=r[1],
                normal_difficulty=r[2],
                serious_difficulty=r[3],
                total=r[4],
                flown_at=str(r[5]),
                crew=[c.name for c in crews.get(r[0], []) if c.user_id is not None],
            )
            for r in rows
        ]

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
