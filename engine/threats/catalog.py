"""The threat cards as data (engine/data/threats.json), loaded once into frozen records.

A card is stats plus three lists of ops for X, Y and Z plus a few named traits for the appendix
rules that change how weapons or damage treat it.  A new card that only combines existing ops and
traits is a data change; the registries below (TRAITS here, OPS in engine/resolution/card_actions.py)
say what the rules can read, and the catalogue test fails on a card that names anything else.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any, Literal, TypeAlias, get_args

from engine.vocab import Letter, Severity, Station, ThreatDeck, ThreatKind

# Every trait the rules read, and nothing else: `ThreatCard.has` takes only these, so mypy
# rejects a trait the data does not know, and the catalogue test rejects data naming a trait the
# rules do not read (it also checks that each one is read somewhere in the rules).
Trait: TypeAlias = Literal[
    "stealth_until_x",  # damage_step.targetable: invisible to every weapon until its X
    "pulse_strips_shield",  # damage_step: shield 0 in a turn the pulse cannon reached it
    "cryoshield",  # damage_step: the first targeted step does nothing
    "rocket_immune",  # damage_step.targetable
    "heavy_laser_immune",  # damage_step.targetable
    "rocket_fizzles",  # damage_step: aimed at by the rocket, which then does nothing
    "swarm",  # damage_step: at most 1 damage per step
    "leviathan",  # damage_step: its destruction damages every other external threat
    "untargetable_at_range_3",  # damage_step.targetable
    "behemoth",  # damage_step: interceptors alone deal 9 and knock out the pilot
    "rocket_magnet",  # damage_step: draws every rocket, +1 shield after each hit
    "retaliates",  # damage_step: Nemesis attacks every zone after a step that hurt it
    "rockets_are_health",  # threat_actions.appear / card_actions.rockets_lost
    "fissure",  # internal_threats: doubles damage tokens; the interceptors repair it
    "multi_station_bonus",  # internal_threats.multi_station_bonus
    "slime",  # internal_threats / card_actions: tokens that spread, delay and attack
    "overheated",  # internal_threats.destroy: knocks out the lower side stations
    "seeker",  # internal_threats.destroy: knocks out whoever destroys it
    "contamination",  # internal_threats / card_actions: one token per station
    "needs_three",  # internal_threats.repair: three repairs in one turn
]
TRAITS: tuple[Trait, ...] = get_args(Trait)

InternalType: TypeAlias = Literal["intruder", "malfunction", "special"]
DamagedBy: TypeAlias = Literal["A", "B", "C", "battlebots", "interceptors"]
ReturnsFire: TypeAlias = Literal["always", "never", "after_x"]
LETTERS: tuple[Letter, ...] = get_args(Letter)
Op = dict[str, Any]

# The fields a card may carry in the data file.  Everything but `notes` is read by the rules or
# shown to players; `notes` are reviewers' remarks on a card (never shown, never read).
CARD_FIELDS: frozenset[str] = frozenset(
    {
        "id",
        "name",
        "kind",
        "severity",
        "color",
        "health",
        "speed",
        "points",
        "shield",
        "internal_type",
        "stations",
        "damaged_by",
        "returns_fire",
        "traits",
        "breakup_per_breakpoint",
        *LETTERS,
        "text",
        "notes",
    }
)


@dataclass(frozen=True, slots=True)
class ThreatCard:
    id: str
    name: str
    kind: ThreatKind
    severity: Severity
    color: Literal["white", "yellow"]  # the mission's difficulty picks white and/or yellow cards
    health: int
    speed: int
    points_survived: int
    points_destroyed: int
    shield: int = 0
    internal_type: InternalType | None = None
    stations: tuple[Station, ...] = ()
    damaged_by: DamagedBy | None = None
    returns_fire: ReturnsFire = "never"
    traits: frozenset[Trait] = frozenset()
    breakup_per_breakpoint: int = 0
    actions: dict[Letter, tuple[Op, ...]] = field(default_factory=dict)
    text: dict[Letter, str] = field(default_factory=dict)  # the card's own words, shown to players
    internal: bool = False  # derived from `kind`, stored because targeting asks it all the time
    op_names: frozenset[str] = frozenset()  # every op the card's X/Y/Z use (nested ones too)

    @property
    def serious(self) -> bool:
        return self.severity == "serious"

    @property
    def deck(self) -> ThreatDeck:
        """Which of the four threat decks (rulebook §1) the card belongs to, e.g. 'serious_internal'."""
        deck: ThreatDeck = f"{self.severity}_{self.kind}"  # type: ignore[assignment]
        return deck

    def has(self, trait: Trait) -> bool:
        return trait in self.traits


def iter_ops(ops: tuple[Op, ...] | list[Op]) -> list[Op]:
    """The ops of one letter with the nested `then` / `else` branches, flattened."""
    found: list[Op] = []
    for op in ops:
        found.append(op)
        for key in ("then", "else"):
            if key in op:
                found.extend(iter_ops([op[key]]))
    return found


def _card(raw: dict[str, Any]) -> ThreatCard:
    surv, destr = raw["points"]
    actions: dict[Letter, tuple[Op, ...]] = {k: tuple(raw[k]) for k in LETTERS}
    return ThreatCard(
        id=raw["id"],
        name=raw["name"],
        kind=raw["kind"],
        severity=raw["severity"],
        color=raw["color"],
        health=raw["health"],
        speed=raw["speed"],
        points_survived=surv,
        points_destroyed=destr,
        shield=raw.get("shield", 0),
        internal_type=raw.get("internal_type"),
        stations=tuple(raw.get("stations", ())),
        damaged_by=raw.get("damaged_by"),
        returns_fire=raw.get("returns_fire", "never"),
        traits=frozenset(raw.get("traits", ())),
        breakup_per_breakpoint=raw.get("breakup_per_breakpoint", 0),
        actions=actions,
        text=dict(raw.get("text", {})),
        internal=raw["kind"] == "internal",
        op_names=frozenset(op["op"] for ops in actions.values() for op in iter_ops(ops)),
    )


@cache
def raw_cards() -> list[dict[str, Any]]:
    """The data file's card records as written (the catalogue test checks their fields)."""
    raw = json.loads(resources.files("engine").joinpath("data/threats.json").read_text("utf-8"))
    cards: list[dict[str, Any]] = _interned(raw["threats"])
    return cards


def _interned(value: Any) -> Any:
    """The data with every string interned: the rules compare card stations and op parameters
    with the same words written in the code (interned), and equal strings that are one object
    compare without reading their characters."""
    if isinstance(value, str):
        return sys.intern(value)
    if isinstance(value, list):
        return [_interned(v) for v in value]
    if isinstance(value, dict):
        return {sys.intern(k): _interned(v) for k, v in value.items()}
    return value


@cache
def base_cards() -> dict[str, ThreatCard]:
    """All 55 base-game threat cards by id, in the data file's order."""
    return {c["id"]: _card(c) for c in raw_cards()}


def card(card_id: str) -> ThreatCard:
    try:
        return base_cards()[card_id]
    except KeyError:
        raise KeyError(f"unknown threat id {card_id!r}") from None


def card_or_none(card_id: str) -> ThreatCard | None:
    return base_cards().get(card_id)
