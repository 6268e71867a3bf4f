"""en and ru texts: every identifier of the vocabulary has a name in both, and the keys agree."""

from __future__ import annotations

from engine.elite.texts import TEXTS, call_text, text
from engine.elite.timer import ALL_CALLS, TimerCall
from engine.elite.vocab import (
    BOSSES,
    DEFEAT_CAUSES,
    ELITE_DIFFICULTIES,
    EXPLORATION_KINDS,
    GAME_RESULTS,
    HEROES,
    MAP_SIDES,
    MISSIONS,
    SWARM_TYPES,
)


def test_both_languages_have_the_same_keys() -> None:
    assert set(TEXTS["en"]) == set(TEXTS["ru"])


def test_every_identifier_has_a_name() -> None:
    groups = {
        "map": MAP_SIDES,
        "mission": MISSIONS,
        "difficulty": ELITE_DIFFICULTIES,
        "hero": HEROES,
        "swarm": SWARM_TYPES,
        "boss": BOSSES,
        "exploration": EXPLORATION_KINDS,
        "cause": DEFEAT_CAUSES,
        "result": GAME_RESULTS,
    }
    for group, ids in groups.items():
        for ident in ids:
            for lang in ("en", "ru"):
                assert TEXTS[lang][f"{group}.{ident}"].strip()


def test_russian_uses_the_seeds_terms_and_czech_falls_back_to_english() -> None:
    assert text("ru", "mission.exploration") == "Исследование"
    assert text("ru", "swarm.tapeworm") == "Цепень"
    assert text("cs", "mission.exploration") == "Exploration"
    assert text("en", "say.round", round=3) == "Round 3 of 8."


def test_every_timer_call_has_words() -> None:
    for lang in ("en", "ru"):
        words = [call_text(lang, c) for c in ALL_CALLS]
        assert all(words) and len(set(words)) == len(words)
    assert call_text("en", TimerCall("times_up", 0)) == "Time's up!"
    assert call_text("ru", TimerCall("mark", 60)) == "Одна минута."
