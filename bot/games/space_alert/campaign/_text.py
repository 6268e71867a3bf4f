"""The campaign's and the flight school's strings: the `campaign.` keys of the one catalogue.

The words are in `bot/platform/locales/campaign/<lang>.json` (en, ru, cs, sk; Slovak in the Slovak
rulebook's words: "prieskumná kampaň", "tímy robotov", "vizuálna konfirmácia"); `tx` only adds the
area's prefix, so a key reads the same here as in the file.  Difficulties, outcomes and threat names
are the catalogue's shared keys.
"""

from __future__ import annotations

from typing import Any

from bot.platform.i18n import t


def tx(lang: str, text_key: str, /, **params: Any) -> str:
    """`campaign.<text_key>` in `lang` (English for a missing key), formatted with `params`."""
    return t(lang, f"campaign.{text_key}", **params)


def option_label(lang: str, kind: str, option: str) -> str:
    """A vote option in words: a difficulty from the shared catalogue, or end / go on."""
    if kind == "continue":
        return tx(lang, f"choice.{option}")
    return t(lang, f"difficulty.{option}")
