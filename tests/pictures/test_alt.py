"""Alt text of the pictures (issue 24): in the picture's language, naming the turn as the title
does, the damage per zone, the threats by name, the crew; the overview's outcome and score."""

from __future__ import annotations

import pytest

from bot.games.space_alert.pictures.alt import MAX_ALT, overview_alt, turn_alt
from bot.games.space_alert.pictures.labels import word
from bot.games.space_alert.threat_names import threat_name
from tests.pictures.helpers import flight_replay, longest_threats, with_threats


@pytest.fixture(scope="module")
def replay():  # type: ignore[no-untyped-def]
    return flight_replay()


@pytest.mark.parametrize("lang", ("en", "ru", "cs", "sk"))
def test_turn_alt_names_the_turn_the_damage_the_threats_and_the_crew(replay, lang: str) -> None:  # type: ignore[no-untyped-def]
    alt = turn_alt(replay, 7, lang)
    assert alt.startswith(word(lang, "turn", turn=7, turns=12) + ":"), alt
    state = replay.states[7]
    for th in state.threats:
        if th.appeared and th.fate is None:
            assert threat_name(lang, th.id) in alt
    assert "Bartholomew" in alt and str(len(state.damage["white"])) in alt
    assert turn_alt(replay, 0, lang).startswith(word(lang, "start"))
    assert turn_alt(replay, len(replay.states) - 1, lang).startswith(word(lang, "jump", turn=13))


def test_overview_alt_gives_outcome_score_and_damage(replay) -> None:  # type: ignore[no-untyped-def]
    alt = overview_alt(replay, "en")
    assert alt.startswith("The flight's result: Survived, score 16") and "red 3, white 3, blue 4" in alt
    assert "Итог полёта" in overview_alt(replay, "ru")


def test_alt_text_stays_within_discords_limit(replay) -> None:  # type: ignore[no-untyped-def]
    names = tuple("Ярославовна Чеславовна" * 2 for _ in range(5))
    crowded = with_threats(replay, longest_threats("ru", 12), crew=names)
    assert len(turn_alt(crowded, 7, "ru")) <= MAX_ALT
