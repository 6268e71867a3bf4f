"""The few words drawn into a picture, in the bot's four languages.

Kept beside the renderer rather than in bot/platform/locales so that the pictures package stays a pure
function of its inputs (and a missing key is a KeyError in the tests, not a blank on the image).
"""

from __future__ import annotations

import re

from bot.games.space_alert.threat_names import threat_name

_ANDROID = re.compile(r"Android (\d)")

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "turn": "Turn {turn}/12",
        "start": "Before turn 1",
        "jump": "Turn 13: hyperspace jump",
        "phase": "phase {phase}",
        "shield": "shield",
        "reactor": "reactor",
        "fuel": "Fuel",
        "rockets": "Rockets",
        "interceptors": "Interceptors",
        "damage": "damage",
        "events": "This turn",
        "nothing": "quiet turn",
        "internal": "internal",
        "destroyed": "destroyed",
        "survived": "survived",
        "appears": "appears",
        "knocked_out": "knocked out",
        "lost": "SHIP LOST",
        "survived_flight": "Survived",
        "score": "score {total}",
        "bots": "bots",
        "story": "Damage by turn",
        "hits": "hits",
        "red": "red",
        "white": "white",
        "blue": "blue",
    },
    "ru": {
        "turn": "Ход {turn}/12",
        "start": "Перед 1-м ходом",
        "jump": "Ход 13: прыжок",
        "phase": "фаза {phase}",
        "shield": "щит",
        "reactor": "реактор",
        "fuel": "Топливо",
        "rockets": "Ракеты",
        "interceptors": "Перехватчики",
        "damage": "урон",
        "events": "В этот ход",
        "nothing": "тихий ход",
        "internal": "внутр.",
        "destroyed": "уничтожена",
        "survived": "пережита",
        "appears": "появляется",
        "knocked_out": "без сознания",
        "lost": "КОРАБЛЬ ПОТЕРЯН",
        "survived_flight": "Выжили",
        "score": "очки {total}",
        "bots": "боты",
        "story": "Урон по ходам",
        "hits": "попадания",
        "red": "красная",
        "white": "белая",
        "blue": "синяя",
    },
    "cs": {
        "turn": "Kolo {turn}/12",
        "start": "Před 1. kolem",
        "jump": "Kolo 13: skok",
        "phase": "fáze {phase}",
        "shield": "štít",
        "reactor": "reaktor",
        "fuel": "Palivo",
        "rockets": "Rakety",
        "interceptors": "Stíhačky",
        "damage": "poškození",
        "events": "V tomto kole",
        "nothing": "klidné kolo",
        "internal": "vnitřní",
        "destroyed": "zničena",
        "survived": "přežita",
        "appears": "přilétá",
        "knocked_out": "v bezvědomí",
        "lost": "LOĎ ZNIČENA",
        "survived_flight": "Přežili",
        "score": "skóre {total}",
        "bots": "roboti",
        "story": "Poškození po kolech",
        "hits": "zásahy",
        "red": "červená",
        "white": "bílá",
        "blue": "modrá",
    },
    "sk": {
        "turn": "Kolo {turn}/12",
        "start": "Pred 1. kolom",
        "jump": "Kolo 13: skok",
        "phase": "fáza {phase}",
        "shield": "štít",
        "reactor": "reaktor",
        "fuel": "Palivo",
        "rockets": "Rakety",
        "interceptors": "Stíhačky",
        "damage": "poškodenie",
        "events": "V tomto kole",
        "nothing": "pokojné kolo",
        "internal": "vnútorná",
        "destroyed": "zničená",
        "survived": "prežitá",
        "appears": "prilieta",
        "knocked_out": "v bezvedomí",
        "lost": "LOĎ ZNIČENÁ",
        "survived_flight": "Prežili",
        "score": "skóre {total}",
        "bots": "roboty",
        "story": "Poškodenie po kolách",
        "hits": "zásahy",
        "red": "červená",
        "white": "biela",
        "blue": "modrá",
    },
}
for _lang, _android in (("en", "Android {n}"), ("ru", "Андроид {n}"), ("cs", "Android {n}"), ("sk", "Android {n}")):
    WORDS[_lang]["android"] = _android

# Damage tokens drawn in a zone, two letters each, in the picture's language (a localized picture
# never shows the English codes): structural, gravolift, shield, reactor, upper and lower cannon.
TOKENS: dict[str, dict[str, str]] = {
    "en": {
        "structural": "St",
        "lift": "Li",
        "shield": "Sh",
        "reactor": "Re",
        "upper_cannon": "UC",
        "lower_cannon": "LC",
    },
    "ru": {
        "structural": "Кп",
        "lift": "Лф",
        "shield": "Щт",
        "reactor": "Рк",
        "upper_cannon": "ВП",
        "lower_cannon": "НП",
    },
    "cs": {
        "structural": "Ko",
        "lift": "Vý",
        "shield": "Št",
        "reactor": "Rk",
        "upper_cannon": "HD",
        "lower_cannon": "DD",
    },
    "sk": {
        "structural": "Ko",
        "lift": "Vť",
        "shield": "Št",
        "reactor": "Rk",
        "upper_cannon": "HD",
        "lower_cannon": "DD",
    },
}

TOKEN_SHORT: dict[str, str] = TOKENS["en"]


def token_short(lang: str, token: str) -> str:
    """A damage token's two letters in `lang` (English for a language without its own)."""
    return TOKENS.get(lang, TOKENS["en"])[token]


def crew_label(lang: str, name: str) -> str:
    """A crew member's name as drawn: the engine's "Android 2" in the picture's language."""
    match = _ANDROID.fullmatch(name)
    return word(lang, "android", n=match[1]) if match else name


def word(lang: str, key: str, **params: object) -> str:
    table = WORDS.get(lang, WORDS["en"])
    return table[key].format(**params) if params else table[key]


def threat_label(lang: str, threat_id: str) -> str:
    return threat_name(lang, threat_id)
