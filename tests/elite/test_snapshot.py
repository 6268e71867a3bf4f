"""A game stored as a snapshot and restored is the same game: the same state now, and the same
draws, dice and timer afterwards (the bot keeps ELITE as one document changed load -> step -> save)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.common.clock import ManualClock
from engine.elite.datapack import AlienAbility, load_pack
from engine.elite.game import EliteGame
from engine.elite.timer import ActionTimer
from tests.elite.test_game import PACK, make

PACK_WITH_HEROES = {**PACK, "heroes": [{"hero": "kara", "length": 9, "thresholds": [3, 6]}]}


def stored(game: EliteGame) -> dict[str, Any]:
    """Through JSON, as the database keeps it (tuples become lists, keys strings)."""
    return json.loads(json.dumps(game.snapshot()))


def restored(game: EliteGame, clock: ManualClock) -> EliteGame:
    return EliteGame.restore(stored(game), game.config, game.seed, clock, game.pack)


def to_the_action_phase(game: EliteGame) -> None:
    for _ in range(3):
        game.advance()


def test_a_restored_game_goes_on_exactly_as_the_original() -> None:
    clock = ManualClock(1000.0)
    pack = load_pack(PACK_WITH_HEROES)
    original = make(difficulty="hard", pack=pack, seed=5, clock=clock)
    to_the_action_phase(original)
    original.peek(original.setup.objective_cells[0], 77)
    original.start_timer()
    clock.advance(12.5)
    original.adjust_time(15)
    copy = restored(original, clock)
    assert stored(copy) == stored(original)
    assert copy.timer is not None and copy.timer.remaining() == pytest.approx(original.timer.remaining())  # type: ignore[union-attr]
    assert copy.exploration is not None and copy.exploration.viewers(original.setup.objective_cells[0]) == (77,)
    for game in (original, copy):  # the same future: time's up, activation, rolls, next spawns
        game.activate(force=True)
        game.roll_alien("hound", {"kara": 3}, AlienAbility(hit_value=4))
    assert stored(copy) == stored(original)
    for _ in range(6):
        if original.phase == "over":
            break
        report, again = original.advance(), copy.advance()
        if not isinstance(report, ActionTimer):  # a timer has no value equality; its state is compared below
            assert report == again
        assert stored(copy) == stored(original)
        if original.phase == "action":
            original.activate(force=True)
            copy.activate(force=True)
    assert stored(copy) == stored(original)


def test_a_stored_running_timer_is_paused_at_its_last_stored_instant() -> None:
    clock = ManualClock(50.0)
    game = make(clock=clock)
    to_the_action_phase(game)
    game.start_timer()
    clock.advance(30)
    data = stored(game)["timer"]
    paused = ActionTimer.paused_at(data, at=70.0)  # stored at 70; the process died; now it is 80
    clock.advance(600)
    timer = ActionTimer.restore(clock, paused)
    assert (timer.state, timer.remaining(), timer.pauses) == ("paused", pytest.approx(100.0), 1)
    assert ActionTimer.paused_at({**data, "state": "paused"}, at=70.0)["state"] == "paused"  # only running ones


def test_a_snapshot_of_another_version_or_word_is_refused() -> None:
    game = make()
    data = stored(game)
    with pytest.raises(ValueError, match="version"):
        EliteGame.restore({**data, "version": 99}, game.config, game.seed, ManualClock())
    with pytest.raises(ValueError, match="phase"):
        EliteGame.restore({**data, "phase": "lunch"}, game.config, game.seed, ManualClock())
