"""Fixtures: a bot over a temporary SQLite file with a hand-driven clock, and its world."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.bot.helpers import FakeClock, World, new_bot, stop_bot


@pytest.fixture
def clock() -> Any:
    return FakeClock()


@pytest.fixture
async def bot(tmp_path: Path, clock: Any):
    instance = await new_bot(tmp_path / "sa.sqlite3", clock)
    yield instance
    await stop_bot(instance)


@pytest.fixture
def world(bot: Any) -> Any:
    return World(bot)
