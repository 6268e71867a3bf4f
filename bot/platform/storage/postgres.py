"""The PostgreSQL backend of `Storage` (asyncpg, a connection pool): the store several bot
processes share.

Every unit of work takes a connection from the pool for its own transaction, so transactions of
different flights run side by side and a failure rolls back only its own work.  A read that
decides a write (`update_flight`, a finishing flight, `update_muted`) reads the flight with
`SELECT ... FOR UPDATE`, so it holds the row until commit; `save_flight` of a record read earlier
stays optimistic (the version check, StaleWrite).  Migrations run at start-up under an advisory
lock, so processes starting together migrate once.

`schema` puts every table in a schema of its own (created if missing): the tests use a fresh one
per run, and one server can hold several bots.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator, Iterable, Sequence
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import asyncpg

from bot.platform.storage.base import DatabaseUnavailable, StorageError
from bot.platform.storage.migrate import apply_postgres_migrations
from bot.platform.storage.sql import Dialect, SqlStorage, SqlTransaction

CONNECT_TIMEOUT_S = 5.0

POSTGRES = Dialect(
    muted_json="(SELECT COALESCE(json_agg(m.user_id ORDER BY m.seq), '[]'::json)::text"
    " FROM flight_muted m WHERE m.flight_id = flights.id)",
    for_update=" FOR UPDATE",
    unique_violation=(asyncpg.UniqueViolationError,),
)

_SCHEMA = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


@lru_cache(maxsize=512)
def dollars(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1, $2, ...` (the shared SQL has no `?` in literals)."""
    count = 0

    def number(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return re.sub(r"\?", number, sql)


def redacted(url: str) -> str:
    """The URL without its password, for messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def _rowcount(status: str) -> int:
    """asyncpg's command status ("UPDATE 1", "DELETE 0", "INSERT 0 3") -> rows changed."""
    last = status.rsplit(" ", 1)[-1] if status else ""
    return int(last) if last.isdigit() else 0


class PostgresTransaction(SqlTransaction):
    """The statements of one unit of work, on one pooled connection inside one transaction."""

    dialect = POSTGRES

    def __init__(self, storage: PostgresStorage, conn: Any) -> None:
        super().__init__(storage)
        self._conn = conn

    async def rows(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        return list(await self._conn.fetch(dollars(sql), *params))

    async def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        return _rowcount(await self._conn.execute(dollars(sql), *params))

    async def many(self, sql: str, params: list[tuple[Any, ...]]) -> None:
        await self._conn.executemany(dollars(sql), params)


class PostgresStorage(SqlStorage):
    """`Storage` over an asyncpg pool; `url` is a postgresql:// DSN."""

    dialect = POSTGRES
    shared = True  # several processes share it: flight clocks need leases (bot/platform/cluster.py)

    def __init__(
        self, url: str, *, schema: str | None = None, drop_schema_on_close: bool = False, max_size: int = 10
    ) -> None:
        if schema is not None and not _SCHEMA.match(schema):
            raise ValueError(f"schema name {schema!r} must be lower-case letters, digits and _")
        self.url = url
        self.schema = schema
        self._drop_schema = drop_schema_on_close
        self._max_size = max_size
        self._pool: Any = None

    @property
    def pool(self) -> Any:
        if self._pool is None:
            raise StorageError("storage is not open")
        return self._pool

    # -- opening and closing -------------------------------------------------------------------------
    async def open(self) -> None:
        try:
            await self._open()
        except BaseException as exc:
            await self.close(drop=False)
            if isinstance(exc, StorageError):
                raise
            if isinstance(exc, OSError | TimeoutError | asyncpg.PostgresError | asyncpg.InterfaceError):
                first = (str(exc).splitlines() or [type(exc).__name__])[0]
                raise DatabaseUnavailable(f"database {redacted(self.url)}: {first}") from exc
            raise

    async def _open(self) -> None:
        settings = {"search_path": self.schema} if self.schema else None
        if self.schema:
            conn = await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT_S)
            try:  # IF NOT EXISTS still races another process creating it: serialise on a lock
                async with conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock(hashtext($1))", f"space-alert-bot:{self.schema}")
                    await conn.execute(f"CREATE SCHEMA IF NOT EXISTS {self.schema}")
            finally:
                await conn.close()
        self._pool = await asyncpg.create_pool(
            self.url, min_size=1, max_size=self._max_size, timeout=CONNECT_TIMEOUT_S, server_settings=settings
        )
        async with self._pool.acquire() as conn:
            await apply_postgres_migrations(conn)

    async def close(self, *, drop: bool = True) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        if drop and self._drop_schema and self.schema:
            with contextlib.suppress(Exception):
                async with pool.acquire() as conn:
                    await conn.execute(f"DROP SCHEMA IF EXISTS {self.schema} CASCADE")
        with contextlib.suppress(Exception):
            await pool.close()

    # -- units of work -------------------------------------------------------------------------------
    @contextlib.asynccontextmanager
    async def _new_unit(self) -> AsyncIterator[SqlTransaction]:
        async with self.pool.acquire() as conn:
            transaction = conn.transaction()
            tx = PostgresTransaction(self, conn)
            async with self._unit(tx, transaction.start, transaction.commit, transaction.rollback) as unit:
                yield unit

    async def _fetch(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        joined = self._joined()
        if joined is not None:
            return await joined.rows(sql, params)
        return list(await self.pool.fetch(dollars(sql), *params))
