"""The captain's log in the flight's language: the engine's log tables with the bot's card names.

Every language's words live in engine/log_text (one table per language, English included); this
module only supplies the threat card names and X/Y/Z texts in the flight's language, which the
bot keeps in bot/platform/locales/threats.json (bot/games/space_alert/threat_names.py reads
them).  Events carry codes and card ids, so nothing here parses English.
"""

from __future__ import annotations

from typing import Any

from bot.games.space_alert.threat_names import threat_name, threat_text
from engine import log_text
from engine.log_text.base import Table
from engine.vocab import Language, is_language

TEMPLATES: dict[str, Any] = {lang: table.templates for lang, table in log_text.TABLES.items()}
TABLES: dict[Language, Table] = log_text.TABLES


class BotNames:
    """Threat card names and texts in one language, from the bot's locale (English fallback)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang

    def threat(self, card_id: str) -> str:
        return threat_name(self.lang, card_id)

    def card_text(self, card_id: str, letter: str) -> str:
        return threat_text(self.lang, card_id, letter)


def _language(lang: str) -> Language:
    return lang if is_language(lang) else "en"  # type: ignore[return-value]


def describe(lang: str, entry: dict[str, Any]) -> str:
    """One log line in `lang` (an unknown language is rendered in English).

    Every event the engine emits today renders (engine/log_text's tests enumerate them); a stored
    log written by an older engine may carry another shape, and then its own stored `text` is shown
    rather than nothing."""
    try:
        return log_text.describe(_language(lang), entry, BotNames(lang))
    except (KeyError, TypeError, ValueError, AttributeError):
        return str(entry.get("text", ""))


def cause_text(lang: str, cause: Any) -> str:
    """Why the ship was lost (the result's `lost.cause`: a card id or "zone <colour> destroyed")."""
    return log_text.lost_cause(_language(lang), str(cause or "?"), BotNames(lang))
