"""Fixtures: a bot over a temporary SQLite file with a hand-driven clock, and its world."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import pytest

# tests/bot/helpers.py under a name no other test folder uses (pytest runs in importlib mode).
_spec = importlib.util.spec_from_file_location("sa_bot_helpers", Path(__file__).with_name("helpers.py"))
assert _spec is not None and _spec.loader is not None
helpers = importlib.util.module_from_spec(_spec)
sys.modules["sa_bot_helpers"] = helpers
_spec.loader.exec_module(helpers)
FakeClock = helpers.FakeClock
World = helpers.World
new_bot = helpers.new_bot
stop_bot = helpers.stop_bot


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
