"""The stored ELITE document: a version-1 journal (stored before snapshots) is migrated once into
a snapshot that restores the same game, and a restart pauses a running timer where it was stored."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.elite._document import DOC_VERSION, GameDoc, apply, migrate, new_state, pause_for_restart, restore
from bot.games.elite._session import Session
from engine.common.clock import ManualClock
from engine.elite.game import EliteGame
from engine.elite.setup import EliteConfig

CONFIG = {
    "map": "crash_site",
    "mission": "exploration",
    "difficulty": "easy",
    "players": 2,
    "heroes": ("kara", "gerid"),
}
STEPS: list[list[Any]] = [
    [1000.0, "next"],
    [1001.0, "next"],
    [1001.5, "roll", "tapeworm", {"kara": 2}, 4],  # the dice come from the game's stream
    [1002.0, "next"],
    [1003.0, "start"],
    [1020.0, "adjust", 15],
    [1030.0, "poll"],
]


def played(clock: ManualClock) -> Session:
    """The steps of STEPS run live, each at its time."""
    game = EliteGame(EliteConfig.model_validate(CONFIG), 11, clock, None)
    session = Session(game, "en", 1, 555)
    for at, step, *args in STEPS:
        clock.now = at
        apply(session, step, args)
    return session


def test_a_version_1_journal_becomes_a_snapshot_of_the_same_game() -> None:
    clock = ManualClock(1000.0)
    live = played(clock)
    v1 = {
        "version": 1,
        "guild_id": 42,
        "channel_id": 555,
        "host_id": 1,
        "lang": "en",
        "seed": 11,
        "config": CONFIG,
        "status_message_id": 9,
        "voice_channel_id": None,
        "actions": STEPS,
        "log": list(live.log),
    }
    doc = migrate(v1, None)
    assert doc["version"] == DOC_VERSION and doc["actions"][: len(STEPS)] == STEPS and doc["status_message_id"] == 9
    assert doc["paused_at_restart"] and doc["actions"][-1][1:] == ["pause", "restart"]  # it was running
    back = restore(doc, None, ManualClock(5000.0))
    assert back.game.timer is not None and back.game.timer.state == "paused"
    assert back.game.timer.remaining() == pytest.approx(120 + 15 - (1030 - 1003))  # paused at its last step
    assert back.game.snapshot()["rng"] == live.game.snapshot()["rng"]  # the same dice to come
    assert back.log == live.log


def test_a_restart_pauses_only_a_running_timer_at_the_stored_instant() -> None:
    clock = ManualClock(1000.0)
    live = played(clock)
    doc = GameDoc(42, 555, 1, "en", 11, CONFIG)
    state = new_state(doc, live)  # saved at 1030 with the timer running
    assert pause_for_restart(state) and not pause_for_restart(state)  # a second time: nothing to pause
    back = restore(state, None, ManualClock(9999.0))
    assert back.game.timer is not None and back.game.timer.remaining() == pytest.approx(108.0)
    with pytest.raises(ValueError, match="version"):
        restore({**state, "version": 1}, None, clock)
