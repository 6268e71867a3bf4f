"""Hindsight (engine/hindsight): every suggested change is one the action round allowed and, applied
and resolved again from turn 1, gives the result the answer claims; one change is searched
exhaustively (a brute force over small games finds nothing better); two changes come when one
is not enough."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import Game, Result, resolve
from engine.board import BLANK, TURNS, phase_of
from engine.flight.cards import heroic_cards, normal_cards
from engine.hindsight import Board, Change, Held, changed_plans, hindsight
from engine.random_game import random_game
from tests.engine.helpers import ext, game


def random_boards(rng: random.Random, raw: dict[str, Any]) -> list[Board]:
    """Boards with hands for a random game: each code played is a real action card showing it
    (its other half known), dealt in a random phase up to its turn's, and a few cards left
    unplayed (sometimes a heroic one)."""
    deck = [*normal_cards(), *heroic_cards()]
    rng.shuffle(deck)
    boards = []
    for p in raw["players"]:
        placed: dict[int, Held] = {}
        plan = tuple(p["actions"])
        for t, code in enumerate(plan, start=1):
            if code == BLANK:
                continue
            c = next((c for c in deck if code in (c.action, c.move)), None)
            if c is None:  # (six heroic cards only: a code no card is left for stays a code)
                placed[t] = Held(code, (code,), phase_of(t))
                continue
            deck.remove(c)
            placed[t] = Held(c.id, (c.action, c.move), rng.randint(1, phase_of(t)))
        unplayed = []
        for _ in range(rng.randrange(0, 3)):
            c = deck.pop()
            unplayed.append(Held(c.id, (c.action, c.move), rng.randint(1, 3)))
        boards.append(Board(p["name"], plan, placed, tuple(unplayed)))
    return boards


def fields(result: Result) -> dict[str, Any]:
    return result.to_json_dict()


def check_answer(played: Game, boards: list[Board] | None, answer: Any) -> None:
    """Legal, and resolved again from the start, the result claimed."""
    changed = changed_plans(played, answer.changes, boards)
    assert {p.name: p.codes for p in changed.players} == answer.plans
    assert fields(resolve(changed)) == fields(answer.result)
    if answer.changes:
        base = resolve(played)
        if base.outcome == "destroyed":
            assert answer.result.outcome == "survived"
        else:
            assert answer.result.score.total > base.score.total


def brute_force_single(played: Game, boards: list[Board]) -> list[tuple[Change, Result]]:
    """Every single change, listed naively (not with Board.changes) and resolved from turn 1."""
    out = []
    for b in boards:
        for t in range(1, TURNS + 1):
            held = b.placed.get(t)
            candidates: list[Change] = []
            if held is not None:
                code = b.plan[t - 1]
                by = held.hand if held.hand != b.name else None  # (a human's card on an android's board)
                candidates.append(Change(b.name, "take_back", held.card, t, None, by=by))
                for other in held.codes:
                    candidates.append(Change(b.name, "flip", held.card, t, t, other, by=by))
                for to in range(1, TURNS + 1):
                    candidates.append(Change(b.name, "move", held.card, t, to, code, by=by))
            for h in b.unplayed:
                by = h.hand if h.hand != b.name else None
                for code in h.codes:
                    candidates.append(Change(b.name, "play", h.card, None, t, code, by=by))
            for c in candidates:
                if b.problem(c) is None:
                    out.append((c, resolve(changed_plans(played, [c], boards))))
    return out


def rank(base: Result, change: Change, result: Result) -> tuple[int, int, int] | None:
    """The issue's order for one change: a lost ship saved, ties to the earlier turn (the score
    last); a surviving ship's higher score first."""
    if base.outcome == "destroyed":
        return (1, change.turn, -result.score.total) if result.outcome == "survived" else None
    helps = result.outcome == "survived" and result.score.total > base.score.total
    return (-result.score.total, 1, change.turn) if helps else None


def test_a_take_back_that_frees_the_lift_is_found() -> None:
    # Two players ride the same gravolift in turn 1: the second is delayed; the answer is one change.
    g = Game.model_validate(game("^aaaaaaaaaaa", "^-----------", threats=[ext("E1-07", 1, "white")]))
    answer = hindsight(g)
    check_answer(g, None, answer)
    assert answer.searched > 0


@pytest.mark.parametrize("seed", range(6))
def test_one_change_answers_are_legal_true_and_none_better_was_missed(seed: int) -> None:
    rng = random.Random(seed)
    found = 0
    for _ in range(40):
        if found == 2:
            break
        raw = random_game(rng, crew=rng.randint(2, 4), threats=rng.randint(3, 6))
        boards = random_boards(rng, raw)
        played = Game.model_validate(raw)
        answer = hindsight(played, boards)
        check_answer(played, boards, answer)
        assert answer.proven_minimal
        base = resolve(played)
        ranks = [r for c, res in brute_force_single(played, boards) if (r := rank(base, c, res)) is not None]
        if not ranks:
            assert answer.changes == ()
            continue
        found += 1
        assert len(answer.changes) == 1
        (change,) = answer.changes
        assert rank(base, change, answer.result) == min(ranks)
    assert found  # the brute force had something to compare with


def test_codes_only_searches_take_backs_and_later_moves() -> None:
    rng = random.Random(7)
    raw = random_game(rng, crew=3)
    played = Game.model_validate(raw)
    boards = [Board.from_codes(p.name, p.actions) for p in played.players]
    for b in boards:
        for c in b.changes():
            assert c.kind in ("take_back", "move")
            if c.kind == "move":
                assert c.to_turn is not None and c.from_turn is not None
                assert phase_of(c.to_turn) >= phase_of(c.from_turn)
                assert b.plan[c.to_turn - 1] == BLANK


def test_the_station_refuses_what_the_search_never_suggests() -> None:
    b = Board.from_codes("Ann", "ab-c--------")
    assert b.problem(Change("Ann", "move", "a", 1, 2)) == "slot_taken"
    assert b.problem(Change("Ann", "move", "c", 4, 2)) == "turn_of_other_phase"
    assert b.problem(Change("Ann", "move", "c", 4, 13)) == "bad_turn"
    assert b.problem(Change("Ann", "take_back", "a", 3, None)) == "slot_empty"
    assert b.problem(Change("Ann", "flip", "a", 1, 1, "<")) == "not_your_card"
    assert b.problem(Change("Ann", "play", "x", None, 3, "x")) == "not_your_card"
    assert b.problem(Change("Bob", "take_back", "a", 1, None)) == "not_your_board"
    assert b.problem(Change("Ann", "move", "c", 4, 5)) is None
    with pytest.raises(ValueError, match="slot_taken"):
        changed_plans(Game.model_validate(game("ab-c--------")), [Change("P0", "move", "a", 1, 2)])


def test_two_changes_when_one_is_not_enough() -> None:
    rng = random.Random(21)
    twos = 0
    for _ in range(60):
        raw = random_game(rng, crew=rng.randint(2, 4), threats=rng.randint(3, 6))
        boards = random_boards(rng, raw)
        played = Game.model_validate(raw)
        if resolve(played).outcome != "destroyed":
            continue
        one = hindsight(played, boards)
        two = hindsight(played, boards, max_changes=2, budget=3000)
        check_answer(played, boards, two)
        if one.changes:
            assert two.changes == one.changes  # a single change is the smallest
        elif two.changes:
            twos += 1
            assert len(two.changes) == 2
            assert two.proven_minimal  # every single change was tried
        if twos:
            break
    assert twos


def test_the_budget_stops_the_two_change_search() -> None:
    rng = random.Random(4)
    while True:
        raw = random_game(rng, crew=4)
        played = Game.model_validate(raw)
        answer = hindsight(played, max_changes=2, budget=5)
        if resolve(played).outcome == "destroyed" and not answer.changes:
            break
    assert not answer.proven_minimal
    full = hindsight(played, max_changes=2)
    assert full.searched > answer.searched
    assert hindsight(played, max_changes=2, time_up=lambda: True).proven_minimal is False


def test_the_search_is_deterministic() -> None:
    rng = random.Random(9)
    raw = random_game(rng, crew=3)
    boards = random_boards(rng, raw)
    a = hindsight(Game.model_validate(raw), boards, max_changes=2, budget=500)
    b = hindsight(Game.model_validate(raw), boards, max_changes=2, budget=500)
    assert a.to_json() == b.to_json()
