"""Each vocabulary tuple of engine/vocab.py is exactly its Literal, and board.py agrees with it."""

from __future__ import annotations

from typing import get_args

import pytest

from engine import board, vocab

PAIRS = [
    (name, getattr(vocab, name), getattr(vocab, literal))
    for name, literal in (
        ("ZONES", "Zone"),
        ("SHIP_DECKS", "ShipDeck"),
        ("STATIONS", "Station"),
        ("THREAT_DECKS", "ThreatDeck"),
        ("TRACK_IDS", "TrackId"),
        ("FATES", "Fate"),
        ("OUTCOMES", "Outcome"),
        ("LANGUAGES", "Language"),
        ("DIFFICULTIES", "Difficulty"),
        ("HALVES", "Half"),
        ("DAMAGE_TOKEN_KINDS", "DamageTokenKind"),
        ("ACTION_CODES", "ActionCode"),
        ("EVENT_KINDS", "EventKind"),
        ("MOVE_HOWS", "MoveHow"),
        ("DELAY_CAUSES", "DelayCause"),
        ("NO_EFFECT_REASONS", "NoEffectReason"),
        ("THREAT_NO_EFFECTS", "ThreatNoEffect"),
        ("HIT_HOWS", "HitHow"),
        ("WEAPONS", "Weapon"),
        ("BOTS_CHANGES", "BotsChange"),
        ("ENERGY_STORES", "EnergyStore"),
    )
]


@pytest.mark.parametrize(("name", "values", "literal"), PAIRS, ids=[p[0] for p in PAIRS])
def test_each_tuple_is_its_literal(name: str, values: tuple[str, ...], literal: object) -> None:
    assert values == get_args(literal)
    assert len(set(values)) == len(values)


def test_stations_are_every_deck_in_every_zone() -> None:
    assert set(vocab.STATIONS) == {f"{deck}_{zone}" for deck in vocab.SHIP_DECKS for zone in vocab.ZONES}
    station, space = get_args(vocab.Position)
    assert get_args(station) == vocab.STATIONS and get_args(space) == ("space",)


def test_board_geometry_uses_the_vocabulary() -> None:
    assert tuple(board.TRACKS) == vocab.TRACK_IDS
    assert set(board.HEROIC_MOVES.values()) == set(vocab.STATIONS)
    assert set(board.HEROIC_MOVES) | {"a", "b", "c", "x", "<", ">", "^", "-", "A", "B", "X"} == set(vocab.ACTION_CODES)
    assert board.neighbour("upper_red", "red") is None and board.neighbour("upper_red", "blue") == "upper_white"
    assert board.other_deck("lower_blue") == "upper_blue" and board.zone_of("lower_white") == "white"
