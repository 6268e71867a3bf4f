"""The path of flight-school lessons, in the order the rulebook teaches the game.

Each lesson flies a recording that only asks for what has been taught so far: the training CD's
test runs and simulations (S1-x) where one fits, otherwise a generated mission with the
generator's training presets narrowed down.  Lessons before the full mission default to the
untimed mode (a phase ends when every player has pressed Finish): learning the rules first,
the clock after.

Texts exist in every language of the interface, Slovak included (in the Slovak rulebook's words:
"ohrozenie", "lokalita", "veľké laserové delo", "tímy robotov"), which is wider than the
intercom's languages (`engine.vocab.Language`: the Slovak edition's recordings speak Czech), so
the intercom's quoted announcements stay Czech in the Slovak texts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias, get_args

# the interface's languages (the intercom's plus Slovak): every lesson and hint text has each
TextLanguage: TypeAlias = Literal["en", "ru", "cs", "sk"]
TEXT_LANGUAGES: tuple[TextLanguage, ...] = get_args(TextLanguage)


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
    title: Mapping[TextLanguage, str]
    explanation: Mapping[TextLanguage, str]
    recording: LessonRecording
    untimed: bool  # the default mode of the lesson; the crew may switch it
    rule: str  # the rulebook section it teaches


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "movement_lasers",
        1,
        {"en": "Movement and the lasers", "ru": "Перемещение и лазеры", "cs": "Pohyb a lasery", "sk": "Pohyb a lasery"},
        {
            "en": "Walk the ship with the red and blue arrows and the gravolift, then fire with A. "
            "Heavy lasers (upper deck) hit a threat in their own zone at any range.",
            "ru": "Ходите по кораблю стрелками красного и синего цвета и гравитационным лифтом, "
            "стреляйте действием A. Тяжёлые лазеры (верхняя палуба) бьют угрозу своего сектора на любом расстоянии.",
            "cs": "Pohybujte se lodí červenou a modrou šipkou a gravitačním výtahem, střílejte akcí A. "
            "Těžké lasery (horní paluba) zasáhnou hrozbu ve své zóně na jakoukoli vzdálenost.",
            "sk": "Pohybujte sa po lodi červenou a modrou šípkou a výťahom, strieľajte akciou A. "
            "Veľké laserové delá (horná paluba) zasiahnu ohrozenie vo svojej zóne na akúkoľvek vzdialenosť.",
        },
        LessonRecording(official="S1-1"),
        untimed=True,
        rule="§3.2",
    ),
    Lesson(
        "energy_shields",
        2,
        {"en": "Energy and shields", "ru": "Энергия и щиты", "cs": "Energie a štíty", "sk": "Energia a štíty"},
        {
            "en": "Every heavy laser shot takes a cube from its zone's reactor. B upstairs fills the shield, "
            "B downstairs refills a side reactor from the central one, B in lower white burns a fuel capsule.",
            "ru": "Каждый выстрел тяжёлого лазера забирает кубик из реактора сектора. B наверху заполняет щит, "
            "B внизу перекачивает энергию из центрального реактора в боковой, B в нижнем белом сжигает топливо.",
            "cs": "Každý výstřel těžkého laseru bere kostku z reaktoru své zóny. B nahoře dobije štít, "
            "B dole přelije energii z hlavního reaktoru do bočního, B v dolní bílé spálí palivovou tyč.",
            "sk": "Každý výstrel veľkého laserového dela berie kocku energie z reaktora jeho zóny. B hore dobije "
            "štít, B dole prečerpá energiu z centrálneho reaktora do bočného, B v dolnej bielej lokalite spáli palivo.",
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
            "sk": "Vnútorné ohrozenia a tímy robotov",
        },
        {
            "en": "Intruders walk the ship; malfunctions sit on a system. Take a battlebot squad with C in "
            "upper blue or lower red and fight intruders with the robot action; repair malfunctions with "
            "the letter of the broken system.",
            "ru": "Захватчики ходят по кораблю, неисправности сидят в системе. Возьмите отряд роботов (C в верхнем "
            "синем или нижнем красном) и атакуйте захватчиков действием роботов; неисправность чините буквой системы.",
            "cs": "Vetřelci chodí po lodi, poruchy sedí v systému. Vezměte si oddíl robotů (C v horní modré nebo "
            "dolní červené) a útočte na vetřelce akcí robotů; poruchy opravujte písmenem porouchaného systému.",
            "sk": "Niektoré vnútorné ohrozenia chodia po lodi, poruchy sedia v systéme. Vezmite si tím robotov "
            "(C v hornej modrej alebo dolnej červenej lokalite) a útočte akciou tímov robotov; poruchy opravujte "
            "písmenom pokazeného systému.",
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
        {"en": "The computer", "ru": "Бортовой компьютер", "cs": "Palubní počítač", "sk": "Palubný počítač"},
        {
            "en": "Someone must press C in upper white in the first two turns of every phase. If nobody does, "
            "everyone aboard loses a turn (turns 3, 6 and 10 are delayed).",
            "ru": "В первые два хода каждой фазы кто-то должен сделать C в верхнем белом отсеке. Иначе все на борту "
            "задерживаются (действия ходов 3, 6 и 10 сдвигаются).",
            "cs": "V prvních dvou kolech každé fáze musí někdo udělat C v horní bílé. Jinak se všichni na palubě "
            "zdrží (akce kol 3, 6 a 10 se posunou).",
            "sk": "V prvých dvoch kolách každej fázy musí niekto urobiť C v hornej bielej lokalite. Inak sa všetci "
            "na palube zdržia (akcie kôl 3, 6 a 10 sa posunú).",
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
            "sk": "Prichádzajúce dáta a prenos dát",
        },
        {
            "en": "'Incoming data': each player may draw one action card. 'Data transfer': each player may give "
            "one card to another player before the beep (not a heroic card) - the right card to the right station.",
            "ru": "«Входящие данные»: каждый может взять карту действия. «Передача данных»: каждый может отдать "
            "одну карту другому игроку до сигнала (не героическую) — нужная карта попадёт к нужной системе.",
            "cs": "„Příchozí data“: každý si smí líznout akční kartu. „Přenos dat“: každý smí před pípnutím dát "
            "jednu kartu jinému hráči (ne hrdinskou) — správná karta se dostane ke správné stanici.",
            "sk": "„Příchozí data“: každý si smie potiahnuť jednu akčnú kartu. „Přenos dat“: každý smie pred "
            "pípnutím odovzdať jednu kartu inému hráčovi (nie hrdinskú) — správna karta sa dostane do správnej "
            "lokality.",
        },
        LessonRecording(official="S1-4"),
        untimed=True,
        rule="§2.1",
    ),
    Lesson(
        "heroic_actions",
        6,
        {"en": "Heroic actions", "ru": "Героические действия", "cs": "Hrdinské akce", "sk": "Hrdinské akcie"},
        {
            "en": "Each player has one heroic card: a stronger A, B or robot action, or a move straight to any "
            "station without using a lift. Keep it for the moment that saves the ship.",
            "ru": "У каждого игрока одна героическая карта: усиленное A, B или действие роботов либо переход сразу "
            "в любой отсек без лифта. Берегите её для момента, который спасёт корабль.",
            "cs": "Každý hráč má jednu hrdinskou kartu: silnější A, B nebo akci robotů, nebo přesun rovnou na "
            "kteroukoli stanici bez výtahu. Schovejte si ji na chvíli, která zachrání loď.",
            "sk": "Každý hráč má jednu hrdinskú kartu: silnejšie A, B alebo akciu tímov robotov, alebo presun "
            "rovno do ľubovoľnej lokality bez výťahu. Nechajte si ju na chvíľu, ktorá zachráni loď.",
        },
        LessonRecording(official="S1-7"),
        untimed=True,
        rule="§3.2",
    ),
    Lesson(
        "full_mission",
        7,
        {"en": "The full mission", "ru": "Полное задание", "cs": "Celá mise", "sk": "Celá misia"},
        {
            "en": "Everything together, against the clock: a full mission from the mission CD.",
            "ru": "Всё вместе и на время: полное задание с диска заданий.",
            "cs": "Všechno dohromady a na čas: celá mise z disku misí.",
            "sk": "Všetko dokopy a na čas: celá misia z disku misií.",
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
