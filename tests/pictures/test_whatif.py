"""The what-if plan string and the alternative game (pure, no Discord)."""

from __future__ import annotations

import pytest

from bot.exts.replay import _ids
from bot.exts.replay._whatif import (
    Hand,
    WhatIfError,
    alternative,
    codes,
    compare,
    decode,
    encode,
    flip,
    hand_of,
    place,
)
from bot.pictures import resolve_with_states
from tests.pictures.flights import played_flight


@pytest.fixture(scope="module")
def flight():  # type: ignore[no-untyped-def]
    return played_flight(["Ann", "Bob", "Cy", "Dee"])


def test_hand_holds_the_board_and_the_leftover_cards(flight) -> None:  # type: ignore[no-untyped-def]
    hand = hand_of(flight, "Ann")
    member = flight.member("Ann")
    assert set(hand.cards) == {s.card for s in member.board.values()} | set(member.hand)
    assert list(hand.cards) == sorted(hand.cards)
    game = flight.to_game()
    ann = next(p for p in game.players if p.name == "Ann")
    assert codes(hand.real, hand) == ann.actions  # the real plan is exactly what was resolved
    with pytest.raises(WhatIfError):
        hand_of(flight, "Nobody")


def test_plan_string_round_trip_and_fits_a_custom_id(flight) -> None:  # type: ignore[no-untyped-def]
    hand = hand_of(flight, "Bob")
    text = encode(hand.real)
    assert len(text) == 24 and decode(text, hand) == hand.real
    assert len(_ids.make("0badcafe", "wcard", 12, text)) <= _ids.MAX_LEN


@pytest.mark.parametrize("bad", ["", "--" * 11, "0a0a" + "--" * 10, "zz" + "--" * 11, "0x" + "--" * 11])
def test_forged_plans_are_refused(bad: str) -> None:
    hand = Hand(name="Ann", cards=("a<01", "b>02"), real=(None,) * 12)
    with pytest.raises(WhatIfError):
        decode(bad, hand)


def test_place_moves_a_card_and_flip_turns_it() -> None:
    plan = ((0, "action"),) + (None,) * 11
    moved = place(plan, 5, (0, "action"))
    assert moved[0] is None and moved[4] == (0, "action")  # one card, one turn
    assert flip(moved, 5)[4] == (0, "move") and flip(moved, 1) == moved
    assert place(moved, 5, None) == (None,) * 12


def test_alternative_changes_only_that_member(flight) -> None:  # type: ignore[no-untyped-def]
    game = flight.to_game()
    hand = hand_of(flight, "Cy")
    blank = (None,) * 12
    alt = alternative(game, hand, blank)
    assert [p.name for p in alt.players] == [p.name for p in game.players]
    for real, other in zip(game.players, alt.players, strict=True):
        assert other.actions == (["-"] * 12 if real.name == "Cy" else real.actions)
    assert alt.threats == game.threats and alt.seed == game.seed and alt.tracks == game.tracks
    same = compare(resolve_with_states(game), resolve_with_states(alternative(game, hand, hand.real)))
    assert same.first_divergence is None and same.delta == 0
    first = next(i for i, s in enumerate(hand.real, start=1) if s is not None)
    cmp = compare(resolve_with_states(game), resolve_with_states(alt))
    assert cmp.first_divergence is not None and cmp.first_divergence >= first
