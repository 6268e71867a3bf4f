"""The SQLite backend of `Storage` (aiosqlite, WAL journal).

WAL because the flight runner writes every few seconds while commands read the records; readers
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
import shutil
import sqlite3
from collections.abc import AsyncIterator, Iterable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from bot.platform.storage.base import DatabaseUnavailable, StorageError
from bot.platform.storage.migrate import apply_migrations
from bot.platform.storage.sql import Dialect, SqlStorage, SqlTransaction

BUSY_TIMEOUT_MS = 5000
MIN_FREE_BYTES = 1 << 20  # below this the next checkpoint may fail: refuse to start

SQLITE = Dialect(
    name="sqlite",
    for_update="",  # BEGIN IMMEDIATE already holds the database's write lock
    unique_violation=(sqlite3.IntegrityError,),
)


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


async def _when_unlocked(step: Any, attempts: int = 20) -> Any:
    """Run an opening step again while another process holds a lock SQLite will not wait for.

    busy_timeout covers ordinary waits, but two processes opening one new database at once can
    still get "database is locked" at once (switching to WAL, or a read lock that would have to be
    upgraded); the step is idempotent, so trying again after a short pause is the cure."""
    for attempt in range(attempts):
        try:
            return await step()
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or attempt == attempts - 1:
                raise
            await asyncio.sleep(0.05 * (attempt + 1))
    raise AssertionError("unreachable")


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


class SqliteTransaction(SqlTransaction):
    """The statements of one unit of work, run on the writer connection inside BEGIN IMMEDIATE."""

    dialect = SQLITE

    def __init__(self, storage: SqliteStorage, conn: aiosqlite.Connection) -> None:
        super().__init__(storage)
        self._conn = conn

    async def rows(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        return list(await self._conn.execute_fetchall(sql, tuple(params)))

    async def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        cur = await self._conn.execute(sql, tuple(params))
        count = cur.rowcount
        await cur.close()
        return count

    async def many(self, sql: str, params: list[tuple[Any, ...]]) -> None:
        await self._conn.executemany(sql, params)


class SqliteStorage(SqlStorage):
    """`Storage` over a writer connection (transactions, one at a time) and a reader connection."""

    dialect = SQLITE
    shared = False  # one process: every lease is trivially its own (bot/platform/cluster.py)

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
        await _when_unlocked(lambda: conn.execute("PRAGMA journal_mode=WAL"))
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
        await _when_unlocked(lambda: apply_migrations(conn, self._migrations_dir))
        if isinstance(self.path, Path):
            self._reader = await _connect(str(self.path))
            await self._reader.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")

    def read_connection(self) -> aiosqlite.Connection:
        """The connection for reads of committed data (the stats queries of bot/games/space_alert/stats run
        their own SQL on it).  Writes belong in `transaction()`: this connection takes no part in
        the write lock that keeps units of work apart."""
        return self._reader if self._reader is not None else self.conn

    async def close(self) -> None:
        for name in ("_reader", "_conn"):
            conn: aiosqlite.Connection | None = getattr(self, name)
            setattr(self, name, None)
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()

    # -- units of work -------------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def _new_unit(self) -> AsyncIterator[SqlTransaction]:
        conn = self.conn

        async def begin() -> None:
            try:
                await conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:  # another process held the lock too long
                raise StorageError(f"the database is busy: {exc}") from exc

        # The ROLLBACK of a failed unit is queued on the connection's thread before the lock is
        # released, so the next unit's BEGIN always comes after it, even if we are cancelled.
        async with self._lock, self._unit(SqliteTransaction(self, conn), begin, conn.commit, conn.rollback) as tx:
            yield tx

    async def _fetch(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        """Rows of a read: inside the caller's transaction if any, else from the reader."""
        joined = self._joined()
        if joined is not None:
            return await joined.rows(sql, params)
        if self._reader is not None:
            return list(await self._reader.execute_fetchall(sql, tuple(params)))
        async with self._lock:  # ":memory:" has no second connection: never read mid-transaction
            return list(await self.conn.execute_fetchall(sql, tuple(params)))
