"""The storage backends the storage tests run against, as one parametrised fixture.

Tests written against the `Storage` interface take `storage` (opened, empty, migrated) or
`open_storage` (a factory that opens another handle on the same database: "a restart").  A
backend joins by adding a parameter here.  PostgreSQL runs in a fresh schema per test on the
server named by TEST_DATABASE_URL (default: the local `test` database) and skips, saying why,
only when no server answers.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.platform.storage import SqliteStorage, Storage

BACKENDS = ["sqlite", "postgres"]
PG_URL = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")

Opener = Callable[[], Awaitable[Any]]

_pg_down: str | None = None  # why PostgreSQL cannot be used, once found out


async def postgres_reason() -> str | None:
    """None when a PostgreSQL server answers at PG_URL, else the reason to skip."""
    global _pg_down
    if _pg_down is None:
        try:
            import asyncpg

            conn = await asyncpg.connect(PG_URL, timeout=3)
            await conn.close()
            _pg_down = ""
        except ImportError:
            _pg_down = "asyncpg is not installed"
        except Exception as exc:  # refused, unknown host, auth: no server for us
            _pg_down = f"no PostgreSQL server answers at {PG_URL}: {exc}"
    return _pg_down or None


def make_storage(backend: str, tmp_path: Path, schema: str) -> Storage:
    if backend == "sqlite":
        return SqliteStorage(tmp_path / "sa.sqlite3")
    from bot.platform.storage.postgres import PostgresStorage

    return PostgresStorage(PG_URL, schema=schema)


@pytest.fixture(params=BACKENDS)
async def open_storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Opener]:
    """A factory of opened storages over one fresh database; all are closed at the end."""
    backend: str = request.param
    if backend == "postgres" and (reason := await postgres_reason()):
        pytest.skip(reason)
    schema = f"t_{uuid.uuid4().hex[:16]}"
    opened: list[Storage] = []

    async def factory() -> Storage:
        storage = make_storage(backend, tmp_path, schema)
        await storage.open()
        opened.append(storage)
        return storage

    yield factory
    for storage in opened:
        await storage.close()
    if backend == "postgres":
        await drop_schema(schema)


async def drop_schema(schema: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_URL, timeout=3)
    try:
        await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    finally:
        await conn.close()


@pytest.fixture(params=BACKENDS)
async def bot_backend(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[str]:
    """Bots made by tests.bot.helpers.new_bot store in this backend (one fresh schema per test for
    PostgreSQL, shared by every bot of the test: a restart finds its flights)."""
    backend: str = request.param
    if backend == "sqlite":
        yield backend
        return
    if reason := await postgres_reason():
        pytest.skip(reason)
    from bot.platform.storage.postgres import PostgresStorage
    from tests.bot import helpers

    schema = f"t_{uuid.uuid4().hex[:16]}"
    monkeypatch.setattr(helpers, "SqliteStorage", lambda _path: PostgresStorage(PG_URL, schema=schema))
    yield backend
    await drop_schema(schema)


@pytest.fixture
async def storage(open_storage: Opener) -> Storage:
    result: Storage = await open_storage()
    return result
