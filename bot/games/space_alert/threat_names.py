"""Threat card names and X/Y/Z texts in the flight's language.

Why here and not in the platform's i18n: the cards are Space Alert's (engine/data/threats.json
holds them in English), and the platform knows no game.  The translations stay in the one text
catalogue, `bot/platform/locales/threats.json` (name and short X/Y/Z texts per card in ru, cs
and sk, rulebook names where the rulebooks give one); this module reads that document through
`bot.platform.i18n.locale_document`.  English, an unknown language or an unknown card id fall
back to the engine's English card.
"""

from __future__ import annotations

from functools import cache

from bot.platform.i18n import locale_document
from engine.threats.catalog import base_cards, card_or_none


@cache
def _threat_locale() -> dict[str, dict[str, dict[str, str]]]:
    """language -> card id -> {"name", "X", "Y", "Z"} (the `_comment` entry left out)."""
    data = locale_document("threats")
    return {lang: cards for lang, cards in data.items() if not lang.startswith("_") and isinstance(cards, dict)}


def threat_name(lang: str, threat_id: str) -> str:
    """The card's name in `lang` (English from the engine otherwise; the id if unknown)."""
    local = _threat_locale().get(lang, {}).get(threat_id, {}).get("name")
    if local:
        return local
    card = card_or_none(threat_id)
    return card.name if card is not None else threat_id


def threat_text(lang: str, threat_id: str, letter: str) -> str:
    """The card's short X/Y/Z text in `lang` ('' when the card has none)."""
    local = _threat_locale().get(lang, {}).get(threat_id, {}).get(letter)
    if local:
        return local
    card = card_or_none(threat_id)
    if card is None:
        return ""
    return next((str(text) for key, text in card.text.items() if key == letter), "")


def english_threat_names() -> dict[str, str]:
    """English card name -> card id (the engine puts a name, not an id, in a few free-text fields)."""
    return {card.name: card_id for card_id, card in base_cards().items()}
