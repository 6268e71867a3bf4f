"""The bot fixtures of tests/bot (a bot over a temporary SQLite file, its fake world)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.bot.helpers import FakeClock, World, new_bot, stop_bot


@pytest.fixture
async def bot(tmp_path: Path) -> Any:
    instance = await new_bot(tmp_path / "sa.sqlite3", FakeClock())
    yield instance
    await stop_bot(instance)


@pytest.fixture
def world(bot: Any) -> Any:
    return World(bot)
