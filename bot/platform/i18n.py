"""The one text catalogue: every player-facing string in en, ru, cs and sk, from `bot/platform/locales/`.

Why JSON files rather than gettext: a few hundred short strings, edited by players who know the
game, not by translators with tooling.  Every feature (ELITE, the campaign, hosting, replays,
statistics, picture labels, ...) keeps its keys in an area of its own; a missing key falls back to
English so a new button never shows a raw key, and tests check that every key exists in every
language (tests/bot/test_one_catalogue.py).
The intercom's spoken lines, the captain's log and the school are areas of it too (`intercom`,
`captains_log`, `school`): the engine emits codes and parameters, never words.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

FALLBACK = "en"


@cache
def catalogue(lang: str) -> dict[str, str]:
    """Every string of `lang`: `locales/<lang>.json` merged with each area's `locales/<area>/<lang>.json`.

    Why areas: each feature keeps its strings in a file of its own, so two features landing at
    once never edit the same lines; a key defined twice is a mistake that a test reports
    (`catalogue_sources`)."""
    merged: dict[str, str] = {}
    for _source, data in catalogue_sources(lang):
        for key, value in data.items():
            merged.setdefault(key, value)
    return merged


def catalogue_sources(lang: str) -> list[tuple[str, dict[str, str]]]:
    """(file name, its strings) for every locale file of `lang`, the main file first."""
    root = resources.files("bot.platform").joinpath("locales")
    found: list[tuple[str, dict[str, str]]] = []
    candidates = [root.joinpath(f"{lang}.json")]
    try:
        areas = sorted((entry for entry in root.iterdir() if entry.is_dir()), key=lambda entry: entry.name)
    except (FileNotFoundError, OSError):
        areas = []
    candidates += [area.joinpath(f"{lang}.json") for area in areas]
    for path in candidates:
        try:
            text = path.read_text(encoding="utf-8")
        except (FileNotFoundError, OSError):
            continue
        found.append((str(path), json.loads(text)))
    return found


def t(lang: str, key: str, /, **params: Any) -> str:
    """The string for `key` in `lang` (else English, else the key), formatted with `params`."""
    template = catalogue(lang).get(key) or catalogue(FALLBACK).get(key) or key
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return template


# -- documents beside the catalogue --------------------------------------------------------------
# A few locale files are not flat key -> string tables but documents a game reads in its own shape
# (`locales/threats.json`: each Space Alert card's name and X/Y/Z texts per language).  They stay
# in the one catalogue folder so translators find every text in one place; the platform only
# hands the document over and never interprets it (it knows no game).


@cache
def locale_document(name: str) -> dict[str, Any]:
    """The JSON document `locales/<name>.json` ({} when there is none or it is not an object)."""
    if not name.replace("_", "").isalnum():
        return {}
    try:
        text = resources.files("bot.platform").joinpath("locales", f"{name}.json").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return {}
    data = json.loads(text)
    return data if isinstance(data, dict) else {}
