"""The few words drawn into a picture, in the bot's three languages.

Kept beside the renderer rather than in bot/locales so that the pictures package stays a pure
function of its inputs (and a missing key is a KeyError in the tests, not a blank on the image).
"""

from __future__ import annotations

from bot.i18n import threat_name

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
}

TOKEN_SHORT: dict[str, str] = {
    "structural": "St",
    "lift": "Li",
    "shield": "Sh",
    "reactor": "Re",
    "upper_cannon": "UC",
    "lower_cannon": "LC",
}


def word(lang: str, key: str, **params: object) -> str:
    table = WORDS.get(lang, WORDS["en"])
    return table[key].format(**params) if params else table[key]


def threat_label(lang: str, threat_id: str) -> str:
    return threat_name(lang, threat_id)
