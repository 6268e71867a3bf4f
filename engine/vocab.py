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
Language: TypeAlias = Literal["en", "ru", "cs", "sk"]
Difficulty: TypeAlias = Literal["white", "yellow", "mixed"]
Half: TypeAlias = Literal["action", "move"]
Letter: TypeAlias = Literal["X", "Y", "Z"]  # the action spaces of a trajectory and a threat card
DamageTokenKind: TypeAlias = Literal["structural", "lift", "shield", "reactor", "upper_cannon", "lower_cannon"]
# One square of an action board: the community resolvers' codes (A/B/C buttons, X battlebots,
# moves red/blue/lift, blank, heroic A/B/X, heroic moves to stations 1-6).
ActionCode: TypeAlias = Literal["a", "b", "c", "x", "<", ">", "^", "-", "A", "B", "X", "1", "2", "3", "4", "5", "6"]

ZONES: tuple[Zone, ...] = get_args(Zone)
SHIP_DECKS: tuple[ShipDeck, ...] = get_args(ShipDeck)
STATIONS: tuple[Station, ...] = get_args(Station)
POSITIONS: tuple[Position, ...] = (*STATIONS, "space")  # where a crew member can be
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


# --- resolution events (engine/resolution emits them; the bot renders the captain's log) ---------
# An event is a kind plus parameters: card ids, zones, stations, numbers and the codes below,
# never a sentence.  The catalogue's `captains_log` area has words for every kind and code.
EventKind: TypeAlias = Literal[
    "threat_appears",
    "move",
    "delay",
    "knocked_out",
    "no_effect",
    "fire",
    "energy",
    "refuel",
    "maintenance",
    "bots",
    "observe",
    "rocket_launched",
    "interceptors",
    "repair_attempt",
    "threat_hit",
    "threat_destroyed",
    "returns_fire",
    "no_target",
    "rocket_fizzles",
    "cryoshield",
    "threat_damage",
    "retaliation",
    "breakup",
    "threat_action",
    "threat_moved",
    "threat_survived",
    "attack",
    "damage_token",
    "zone_destroyed",
    "ship_lost",
    "mission_lost",
    "computer_ok",
    "computer_not_maintained",
    "phase_end",
    "hyperspace_jump",
    "threat_repairs",
    "self_damage",
    "threat_speed",
    "threat_shield",
    "threat_visible",
    "threat_aura",
    "threat_breakpoint",
    "energy_lost",
    "energy_moved",
    "threat_moves",
    "threat_stays",
    "threat_grows_up",
    "rocket_destroyed",
    "bots_disabled",
    "fuel_destroyed",
    "slime_spreads",
    "slime_blocked",
    "damage_doubled",
    "no_effect_threat",
]
# How a crew member got somewhere (event "move").
MoveHow: TypeAlias = Literal["red_arrow", "blue_arrow", "gravolift", "heroic_move", "launch", "return"]
# Why a crew member is delayed when no card caused it (event "delay"; a card's delay names the card).
DelayCause: TypeAlias = Literal["computer", "lift_damaged", "lift_busy", "return_from_space"]
# Why a crew member's action did nothing (event "no_effect").
NoEffectReason: TypeAlias = Literal[
    "hull_end",
    "system_broken",
    "cannon_fired",
    "no_energy",
    "no_fuel",
    "no_bots_to_take",
    "no_active_bots",
    "no_intruder",
    "space_taken",
    "no_rocket",
    "rocket_fired",
    "already_full",  # a B with nothing to fill: the shield (or reactor) is full already
    "knocked_out",  # the card of a knocked-out crew member (it stays on the board, unplayed)
]
# Why a threat's action did nothing (event "no_effect_threat").
ThreatNoEffect: TypeAlias = Literal["condition_unmet", "no_rockets", "no_stored_bots"]
# What hit or destroyed a threat (events "threat_hit", "threat_destroyed").
HitHow: TypeAlias = Literal[
    "damage",
    "explosion",
    "self_damage",
    "rocket_lost",
    "no_rockets",
    "repair",
    "battlebots",
    "interceptors",
    "all_repaired",
]
Weapon: TypeAlias = Literal["heavy", "light", "pulse", "rocket", "interceptors", "explosion"]
BotsChange: TypeAlias = Literal["reactivated", "picked_up", "picked_up_disabled"]
EnergyStore: TypeAlias = Literal["reactor", "shield"]

EVENT_KINDS: tuple[EventKind, ...] = get_args(EventKind)
MOVE_HOWS: tuple[MoveHow, ...] = get_args(MoveHow)
DELAY_CAUSES: tuple[DelayCause, ...] = get_args(DelayCause)
NO_EFFECT_REASONS: tuple[NoEffectReason, ...] = get_args(NoEffectReason)
THREAT_NO_EFFECTS: tuple[ThreatNoEffect, ...] = get_args(ThreatNoEffect)
HIT_HOWS: tuple[HitHow, ...] = get_args(HitHow)
WEAPONS: tuple[Weapon, ...] = get_args(Weapon)
BOTS_CHANGES: tuple[BotsChange, ...] = get_args(BotsChange)
ENERGY_STORES: tuple[EnergyStore, ...] = get_args(EnergyStore)
