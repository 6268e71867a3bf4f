"""The path of flight-school lessons, in the order the rulebook teaches the game.

Each lesson flies a recording that only asks for what has been taught so far: the training CD's
test runs and simulations (S1-x) where one fits, otherwise a generated mission with the
generator's training presets narrowed down.  Lessons before the full mission default to the
untimed mode (a phase ends when every player has pressed Finish): learning the rules first,
the clock after.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.vocab import Language


@dataclass(frozen=True, slots=True)
class LessonRecording:
    """An official recording, or engine.flight.generator's `generate(seed, preset, params)`."""

    official: str | None = None
    preset: str | None = None
    seed: int = 0
    overrides: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Lesson:
    id: str
    number: int
    title: Mapping[Language, str]
    explanation: Mapping[Language, str]
    recording: LessonRecording
    untimed: bool  # the default mode of the lesson; the crew may switch it
    rule: str  # the rulebook section it teaches


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "movement_lasers",
        1,
        {"en": "Movement and the lasers", "ru": "Перемещение и лазеры", "cs": "Pohyb a lasery"},
        {
            "en": "Walk the ship with the red and blue arrows and the gravolift, then fire with A. "
            "Heavy lasers (upper deck) hit a threat in their own zone at any range.",
            "ru": "Ходите по кораблю стрелками красного и синего цвета и гравитационным лифтом, "
            "стреляйте действием A. Тяжёлые лазеры (верхняя палуба) бьют угрозу своего сектора на любом расстоянии.",
            "cs": "Pohybujte se lodí červenou a modrou šipkou a gravitačním výtahem, střílejte akcí A. "
            "Těžké lasery (horní paluba) zasáhnou hrozbu ve své zóně na jakoukoli vzdálenost.",
        },
        LessonRecording(official="S1-1"),
        untimed=True,
        rule="§3.2",
    ),
    Lesson(
        "energy_shields",
        2,
        {"en": "Energy and shields", "ru": "Энергия и щиты", "cs": "Energie a štíty"},
        {
            "en": "Every heavy laser shot takes a cube from its zone's reactor. B upstairs fills the shield, "
            "B downstairs refills a side reactor from the central one, B in lower white burns a fuel capsule.",
            "ru": "Каждый выстрел тяжёлого лазера забирает кубик из реактора сектора. B наверху заполняет щит, "
            "B внизу перекачивает энергию из центрального реактора в боковой, B в нижнем белом сжигает топливо.",
            "cs": "Každý výstřel těžkého laseru bere kostku z reaktoru své zóny. B nahoře dobije štít, "
            "B dole přelije energii z hlavního reaktoru do bočního, B v dolní bílé spálí palivovou tyč.",
        },
        LessonRecording(official="S1-2"),
        untimed=True,
        rule="§3.2",
    ),
    Lesson(
        "internal_battlebots",
        3,
        {
            "en": "Internal threats and battlebots",
            "ru": "Внутренние угрозы и боевые роботы",
            "cs": "Vnitřní hrozby a bitevní roboti",
        },
        {
            "en": "Intruders walk the ship; malfunctions sit on a system. Take a battlebot squad with C in "
            "upper blue or lower red and fight intruders with the robot action; repair malfunctions with "
            "the letter of the broken system.",
            "ru": "Захватчики ходят по кораблю, неисправности сидят в системе. Возьмите отряд роботов (C в верхнем "
            "синем или нижнем красном) и атакуйте захватчиков действием роботов; неисправность чините буквой системы.",
            "cs": "Vetřelci chodí po lodi, poruchy sedí v systému. Vezměte si oddíl robotů (C v horní modré nebo "
            "dolní červené) a útočte na vetřelce akcí robotů; poruchy opravujte písmenem porouchaného systému.",
        },
        LessonRecording(
            preset="test_run",
            seed=3,
            overrides={"min_internal_level": 1, "max_internal_level": 1, "max_internal_threats": 1},
        ),
        untimed=True,
        rule="§3.2, §7.2",
    ),
    Lesson(
        "computer",
        4,
        {"en": "The computer", "ru": "Бортовой компьютер", "cs": "Palubní počítač"},
        {
            "en": "Someone must press C in upper white in the first two turns of every phase. If nobody does, "
            "everyone aboard loses a turn (turns 3, 6 and 10 are delayed).",
            "ru": "В первые два хода каждой фазы кто-то должен сделать C в верхнем белом отсеке. Иначе все на борту "
            "задерживаются (действия ходов 3, 6 и 10 сдвигаются).",
            "cs": "V prvních dvou kolech každé fáze musí někdo udělat C v horní bílé. Jinak se všichni na palubě "
            "zdrží (akce kol 3, 6 a 10 se posunou).",
        },
        LessonRecording(official="S1-3"),
        untimed=True,
        rule="§3.5",
    ),
    Lesson(
        "incoming_data",
        5,
        {
            "en": "Incoming data and data transfer",
            "ru": "Входящие данные и передача данных",
            "cs": "Příchozí data a přenos dat",
        },
        {
            "en": "'Incoming data': each player may draw one action card. 'Data transfer': each player may give "
            "one card to another player before the beep (not a heroic card) - the right card to the right station.",
            "ru": "«Входящие данные»: каждый может взять карту действия. «Передача данных»: каждый может отдать "
            "одну карту другому игроку до сигнала (не героическую) — нужная карта попадёт к нужной системе.",
            "cs": "„Příchozí data“: každý si smí líznout akční kartu. „Přenos dat“: každý smí před pípnutím dát "
            "jednu kartu jinému hráči (ne hrdinskou) — správná karta se dostane ke správné stanici.",
        },
        LessonRecording(official="S1-4"),
        untimed=True,
        rule="§2.1",
    ),
    Lesson(
        "heroic_actions",
        6,
        {"en": "Heroic actions", "ru": "Героические действия", "cs": "Hrdinské akce"},
        {
            "en": "Each player has one heroic card: a stronger A, B or robot action, or a move straight to any "
            "station without using a lift. Keep it for the moment that saves the ship.",
            "ru": "У каждого игрока одна героическая карта: усиленное A, B или действие роботов либо переход сразу "
            "в любой отсек без лифта. Берегите её для момента, который спасёт корабль.",
            "cs": "Každý hráč má jednu hrdinskou kartu: silnější A, B nebo akci robotů, nebo přesun rovnou na "
            "kteroukoli stanici bez výtahu. Schovejte si ji na chvíli, která zachrání loď.",
        },
        LessonRecording(official="S1-7"),
        untimed=True,
        rule="§3.2",
    ),
    Lesson(
        "full_mission",
        7,
        {"en": "The full mission", "ru": "Полное задание", "cs": "Celá mise"},
        {
            "en": "Everything together, against the clock: a full mission from the mission CD.",
            "ru": "Всё вместе и на время: полное задание с диска заданий.",
            "cs": "Všechno dohromady a na čas: celá mise z disku misí.",
        },
        LessonRecording(official="S2-1"),
        untimed=False,
        rule="§1-§4",
    ),
)

LESSON_IDS: tuple[str, ...] = tuple(lesson.id for lesson in LESSONS)


def lesson(lesson_id: str) -> Lesson:
    for item in LESSONS:
        if item.id == lesson_id:
            return item
    raise KeyError(f"no flight-school lesson {lesson_id!r}")
