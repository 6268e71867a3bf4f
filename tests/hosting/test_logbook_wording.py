"""The logbook and the leaderboard say what they mean (issue 24): a ship lost to a zone reads
"cause: the red zone is destroyed" (never "destroyed by the red zone is destroyed"), and threats
are counted as /stats counts them, with their points beside."""

from __future__ import annotations

from bot.games.space_alert.mission.render import leaderboard_embed, logbook_embed
from tests.hosting.test_feature_storage import flight as entry


def text_of(embed) -> str:  # type: ignore[no-untyped-def]
    return "\n".join([embed.description or "", *(f"{f.name}\n{f.value}" for f in embed.fields)])


def test_a_zone_loss_reads_as_a_cause_in_the_logbook_and_the_leaderboard() -> None:
    lost = entry(1, outcome="destroyed", total=0, destroyed_by="zone red destroyed", threats=[])
    for embed in (logbook_embed("en", [lost]), leaderboard_embed("en", [], [lost])):
        text = text_of(embed)
        assert "cause: the red zone is destroyed" in text and "destroyed by the" not in text, text
    assert "причина: красный сектор уничтожен" in text_of(logbook_embed("ru", [lost]))


def test_threats_are_counted_as_stats_counts_them_with_points_beside() -> None:
    lost = entry(1, outcome="destroyed", total=0, threats=[{"id": "E1-07", "fate": "destroyed", "points": 0}])
    text = text_of(logbook_embed("en", [lost]))
    assert "threats destroyed 1 (0 pts) / survived 0 (0 pts)" in text, text
