"""resolve_with_states: the observer only reads, and the snapshots tell the flight turn by turn."""

from __future__ import annotations

import random

import pytest

from bot.games.space_alert.pictures import resolve_with_states
from engine import resolve
from engine.random_game import random_game
from tests.pictures.helpers import flight_game, flight_replay


def test_survived_flight_has_start_twelve_turns_and_the_jump() -> None:
    replay = flight_replay()
    assert [s.turn for s in replay.states] == list(range(14))
    assert replay.result.outcome == "survived" and replay.result.score.total == 16
    start, end = replay.states[0], replay.last
    assert start.events == () and all(c.station == "upper_white" for c in start.crew)
    assert start.shields == {"red": 1, "white": 1, "blue": 1} and start.fuel == 3
    assert {z: end.damage_count(z) for z in ("red", "white", "blue")} == replay.result.damage
    assert end.events[-1]["kind"] == "hyperspace_jump"


def test_snapshot_events_are_the_whole_log_in_order() -> None:
    replay = flight_replay()
    log = replay.result.log or []
    events = [e for s in replay.states for e in s.events]
    assert [(e["turn"], e["kind"]) for e in events] == [(e.turn, e.model_extra["kind"]) for e in log]
    for state in replay.states[1:]:
        assert all(e["turn"] == state.turn for e in state.events)


def test_threat_health_falls_as_it_is_hit() -> None:
    replay = flight_replay()
    fighter = [next(t for t in s.threats if t.number == 6 and t.id == "E1-07") for s in replay.states]
    assert not fighter[5].appeared and fighter[6].appeared and fighter[6].position == 9
    hits = [e for e in replay.states[6].events if e["kind"] == "threat_damage" and e["threat"] == "E1-07"]
    assert fighter[6].remaining == 4 - sum(e["damage"] for e in hits) == 1
    assert fighter[7].fate == "destroyed" and fighter[7].fate_turn == 7 and fighter[7].remaining == 0


@pytest.mark.parametrize("seed", range(12))
def test_observer_does_not_change_the_result(seed: int) -> None:
    game = random_game(random.Random(seed), crew=5, threats=8)
    replay = resolve_with_states(game)
    plain = resolve(game, log=True)
    assert replay.result.to_json_dict(with_log=True) == plain.to_json_dict(with_log=True)
    if plain.lost is not None:  # lost in turn k: start, turns 1..k-1, then the loss
        assert [s.turn for s in replay.states] == list(range(plain.lost.turn + 1))
        assert replay.last.lost and replay.last.events[-1]["kind"] == "mission_lost"
    else:
        assert len(replay.states) == 14


def test_game_dict_and_model_give_the_same_snapshots() -> None:
    from engine.model import Game

    game = flight_game()
    assert resolve_with_states(game).states == resolve_with_states(Game.model_validate(game)).states
