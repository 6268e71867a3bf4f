"""The web app over a seeded store, on both backends (tests/bot/storage_backends.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.web.app import make_app
from tests.bot.storage_backends import open_storage, storage  # noqa: F401  (fixtures)
from tests.web import seed


@pytest.fixture
async def seeded(storage: Any) -> Any:  # noqa: F811
    await seed.fill(storage)
    return storage


@pytest.fixture
async def client(seeded: Any) -> AsyncIterator[TestClient[Any, Any]]:
    app = make_app(seeded, default_language="en", base_url="https://logbook.example.org")
    async with TestClient(TestServer(app)) as test_client:
        yield test_client
