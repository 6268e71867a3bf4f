"""The captain's log in the flight's language, from the engine's structured resolution events.

The engine gives each log entry a `kind` and its parameters next to a neutral English `text`.
English uses that text as is; Russian and Czech have templates for the events a crew reads most
(appearances, moves, shots, hits, attacks, damage, computer checks, phase ends).  An event kind
without a template falls back to the English text, so the log is always complete.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.threats.catalog import card_or_none

Event = dict[str, Any]

_STATION = {
    "ru": {"upper": "верхней", "lower": "нижней", "red": "красной", "white": "белой", "blue": "синей"},
    "cs": {"upper": "horní", "lower": "dolní", "red": "červené", "white": "bílé", "blue": "modré"},
}
_ZONE = {
    "ru": {"red": "красная", "white": "белая", "blue": "синяя"},
    "cs": {"red": "červená", "white": "bílá", "blue": "modrá"},
}


def _threat(e: Event, key: str = "threat") -> str:
    tid = e.get(key) or ""
    card = card_or_none(tid)
    return f"{card.name} ({tid})" if card else str(tid)


def _st(lang: str, station: str | None) -> str:
    if not station or "_" not in station:
        return station or "?"
    deck, zone = station.split("_", 1)
    words = _STATION[lang]
    if lang == "ru":
        return f"{words[deck]} палубе {words[zone]} зоны"
    return f"{words[deck]} palubě {words[zone]} zóny"


def _zone(lang: str, zone: str | None) -> str:
    return _ZONE[lang].get(zone or "", zone or "?")


_RU: dict[str, Callable[[Event], str]] = {
    "threat_appears": lambda e: (
        f"Появляется {_threat(e)} на {e['track']}"
        + (f" в зоне «{_zone('ru', e.get('zone'))}»" if e.get("zone") else f" на {_st('ru', e.get('station'))}")
    ),
    "move": lambda e: f"{e['player']} переходит с {_st('ru', e['frm'])} на {_st('ru', e['to'])}",
    "fire": lambda e: (
        f"{e['player']} стреляет из пушки на {_st('ru', e['station'])}" + (" (героически)" if e.get("heroic") else "")
    ),
    "threat_destroyed": lambda e: f"{_threat(e)} уничтожена" + (f" ({e['by']})" if e.get("by") else ""),
    "threat_hit": lambda e: f"{_threat(e)} получает {e['amount']} урона",
    "threat_moved": lambda e: f"{_threat(e)} движется с клетки {e['frm']} на {e['to']}",
    "threat_survived": lambda e: f"{_threat(e)} выполнила действие Z и уходит",
    "attack": lambda e: (
        f"{e['source']} атакует зону «{_zone('ru', e['zone'])}» силой {e['amount']}: щит "
        f"поглощает {e['absorbed']}, повреждений {e['damage']}"
    ),
    "damage_token": lambda e: f"Зона «{_zone('ru', e['zone'])}» получает повреждение (всего {e['total']})",
    "no_target": lambda e: f"{e['weapon']}: нет цели",
    "computer_ok": lambda e: f"Проверка компьютера, фаза {e.get('phase', '?')}: всё в порядке",
    "computer_not_maintained": lambda e: (
        f"Проверка компьютера, фаза {e['phase']}: не обслужен, все на борту задерживаются"
    ),
    "delay": lambda e: f"{e['player']} задерживается: действие хода {e['delayed_turn']} сдвигается",
    "knocked_out": lambda e: f"{e['player']} выведен из строя на {_st('ru', e['station'])}",
    "phase_end": lambda e: f"Конец фазы {e['phase']}: лучшее визуальное наблюдение {e['observers']}",
    "hyperspace_jump": lambda e: "Корабль уходит в гиперпространство",
    "maintenance": lambda e: f"{e['player']} обслуживает компьютер (фаза {e['phase']})",
    "observe": lambda e: f"{e['player']} ведёт визуальное наблюдение",
    "rocket_launched": lambda e: f"{e['player']} запускает ракету; осталось {e['rockets_left']}",
}

_CS: dict[str, Callable[[Event], str]] = {
    "threat_appears": lambda e: (
        f"Objevuje se {_threat(e)} na {e['track']}"
        + (f" v {_zone('cs', e.get('zone'))} zóně" if e.get("zone") else f" na {_st('cs', e.get('station'))}")
    ),
    "move": lambda e: f"{e['player']} přechází z {_st('cs', e['frm'])} na {_st('cs', e['to'])}",
    "fire": lambda e: (
        f"{e['player']} střílí z děla na {_st('cs', e['station'])}" + (" (hrdinsky)" if e.get("heroic") else "")
    ),
    "threat_destroyed": lambda e: f"{_threat(e)} je zničena" + (f" ({e['by']})" if e.get("by") else ""),
    "threat_hit": lambda e: f"{_threat(e)} dostává zásah {e['amount']}",
    "threat_moved": lambda e: f"{_threat(e)} se posouvá z pole {e['frm']} na {e['to']}",
    "threat_survived": lambda e: f"{_threat(e)} provedla akci Z a odlétá",
    "attack": lambda e: (
        f"{e['source']} útočí na {_zone('cs', e['zone'])} zónu silou {e['amount']}: štít "
        f"pohltí {e['absorbed']}, poškození {e['damage']}"
    ),
    "damage_token": lambda e: f"{_zone('cs', e['zone']).capitalize()} zóna je poškozena (celkem {e['total']})",
    "no_target": lambda e: f"{e['weapon']}: žádný cíl",
    "computer_ok": lambda e: f"Kontrola počítače, fáze {e.get('phase', '?')}: v pořádku",
    "computer_not_maintained": lambda e: (
        f"Kontrola počítače, fáze {e['phase']}: neudržován, všichni na palubě se zpožďují"
    ),
    "delay": lambda e: f"{e['player']} se zpožďuje: akce kola {e['delayed_turn']} se posouvá",
    "knocked_out": lambda e: f"{e['player']} je vyřazen na {_st('cs', e['station'])}",
    "phase_end": lambda e: f"Konec fáze {e['phase']}: nejlepší vizuální potvrzení {e['observers']}",
    "hyperspace_jump": lambda e: "Loď skáče do hyperprostoru",
    "maintenance": lambda e: f"{e['player']} udržuje počítač (fáze {e['phase']})",
    "observe": lambda e: f"{e['player']} provádí vizuální potvrzení",
    "rocket_launched": lambda e: f"{e['player']} odpaluje raketu; zbývá {e['rockets_left']}",
}

TEMPLATES: dict[str, dict[str, Callable[[Event], str]]] = {"ru": _RU, "cs": _CS}


def describe(lang: str, entry: Event) -> str:
    """One log line in `lang`; the engine's English text when no template fits."""
    template = TEMPLATES.get(lang, {}).get(str(entry.get("kind")))
    if template is not None:
        try:
            return template(entry)
        except (KeyError, TypeError):
            pass
    return str(entry.get("text", ""))
