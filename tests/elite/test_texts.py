"""ELITE's words in every language of the bot: every identifier of the vocabulary has a name, and
Czech and Slovak are ELITE's own texts, not English fallbacks (issue 24)."""

from __future__ import annotations

import pytest

from bot.games.elite._i18n import call_text, text
from bot.platform.i18n import catalogue
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
from engine.vocab import LANGUAGES

GROUPS = {
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


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_identifier_has_a_name_in_every_language(lang: str) -> None:
    table = catalogue(lang)
    for group, ids in GROUPS.items():
        for ident in ids:
            assert table[f"elite.{group}.{ident}"].strip(), (lang, group, ident)


def test_each_language_uses_its_own_terms() -> None:
    assert text("ru", "mission.exploration") == "Исследование"
    assert text("ru", "swarm.tapeworm") == "Цепень"
    assert text("cs", "mission.exploration") == "Průzkum"
    assert text("sk", "swarm.tapeworm") == "Pásomnica"
    assert text("en", "say.round", round=3) == "Round 3 of 8."
    assert text("sk", "say.round", round=3) == "Kolo 3 z 8."
    assert text("cs", "say.modifiers", swarm=1, boss=-1) == "Průzkum: +1 karet roje, -1 karet bosse."


@pytest.mark.parametrize("lang", ("cs", "sk"))
def test_czech_and_slovak_sentences_are_not_english(lang: str) -> None:
    english, table = catalogue("en"), catalogue(lang)
    sentences = ("elite.say.", "elite.setup.", "elite.checklist.", "elite.phase.", "elite.ui.")
    for key, words in english.items():
        if key.startswith(sentences) and words not in ("{seconds}", "**Project: ELITE — this server**"):
            assert table[key] != words, (lang, key)


def test_every_timer_call_has_words() -> None:
    for lang in LANGUAGES:
        words = [call_text(lang, c) for c in ALL_CALLS]
        assert all(words) and len(set(words)) == len(words), lang
    assert call_text("en", TimerCall("times_up", 0)) == "Time's up!"
    assert call_text("ru", TimerCall("mark", 60)) == "Одна минута."
    assert call_text("sk", TimerCall("mark", 30)) == "Tridsať sekúnd."
