"""Setup builds its per-threat tokens without the dataclass __init__ (engine.state.place_threat, for
speed); the token must be the one the class builds, field by field, for every card."""

from __future__ import annotations

from dataclasses import fields

from engine import board, resolve
from engine.resolution.mission import _SETUPS, _setup
from engine.state import ThreatState, place_threat
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
