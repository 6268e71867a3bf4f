"""/mission schedule's timing: parsing, reminders, opening, and a restart in between."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.platform.hosting.schedule import (
    PROBLEMS,
    REMIND_BEFORE_S,
    Scheduled,
    ScheduleError,
    after,
    due,
    next_wakeup,
    parse_time,
    timestamps,
)
from bot.platform.i18n import catalogue

NOW = datetime(2026, 11, 23, 18, 0, tzinfo=UTC).timestamp()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("in 2h", NOW + 7200),
        ("in 90m", NOW + 5400),
        ("in 1h30m", NOW + 5400),
        ("20:30", datetime(2026, 11, 23, 20, 30, tzinfo=UTC).timestamp()),
        ("07:15", datetime(2026, 11, 24, 7, 15, tzinfo=UTC).timestamp()),  # tomorrow morning
        ("2026-12-14 20:30", datetime(2026, 12, 14, 20, 30, tzinfo=UTC).timestamp()),
        ("2026-11-23T21:00+02:00", datetime(2026, 11, 23, 19, 0, tzinfo=UTC).timestamp()),
        (str(int(NOW) + 600), NOW + 600),
    ],
)
def test_parse_time(text: str, expected: float) -> None:
    assert parse_time(text, NOW) == expected


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("yesterday", "unreadable"),
        ("17:00 tomorrow", "unreadable"),
        ("2026-11-23 17:00", "past"),
        ("in 0m", "past"),
        ("2027-06-01 10:00", "too_far"),
        ("25:00", "bad_clock"),
    ],
)
def test_parse_time_refuses(text: str, code: str) -> None:
    with pytest.raises(ScheduleError) as refused:
        parse_time(text, NOW)
    assert refused.value.code == code


@pytest.mark.parametrize("lang", ["en", "ru", "cs", "sk"])
def test_every_refusal_has_a_sentence_in_every_language(lang: str) -> None:
    own = catalogue(lang)  # the language's own file, not the English fallback
    sentences = {own[f"schedule.problem.{code}"] for code in PROBLEMS}
    assert len(sentences) == len(PROBLEMS)
    if lang != "en":
        assert sentences.isdisjoint(catalogue("en")[f"schedule.problem.{code}"] for code in PROBLEMS)


def test_timestamps_are_discord_markup() -> None:
    assert timestamps(NOW + 0.7) == (f"<t:{int(NOW)}:F>", f"<t:{int(NOW)}:R>")


def test_remind_then_open_across_a_restart() -> None:
    row = Scheduled(1, 10, 20, 30, at=NOW + 3600, mission="S2-3")
    assert due([row], NOW) == [] and next_wakeup([row], NOW) == NOW + 3600 - REMIND_BEFORE_S
    at_reminder = NOW + 3600 - REMIND_BEFORE_S
    assert due([row], at_reminder) == [(row, "remind")]
    stored = after(row, "remind")
    # the bot restarts: only the stored row survives; no second reminder, the opening still comes
    assert due([stored], at_reminder + 60) == []
    assert next_wakeup([stored], at_reminder + 60) == NOW + 3600
    assert due([stored], NOW + 3600) == [(stored, "open")]
    assert due([after(stored, "open")], NOW + 3700) == []


def test_a_bot_down_through_the_reminder_still_reminds_or_opens() -> None:
    row = Scheduled(2, 10, 20, 30, at=NOW + 3600, mission="random", campaign=True)
    assert due([row], NOW + 3600 - 120) == [(row, "remind")]  # late reminder, before the time
    assert due([row], NOW + 3600 + 120) == [(row, "open")]  # past the time: just open
    assert due([row], NOW + 3600 + 4000) == [(row, "drop")]  # hours late: nobody is waiting


def test_due_in_time_order() -> None:
    late = Scheduled(3, 1, 1, 1, at=NOW + 100, mission="S2-1")
    early = Scheduled(4, 1, 1, 1, at=NOW + 50, mission="S2-2")
    assert [s.id for s, _ in due([late, early], NOW + 200)] == [4, 3]
    assert next_wakeup([], NOW) is None
