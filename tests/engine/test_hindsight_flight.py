"""Hindsight on a flown flight (engine/hindsight/flight_boards.py): the androids' boards are searched
with the humans' cards, a drawn or given card is only suggested from the phase it arrived in, and
every change the search may suggest is one the flight machine itself accepts.

The last is checked by flying again: the same configuration, the same draws and gifts at the same
seconds, and every card of the changed boards placed just before its turn's phase ends, by the
human it came from (engine/flight/machine.py's own checks); every command must be accepted and the
flight must end with exactly the changed plans.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

from engine import resolve
from engine.board import BLANK, phase_of
from engine.flight.cards import card
from engine.flight.commands import DrawCard, GiveCard, PlaceCard
from engine.flight.machine import Flight, FlightConfig
from engine.hindsight import Board, Change, changed_plans, hindsight
from engine.hindsight.flight_boards import Gift, drawn_phases, flight_boards
from tests.engine.test_hindsight import brute_force_single, rank


@dataclass
class Flown:
    flight: Flight
    config: FlightConfig
    trades: list[tuple[float, Any]] = field(default_factory=list)  # draws and gifts, with their second

    @property
    def gifts(self) -> list[Gift]:
        return [Gift(c.player, c.card, c.to) for _, c in self.trades if isinstance(c, GiveCard)]


def fly(crew: Sequence[str], seed: int, mission: str = "S2-2", place_p: float = 0.25) -> Flown:
    """A flight with draws, gifts and cards placed at random moments (also on androids' boards)."""
    rng = random.Random(seed)
    config = FlightConfig(crew=list(crew), mission=mission, seed=seed)
    flight = Flight.start(config)
    flown = Flown(flight, config)
    t = 0.0
    while flight.status != "ended":
        flight.advance_to(t)
        if flight.status == "ended":
            break
        for m in flight.humans():
            if flight.incoming and rng.random() < 0.5 and flight.check(DrawCard(player=m.name)) is None:
                flight.apply(DrawCard(player=m.name))
                flown.trades.append((t, DrawCard(player=m.name)))
            if flight.transfer is not None and rng.random() < 0.5:
                others = [h.name for h in flight.humans() if h is not m]
                gifts = [c for c in m.hand if not card(c).heroic]
                if others and gifts:
                    give = GiveCard(player=m.name, card=rng.choice(gifts), to=rng.choice(others))
                    if flight.check(give) is None:
                        flight.apply(give)
                        flown.trades.append((t, give))
            if rng.random() < place_p:
                boards = [b for b in flight.members if b.on_board and (b is m or b.android)]
                b = rng.choice(boards)
                hand = list(m.hand) + ([b.heroic] if b.android and b.heroic in b.hand else [])
                turns = [turn for turn in range(1, flight.last_turn + 1) if turn not in b.board]
                if hand and turns:
                    place = PlaceCard(
                        player=m.name,
                        card=rng.choice(hand),
                        turn=rng.choice(turns),
                        half=rng.choice(["action", "move"]),
                        board=None if b is m else b.name,
                    )
                    if flight.check(place) is None:
                        flight.apply(place)
        t += 2.0
    return flown


def fly_again(flown: Flown, boards: Sequence[Board]) -> Flight:
    """The flight flown again with `boards`' plans (see the module docstring); asserts that the
    machine accepts every command."""
    flight = Flight.start(flown.config)
    solo = next((m.name for m in flight.members if not m.on_board), None)
    humans = [m.name for m in flight.humans()]
    moments = sorted({t for t, _ in flown.trades} | {end - 0.5 for end in flight.timeline.phase_end_s})
    trades = list(flown.trades)
    for t in moments:
        flight.advance_to(t)
        while trades and trades[0][0] == t:
            _, command = trades.pop(0)
            outcome = flight.apply(command)
            assert outcome.ok, (command, outcome)
        phase = flight.round_phase
        if t + 0.5 not in flight.timeline.phase_end_s:
            continue
        for b in boards:
            for turn, held in sorted(b.placed.items()):
                if phase_of(turn) != phase:
                    continue
                code = b.plan[turn - 1]
                c = card(held.card)
                half = "action" if c.action == code else "move"
                member = flight.member(b.name)
                assert member is not None
                if member.android:
                    by = solo or (held.hand if held.hand in humans else humans[0])
                    command = PlaceCard(player=by, card=held.card, turn=turn, half=half, board=b.name)
                else:
                    command = PlaceCard(player=b.name, card=held.card, turn=turn, half=half)
                outcome = flight.apply(command)
                assert outcome.ok, (b.name, turn, held, outcome)
    flight.advance_to(flight.timeline.end_s + 60)
    return flight


def after(boards: Sequence[Board], changes: Sequence[Change]) -> list[Board]:
    by_name = {b.name: b for b in boards}
    for c in changes:
        by_name[c.player] = by_name[c.player].apply(c)
    return [by_name[b.name] for b in boards]


def assert_flies(flown: Flown, boards: Sequence[Board], changes: Sequence[Change]) -> None:
    changed = after(boards, changes)
    again = fly_again(flown, changed)
    assert [tuple(p.actions) for p in again.to_game().players] == [b.plan for b in changed], changes


CREWS = [["Ann", "Bob"], ["Ann", "Bob", "Cid"], ["Ann", "Bob", "Cid", "Dan"], ["Ann"]]


@pytest.mark.parametrize(("crew", "seed", "mission"), [(c, s, m) for c in CREWS for s, m in ((1, "S2-2"), (2, "S1-1"))])
def test_every_change_the_search_may_suggest_flies(crew: list[str], seed: int, mission: str) -> None:
    """A sample of each board's candidate changes and the answer (one or two changes), with the
    journal's gifts and without them, in a three-phase mission and a two-phase test run."""
    flown = fly(crew, seed, mission)
    rng = random.Random(seed)
    for gifts in (flown.gifts, None):
        boards = flight_boards(flown.flight, gifts)
        game = flown.flight.to_game()
        assert [b.plan for b in boards] == [tuple(p.actions) for p in game.players]
        assert_flies(flown, boards, [])  # the flight itself, flown again
        for b in boards:
            changes = list(b.changes())
            for c in rng.sample(changes, min(25, len(changes))):
                assert b.problem(c) is None
                assert_flies(flown, boards, [c])
        answer = hindsight(game, boards, max_changes=2, budget=300)
        changed = changed_plans(game, answer.changes, boards)
        assert resolve(changed).to_json_dict() == answer.result.to_json_dict()
        assert_flies(flown, boards, answer.changes)


def test_a_flight_with_draws_and_gifts_is_what_the_legality_test_flies() -> None:
    """The flights above do draw and give (else they would prove little)."""
    kinds = {type(c).__name__ for crew in CREWS[:3] for c in (t for _, t in fly(crew, 1).trades)}
    assert kinds == {"DrawCard", "GiveCard"}


def test_androids_boards_take_the_humans_cards_but_not_their_heroic_ones() -> None:
    flown = fly(["Ann", "Bob"], 3, place_p=0.1)
    flight = flown.flight
    boards = {b.name: b for b in flight_boards(flight, flown.gifts)}
    androids = [m for m in flight.members if m.android]
    assert len(androids) == 2
    for android in androids:
        b = boards[android.name]
        hands = {h.hand for h in b.unplayed}
        assert {"Ann", "Bob"} <= hands  # both humans could have planned for it
        for h in b.unplayed:
            for cid in (h.card, *h.copies):
                assert not card(cid).heroic or cid == android.heroic
        plays = [c for c in b.changes() if c.kind == "play"]
        assert {c.actor for c in plays} >= {"Ann", "Bob"}
        c = next(c for c in plays if c.by == "Ann")
        data = c.to_json()
        assert data["player"] == "Ann" and data["board"] == android.name
        # the card comes out of Ann's hand: Ann's own board still shows it, but not both at once
        mine = next(
            (x for x in boards["Ann"].changes() if x.kind == "play" and x.card == c.card and x.to_turn != c.to_turn),
            None,
        )
        if mine is not None and not next(h for h in boards["Ann"].unplayed if h.card == c.card).copies:
            with pytest.raises(ValueError, match="not_your_card"):
                changed_plans(flight.to_game(), [c, mine], list(boards.values()))
    # a human's own board never offers a card of another human
    for name in ("Ann", "Bob"):
        assert all(c.by is None for c in boards[name].changes())


def test_a_card_drawn_in_phase_2_is_not_suggested_for_phase_1() -> None:
    for seed in range(1, 40):
        flown = fly(["Ann", "Bob", "Cid"], seed, place_p=0.0)  # nothing placed: every card in hand
        drawn = drawn_phases(flown.flight)
        late = {cid for cid, phase in drawn.items() if phase >= 2}
        if late:
            break
    else:
        raise AssertionError("no flight drew in phase 2")
    boards = flight_boards(flown.flight, flown.gifts)
    for b in boards:
        for h in b.unplayed:
            for cid in (h.card, *h.copies):
                if cid in late:
                    assert h.phase >= drawn[cid]
        for c in b.changes():
            if c.card in late:
                assert c.to_turn is not None and phase_of(c.to_turn) >= drawn[c.card]


def test_a_card_given_in_a_later_phase_is_not_suggested_before_it() -> None:
    """Ann hands Bob a card dealt to her for phase 1 in a data transfer of phase 2: Bob could not
    have played it in turns 1-3, with the journal's gifts or without them."""
    for seed in range(1, 60):
        flown = fly(["Ann", "Bob"], seed, place_p=0.0)
        flight = flown.flight
        late = [
            g
            for (t, c), g in zip([x for x in flown.trades if isinstance(x[1], GiveCard)], flown.gifts, strict=True)
            if flight.timeline.phase_at(t) >= 2 and not card(g.card).heroic
        ]
        late = [g for g in late if g.card in flight.member(g.receiver).hand]  # type: ignore[union-attr]
        if late:
            break
    else:
        raise AssertionError("no gift in phase 2 kept by its receiver")
    for gifts in (flown.gifts, None):
        boards = {b.name: b for b in flight_boards(flight, gifts)}
        for g in late:
            held = next(h for h in boards[g.receiver].unplayed if g.card in (h.card, *h.copies))
            assert held.phase >= 2
            for c in boards[g.receiver].changes():
                if c.card == held.card:
                    assert c.to_turn is not None and phase_of(c.to_turn) >= 2


def test_a_two_phase_test_run_offers_no_turn_past_7() -> None:
    flown = fly(["Ann", "Bob", "Cid"], 4, mission="S1-1")
    boards = flight_boards(flown.flight, flown.gifts)
    assert all(b.turns == flown.flight.last_turn for b in boards)
    for b in boards:
        for c in b.changes():
            assert c.to_turn is None or c.to_turn <= b.turns
        assert all(code == BLANK for code in b.plan[b.turns :])


def test_one_change_on_a_crew_with_androids_misses_nothing_a_brute_force_finds() -> None:
    """The exhaustive one-change search against a naive list of every change on every board (the
    androids' included), each resolved from turn 1, on flights of two and three humans."""
    compared = 0
    for seed in range(1, 7):
        flown = fly(["Ann", "Bob"] if seed % 2 else ["Ann", "Bob", "Cid"], seed, mission="S1-1", place_p=0.6)
        game = flown.flight.to_game()
        boards = flight_boards(flown.flight, flown.gifts)
        answer = hindsight(game, boards)
        base = resolve(game)
        ranks = [r for c, res in brute_force_single(game, boards) if (r := rank(base, c, res)) is not None]
        if not ranks:
            assert answer.changes == ()
            continue
        compared += 1
        (change,) = answer.changes
        assert rank(base, change, answer.result) == min(ranks)
    assert compared >= 3  # (flights lost and surviving, changes on androids' boards among the answers)
