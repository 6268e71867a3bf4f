"""Setup builds its per-threat tokens, the crew, the ship and the mission without the dataclass
__init__ (engine.state.place_threat, enlist, new_ship, new_mission, for speed); each must be the
object the class builds, field by field (for every card, for the tokens)."""

from __future__ import annotations

import random
from dataclasses import fields
from typing import Any

from engine import board, resolve
from engine.resolution.mission import _SETUPS, _setup
from engine.state import CrewMember, Mission, Ship, ThreatState, enlist, new_mission, new_ship, place_threat
from engine.threats.catalog import base_cards


def test_place_threat_sets_every_field_as_the_class_does() -> None:
    track = board.TRACKS["T3"]
    for card_id in base_cards():
        setup = _SETUPS.get(card_id) or _setup(card_id)
        zone = None if setup.card.internal else "blue"
        args = (setup.state, 4, 2, zone, track, (4, *setup.rank, 2))
        fast = place_threat(*args)
        slow = ThreatState(*setup.state, *args[1:])
        for f in fields(ThreatState):
            assert getattr(fast, f.name) == getattr(slow, f.name), (card_id, f.name)
        # fresh containers per token, as the class's default factories give
        assert fast.stations is not place_threat(*args).stations
        assert fast.stations_hit is not place_threat(*args).stations_hit


def test_a_resolved_mission_does_not_share_containers_between_tokens() -> None:
    """Two tokens of one card in one mission must not share their mutable fields."""
    game = {
        "tracks": {"red": "T1", "white": "T2", "blue": "T3", "internal": "T4"},
        "players": [{"name": "A", "actions": "-" * 12}],
        "threats": [{"id": "I1-01", "turn": 1}, {"id": "I1-01", "turn": 2}],
    }
    seen: list[list[ThreatState]] = []
    resolve(game, observer=lambda m: seen.append(list(m.threats)))
    first, second = seen[0]
    assert first.slime is not second.slime and first.stations_hit is not second.stations_hit


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
    assert all(a is not b for a, b in zip(fast.role_groups(), other.role_groups(), strict=True))
    assert fast.events is not other.events and fast.on_board is not other.on_board
