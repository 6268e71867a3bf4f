"""A player's career as figures, computed from query rows by pure functions (no database, no
Discord), so /stats, the tests and the bench agree on what a figure means.

Definitions: a flight counts for every crew member aboard; the survival rate is survived / flown;
the average score of a difficulty pair is over the flights survived with it (a lost mission
scores nothing, rulebook §4); the favourite role is the lobby role held most often (captain,
comms, security; "crew" for a flight without one); threats destroyed are counted per deck; the
killer is the threat that destroyed the player's ship most often (ties: the smaller card id).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.threats.catalog import card_or_none
from engine.vocab import THREAT_DECKS, ThreatDeck

NO_ROLE = "crew"


@dataclass(frozen=True, slots=True)
class DifficultyFigures:
    normal: str
    serious: str
    flights: int
    survived: int
    average_score: float | None  # None: never survived at this difficulty


@dataclass(frozen=True, slots=True)
class Career:
    flights: int
    survived: int
    by_difficulty: tuple[DifficultyFigures, ...]
    favourite_role: str | None
    destroyed_by_deck: Mapping[ThreatDeck, int] = field(default_factory=dict)
    killer: str | None = None
    killer_count: int = 0
    history: tuple[tuple[str, int, str], ...] = ()  # (flown_at, total, outcome), oldest first

    @property
    def survival_rate(self) -> float:
        return self.survived / self.flights if self.flights else 0.0


def deck_of(card_id: str) -> ThreatDeck | None:
    """The deck a threat card comes from (None for an id the catalog does not know)."""
    card = card_or_none(card_id)
    if card is None:
        return None
    if card.internal:
        return "serious_internal" if card.serious else "common_internal"
    return "serious_external" if card.serious else "common_external"


def threat_rows(logbook_id: int, result: Mapping[str, Any]) -> list[tuple[int, int, str, str, str]]:
    """The `logbook_threats` rows of a logged flight, from its engine Result as JSON.
    Storage calls this when it writes a logbook entry (proposed migration 0004)."""
    rows: list[tuple[int, int, str, str, str]] = []
    for position, threat in enumerate(result.get("threats", [])):
        deck = deck_of(str(threat["id"]))
        if deck is not None:
            rows.append((logbook_id, position, str(threat["id"]), deck, str(threat["fate"])))
    return rows


def favourite_role(role_rows: Iterable[tuple[str, int]]) -> str | None:
    """From (roles JSON list, count) rows; ties go to the alphabetically first role."""
    counts: Counter[str] = Counter()
    for roles_json, n in role_rows:
        roles = json.loads(roles_json) if roles_json else []
        for role in roles or [NO_ROLE]:
            counts[str(role)] += n
    if not counts:
        return None
    best = max(counts.values())
    return min(role for role, n in counts.items() if n == best)


def build_career(
    difficulty_rows: Iterable[tuple[str, str, int, int, int | None]],
    role_rows: Iterable[tuple[str, int]],
    deck_rows: Iterable[tuple[str, int]],
    killer_row: tuple[str, int] | None,
    history_rows: Iterable[tuple[str, int, str]],
) -> Career:
    """The career from the five queries of `queries.career` (rows as they come from SQL)."""
    figures = tuple(
        DifficultyFigures(normal, serious, flights, survived, ((points or 0) / survived) if survived else None)
        for normal, serious, flights, survived, points in sorted(difficulty_rows, key=lambda r: (r[0], r[1]))
    )
    decks: dict[ThreatDeck, int] = {}
    for deck, n in deck_rows:
        known = _deck(deck)
        if known is not None:
            decks[known] = decks.get(known, 0) + n
    return Career(
        flights=sum(f.flights for f in figures),
        survived=sum(f.survived for f in figures),
        by_difficulty=figures,
        favourite_role=favourite_role(role_rows),
        destroyed_by_deck=decks,
        killer=killer_row[0] if killer_row else None,
        killer_count=killer_row[1] if killer_row else 0,
        history=tuple(reversed(list(history_rows))),
    )


def _deck(name: str) -> ThreatDeck | None:
    return next((deck for deck in THREAT_DECKS if deck == name), None)


@dataclass(frozen=True, slots=True)
class LogbookLine:
    id: int
    flown_at: str
    mission_id: str
    outcome: str
    total: int
    campaign_id: str | None


def group_campaigns(lines: Iterable[LogbookLine]) -> list[list[LogbookLine]]:
    """The logbook as entries: a single flight alone, a campaign's lines together in one bracket
    (rulebook §6.3), in the order the newest line of each entry comes."""
    entries: list[list[LogbookLine]] = []
    index: dict[str, int] = {}
    for line in lines:
        if line.campaign_id is None:
            entries.append([line])
        elif line.campaign_id in index:
            entries[index[line.campaign_id]].append(line)
        else:
            index[line.campaign_id] = len(entries)
            entries.append([line])
    return entries
