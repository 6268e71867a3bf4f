"""The path of flight-school lessons, in the order the rulebook teaches the game.

Each lesson flies a recording that only asks for what has been taught so far: the training CD's
test runs and simulations (S1-x) where one fits, otherwise a generated mission with the
generator's training presets narrowed down.  Lessons before the full mission default to the
untimed mode (a phase ends when every player has pressed Finish): learning the rules first,
the clock after.

A lesson is an id and its facts; its title and explanation are words, which the bot takes from
the one text catalogue (`school.lesson.<id>.title` / `.explanation` in
bot/platform/locales/school/<lang>.json, in en, ru, cs and sk).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


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
    recording: LessonRecording
    untimed: bool  # the default mode of the lesson; the crew may switch it
    rule: str  # the rulebook section it teaches


LESSONS: tuple[Lesson, ...] = (
    Lesson("movement_lasers", 1, LessonRecording(official="S1-1"), untimed=True, rule="§3.2"),
    Lesson("energy_shields", 2, LessonRecording(official="S1-2"), untimed=True, rule="§3.2"),
    Lesson(
        "internal_battlebots",
        3,
        LessonRecording(
            preset="test_run",
            seed=3,
            overrides={"min_internal_level": 1, "max_internal_level": 1, "max_internal_threats": 1},
        ),
        untimed=True,
        rule="§3.2, §7.2",
    ),
    Lesson("computer", 4, LessonRecording(official="S1-3"), untimed=True, rule="§3.5"),
    Lesson("incoming_data", 5, LessonRecording(official="S1-4"), untimed=True, rule="§2.1"),
    Lesson("heroic_actions", 6, LessonRecording(official="S1-7"), untimed=True, rule="§3.2"),
    Lesson("full_mission", 7, LessonRecording(official="S2-1"), untimed=False, rule="§1-§4"),
)

LESSON_IDS: tuple[str, ...] = tuple(lesson.id for lesson in LESSONS)


def lesson(lesson_id: str) -> Lesson:
    for item in LESSONS:
        if item.id == lesson_id:
            return item
    raise KeyError(f"no flight-school lesson {lesson_id!r}")
