"""Hints after a school flight: what went wrong, read off the resolution's event log, and the
rule that explains it.

One hint per kind of mistake (the first time it happened, and how often), in the order they
first happened, so the captain's log ends with a short list rather than a wall of repeats.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from engine.model import LogEntry, Result
from engine.school.lessons import TextLanguage

HintKind: TypeAlias = Literal["threat_reached_z", "shot_without_energy", "blocked_lift", "computer_not_maintained"]


@dataclass(frozen=True, slots=True)
class HintRule:
    section: str
    text: Mapping[TextLanguage, str]


RULES: dict[HintKind, HintRule] = {
    "threat_reached_z": HintRule(
        "§3.4",
        {
            "en": "A threat that reaches Z makes its Z attack and is then survived. Destroy it earlier: "
            "heavy lasers reach every range, light lasers and the pulse cannon only the near ones.",
            "ru": "Угроза, дошедшая до Z, выполняет действие Z и считается пережитой. Уничтожайте её раньше: "
            "тяжёлые лазеры достают на любом расстоянии, лёгкие и импульсная пушка — только вблизи.",
            "cs": "Hrozba, která dojde na Z, provede akci Z a je přežita. Zničte ji dřív: těžké lasery "
            "dostřelí na jakoukoli vzdálenost, lehké lasery a pulzní dělo jen na blízko.",
            "sk": "Ohrozenie, ktoré dôjde na Z, vykoná akciu Z a ukončí činnosť. Zneškodnite ho skôr: veľké "
            "laserové delá majú dosah na akúkoľvek vzdialenosť, malé laserové delá a pulzné delo len nablízko.",
        },
    ),
    "shot_without_energy": HintRule(
        "§3.2",
        {
            "en": "A heavy laser or the pulse cannon fires only with a cube in its zone's reactor. "
            "Refill a side reactor with B on the lower deck, the central one with B in lower white (fuel).",
            "ru": "Тяжёлый лазер и импульсная пушка стреляют, только если в реакторе сектора есть кубик. "
            "Боковой реактор пополняется действием B внизу, центральный — B в нижнем белом (топливо).",
            "cs": "Těžký laser i pulzní dělo střílí jen s kostkou v reaktoru své zóny. Boční reaktor "
            "doplníte akcí B na dolní palubě, hlavní akcí B v dolní bílé (palivo).",
            "sk": "Veľké laserové delo aj pulzné delo strieľa len s kockou energie v reaktore svojej zóny. Bočný "
            "reaktor doplníte akciou B na dolnej palube, centrálny akciou B v dolnej bielej lokalite (palivo).",
        },
    ),
    "blocked_lift": HintRule(
        "§3.2",
        {
            "en": "A gravolift carries one player per turn, and a damaged lift always: a second user "
            "(or anyone using a damaged lift) is delayed one turn.",
            "ru": "Гравитационный лифт за ход перевозит одного игрока; второй пользователь (и любой, кто едет "
            "на повреждённом лифте) задерживается на ход.",
            "cs": "Gravitační výtah za kolo převeze jednoho hráče; druhý uživatel (a kdokoli na poškozeném "
            "výtahu) se o kolo zdrží.",
            "sk": "Výťah za kolo prevezie jedného hráča; druhý používateľ (a ktokoľvek na poškodenom výťahu) "
            "sa o kolo zdrží.",
        },
    ),
    "computer_not_maintained": HintRule(
        "§3.5",
        {
            "en": "Nobody maintained the computer (C in upper white) in the first two turns of a phase, "
            "so everyone aboard was delayed in turn 3, 6 or 10.",
            "ru": "Никто не обслужил компьютер (C в верхнем белом) в первые два хода фазы, поэтому все на борту "
            "задержались в ход 3, 6 или 10.",
            "cs": "Nikdo neudržoval počítač (C v horní bílé) v prvních dvou kolech fáze, a tak se všichni "
            "na palubě zdrželi v kole 3, 6 nebo 10.",
            "sk": "Nikto neobslúžil palubný počítač (C v hornej bielej lokalite) v prvých dvoch kolách fázy, "
            "a tak sa všetci na palube zdržali v kole 3, 6 alebo 10.",
        },
    ),
}


@dataclass(frozen=True, slots=True)
class Hint:
    kind: HintKind
    turn: int  # the first time it happened
    count: int
    subject: str | None  # the threat id or the player's name, when there is one
    rule: HintRule

    def text(self, language: TextLanguage) -> str:
        return f"{self.rule.section}: {self.rule.text[language]}"


def _kind_of(event: Mapping[str, Any]) -> tuple[HintKind, str | None] | None:
    kind = event.get("kind")
    if kind == "threat_action" and event.get("letter") == "Z":
        return "threat_reached_z", event.get("threat")
    if kind == "no_effect" and event.get("reason") == "no_energy":
        return "shot_without_energy", event.get("player")
    if kind == "delay" and event.get("cause") in ("lift_damaged", "lift_busy"):
        return "blocked_lift", event.get("player")
    if kind == "computer_not_maintained":
        return "computer_not_maintained", None
    return None


def hints_from_events(events: Iterable[Mapping[str, Any]]) -> list[Hint]:
    """Hints from raw event dicts (`turn`, `kind` and the event's fields)."""
    first: dict[HintKind, tuple[int, str | None]] = {}
    counts: dict[HintKind, int] = {}
    for event in events:
        found = _kind_of(event)
        if found is None:
            continue
        kind, subject = found
        counts[kind] = counts.get(kind, 0) + 1
        first.setdefault(kind, (int(event.get("turn", 0)), subject))
    return [Hint(kind, turn, counts[kind], subject, RULES[kind]) for kind, (turn, subject) in first.items()]


def _event(entry: LogEntry) -> dict[str, Any]:
    return {"turn": entry.turn, "step": entry.step, **(entry.model_extra or {})}


def hints(result: Result) -> list[Hint]:
    """The hints of a resolved school flight (resolve it with log=True; without a log there are none)."""
    return hints_from_events(_event(entry) for entry in result.log or [])
