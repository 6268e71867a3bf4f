"""What every language table of the captain's log is made of (see engine/log_text/__init__.py)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from engine.vocab import EventKind

Event = Mapping[str, Any]


class Names(Protocol):
    """Threat card words in one language: the renderer's only outside input (the bot keeps its
    Russian and Czech card names in bot/locales/threats.json; English comes from the card data)."""

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
