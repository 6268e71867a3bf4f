"""User-interface strings in the flight's language (en, ru, cs), from `bot/locales/*.json`.

Why JSON files rather than gettext: a dozen dozen short strings, edited by players who know the
game, not by translators with tooling.  A missing key in ru/cs falls back to English so a new
button never shows a raw key; tests check that every locale is a subset of English.
Intercom lines themselves come from engine.flight.phrases (one source for voice and text).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

FALLBACK = "en"


@cache
def catalogue(lang: str) -> dict[str, str]:
    try:
        text = resources.files("bot").joinpath("locales", f"{lang}.json").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return {}
    data: dict[str, str] = json.loads(text)
    return data


def t(lang: str, key: str, /, **params: Any) -> str:
    """The string for `key` in `lang` (else English, else the key), formatted with `params`."""
    template = catalogue(lang).get(key) or catalogue(FALLBACK).get(key) or key
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template
