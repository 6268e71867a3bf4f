"""Setup builds its per-threat tokens, the crew, the ship and the mission without the dataclass
__init__ (engine.state.place_threat, enlist, new_ship, new_mission, for speed); each must be the
object the class builds, field by field (for every card, for the tokens)."""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

import pytest

from engine import board, resolve
from engine.resolution.mission import _SETUPS, _setup
from engine.state import CrewMember, Mission, Ship, ThreatState, enlist, new_mission, new_ship, place_threat
from engine.threats.catalog import base_cards


def test_place_threat_sets_every_field_as_the_class_does() -> None:
    track = board.TRACKS["T3"]
    for card_id in base_cards():
        setup = _SETUPS.get(card_id) or _setup(card_id)
        zone = None if setup.card.internal else "blue"
        args = (setup.state, 4, zone, track, (4, setup.internal_rank, setup.serious_rank, 2))
        fast = place_threat(*args)
        slow = ThreatState(*setup.state, *args[1:])
        for f in fields(ThreatState):
            assert getattr(fast, f.name) == getattr(slow, f.name), (card_id, f.name)
        assert fast.routes is track.routes[setup.card.speed]
        # until it appears a token's containers are immutable: no rule can fill a shared one
        for empty in (fast.stations, fast.slime, fast.stations_hit):
            assert not empty and not hasattr(empty, "append") and not hasattr(empty, "add")


@pytest.mark.parametrize("card_id", ["SI2-03", "I2-01", "SI2-04"])  # malfunction, slime, contamination
def test_tokens_of_one_card_get_containers_of_their_own_when_they_appear(card_id: str) -> None:
    """Two tokens of one card in one mission must not share their mutable fields."""
    game = {
        "tracks": {"red": "T1", "white": "T2", "blue": "T3", "internal": "T4"},
        "players": [{"name": "A", "actions": "-" * 12}],
        "threats": [{"id": card_id, "turn": 1}, {"id": card_id, "turn": 2}],
    }
    seen: list[list[ThreatState]] = []
    resolve(game, observer=lambda m: seen.append(list(m.threats)))
    first, second = seen[2]  # after turn 2: both have appeared
    assert first.appeared and second.appeared
    mutable = 0
    for name in ("stations", "slime", "stations_hit"):
        mine, theirs = getattr(first, name), getattr(second, name)
        if isinstance(mine, list | set):
            assert mine is not theirs, name
            mutable += 1
        else:
            assert mine == () == theirs, name  # a container this kind of threat never fills
    assert mutable >= 1


def _same_fields(fast: object, slow: object) -> None:
    for f in fields(type(slow)):  # type: ignore[arg-type]
        assert getattr(fast, f.name) == getattr(slow, f.name), f.name


def test_enlist_sets_every_field_as_the_class_does() -> None:
    fast = enlist(2, "Ann", list("abc-abc-abc-"))
    _same_fields(fast, CrewMember(2, "Ann", list("abc-abc-abc-")))
    assert fast.delayed_turns is not enlist(2, "Ann", []).delayed_turns


def test_new_ship_sets_every_field_as_the_class_does() -> None:
    def parts() -> tuple[Any, ...]:
        return ({"red": 1}, {"red": 2}, {"red": 3}, {"red": 4}, {"red": []}, {"red": ["x"]}, {"upper_blue": "ready"})

    fast = new_ship(*parts())
    *head, depots = parts()
    _same_fields(fast, Ship(*head, depots=depots))
    other = new_ship(*parts())
    assert fast.multiplier is not other.multiplier and fast.observation_best is not other.observation_best
    assert fast.lifts_used is not other.lifts_used and fast.broken is not other.broken


def test_new_mission_sets_every_field_as_the_class_does() -> None:
    ship = new_ship({}, {}, {}, {}, {}, {}, {})
    rng = random.Random(5)
    fast = new_mission([], ship, [], rng, True)
    _same_fields(fast, Mission([], ship, [], rng, True))
    other = new_mission([], ship, [], rng, False)
    assert fast.systems_out is not other.systems_out and fast.externals is not other.externals
    assert fast.events is not other.events and fast.on_board is not other.on_board
