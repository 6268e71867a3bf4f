"""The statistics commands' strings: the `stats.` keys of the one catalogue.

The words are in `bot/platform/locales/stats/<lang>.json` (en, ru, cs, sk); `tx` adds the area's
prefix to a key that does not carry it already (`board.title` is `stats.board.title`).
"""

from __future__ import annotations

from typing import Any

from bot.platform.i18n import t


def tx(lang: str, text_key: str, /, **params: Any) -> str:
    """`stats.<text_key>` in `lang` (English for a missing key), formatted with `params`."""
    key = text_key if text_key.startswith("stats.") else f"stats.{text_key}"
    return t(lang, key, **params)
