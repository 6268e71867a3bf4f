"""The captain's log in words: every resolution event rendered in English, Russian, Czech or Slovak.

This is presentation, kept outside the rules: engine/resolution emits events as a kind plus
parameters (card ids, zones, stations, numbers, codes from engine/vocab.py) and never imports this
package.  One table per language (en.py, ru.py, cs.py, sk.py) holds a template for every event kind and
the words for every code; a test enumerates the kinds and codes and checks every table has them.
Both the command line (`python -m engine resolve --log`, English) and the bot's captain's log
(bot/games/space_alert/mission/_log_i18n.py, the flight's language) render through `describe`.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.log_text import cs, en, ru, sk
from engine.log_text.base import Event, Names, Table
from engine.threats.catalog import LETTERS, card_or_none
from engine.vocab import ZONES, Language

TABLES: dict[Language, Table] = {"en": en.TABLE, "ru": ru.TABLE, "cs": cs.TABLE, "sk": sk.TABLE}


class EnglishNames:
    """Card names and X/Y/Z texts from the card data (the cards' own English words)."""

    def threat(self, card_id: str) -> str:
        card = card_or_none(card_id)
        return card.name if card is not None else card_id

    def card_text(self, card_id: str, letter: str) -> str:
        card = card_or_none(card_id)
        if card is None:
            return ""
        return next((card.text.get(known, "") for known in LETTERS if known == letter), "")


ENGLISH_NAMES = EnglishNames()


def describe(lang: Language, event: Event, names: Names | None = None) -> str:
    """One log line in `lang`.  `names`: the card names in that language (English by default)."""
    template = TABLES[lang].templates[event["kind"]]
    return template(event, names or ENGLISH_NAMES)


# The result's `lost.cause` is a card id or one of these fixed strings (the public result format).
_ZONE_CAUSES: Mapping[str, str] = {f"zone {zone} destroyed": zone for zone in ZONES}


def lost_cause(lang: Language, cause: str, names: Names | None = None) -> str:
    """Why the ship was lost, from the result's `lost.cause`, in `lang`."""
    zone = _ZONE_CAUSES.get(cause)
    event = {"kind": "mission_lost", "threat": None if zone else cause, "zone": zone}
    return TABLES[lang].lost(event, names or ENGLISH_NAMES)
