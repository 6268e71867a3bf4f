"""The replay and what-if strings: the `replay.` keys of the one catalogue.

The words are in `bot/platform/locales/replay/<lang>.json` (en, ru, cs, sk); `text` only adds the
area's prefix, so a key reads the same here as in the file.
"""

from __future__ import annotations

from bot.platform.i18n import t


def text(lang: str, key: str, /, **params: object) -> str:
    """`replay.<key>` in `lang` (English for a missing key), formatted with `params`."""
    return t(lang, f"replay.{key}", **params)
