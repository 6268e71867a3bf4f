"""The threat cards as data (engine/data/threats.json), loaded once into frozen records.

A card is stats plus three lists of ops for X, Y and Z plus a few named traits for the appendix
rules that change how weapons or damage treat it.  Adding an expansion card is a data change
unless it needs a new op or trait.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any


@dataclass(frozen=True, slots=True)
class ThreatCard:
    id: str
    name: str
    kind: str  # "external" | "internal"
    severity: str  # "common" | "serious"
    color: str  # "white" | "yellow"
    health: int
    speed: int
    points_survived: int
    points_destroyed: int
    shield: int = 0
    internal_type: str | None = None  # "intruder" | "malfunction" | "special"
    stations: tuple[str, ...] = ()
    damaged_by: str | None = None  # "A" | "B" | "C" | "battlebots" | "interceptors"
    returns_fire: str = "never"  # "always" | "never" | "after_x"
    traits: frozenset[str] = frozenset()
    breakup_per_breakpoint: int = 0
    actions: dict[str, tuple[dict[str, Any], ...]] = field(default_factory=dict)
    text: dict[str, str] = field(default_factory=dict)

    @property
    def internal(self) -> bool:
        return self.kind == "internal"

    @property
    def serious(self) -> bool:
        return self.severity == "serious"

    @property
    def deck(self) -> str:
        """Which of the four threat decks (rulebook §1) the card belongs to, e.g. 'serious_internal'."""
        return f"{self.severity}_{self.kind}"

    def has(self, trait: str) -> bool:
        return trait in self.traits


def _card(raw: dict[str, Any]) -> ThreatCard:
    surv, destr = raw["points"]
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
        actions={k: tuple(raw[k]) for k in "XYZ"},
        text=dict(raw.get("text", {})),
    )


@cache
def base_cards() -> dict[str, ThreatCard]:
    """All 55 base-game threat cards by id, in the data file's order."""
    raw = json.loads(resources.files("engine").joinpath("data/threats.json").read_text("utf-8"))
    return {c["id"]: _card(c) for c in raw["threats"]}


def card(card_id: str) -> ThreatCard:
    try:
        return base_cards()[card_id]
    except KeyError:
        raise KeyError(f"unknown threat id {card_id!r}") from None


def card_or_none(card_id: str) -> ThreatCard | None:
    return base_cards().get(card_id)
