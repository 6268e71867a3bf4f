"""A player's progress through the flight school: which lessons they passed, how often they tried.

A lesson is passed by surviving its flight; the next lesson opens when the one before is passed
(anyone may still replay a passed lesson).  Stored as JSON by the bot, per player.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.school.lessons import LESSON_IDS, LESSONS, Lesson, lesson
from engine.vocab import Outcome


@dataclass(frozen=True)
class SchoolProgress:
    passed: frozenset[str] = frozenset()
    attempts: Mapping[str, int] = field(default_factory=dict)
    best: Mapping[str, int] = field(default_factory=dict)  # best score per passed lesson

    def is_open(self, lesson_id: str) -> bool:
        i = LESSON_IDS.index(lesson(lesson_id).id)
        return i == 0 or LESSON_IDS[i - 1] in self.passed

    def next_lesson(self) -> Lesson | None:
        """The first lesson not passed yet; None once the whole school is done."""
        return next((item for item in LESSONS if item.id not in self.passed), None)

    @property
    def finished(self) -> bool:
        return self.next_lesson() is None

    def record(self, lesson_id: str, outcome: Outcome, score: int) -> SchoolProgress:
        """A new progress with this flight counted (the old one is left as it was)."""
        if not self.is_open(lesson_id):
            raise ValueError(f"lesson {lesson_id!r} is not open yet")
        attempts = {**self.attempts, lesson_id: self.attempts.get(lesson_id, 0) + 1}
        if outcome != "survived":
            return SchoolProgress(self.passed, attempts, self.best)
        best = {**self.best, lesson_id: max(score, self.best.get(lesson_id, score))}
        return SchoolProgress(self.passed | {lesson_id}, attempts, best)

    def to_dict(self) -> dict[str, Any]:
        return {
            "passed": [lid for lid in LESSON_IDS if lid in self.passed],
            "attempts": dict(self.attempts),
            "best": dict(self.best),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SchoolProgress:
        known = set(LESSON_IDS)  # lessons renamed or dropped later are forgotten, not an error
        return cls(
            passed=frozenset(lid for lid in data.get("passed", []) if lid in known),
            attempts={k: int(v) for k, v in data.get("attempts", {}).items() if k in known},
            best={k: int(v) for k, v in data.get("best", {}).items() if k in known},
        )
