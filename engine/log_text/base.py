"""What every language table of the captain's log is made of (see engine/log_text/__init__.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from engine.vocab import EventKind

Event = Mapping[str, Any]


class Names(Protocol):
    """Threat card words in one language: the renderer's only outside input (the bot keeps its
    Russian and Czech card names in bot/platform/locales/threats.json; English comes from the card data)."""

    def threat(self, card_id: str) -> str: ...

    def card_text(self, card_id: str, letter: str) -> str: ...


Template = Callable[[Event, Names], str]


@dataclass(frozen=True, slots=True)
class Table:
    """One language: a template per event kind and a word for every code the events carry."""

    templates: Mapping[EventKind, Template]
    codes: Mapping[str, Mapping[str, str]]  # code family (vocab tuple name) -> code -> words
    lost: Template  # why the ship was lost (an event with `threat` or `zone`)


def word(table: Mapping[str, str], code: Any) -> str:
    """The words for a code; an unknown code is shown as it is (a test keeps every table complete)."""
    return table.get(str(code), str(code))


def thr(e: Event, n: Names, key: str = "threat") -> str:
    """A threat card by its name in the table's language and its id: 'Destroyer (E1-02)'."""
    tid = str(e.get(key) or "")
    return f"{n.threat(tid)} ({tid})"


def opt(value: Any, text: str) -> str:
    """`text` when `value` is set, else nothing (optional parts of a sentence)."""
    return text if value else ""


@dataclass(frozen=True, slots=True)
class Words:
    """The phrases a language builds its sentences from, and the helpers that use them: stations
    named in the nominative inside the language's quotes, zones, energy stores, weapons, causes."""

    zone: Mapping[str, str]
    deck: Mapping[str, str]
    zone_adj: Mapping[str, str]
    station_word: str
    quotes: tuple[str, str]
    space: str
    system: Mapping[str, str]
    token_names: Mapping[str, str]
    weapons: Mapping[str, str]
    delay_cause: Mapping[str, str]
    zone_lost: str

    def zone_name(self, zone: Any) -> str:
        return word(self.zone, zone)

    def station(self, station: Any) -> str:
        if station == "space":
            return self.space
        if not isinstance(station, str) or "_" not in station:
            return str(station or "?")
        deck, zone = station.split("_", 1)
        open_quote, close_quote = self.quotes
        return f"{open_quote}{word(self.deck, deck)} {word(self.zone_adj, zone)} {self.station_word}{close_quote}"

    def store(self, system: Any, zone: Any) -> str:
        return f"{word(self.system, system)} ({self.zone_name(zone)})"

    def token(self, token: Any) -> str:
        return word(self.token_names, token)

    def weapon(self, e: Event, n: Names, weapon: Any) -> str:
        """A weapon; lasers name the threat's zone, an explosion names the card that exploded."""
        if weapon == "explosion" and e.get("source"):
            return f"{word(self.weapons, 'explosion')} {thr(e, n, 'source')}"
        if weapon in ("heavy", "light") and e.get("zone"):
            return f"{word(self.weapons, weapon)} ({self.zone_name(e['zone'])})"
        return word(self.weapons, weapon)

    def cause(self, e: Event, n: Names) -> str:
        """A delay's cause: one of the codes, or the card that did it."""
        cause = str(e.get("cause"))
        return self.delay_cause[cause] if cause in self.delay_cause else thr(e, n, "cause")

    def lost(self, e: Event, n: Names) -> str:
        """Why the ship was lost: the card, or the zone that took a seventh damage token."""
        return thr(e, n) if e.get("threat") else f"{self.zone_name(e.get('zone'))} {self.zone_lost}"
