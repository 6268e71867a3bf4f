"""Flight school: the lesson path, hints from a flight's event log, a player's progress; the
lessons' and hints' words in the catalogue's `school` area."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.games.space_alert.campaign.school import hint_text, lesson_explanation, lesson_title
from bot.platform.i18n import catalogue
from engine.flight.generator import generate, preset_params
from engine.resolution.mission import resolve
from engine.school.hints import RULES, hints, hints_from_events
from engine.school.lessons import LESSON_IDS, LESSONS, lesson
from engine.school.progress import SchoolProgress
from engine.vocab import LANGUAGES as TEXT_LANGUAGES

OFFICIAL = Path(__file__).resolve().parents[2] / "scenarios" / "official"


def test_lessons_follow_the_rulebook_order_in_every_language() -> None:
    assert LESSON_IDS == (
        "movement_lasers",
        "energy_shields",
        "internal_battlebots",
        "computer",
        "incoming_data",
        "heroic_actions",
        "full_mission",
    )
    assert [item.number for item in LESSONS] == list(range(1, 8))
    for item in LESSONS:
        for language in TEXT_LANGUAGES:  # all four, Slovak included: nobody reads a fallback
            assert lesson_title(language, item).strip() and len(lesson_explanation(language, item)) > 40
    assert [item.untimed for item in LESSONS] == [True] * 6 + [False]


def test_every_lesson_and_hint_text_exists_in_all_four_languages() -> None:
    """No reader gets a fallback: en, ru, cs and sk for every title, explanation and hint; the
    Slovak ones are Slovak (Czech-only letters only inside the quoted Czech announcements)."""
    assert TEXT_LANGUAGES == ("en", "ru", "cs", "sk")
    keys = [f"school.lesson.{item.id}.{part}" for item in LESSONS for part in ("title", "explanation")]
    keys += [f"school.hint.{kind}" for kind in RULES]
    texts = [{language: catalogue(language)[key] for language in TEXT_LANGUAGES} for key in keys]
    for text in texts:
        assert set(text) == set(TEXT_LANGUAGES) and all(v.strip() for v in text.values())
        assert text["sk"] != text["en"]
        outside_quotes = re.sub(r"„[^“]*“", "", text["sk"])
        assert not set("řůěŘŮĚ") & set(outside_quotes), text["sk"]
    assert {text["sk"] for text in texts}.isdisjoint({text["cs"] for text in texts if text["cs"] != "Pohyb a lasery"})


def test_each_lesson_has_a_recording_that_exists() -> None:
    for item in LESSONS:
        rec = item.recording
        if rec.official is not None:
            assert (OFFICIAL / f"{rec.official}.json").is_file(), item.id
            assert rec.official.startswith("S1-") or item.id == "full_mission"
        else:
            assert rec.preset is not None
            timeline = generate(rec.seed, rec.preset, preset_params(rec.preset, **rec.overrides))
            threats = [e for e in timeline.events if e.event == "threat"]
            assert threats and sum(1 for e in threats if e.internal) == 1  # one internal threat to learn on
            assert not any(e.serious for e in threats)


def test_lesson_lookup() -> None:
    assert lesson("computer").rule == "§3.5"
    with pytest.raises(KeyError):
        lesson("warp_drive")


def test_hints_name_each_mistake_once_with_its_rule() -> None:
    game = {
        "tracks": {"red": "T5", "white": "T3", "blue": "T1", "internal": "T4"},
        "players": [
            {"name": "Ann", "actions": "aaaaaaa-----"},  # the white reactor holds 3 cubes
            {"name": "Bob", "actions": "^-----------"},
            {"name": "Cid", "actions": "^-----------"},  # same lift, same turn: delayed
        ],
        "threats": [{"id": "E1-07", "turn": 1, "zone": "blue"}],  # nobody shoots blue: reaches Z
    }
    found = hints(resolve(game, log=True))
    kinds = [h.kind for h in found]
    assert sorted(kinds) == sorted(RULES)
    assert kinds[0] == "blocked_lift" and found[0].turn == 1 and found[0].subject == "Cid"
    by_kind = {h.kind: h for h in found}
    assert by_kind["shot_without_energy"].subject == "Ann"
    assert by_kind["shot_without_energy"].count >= 2
    assert by_kind["threat_reached_z"].subject == "E1-07"
    assert by_kind["computer_not_maintained"].count == 3
    assert hint_text("ru", by_kind["computer_not_maintained"]).startswith("§3.5: Никто не обслужил компьютер")


def test_a_clean_flight_has_no_hints_and_no_log_means_no_hints() -> None:
    assert hints_from_events([{"turn": 1, "kind": "maintenance"}, {"turn": 4, "kind": "fire"}]) == []
    game = {
        "tracks": {"red": "T5", "white": "T3", "blue": "T1", "internal": "T4"},
        "players": [{"name": "Ann", "actions": "c--c---c----"}],
    }
    assert hints(resolve(game)) == []


def test_progress_opens_lessons_in_order_and_survives_json() -> None:
    p = SchoolProgress()
    assert p.next_lesson() is LESSONS[0] and p.is_open("movement_lasers") and not p.is_open("energy_shields")
    with pytest.raises(ValueError):
        p.record("computer", "survived", 10)
    p = p.record("movement_lasers", "destroyed", 0)
    assert p.attempts == {"movement_lasers": 1} and not p.passed
    p = p.record("movement_lasers", "survived", 6).record("movement_lasers", "survived", 3)
    assert p.passed == {"movement_lasers"} and p.best == {"movement_lasers": 6}
    assert p.is_open("energy_shields") and p.next_lesson() is LESSONS[1]
    again = SchoolProgress.from_dict({**p.to_dict(), "passed": [*p.to_dict()["passed"], "gone_lesson"]})
    assert again == p
    for item in LESSONS:
        again = again.record(item.id, "survived", 1)
    assert again.finished and again.next_lesson() is None


def test_the_engine_school_holds_no_words() -> None:
    """Lessons and hints are ids, numbers and rulebook sections; the words are the catalogue's."""
    source = "".join(
        path.read_text(encoding="utf-8")
        for path in (Path(__file__).resolve().parents[2] / "engine/school").glob("*.py")
    )
    assert not re.search(r"[а-яёčřžšůáíéěťľňôä]", source, re.I)
    assert lesson_title("sk", lesson("computer")) == "Palubný počítač"
