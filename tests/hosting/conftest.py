"""A bot over a temporary database with the hosting extension loaded, and its world."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.bot.helpers import FakeClock, World, new_bot, stop_bot


@pytest.fixture
async def bot(tmp_path: Path) -> Any:
    instance = await new_bot(tmp_path / "sa.sqlite3", FakeClock())
    if instance.get_cog("Hosting") is None:  # until bot/platform/client.py lists the extension
        await instance.load_extension("bot.platform.hosting")
    yield instance
    await stop_bot(instance)


@pytest.fixture
def world(bot: Any) -> Any:
    return World(bot)
