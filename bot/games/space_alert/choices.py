"""The names of Space Alert's slash-command choices in the players' languages.

Registered with the platform's translator (`bot.platform.command_locale.register_choice_names`)
when the game is imported, so Russian and Czech clients read "bílá" for the threat difficulty
"white" and a lesson's number and title for its id: words only the game knows.
"""

from __future__ import annotations

from bot.platform.i18n import t
from engine.school.lessons import LESSON_IDS, lesson

DIFFICULTY_VALUES = ("white", "yellow", "mixed")
PRESET_VALUES = ("test_run", "simulation", "advanced_simulation", "mission")


def choice_name(lang: str, value: str) -> str | None:
    """A Space Alert choice's name in `lang`; None for a value that is not one of the game's."""
    if value in DIFFICULTY_VALUES:
        return t(lang, f"difficulty.{value}")
    if value in PRESET_VALUES:
        return t(lang, f"preset.{value}")
    if value in LESSON_IDS:
        item = lesson(value)
        return f"{item.number}. {t(lang, f'school.lesson.{item.id}.title')}"
    return None
