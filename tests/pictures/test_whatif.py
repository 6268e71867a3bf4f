"""The what-if plan string, the cards a member held, the editor's clicks and the alternative game
(pure, no Discord)."""

from __future__ import annotations

import pytest

from bot.games.space_alert.mission._cards import Selection, card_key
from bot.games.space_alert.pictures import resolve_with_states
from bot.games.space_alert.replay import _ids
from bot.games.space_alert.replay._editor import apply_click, station_of
from bot.games.space_alert.replay._whatif import (
    Hand,
    WhatIfError,
    alternative,
    boards_of,
    codes,
    compare,
    decode,
    encode,
    flip,
    given_away,
    hand_of,
    place,
)
from engine.flight.commands import PlaceCard
from engine.flight.machine import Flight, FlightConfig
from tests.pictures.flights import play, played_flight


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
    assert len(text) == 36 and decode(text, hand) == hand.real
    # the longest editor id: board, plan and a selected card
    assert len(_ids.make("0badcafe", "wplace", 0, text, "haL10")) <= _ids.MAX_LEN


@pytest.mark.parametrize(
    "bad", ["", "---" * 11, "00a00a" + "---" * 10, "zza" + "---" * 11, "00x" + "---" * 11, "0-a" + "---" * 11]
)
def test_forged_plans_are_refused(bad: str) -> None:
    hand = Hand(name="Ann", board="Ann", cards=("a<01", "b>02"), real=(None,) * 12)
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


def test_a_solo_deck_fits_the_plan_string() -> None:
    cards = tuple(f"c{i:03d}" for i in range(90))
    hand = Hand(name="Solo", board="Android 1", cards=cards, real=(None,) * 12)
    plan = ((89, "move"), (36, "action")) + (None,) * 10
    assert decode(encode(plan), hand) == plan


# -- the cards they held -------------------------------------------------------------------------------
def test_cards_given_away_count_and_cards_received_count() -> None:
    flight, journal = play(["Ann", "Bob", "Cy", "Dee"], give=("Ann", "Bob"))
    gift = next(e["payload"]["command"]["card"] for e in journal if e["kind"] == "give")
    assert given_away(journal, "Ann") == [gift] and given_away(journal, "Bob") == []
    ann = hand_of(flight, "Ann", given_away(journal, "Ann"))
    assert gift in ann.cards  # held, then given away: Ann could have kept and played it
    assert gift not in hand_of(flight, "Ann").cards  # the final state alone has lost it
    bob = flight.member("Bob")
    assert gift in set(bob.hand) | {s.card for s in bob.board.values()}
    assert gift in hand_of(flight, "Bob", given_away(journal, "Bob")).cards  # received: held too
    # the real plan still points at the cards actually played
    real = next(p for p in flight.to_game().players if p.name == "Ann")
    assert codes(ann.real, ann) == real.actions


def test_cards_put_on_an_android_board_were_held() -> None:
    flight = Flight.start(FlightConfig(crew=["Ann", "Bob", "Cy"], mission="S1-1", seed=2))
    flight.advance_to(1)
    card_id = next(c.id for c in flight.station("Ann").hand if not c.heroic)
    assert flight.apply(PlaceCard(player="Ann", card=card_id, turn=1, half="action", board="Android 1")).ok
    assert card_id in hand_of(flight, "Ann").cards
    assert card_id not in hand_of(flight, "Bob").cards
    android = flight.member("Android 1")
    assert android is not None and android.heroic not in hand_of(flight, "Ann").cards


def test_forged_journal_entries_are_ignored() -> None:
    journal = [
        {"payload": {"command": {"type": "give", "player": "Ann", "card": "not-a-card"}}},
        {"payload": "garbage"},
        {"payload": {"command": {"type": "place", "player": "Ann", "card": "a<01"}}},
    ]
    flight = played_flight(["Ann", "Bob", "Cy", "Dee"])
    assert given_away(journal, "Ann") == ["not-a-card"]
    assert "not-a-card" not in hand_of(flight, "Ann", given_away(journal, "Ann")).cards


# -- solo ------------------------------------------------------------------------------------------------
def test_solo_player_edits_each_android_board_with_the_cards_they_could_put_there() -> None:
    flight, _journal = play(["Solo"])
    androids = boards_of(flight, "Solo")
    assert androids == ("Android 1", "Android 2", "Android 3", "Android 4")
    game = flight.to_game()
    solo = flight.member("Solo")
    assert solo is not None
    for name in androids:
        hand = hand_of(flight, "Solo", board_name=name)
        android = flight.member(name)
        assert android is not None and hand.android and hand.board == name
        assert codes(hand.real, hand) == next(p for p in game.players if p.name == name).actions
        others = {s.card for m in flight.members if m.android and m.name != name for s in m.board.values()}
        assert not others & set(hand.cards)  # the other androids keep their cards
        assert android.heroic in hand.cards and set(solo.hand) <= set(hand.cards)
    with pytest.raises(WhatIfError):
        hand_of(flight, "Solo", board_name="Solo")
    with pytest.raises(WhatIfError):
        boards_of(flight, "Android 1")


def test_solo_alternative_changes_only_that_android() -> None:
    flight, _journal = play(["Solo"])
    game = flight.to_game()
    hand = hand_of(flight, "Solo", board_name="Android 3")
    alt = alternative(game, hand, (None,) * 12)
    for real, other in zip(game.players, alt.players, strict=True):
        assert other.actions == (["-"] * 12 if real.name == "Android 3" else real.actions)
    cmp = compare(resolve_with_states(game), resolve_with_states(alt))
    assert cmp.first_divergence is not None


# -- the editor's clicks (the station's controls on a plan) -------------------------------------------------
def test_editor_station_offers_the_unplaced_cards_on_the_empty_turns(flight) -> None:  # type: ignore[no-untyped-def]
    hand = hand_of(flight, "Ann")
    plan = place(hand.real, 2, None)
    view = station_of(hand, plan)
    used = {s[0] for s in plan if s is not None}
    assert [c.id for c in view.hand] == [c for i, c in enumerate(hand.cards) if i not in used]
    assert view.board is not None and view.board.open_turns == tuple(n for n in range(1, 13) if plan[n - 1] is None)
    assert all(p.turns == view.board.open_turns for p in view.placements)
    assert {r.from_turn for r in view.relocations} == {n for n in range(1, 13) if plan[n - 1] is not None}


def test_editor_clicks_pick_place_move_and_take_back(flight) -> None:  # type: ignore[no-untyped-def]
    hand = hand_of(flight, "Ann")
    code = encode(hand.real)
    first = next(n for n in range(1, 13) if hand.real[n - 1] is not None)
    # take the card on `first` back
    state = apply_click("wback", hand, 0, code, Selection(f"t{first}"), [])
    assert state.plan[first - 1] is None and state.board == 0
    # pick a card from the hand, put it on that turn with its move half up
    view = station_of(hand, state.plan)
    key = card_key(view.hand[0])
    picked = apply_click("wpick", hand, 0, encode(state.plan), Selection(), [key])
    assert picked.sel == Selection(key) and picked.plan == state.plan
    placed = apply_click("wplace", hand, 0, encode(state.plan), picked.sel, [f"m.{first}"])
    assert placed.plan[first - 1] == (hand.cards.index(view.hand[0].id), "move")
    # a planned turn turned over in place, then moved to an empty turn
    flipped = apply_click("wplace", hand, 0, encode(placed.plan), Selection(f"t{first}"), [f"a.{first}"])
    assert flipped.plan[first - 1] == (hand.cards.index(view.hand[0].id), "action")
    empty = next(n for n in range(1, 13) if flipped.plan[n - 1] is None)
    moved = apply_click("wplace", hand, 0, encode(flipped.plan), Selection(f"t{first}"), [f"a.{empty}"])
    assert moved.plan[first - 1] is None and moved.plan[empty - 1] == flipped.plan[first - 1]
    assert apply_click("reset", hand, 0, "", Selection(), []).plan == hand.real


@pytest.mark.parametrize(
    ("action", "sel", "values"),
    [
        ("wplace", "t1", ["a.2"]),  # onto a taken turn
        ("wplace", "-", ["a.1"]),  # nothing selected
        ("wplace", "t1", ["x.1"]),  # no such half
        ("wplace", "t1", ["a.13"]),  # no such turn
        ("wback", "t99", []),
        ("wflip", "-", []),
    ],
)
def test_editor_refuses_clicks_that_do_not_fit(action: str, sel: str, values: list[str]) -> None:
    hand = Hand(
        name="Ann", board="Ann", cards=("a<01", "b>02", "c^03"), real=((0, "action"), (1, "move")) + (None,) * 10
    )
    with pytest.raises(WhatIfError):
        apply_click(action, hand, 0, encode(hand.real), Selection(sel), values)
