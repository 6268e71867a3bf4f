"""A bot over a temporary database with the campaign extension loaded, and its world."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.bot.helpers import FakeClock, World, new_bot, stop_bot


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def bot(tmp_path: Path, clock: FakeClock) -> Any:
    instance = await new_bot(tmp_path / "sa.sqlite3", clock)
    if instance.get_cog("Campaign") is None:  # until bot/platform/client.py lists the extension
        await instance.load_extension("bot.games.space_alert.campaign")
    yield instance
    await stop_bot(instance)


@pytest.fixture
def world(bot: Any) -> Any:
    return World(bot)
