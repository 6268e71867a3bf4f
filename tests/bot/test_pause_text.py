"""Who may pause (the host, or Manage Server), and how a pause's length reads (issue 24)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.games.space_alert.mission._pause import duration_text, may_pause, pause_line
from engine.flight.commands import FlightEvent


def _interaction(user_id: int, manage: bool) -> Any:
    return SimpleNamespace(user=SimpleNamespace(id=user_id), permissions=SimpleNamespace(manage_guild=manage))


def test_the_host_or_a_server_manager_may_pause_nobody_else() -> None:
    record: Any = SimpleNamespace(host_id=1)
    assert may_pause(_interaction(1, False), record)
    assert may_pause(_interaction(2, True), record)
    assert not may_pause(_interaction(2, False), record)


def test_a_pause_reads_in_minutes_and_seconds_in_every_language() -> None:
    assert duration_text("en", 245) == "4 min 05 sec" and duration_text("en", 45) == "45 sec"
    assert duration_text("ru", 245) == "4 мин 05 с"
    resumed = FlightEvent(1, 30.0, "resumed", {"by": "Ann", "pause_s": 75.0})
    assert pause_line("cs", resumed) == "▶️ Ann obnovil(a) let po pauze 1 min 15 s: pokračuje se tam, kde se skončilo."
    assert "@everyone" not in pause_line("en", FlightEvent(2, 30.0, "paused", {"by": "@everyone"}))
