"""Two "processes" over one database: factories of storages that share it.

PostgreSQL runs in a fresh schema per test on TEST_DATABASE_URL (default the local `test`
database) and skips, saying why, only when no server answers; SQLite shares one file.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.platform.storage import SqliteStorage, Storage
from tests.bot.storage_backends import PG_URL, drop_schema, postgres_reason

Opener = Callable[[], Awaitable[Any]]


async def _factory(backend: str, tmp_path: Path) -> tuple[Opener, list[Storage], str]:
    schema = f"c_{uuid.uuid4().hex[:16]}"
    opened: list[Storage] = []

    async def factory() -> Storage:
        storage: Storage
        if backend == "sqlite":
            storage = SqliteStorage(tmp_path / "cluster.sqlite3")
        else:
            from bot.platform.storage.postgres import PostgresStorage

            storage = PostgresStorage(PG_URL, schema=schema)
        await storage.open()
        opened.append(storage)
        return storage

    return factory, opened, schema


async def _cleanup(backend: str, opened: list[Storage], schema: str) -> None:
    for storage in opened:
        await storage.close()
    if backend == "postgres":
        await drop_schema(schema)


@pytest.fixture
async def pg_storages(tmp_path: Path) -> AsyncIterator[Opener]:
    """Opens PostgreSQL storages over one fresh schema (each one "a process")."""
    if reason := await postgres_reason():
        pytest.skip(reason)
    factory, opened, schema = await _factory("postgres", tmp_path)
    yield factory
    await _cleanup("postgres", opened, schema)


@pytest.fixture(params=["sqlite", "postgres"])
async def storages(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Opener]:
    """The same over either backend (the storage interface is the same on both)."""
    backend: str = request.param
    if backend == "postgres" and (reason := await postgres_reason()):
        pytest.skip(reason)
    factory, opened, schema = await _factory(backend, tmp_path)
    yield factory
    await _cleanup(backend, opened, schema)
