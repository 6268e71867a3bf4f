"""Hints after a school flight: what went wrong, read off the resolution's event log, and the
rule that explains it.

One hint per kind of mistake (the first time it happened, and how often), in the order they
first happened, so the captain's log ends with a short list rather than a wall of repeats.  A hint
is a code (its kind, turn, count, subject and rule section); the bot says it in words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from engine.model import LogEntry, Result

HintKind: TypeAlias = Literal["threat_reached_z", "shot_without_energy", "blocked_lift", "computer_not_maintained"]


@dataclass(frozen=True, slots=True)
class HintRule:
    """The rulebook section that explains a mistake; its words are the catalogue's
    `school.hint.<kind>` (bot/platform/locales/school/<lang>.json)."""

    section: str


RULES: dict[HintKind, HintRule] = {
    "threat_reached_z": HintRule("§3.4"),
    "shot_without_energy": HintRule("§3.2"),
    "blocked_lift": HintRule("§3.2"),
    "computer_not_maintained": HintRule("§3.5"),
}


@dataclass(frozen=True, slots=True)
class Hint:
    kind: HintKind
    turn: int  # the first time it happened
    count: int
    subject: str | None  # the threat id or the player's name, when there is one
    rule: HintRule


def _kind_of(event: Mapping[str, Any]) -> tuple[HintKind, str | None] | None:
    kind = event.get("kind")
    if kind == "threat_action" and event.get("letter") == "Z":
        return "threat_reached_z", event.get("threat")
    if kind == "no_effect" and event.get("reason") == "no_energy":
        return "shot_without_energy", event.get("player")
    if kind == "delay" and event.get("cause") in ("lift_damaged", "lift_busy"):
        return "blocked_lift", event.get("player")
    if kind == "computer_not_maintained":
        return "computer_not_maintained", None
    return None


def hints_from_events(events: Iterable[Mapping[str, Any]]) -> list[Hint]:
    """Hints from raw event dicts (`turn`, `kind` and the event's fields)."""
    first: dict[HintKind, tuple[int, str | None]] = {}
    counts: dict[HintKind, int] = {}
    for event in events:
        found = _kind_of(event)
        if found is None:
            continue
        kind, subject = found
        counts[kind] = counts.get(kind, 0) + 1
        first.setdefault(kind, (int(event.get("turn", 0)), subject))
    return [Hint(kind, turn, counts[kind], subject, RULES[kind]) for kind, (turn, subject) in first.items()]


def _event(entry: LogEntry) -> dict[str, Any]:
    return {"turn": entry.turn, "step": entry.step, **(entry.model_extra or {})}


def hints(result: Result) -> list[Hint]:
    """The hints of a resolved school flight (resolve it with log=True; without a log there are none)."""
    return hints_from_events(_event(entry) for entry in result.log or [])
