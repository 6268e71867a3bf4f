"""Turn numbers agree between a picture, its alt text, the replay's buttons and the flight's length
(issue 24: a test run's pictures said "Turn 13/12" and "Turn 5/12" while the buttons said "5/7").
The count comes from one place, `Replay.turns`; no picture word carries a literal turn number."""

from __future__ import annotations

import re

import pytest

from bot.games.space_alert.pictures import resolve_with_states
from bot.games.space_alert.pictures.alt import turn_alt
from bot.games.space_alert.pictures.labels import turn_title
from bot.games.space_alert.replay._components import turn_buttons, turn_counter
from bot.platform.i18n import catalogue
from engine.flight.machine import Flight
from engine.vocab import LANGUAGES


def _test_run(seed: int):  # type: ignore[no-untyped-def]
    flight = Flight.start({"crew": ["Ann", "Bob"], "mission": "S1-2", "seed": seed, "lang": "en"})
    flight.advance_to(10_000)
    game = flight.to_game()
    game.players[0].actions[:7] = list("aaaaaaa")
    game.players[1].actions[:7] = list("<aaaaaa")
    return flight, resolve_with_states(game)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_picture_words_carry_no_turn_number(lang: str) -> None:
    table = catalogue(lang)
    assert not re.search(r"\d", table["picture.turn"]) and "{turns}" in table["picture.turn"]
    assert not re.search(r"\d", table["picture.jump"]) and "{turn}" in table["picture.jump"]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_test_runs_picture_alt_and_buttons_count_the_same_turns(lang: str) -> None:
    flight, replay = _test_run(4)
    assert flight.last_turn == 7 and replay.result.outcome == "survived"
    last = len(replay.states) - 1
    for index, state in enumerate(replay.states):
        title = turn_title(lang, state.turn, replay.turns)
        assert turn_alt(replay, index, lang).startswith(title)
        counter = turn_counter(index, replay.turns)
        if 0 < state.turn <= replay.turns:
            assert title.endswith(counter), (title, counter)
        labels = [button.item.label for button in turn_buttons("0badcafe", index, last, replay.turns)]
        assert labels[2] == counter
    final = replay.states[-1]
    assert final.turn == replay.turns + 1  # the jump follows the last turn the pictures count
    assert turn_title(lang, final.turn, replay.turns) == catalogue(lang)["picture.jump"].format(turn=final.turn)
    assert f"{replay.turns + 1}/{replay.turns}" not in " ".join(
        turn_alt(replay, i, lang) for i in range(len(replay.states))
    )


def test_the_count_follows_the_number_given() -> None:
    assert turn_title("en", 5, 7) == "Turn 5/7"
    assert turn_title("en", 8, 7) == "Turn 8: hyperspace jump"
    assert turn_title("sk", 5, 7) == "Kolo 5/7"
    assert turn_counter(5, 7) == "5/7" and turn_counter(8, 7) == "⤴ 8"
