"""Station and deck views: the legal commands a view lists are exactly those `apply` accepts.

Every check compares the view with `Flight.check` (which `apply` runs before changing anything)
over every candidate command, in every window and phase of whole flights: a crew of four, a crew
with androids (one as fifth), and solo.
"""

from __future__ import annotations

from typing import Any

from engine.flight.commands import AgreeEnd, DrawCard, FinishPhase, GiveCard, MoveCard, PlaceCard, TakeBack
from engine.flight.machine import Flight, FlightConfig


def _assert_view_is_the_rules(flight: Flight, name: str) -> dict[str, int]:
    """Compare every listed control with `check`; return how many of each kind were legal."""
    view = flight.station(name)
    me = flight.member(name)
    assert me is not None
    counts = {"place": 0, "move": 0, "back": 0}
    boards: list[str | None] = ([None] if me.on_board else []) + [m.name for m in flight.members if m.android]
    for board in boards:
        target = me if board is None else flight.member(board)
        assert target is not None
        candidates = list(dict.fromkeys([*me.hand, *(target.hand if target.android else [])]))
        for cid in candidates:
            listed = view.placement(cid, board)
            for turn in range(1, flight.last_turn + 1):
                legal = flight.check(PlaceCard(player=name, card=cid, turn=turn, half="move", board=board)) is None
                assert legal == (listed is not None and turn in listed.turns), (name, board, cid, turn)
                counts["place"] += legal
        for turn in range(1, flight.last_turn + 1):
            rel = view.relocation(turn, board)
            back = flight.check(TakeBack(player=name, turn=turn, board=board)) is None
            assert back == (rel is not None and rel.take_back), (name, board, turn)
            counts["back"] += back
            for to in range(1, flight.last_turn + 1):
                if to == turn:
                    continue
                moved = flight.check(MoveCard(player=name, from_turn=turn, to_turn=to, board=board)) is None
                assert moved == (rel is not None and to in rel.to_turns), (name, board, turn, to)
                counts["move"] += moved
    assert view.can_draw == (flight.check(DrawCard(player=name)) is None)
    assert view.can_finish == (flight.check(FinishPhase(player=name)) is None)
    assert view.can_agree == (flight.check(AgreeEnd(player=name)) is None)
    for c in me.hand:
        for other in flight.members:
            legal = flight.check(GiveCard(player=name, card=c, to=other.name)) is None
            listed = any(g.id == c for g in view.giveable) and other.name in view.give_to
            assert legal == listed, (name, c, other.name)
    # what a board slot says agrees with the lists
    if view.board is not None:
        for slot in view.board.slots:
            assert slot.open == any(slot.turn in p.turns for p in view.placements if p.board is None) or (
                slot.open and not view.hand
            )
            assert slot.movable == (view.relocation(slot.turn) is not None)
    return counts


def _fly(config: FlightConfig, act: Any) -> tuple[Flight, set[str], dict[str, int]]:
    """Second by second through the whole flight, checking every human's view whenever something happens."""
    flight = Flight.start(config)
    for name in (m.name for m in flight.humans()):
        _assert_view_is_the_rules(flight, name)  # before the start: nothing is legal
        assert not flight.station(name).placements and not flight.station(name).can_draw
    seen: set[str] = set()
    totals = {"place": 0, "move": 0, "back": 0}
    t = 0.0
    while not flight.complete:
        events = flight.advance_to(t)
        kinds = {e.kind for e in events if e.kind != "intercom"}
        seen |= kinds
        if kinds or t % 37 == 0:
            for name in (m.name for m in flight.humans()):
                for key, n in _assert_view_is_the_rules(flight, name).items():
                    totals[key] += n
        act(flight, kinds)
        t += 1.0
    return flight, seen, totals


def _crew_acts(flight: Flight, kinds: set[str]) -> None:
    """Place a card now and then, give in transfers, finish phase 1 early once."""
    if flight.status != "running":
        return
    for name in (m.name for m in flight.humans()):
        view = flight.station(name)
        if view.placements and int(flight.now_s) % 20 == 0:
            p = view.placements[0]
            flight.apply(PlaceCard(player=name, card=p.card.id, turn=p.turns[0], half="action", board=p.board))
        if "transfer_opened" in kinds and view.giveable and view.give_to:
            flight.apply(GiveCard(player=name, card=view.giveable[0].id, to=view.give_to[0]))
    if flight.now_s == 100:
        flight.apply(FinishPhase(player=flight.humans()[-1].name))


def test_views_list_exactly_the_legal_commands_crew_of_four() -> None:
    config = FlightConfig(crew=["Ann", "Bob", "Cy", "Dee"], mission="S2-1", seed=3)
    flight, seen, totals = _fly(config, _crew_acts)
    assert {"incoming_data", "transfer_opened", "transfer_closed", "comm_down", "phase_ended"} <= seen
    assert totals["place"] > 0 and totals["move"] > 0 and totals["back"] > 0
    view = flight.station("Ann")
    assert view.status == "ended" and not view.placements and not view.can_finish
    assert all(s.locked for s in view.board.slots)


def test_views_with_androids_and_an_android_as_fifth() -> None:
    config = FlightConfig(crew=["Ann", "Bob", "Cy"], mission="S1-3", seed=5, android_as_fifth=True)
    flight, _seen, totals = _fly(config, _crew_acts)
    assert totals["place"] > 0
    view = flight.station("Ann")
    assert len(view.androids) == 2 and all(b.planners == ("Ann", "Bob", "Cy") for b in view.androids)


def test_views_solo_plans_for_four_androids_and_ignores_windows() -> None:
    config = FlightConfig(crew=["Solo"], mission="S1-1", seed=9)
    flight = Flight.start(config)
    flight.advance_to(0)
    view = flight.station("Solo")
    assert view.solo and view.board is None and len(view.androids) == 4
    assert all(b.planners == ("Solo",) for b in view.androids)
    assert len(view.hand) == 90
    _assert_view_is_the_rules(flight, "Solo")
    p = view.placements[0]
    flight.apply(PlaceCard(player="Solo", card=p.card.id, turn=p.turns[0], half="action", board=p.board))
    # solo may still move a card on an android's board (a crew may not)
    assert flight.station("Solo").relocation(p.turns[0], p.board) is not None
    _assert_view_is_the_rules(flight, "Solo")
    flight.advance_to(flight.timeline.phase_end_s[0] + 1)
    _assert_view_is_the_rules(flight, "Solo")
    assert not flight.station("Solo").can_draw and not flight.station("Solo").giveable


def test_android_cards_are_fixed_for_a_crew() -> None:
    flight = Flight.start(FlightConfig(crew=["Ann", "Bob"], mission="S1-1", seed=2))
    flight.advance_to(0)
    view = flight.station("Ann")
    heroic = next(p for p in view.placements if p.board == "Android 1" and p.card.heroic)
    assert view.androids[0].heroic == heroic.card  # its own heroic card, face up, for anyone to place
    own_heroic = next(c for c in view.hand if c.heroic)
    assert view.placement(own_heroic.id, "Android 1") is None  # a player's heroic card: own board only
    flight.apply(PlaceCard(player="Ann", card=heroic.card.id, turn=1, half="action", board="Android 1"))
    bob = flight.station("Bob")
    slot = bob.androids[0].slots[0]
    assert slot.card == heroic.card and not slot.movable and bob.relocation(1, "Android 1") is None


def test_deck_view_windows_phase_and_completion() -> None:
    flight = Flight.start(FlightConfig(crew=["Ann", "Bob", "Cy", "Dee"], mission="S2-1", seed=4))
    deck = flight.deck()
    assert deck.status == "ready" and deck.phase == 1 and deck.threats == ()
    incoming = next(e.t for e in flight.timeline.events if e.event == "incoming_data")
    transfer = next(e.t for e in flight.timeline.events if e.event == "data_transfer")
    comm = next(e for e in flight.timeline.events if e.event == "comm_down")
    flight.advance_to(incoming)
    deck = flight.deck()
    assert deck.incoming_open and deck.threats and deck.phase_ends_at_s == flight.timeline.phase_end_s[0]
    flight.advance_to(comm.t)
    assert flight.deck().comm_down_until_s == comm.t + comm.duration_s
    flight.advance_to(transfer)
    assert flight.deck().transfer_closes_at_s == transfer + 8
    flight.advance_to(flight.timeline.phase_end_s[-1])
    deck = flight.deck()
    assert deck.status == "ended" and not deck.complete  # the intercom still has lines to say
    flight.advance_to(flight.timeline.end_s + 60)
    assert flight.deck().complete
