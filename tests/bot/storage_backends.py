"""The storage backends the storage tests run against, as one parametrised fixture.

Tests written against the `Storage` interface take `storage` (opened, empty, migrated) or
`open_storage` (a factory that opens another handle on the same database: "a restart").  A
backend joins by adding a parameter here; PostgreSQL skips with the reason when no server answers.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.storage import SqliteStorage, Storage

BACKENDS = ["sqlite"]

Opener = Callable[[], Awaitable[Any]]


@pytest.fixture(params=BACKENDS)
async def open_storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Opener]:
    """A factory of opened storages over one fresh database; all are closed at the end."""
    opened: list[Storage] = []

    async def factory() -> Storage:
        storage: Storage = SqliteStorage(tmp_path / "sa.sqlite3")
        await storage.open()
        opened.append(storage)
        return storage

    yield factory
    for storage in opened:
        await storage.close()


@pytest.fixture
async def storage(open_storage: Opener) -> Storage:
    result: Storage = await open_storage()
    return result
