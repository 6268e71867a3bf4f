"""Hindsight on a played flight (bot/games/space_alert/hindsight/_answer.py, engine/hindsight/flight_boards.py):
the boards the flight knows (cards, halves, the phase each was dealt in, the unplayed cards), an
answer that is legal on them and true when resolved again, and its sentence in all four languages."""

from __future__ import annotations

import io
import random
from dataclasses import replace
from types import SimpleNamespace

import pytest
from PIL import Image

from bot.games.space_alert.hindsight._answer import (
    Found,
    gifts_of,
    lesson_line,
    search,
    sentence,
    summary,
    summary_text,
)
from bot.games.space_alert.hindsight._picture import plans_picture
from bot.games.space_alert.mission._result import school_hints
from bot.games.space_alert.threat_names import threat_name
from bot.platform.i18n import t
from engine import resolve
from engine.board import phase_of
from engine.flight.cards import card
from engine.flight.machine import Flight
from engine.hindsight import Change, changed_plans, hindsight
from engine.hindsight.flight_boards import Gift, dealt_phases, flight_boards
from engine.model import Game
from engine.random_game import random_game
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
            assert held.phase == phases[held.card][1] <= phase_of(turn)  # dealt by the turn's phase
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


def test_gifts_come_from_the_journals_give_commands() -> None:
    journal = [
        {"kind": "clock", "actor_id": None, "payload": {"events": ["transfer_opened"]}},
        {
            "kind": "give",
            "actor_id": 1,
            "payload": {"command": {"type": "give", "player": "Ann", "card": "a<01", "to": "Bob"}},
        },
        {"kind": "place", "actor_id": 2, "payload": {"command": {"type": "place", "player": "Bob", "card": "a<01"}}},
        {
            "kind": "give",
            "actor_id": 2,
            "payload": {"command": {"type": "give", "player": "Bob", "card": 7, "to": "Ann"}},
        },
    ]
    assert gifts_of(journal) == [Gift("Ann", "a<01", "Bob")]


@pytest.mark.parametrize("lang", LANGS)
def test_a_change_on_an_androids_board_names_the_human_and_the_board(
    answered: tuple[Flight, Game, Found], lang: str
) -> None:
    _, game, found = answered
    android = game.players[-1].name
    assert android.startswith("Android")
    change = Change(android, "play", "x>01", None, 5, ">", by="Bob")
    answer = replace(found.answer, changes=(change,))
    text = sentence(lang, Found(answer, found.game), game)
    assert "Bob" in text and android in text
    assert "{" not in text


@pytest.mark.parametrize("lang", LANGS)
def test_one_change_not_proven_says_two_might_score_more_not_that_a_smaller_one_exists(
    answered: tuple[Flight, Game, Found], lang: str
) -> None:
    _, game, found = answered
    one = replace(found.answer, changes=found.answer.changes[:1], proven_minimal=False)
    text = sentence(lang, Found(one, found.game), game)
    assert t(lang, "hindsight.not_proven_better") in text
    assert t(lang, "hindsight.not_proven") not in text


def test_the_threat_that_destroyed_the_ship_is_named_when_the_change_destroys_it() -> None:
    """The issue's "the Destroyer would have been destroyed": said when the ship fell to a threat
    (not to a zone's damage) that the change destroys."""
    rng = random.Random(3)
    while True:
        game = Game.model_validate(random_game(rng, crew=4, threats=rng.randint(3, 6)))
        answer = hindsight(game)
        cause = answer.played.lost.cause if answer.played.lost else "zone"
        if answer.changes and not cause.startswith("zone"):
            break
    assert next(x.fate for x in answer.result.threats if x.id == cause) == "destroyed"
    changed = changed_plans(game, answer.changes)
    for lang in LANGS:
        text = sentence(lang, Found(answer, changed), game)
        assert threat_name(lang, cause) in text and "{" not in text


def test_the_plans_picture_shows_both_plans_side_by_side(answered: tuple[Flight, Game, Found]) -> None:
    _, game, found = answered
    data = plans_picture(found, game, "ru")
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG"
    assert image.width > 2 * image.height  # two panels of twelve turns, one row per crew member
    fewer = game.model_copy(update={"players": game.players[:2]})
    plans = {p.name: found.answer.plans[p.name] for p in fewer.players}
    small = plans_picture(Found(replace(found.answer, plans=plans), found.game), fewer, "en")
    assert Image.open(io.BytesIO(small)).height < image.height


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
