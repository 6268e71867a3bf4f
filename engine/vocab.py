"""The game's vocabulary as types, defined once so that a typo is a type error, not a silent miss.

Zones, stations, decks, threat decks, fates, outcomes, languages and action codes travel through
the engine, the flight, the bot and the voice as short strings (they are also the JSON contract of
GAME.json and of stored flights). Each set of allowed strings is a `Literal` here; the tuples beside
them are the same sets for code that iterates, and a test keeps each pair in step.
"""

from __future__ import annotations

from typing import Literal, TypeAlias, get_args

Zone: TypeAlias = Literal["red", "white", "blue"]
ShipDeck: TypeAlias = Literal["upper", "lower"]
Station: TypeAlias = Literal["upper_red", "upper_white", "upper_blue", "lower_red", "lower_white", "lower_blue"]
# Where a crew member can be: a station, or out in space flying the interceptors.
Position: TypeAlias = Station | Literal["space"]
ThreatDeck: TypeAlias = Literal["common_external", "serious_external", "common_internal", "serious_internal"]
Severity: TypeAlias = Literal["common", "serious"]
ThreatKind: TypeAlias = Literal["external", "internal"]
TrackId: TypeAlias = Literal["T1", "T2", "T3", "T4", "T5", "T6", "T7"]
Fate: TypeAlias = Literal["destroyed", "survived", "active", "not_appeared"]
Outcome: TypeAlias = Literal["survived", "destroyed"]
Language: TypeAlias = Literal["en", "ru", "cs"]
Difficulty: TypeAlias = Literal["white", "yellow", "mixed"]
Half: TypeAlias = Literal["action", "move"]
DamageTokenKind: TypeAlias = Literal["structural", "lift", "shield", "reactor", "upper_cannon", "lower_cannon"]
# One square of an action board: the community resolvers' codes (A/B/C buttons, X battlebots,
# moves red/blue/lift, blank, heroic A/B/X, heroic moves to stations 1-6).
ActionCode: TypeAlias = Literal["a", "b", "c", "x", "<", ">", "^", "-", "A", "B", "X", "1", "2", "3", "4", "5", "6"]

ZONES: tuple[Zone, ...] = get_args(Zone)
SHIP_DECKS: tuple[ShipDeck, ...] = get_args(ShipDeck)
STATIONS: tuple[Station, ...] = get_args(Station)
THREAT_DECKS: tuple[ThreatDeck, ...] = get_args(ThreatDeck)
TRACK_IDS: tuple[TrackId, ...] = get_args(TrackId)
FATES: tuple[Fate, ...] = get_args(Fate)
OUTCOMES: tuple[Outcome, ...] = get_args(Outcome)
LANGUAGES: tuple[Language, ...] = get_args(Language)
DIFFICULTIES: tuple[Difficulty, ...] = get_args(Difficulty)
HALVES: tuple[Half, ...] = get_args(Half)
DAMAGE_TOKEN_KINDS: tuple[DamageTokenKind, ...] = get_args(DamageTokenKind)
ACTION_CODES: tuple[ActionCode, ...] = get_args(ActionCode)


def is_language(value: object) -> bool:
    """True for a language the bot and the intercom speak (a narrowing check for outside input)."""
    return value in LANGUAGES
