"""The state classes have no __init__: setup builds its per-threat tokens, the crew, the ship and
the mission with engine.state's place_threat, enlist, new_ship and new_mission (for speed).  Each
must set every field: to what it was given, else to the default written on the class (for every
card, for the tokens), and give every object containers of its own."""

from __future__ import annotations

import random
from dataclasses import MISSING, fields
from typing import Any

import pytest

from engine import board, resolve
from engine.resolution.mission import _SETUPS, _setup
from engine.state import CrewMember, ThreatState, enlist, new_mission, new_ship, place_threat
from engine.threats.catalog import base_cards

# ThreatState's fields that the card sets, in the order of mission._Setup.state
CARD_FIELDS = (
    "card",
    "health",
    "speed",
    "shield",
    "visible",
    "cryoshield",
    "internal",
    "immune",
    "hides_far",
    "program",
)


def test_place_threat_sets_every_field() -> None:
    track = board.TRACKS["T3"]
    for card_id in base_cards():
        setup = _SETUPS.get(card_id) or _setup(card_id)
        zone = None if setup.card.internal else "blue"
        key = (4, setup.internal_rank, setup.serious_rank, 2)
        token = place_threat(setup.state, 4, zone, track, key)
        card_sets = dict(zip(CARD_FIELDS, setup.state, strict=True))
        given = {**card_sets, "number": 4, "zone": zone, "track": track, "sort_key": key}
        _built(token, {**given, "routes": track.routes[setup.card.speed]})
        # until it appears a token's containers are immutable: no rule can fill a shared one
        for empty in (token.stations, token.slime, token.stations_hit):
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


def _built(obj: Any, given: dict[str, Any]) -> None:
    """Every field of a state object is set: to what the constructor was given, else to the
    default written on the class (the classes have no __init__ that would fill them)."""
    for f in fields(obj):
        value = getattr(obj, f.name)  # AttributeError: the constructor forgot this field
        if f.name in given:
            assert value is given[f.name] or value == given[f.name], f.name
        elif f.default is not MISSING:
            assert value == f.default, f.name
        else:
            assert f.default_factory is not MISSING, f"{f.name}: not set by the constructor"
            assert value == f.default_factory(), f.name


def test_enlist_sets_every_field() -> None:
    actions = list("abc-abc-abc-")
    crew = enlist(2, "Ann", actions)
    _built(crew, {"index": 2, "name": "Ann", "actions": actions})
    assert crew.delayed_turns is not enlist(2, "Ann", []).delayed_turns


def test_new_ship_sets_every_field() -> None:
    def parts() -> tuple[Any, ...]:
        return ({"red": 1}, {"red": 2}, {"red": 3}, {"red": 4}, {"red": []}, {"red": ["x"]}, {"upper_blue": "ready"})

    ship = new_ship(*parts())
    names = ("shields", "shield_cap", "reactors", "reactor_cap", "damage", "piles", "depots")
    _built(ship, dict(zip(names, parts(), strict=True)))
    other = new_ship(*parts())
    assert ship.multiplier is not other.multiplier and ship.observation_best is not other.observation_best
    assert ship.lifts_used is not other.lifts_used and ship.broken is not other.broken
    assert ship.cannon_damage is not other.cannon_damage


def test_new_mission_sets_every_field() -> None:
    ship = new_ship({}, {}, {}, {}, {}, {}, {})
    rng = random.Random(5)
    crew: list[CrewMember] = []
    mission = new_mission(crew, ship, [], rng, True)
    _built(mission, {"crew": crew, "ship": ship, "threats": [], "rng": rng, "log_enabled": True})
    other = new_mission([], ship, [], rng, False)
    assert mission.systems_out is not other.systems_out and mission.externals is not other.externals
    assert mission.events is not other.events and mission.on_board is not other.on_board
