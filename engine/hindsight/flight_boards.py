"""The boards of a finished flight as the search sees them: each card on a board with its two halves
and the phase it was dealt in, and the cards each player held and did not play.

The flight keeps who holds what but not when a card arrived, so the deal is worked out again from
the flight's configuration (Flight.start is a pure function of it).  A card that was not dealt
(drawn on incoming data, given in a data transfer) counts as held from the phase of the turn it
lies on, or, unplayed, from the last phase only: the search never suggests a card before it
could have been in the hand.  An android's board takes its own heroic card and the cards the
humans put on it; in a solo flight the androids' boards take the solo player's hand.
"""

from __future__ import annotations

from engine import board
from engine.flight.cards import card
from engine.flight.machine import Flight
from engine.hindsight.boards import Board, Held


def dealt_phases(flight: Flight) -> dict[str, int]:
    """card id -> the phase it was dealt in (heroic cards: phase 1)."""
    fresh = Flight.start(flight.config)
    phases: dict[str, int] = {}
    for m in fresh.members:
        if m.heroic:
            phases[m.heroic] = 1
        for phase, cards in m.pending.items():
            for cid in cards:
                phases.setdefault(cid, phase)
    return phases


def _held(card_id: str, phase: int) -> Held:
    c = card(card_id)
    return Held(card_id, (c.action, c.move), phase)


def flight_boards(flight: Flight) -> list[Board]:
    """The on-board crew's boards, in action order (the order of flight.to_game()'s players)."""
    phases = dealt_phases(flight)
    last_phase = flight.timeline.phases
    on_board = [m for m in flight.members if m.on_board]
    solo = next((m for m in flight.members if not m.on_board), None)
    boards = []
    for m in on_board:
        plan = [board.BLANK] * board.TURNS
        placed: dict[int, Held] = {}
        for turn, slot in m.board.items():
            c = card(slot.card)
            plan[turn - 1] = c.code(slot.half)
            placed[turn] = _held(slot.card, phases.get(slot.card, board.phase_of(turn)))
        hand = list(m.hand)
        if solo is not None:
            hand += solo.hand
        unplayed: dict[tuple[str, ...], Held] = {}
        for cid in hand:
            held = _held(cid, phases.get(cid, last_phase))
            key = (*held.codes, str(held.phase))  # one card of each kind is enough to try
            unplayed.setdefault(key, held)
        boards.append(Board(m.name, tuple(plan), placed, tuple(unplayed.values())))
    return boards
