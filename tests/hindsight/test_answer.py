"""Hindsight on a played flight (bot/games/space_alert/hindsight/_answer.py, engine/hindsight/flight_boards.py):
the boards the flight knows (cards, halves, the phase each was dealt in, the unplayed cards), an
answer that is legal on them and true when resolved again, and its sentence in all four languages."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from bot.games.space_alert.hindsight._answer import Found, lesson_line, search, sentence, summary, summary_text
from bot.games.space_alert.mission._result import school_hints
from engine import resolve
from engine.board import phase_of
from engine.flight.cards import card
from engine.flight.machine import Flight
from engine.hindsight import changed_plans
from engine.hindsight.flight_boards import dealt_phases, flight_boards
from engine.model import Game
from tests.pictures.flights import played_flight

LANGS = ("en", "ru", "cs", "sk")


@pytest.fixture(scope="module")
def answered() -> tuple[Flight, Game, Found]:
    for seed in range(2, 40):
        flight = played_flight(["Ann", "Bob", "Cid"], seed=seed)
        game = flight.to_game()
        found = search(flight, game, budget_s=30.0)
        if found.answer.changes:
            return flight, game, found
    raise AssertionError("no flight with an answer")


def test_the_boards_are_the_flights_with_its_hands(answered: tuple[Flight, Game, Found]) -> None:
    flight, game, _ = answered
    boards = flight_boards(flight)
    assert [b.name for b in boards] == [p.name for p in game.players]
    assert [b.plan for b in boards] == [tuple(p.actions) for p in game.players]
    phases = dealt_phases(flight)
    for b in boards:
        for turn, held in b.placed.items():
            c = card(held.card)
            assert held.codes == (c.action, c.move)
            assert held.phase == phases[held.card] <= phase_of(turn)  # dealt by the turn's phase
        for held in b.unplayed:
            assert held.card in phases


def test_the_answer_is_legal_and_true(answered: tuple[Flight, Game, Found]) -> None:
    flight, game, found = answered
    answer = found.answer
    changed = changed_plans(game, answer.changes, flight_boards(flight))
    assert resolve(changed).to_json_dict() == answer.result.to_json_dict()
    assert changed == found.game


@pytest.mark.parametrize("lang", LANGS)
def test_one_sentence_in_each_language(answered: tuple[Flight, Game, Found], lang: str) -> None:
    _, game, found = answered
    text = sentence(lang, found, game)
    assert found.answer.changes[0].player in text
    assert str(found.answer.result.score.total) in text
    assert "{" not in text and "hindsight." not in text
    assert len(text) < 1900
    if lang != "en":
        assert text != sentence("en", found, game)


@pytest.mark.parametrize("lang", LANGS)
def test_a_lost_lesson_names_the_one_change_that_would_have_passed_it(lang: str) -> None:
    flight = played_flight(["Ann", "Bob", "Cid"], seed=5)  # lost; one flip saves it
    game = flight.to_game()
    assert resolve(game).outcome == "destroyed"
    line = lesson_line(flight, game, lang)
    assert line is not None and "Ann" in line and "{" not in line
    assert line != lesson_line(flight, game, "en") or lang == "en"
    record = SimpleNamespace(options={"school": "L1"}, language=lang)
    (chunk,) = school_hints(record, resolve(game, log=True), line)  # type: ignore[arg-type]
    assert chunk.endswith(line)


def test_no_lesson_line_when_no_single_change_saves_or_the_ship_survived() -> None:
    lost = played_flight(["Ann", "Bob", "Cid"], seed=7)  # no change of one card saves it
    survived = played_flight(["Ann", "Bob", "Cid"], seed=3)
    assert lesson_line(lost, lost.to_game(), "en") is None
    assert lesson_line(survived, survived.to_game(), "en") is None


@pytest.mark.parametrize("lang", LANGS)
def test_the_kept_summary_words_the_same_clauses(answered: tuple[Flight, Game, Found], lang: str) -> None:
    """What the web logbook keeps of an answer is language-free JSON, and words back into the very
    clauses of the sentence posted in Discord."""
    _, game, found = answered
    kept = summary(found, game)
    assert [(k["player"], k["kind"], k["from_turn"], k["to_turn"]) for k in kept] == [
        (c.player, c.kind, c.from_turn, c.to_turn) for c in found.answer.changes
    ]
    text = sentence(lang, found, game)
    for item in kept:
        clause = summary_text(lang, item)
        assert clause in text and "{" not in clause
