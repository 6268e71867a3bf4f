"""The one text catalogue: every player-facing string in en, ru, cs and sk, from `bot/platform/locales/`.

Why JSON files rather than gettext: a few hundred short strings, edited by players who know the
game, not by translators with tooling.  Every feature (ELITE, the campaign, hosting, replays,
statistics, picture labels, ...) keeps its keys in an area of its own; a missing key falls back to
English so a new button never shows a raw key, and tests check that every key exists in every
language (tests/bot/test_one_catalogue.py).
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


# -- threat cards ---------------------------------------------------------------------------------
# engine/data/threats.json is English; `bot/platform/locales/threats.json` holds each card's name and short
# X/Y/Z texts in ru and cs (rulebook names where the rulebooks give one).  English, an unknown
# language or an unknown card id fall back to the engine's English card.


@cache
def _threat_locale() -> dict[str, dict[str, dict[str, str]]]:
    try:
        text = resources.files("bot.platform").joinpath("locales", "threats.json").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return {}
    data: dict[str, Any] = json.loads(text)
    return {lang: cards for lang, cards in data.items() if not lang.startswith("_")}


def _english_card(threat_id: str) -> Any:
    from engine.threats.catalog import card_or_none

    return card_or_none(threat_id)


def threat_name(lang: str, threat_id: str) -> str:
    """The card's name in `lang` (English from the engine otherwise; the id if unknown)."""
    local = _threat_locale().get(lang, {}).get(threat_id, {}).get("name")
    if local:
        return local
    card = _english_card(threat_id)
    return card.name if card is not None else threat_id


def threat_text(lang: str, threat_id: str, letter: str) -> str:
    """The card's short X/Y/Z text in `lang` ('' when the card has none)."""
    local = _threat_locale().get(lang, {}).get(threat_id, {}).get(letter)
    if local:
        return local
    card = _english_card(threat_id)
    return str(card.text.get(letter, "")) if card is not None else ""


def english_threat_names() -> dict[str, str]:
    """English card name -> card id (the engine puts a name, not an id, in a few free-text fields)."""
    from engine.threats.catalog import base_cards

    return {card.name: card_id for card_id, card in base_cards().items()}
