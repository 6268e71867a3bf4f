"""The SQLite backend of `Storage` (aiosqlite, WAL journal).

WAL because the flight runner writes every few seconds while commands read the logbook; readers
never block the writer.  `synchronous=NORMAL` in WAL mode still survives a process crash (only
an OS crash may lose the last commit), which is the failure a restart-safe bot has to survive.

Why every write is a transaction behind one lock: aiosqlite runs one connection on one thread,
and a transaction on it spans several awaits.  If two coroutines interleave their statements on
that connection, one's ROLLBACK undoes the other's uncommitted work (a busy channel in one flight
erasing a click in another).  So writes take the lock, `BEGIN IMMEDIATE` (the database's write
lock, so a read inside decides the write safely even with a second process), run, and COMMIT
or ROLLBACK as a whole.  Reads outside a transaction go to a second, read-only connection, which
in WAL mode sees committed data only and never waits for the writer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import shutil
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.base import (
    ACTIVE_STATUSES,
    ChannelBusy,
    DatabaseUnavailable,
    FlightRecord,
    LeaderboardRow,
    LogbookCrew,
    LogbookEntry,
    StaleWrite,
    StorageError,
    Undo,
    UnitsOfWork,
)
from bot.storage.migrate import apply_migrations
from bot.storage.rows import (
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

BUSY_TIMEOUT_MS = 5000
MIN_FREE_BYTES = 1 << 20  # below this the next checkpoint may fail: refuse to start

_COLS = ", ".join(FLIGHT_COLUMNS)
# One query gives the flight and its muted members (ordered), so a load is one round trip.
_SELECT_FLIGHT = (
    f"SELECT {_COLS}, (SELECT json_group_array(user_id) FROM"
    " (SELECT user_id FROM flight_muted m WHERE m.flight_id = flights.id ORDER BY seq)) FROM flights"
)
_ACTIVE = ", ".join(f"'{s}'" for s in ACTIVE_STATUSES)

_CURRENT: ContextVar[SqliteTransaction | None] = ContextVar("sqlite_transaction", default=None)


def _flight(row: Sequence[Any]) -> FlightRecord:
    *columns, muted = row
    return flight_from_row(columns, json.loads(muted) if muted else [])


def describe_failure(path: object, exc: BaseException) -> str:
    """One line for the operator: what is wrong with the database file and what to do."""
    msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    low = msg.lower()
    if isinstance(exc, OSError) and not isinstance(exc, sqlite3.Error):
        msg = exc.strerror or msg
        low = msg.lower()
    if "not a database" in low or "malformed" in low or "damaged" in low:
        return f"database {path} is not a usable SQLite database ({msg}); restore a backup or set DATABASE_PATH"
    if "readonly" in low or "read-only" in low or "permission denied" in low:
        return f"database {path} is read-only ({msg}); the bot must be able to write the file and its folder"
    if "full" in low or "no space" in low or "disk i/o" in low:
        return f"database {path}: no space left on the device ({msg}); free some space"
    if "unable to open" in low:
        return f"database {path} cannot be opened ({msg}); check that its folder exists and is writable"
    return f"database {path}: {msg}"


async def _connect(path: str) -> aiosqlite.Connection:
    """aiosqlite.connect, but a failed connect also waits for the worker thread to end.

    aiosqlite stops its thread after a failed connect without waiting; if the process then closes
    its event loop first (the bot exiting with code 3), the thread dies with a traceback on
    stderr.  Waiting here (bounded) makes the refusal one clean line."""
    pending = aiosqlite.connect(path, isolation_level=None)
    try:
        return await pending
    except BaseException:
        thread = getattr(pending, "_thread", None)
        for _ in range(200):
            if thread is None or not thread.is_alive():
                break
            await asyncio.sleep(0.01)
        raise


class SqliteTransaction:
    """The statements of one unit of work, run on the writer connection inside BEGIN IMMEDIATE."""

    def __init__(self, storage: SqliteStorage, conn: aiosqlite.Connection) -> None:
        self.storage = storage
        self.owner = asyncio.current_task()
        self.open = True
        self.undo = Undo()
        self._conn = conn

    async def rows(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        return list(await self._conn.execute_fetchall(sql, tuple(params)))

    async def run(self, sql: str, params: Iterable[Any] = ()) -> tuple[int, int]:
        """Execute one statement; (rowcount, lastrowid)."""
        cur = await self._conn.execute(sql, tuple(params))
        counts = (cur.rowcount, cur.lastrowid or 0)
        await cur.close()
        return counts

    # -- flights -------------------------------------------------------------------------------
    async def load_flight(self, flight_id: str) -> FlightRecord | None:
        found = await self.rows(f"{_SELECT_FLIGHT} WHERE id = ?", (flight_id,))
        return _flight(found[0]) if found else None

    async def create_flight(self, record: FlightRecord) -> FlightRecord:
        stamp = now()
        created = record.created_at or stamp
        try:
            await self.run(
                f"INSERT INTO flights ({_COLS}) VALUES ({', '.join('?' * len(FLIGHT_COLUMNS))})",
                flight_params(record, version=1, updated_at=stamp, created_at=created),
            )
        except sqlite3.IntegrityError as exc:
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
            count, _ = await self.run(
                f"UPDATE flights SET {sets} WHERE id = ? AND version = ?", (*params[1:], record.id, expected)
            )
        except sqlite3.IntegrityError as exc:
            raise ChannelBusy("this channel already has an active flight") from exc
        if count != 1:
            raise StaleWrite(f"flight {record.id} changed since it was read")
        await self._sync_muted(record.id, muted_of(record))
        if event is not None:
            await self.add_event(record.id, event)
        self.undo.assign(record, version=expected + 1, updated_at=stamp)
        return record

    async def add_event(self, flight_id: str, event: dict[str, Any]) -> None:
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
        current = await self._muted(flight_id)
        if current == wanted:
            return
        await self.run("DELETE FROM flight_muted WHERE flight_id = ?", (flight_id,))
        await self._conn.executemany(
            "INSERT INTO flight_muted (flight_id, user_id, seq) VALUES (?, ?, ?)",
            [(flight_id, u, i) for i, u in enumerate(wanted)],
        )

    async def update_muted(self, flight_id: str, *, add: Iterable[int] = (), remove: Iterable[int] = ()) -> list[int]:
        before = await self._muted(flight_id)
        gone = {int(u) for u in remove}
        after = [u for u in before if u not in gone] + sorted({int(u) for u in add} - set(before))
        if after != before:
            count, _ = await self.run(
                "UPDATE flights SET version = version + 1, updated_at = ? WHERE id = ?", (now(), flight_id)
            )
            if count != 1:
                return []
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
        _, entry_id = await self.run(
            f"INSERT INTO logbook ({names}) VALUES ({', '.join('?' * (len(LOGBOOK_COLUMNS) - 1))})",
            logbook_params(entry),
        )
        await self._conn.executemany(
            "INSERT INTO logbook_crew (logbook_id, position, user_id, name, roles) VALUES (?, ?, ?, ?, ?)",
            [(entry_id, i, c.user_id, c.name, json.dumps(c.roles)) for i, c in enumerate(entry.crew)],
        )
        self.undo.assign(entry, id=entry_id)
        return entry_id

    # -- settings, custom missions, outbox -----------------------------------------------------------
    async def set_setting(self, guild_id: int, key: str, value: Any) -> None:
        await self.run(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
            (guild_id, key, json.dumps(value)),
        )

    async def save_custom_mission(
        self, guild_id: int, mission_id: str, name: str, timeline: dict[str, Any], created_by: int
    ) -> None:
        await self.run(
            "INSERT INTO custom_missions (guild_id, mission_id, name, timeline, created_by, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, mission_id) DO UPDATE SET"
            " name = excluded.name, timeline = excluded.timeline, created_by = excluded.created_by,"
            " created_at = excluded.created_at",
            (guild_id, mission_id, name, json.dumps(timeline), created_by, now()),
        )

    async def remove_custom_mission(self, guild_id: int, mission_id: str) -> bool:
        count, _ = await self.run(
            "DELETE FROM custom_missions WHERE guild_id = ? AND mission_id = ?", (guild_id, mission_id)
        )
        return count > 0

    async def store_posts(self, flight_id: str, payloads: list[dict[str, Any]]) -> None:
        stamp = now()
        await self._conn.executemany(
            "INSERT INTO outbox (flight_id, payload, created_at) VALUES (?, ?, ?)",
            [(flight_id, json.dumps(p, ensure_ascii=False), stamp) for p in payloads],
        )

    async def update_post(self, post_id: int, payload: dict[str, Any]) -> None:
        await self.run("UPDATE outbox SET payload = ? WHERE id = ?", (json.dumps(payload, ensure_ascii=False), post_id))

    async def delete_post(self, post_id: int) -> None:
        await self.run("DELETE FROM outbox WHERE id = ?", (post_id,))


class SqliteStorage(UnitsOfWork):
    """`Storage` over a writer connection (transactions, one at a time) and a reader connection."""

    def __init__(self, path: Path | str, *, migrations_dir: Path | None = None) -> None:
        self.path: Path | str = Path(path) if str(path) != ":memory:" else ":memory:"
        self._migrations_dir = migrations_dir
        self._conn: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    @property
    def conn(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise StorageError("storage is not open")
        return self._conn

    # -- opening and closing -------------------------------------------------------------------------
    async def open(self) -> None:
        """Connect, check the file, migrate.  Every failure closes what was opened (an aiosqlite
        thread left running keeps the process alive) and raises a StorageError with one line."""
        try:
            await self._open()
        except BaseException as exc:
            await self.close()
            if isinstance(exc, StorageError):
                raise
            if isinstance(exc, sqlite3.Error | OSError | ValueError):
                raise DatabaseUnavailable(describe_failure(self.path, exc)) from exc
            raise

    async def _open(self) -> None:
        if isinstance(self.path, Path):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            free = shutil.disk_usage(self.path.parent).free
            if free < MIN_FREE_BYTES:
                raise DatabaseUnavailable(
                    f"database {self.path}: no space left on the device ({free} bytes free); free some space"
                )
        self._conn = await _connect(str(self.path))
        conn = self._conn
        await conn.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA synchronous=NORMAL")
        await conn.execute("PRAGMA foreign_keys=ON")
        check = await conn.execute_fetchall("PRAGMA quick_check")
        verdict = [str(r[0]) for r in check]
        if verdict != ["ok"]:
            raise DatabaseUnavailable(describe_failure(self.path, sqlite3.DatabaseError(f"damaged: {verdict[0]}")))
        # Can we write at all?  A read-only file in WAL mode opens, reads and even locks fine; only
        # a real write shows it, and this one is rolled back.
        await conn.execute("BEGIN IMMEDIATE")
        try:
            await conn.execute("CREATE TABLE write_probe (x INTEGER)")
        finally:
            await conn.execute("ROLLBACK")
        await apply_migrations(conn, self._migrations_dir)
        if isinstance(self.path, Path):
            self._reader = await _connect(str(self.path))
            await self._reader.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            await self._reader.execute("PRAGMA query_only=1")

    async def close(self) -> None:
        for name in ("_reader", "_conn"):
            conn: aiosqlite.Connection | None = getattr(self, name)
            setattr(self, name, None)
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()

    async def schema_versions(self) -> list[int]:
        return [r[0] for r in await self._fetch("SELECT version FROM schema_version ORDER BY version")]

    # -- units of work -------------------------------------------------------------------------------
    def _joined(self) -> SqliteTransaction | None:
        tx = _CURRENT.get()
        if tx is not None and tx.open and tx.storage is self and tx.owner is asyncio.current_task():
            return tx
        return None

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[SqliteTransaction]:
        joined = self._joined()
        if joined is not None:  # nested in the same task: part of the outer unit of work
            yield joined
            return
        conn = self.conn
        async with self._lock:
            tx = SqliteTransaction(self, conn)
            token = _CURRENT.set(tx)
            try:
                try:
                    await conn.execute("BEGIN IMMEDIATE")
                except sqlite3.OperationalError as exc:  # another process held the lock too long
                    raise StorageError(f"the database is busy: {exc}") from exc
                try:
                    yield tx
                    await conn.commit()
                except BaseException:
                    # queued on the connection's thread before the lock is released, so the next
                    # transaction's BEGIN always comes after this ROLLBACK, even if we are cancelled
                    with contextlib.suppress(Exception):
                        await conn.rollback()
                    tx.undo.run()
                    raise
                tx.undo.forget()
            finally:
                tx.open = False
                with contextlib.suppress(ValueError):
                    _CURRENT.reset(token)

    async def _fetch(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        """Rows of a read: inside the caller's transaction if any, else from the reader."""
        joined = self._joined()
        if joined is not None:
            return await joined.rows(sql, params)
        if self._reader is not None:
            return list(await self._reader.execute_fetchall(sql, tuple(params)))
        async with self._lock:  # ":memory:" has no second connection: never read mid-transaction
            return list(await self.conn.execute_fetchall(sql, tuple(params)))

    # -- flights (reads; the writes come from UnitsOfWork) ---------------------------------------------
    async def load_flight(self, flight_id: str) -> FlightRecord | None:
        found = await self._fetch(f"{_SELECT_FLIGHT} WHERE id = ?", (flight_id,))
        return _flight(found[0]) if found else None

    async def active_flight_in_channel(self, channel_id: int) -> FlightRecord | None:
        found = await self._fetch(f"{_SELECT_FLIGHT} WHERE channel_id = ? AND status IN ({_ACTIVE})", (channel_id,))
        return _flight(found[0]) if found else None

    async def active_flights(self) -> list[FlightRecord]:
        found = await self._fetch(f"{_SELECT_FLIGHT} WHERE status IN ({_ACTIVE}) ORDER BY created_at")
        return [_flight(r) for r in found]

    async def ended_flights_with_muted_members(self) -> list[FlightRecord]:
        found = await self._fetch(
            f"{_SELECT_FLIGHT} WHERE status NOT IN ({_ACTIVE})"
            " AND EXISTS (SELECT 1 FROM flight_muted m WHERE m.flight_id = flights.id) ORDER BY created_at"
        )
        return [_flight(r) for r in found]

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
        where = ["guild_id = ?"]
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
                SELECT *, ROW_NUMBER() OVER (
                    PARTITION BY mission_id, normal_difficulty, serious_difficulty
                    ORDER BY total DESC, flown_at ASC, id ASC) AS rn
                FROM logbook WHERE guild_id = ? AND outcome = 'survived')
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
                flown_at=r[5],
                crew=[c.name for c in crews.get(r[0], []) if c.user_id is not None],
            )
            for r in rows
        ]

    # -- settings, custom missions, outbox (reads) ------------------------------------------------------
    async def get_setting(self, guild_id: int, key: str) -> Any | None:
        found = await self._fetch("SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key))
        return json.loads(found[0][0]) if found else None

    async def custom_missions(self, guild_id: int) -> dict[str, dict[str, Any]]:
        found = await self._fetch(
            "SELECT mission_id, name, timeline FROM custom_missions WHERE guild_id = ? ORDER BY mission_id",
            (guild_id,),
        )
        return {mid: {"name": name, "timeline": json.loads(tl)} for mid, name, tl in found}

    async def pending_posts(self) -> list[tuple[int, str, dict[str, Any]]]:
        found = await self._fetch("SELECT id, flight_id, payload FROM outbox ORDER BY id")
        return [(r[0], r[1], json.loads(r[2])) for r in found]
