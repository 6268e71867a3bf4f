"""The boards of a finished flight as the search sees them: each card on a board with its two halves
and the first phase it could have been played in, the cards each player held and did not play,
and the androids' boards with the cards the humans could have put on them.

When a card arrived (the flight's state keeps who holds what, not since when):
- dealt: the phase it was dealt for (Flight.start is a pure function of the configuration, so the
  deal is worked out again); a heroic card, or an android's, from phase 1;
- drawn on incoming data: the phase of the draw.  Draws take the action deck's top card, in time
  order, and an incoming-data offer lapses when its phase ends, so the k-th card drawn in the
  flight was drawn in the phase of the k-th draw (the players' `drew` windows, sorted);
- given in a data transfer: the phase the transfer's window closed in (a gift may come up to the
  beep).  The flight's journal says who gave which card to whom (`Gift`, in journal order); the
  giver's `gave` windows say when, the n-th gift of a giver being in their n-th window.  The rules
  let anyone give to anyone (§2.1: "to any other player", the Russian and Slovak rulebooks alike,
  with no word of zones); the flight machine checks no zone, so neither does this.
Without the journal (`gifts=None`) a card that may have changed hands is taken to have arrived in
the latest phase a gift could have brought it in, so the search never suggests a card before it
could have been in the hand.

A flight's turns close for everyone when their phase ends; a player who pressed Finish early closed
them for themselves, but pressing Finish is not part of a plan, so a hindsight plan may wait.

Androids' boards (§5.2; rules-decisions 22): a human may put any card of their hand but their
heroic card on an android's board, and an android's own heroic card on it; solo (§5.5), the solo
player plans all four boards from the deck laid face up.  Cards on an android's board cannot move
once placed, but a hindsight plan places them where it wants them in the first place.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine import board
from engine.flight.cards import card
from engine.flight.crew import Member
from engine.flight.machine import Flight
from engine.flight.timeline import TRANSFER_BEEP_AFTER_S, Timeline
from engine.hindsight.boards import Board, Held


@dataclass(frozen=True, slots=True)
class Gift:
    """One data-transfer gift of the flight's journal: `giver` handed `card` to `receiver`."""

    giver: str
    card: str
    receiver: str


def _phase_of_time(timeline: Timeline, t: float) -> int:
    """The phase an event at recording time `t` happens in: an event at a phase end's very second
    comes before the end (the machine's schedule puts phase ends last at equal times)."""
    return 1 + sum(1 for end in timeline.phase_end_s if end < t)


def dealt_phases(flight: Flight) -> dict[str, tuple[str, int]]:
    """card id -> (who it was dealt to, the phase it was dealt for); heroic cards: phase 1 (an
    android's is in its own hand from the start)."""
    fresh = Flight.start(flight.config)
    dealt: dict[str, tuple[str, int]] = {}
    for m in fresh.members:
        if m.heroic:
            dealt[m.heroic] = (m.name, 1)
        for phase, cards in m.pending.items():
            for cid in cards:
                dealt.setdefault(cid, (m.name, phase))
    return dealt


def drawn_phases(flight: Flight) -> dict[str, int]:
    """card id -> the phase it was drawn in on incoming data (see the module docstring); empty when
    the deck does not match the draws (a flight restored from an older shape)."""
    fresh = Flight.start(flight.config)
    events = flight.timeline.events
    windows = sorted(_phase_of_time(flight.timeline, events[w].t) for m in flight.members for w in m.drew)
    drawn = fresh.action_deck[: len(windows)]
    if fresh.action_deck[len(windows) :] != flight.action_deck:
        return {}
    return dict(zip(drawn, windows, strict=True))


def _gift_phase(flight: Flight, window: int) -> int:
    """The last phase a gift in data transfer `window` can have come in: the one its beep is in."""
    return _phase_of_time(flight.timeline, flight.timeline.events[window].t + TRANSFER_BEEP_AFTER_S)


def gift_phases(flight: Flight, gifts: Iterable[Gift]) -> dict[tuple[str, str], int] | None:
    """(receiver, card) -> the phase of the last gift of that card to that receiver; None when the
    gifts do not fit the flight (more gifts by someone than data transfers they gave in)."""
    count: dict[str, int] = {}
    out: dict[tuple[str, str], int] = {}
    for g in gifts:
        giver = flight.member(g.giver)
        n = count.get(g.giver, 0)
        if giver is None or n >= len(giver.gave):
            return None
        count[g.giver] = n + 1
        out[(g.receiver, g.card)] = _gift_phase(flight, giver.gave[n])
    return out


class Arrivals:
    """When each card could first be played by the human (or android) holding it at the end."""

    def __init__(self, flight: Flight, gifts: Sequence[Gift] | None) -> None:
        self.last_phase = flight.timeline.phases
        self.dealt = dealt_phases(flight)
        self.drawn = drawn_phases(flight)
        known = gift_phases(flight, gifts) if gifts is not None else None
        self.gifts = known
        # without the journal: the windows each member gave in, for the latest a gift could be
        self.gave = {m.name: [_gift_phase(flight, w) for w in m.gave] for m in flight.members}

    def phase(self, holder: str, cid: str) -> int:
        dealt = self.dealt.get(cid)
        if dealt is not None:
            since = dealt[1]
        elif cid in self.drawn:
            since = self.drawn[cid]
        else:
            return self.last_phase  # where it came from is unknown: the latest it can have come
        if self.gifts is not None:
            return max(since, self.gifts.get((holder, cid), since))
        if dealt is not None and dealt[0] == holder:
            # dealt to the holder: kept all along, unless given away and back (a gift by the holder,
            # then one by another)
            out = min(self.gave.get(holder, []), default=None)
            since = since if out is None else max(since, out)
            back = [p for name, phases in self.gave.items() if name != holder for p in phases if p >= since]
            return max([dealt[1], *back])
        # drawn (by anyone) or dealt to someone else: maybe given, as late as a gift by another came
        later = [p for name, phases in self.gave.items() if name != holder for p in phases if p >= since]
        if dealt is not None and not later:
            return self.last_phase  # it changed hands, but no gift says when
        return max([since, *later])


def _held(cid: str, phase: int, hand: str | None) -> Held:
    c = card(cid)
    return Held(cid, (c.action, c.move), phase, hand)


def _unplayed(cards: Iterable[tuple[str, str | None, int]]) -> tuple[Held, ...]:
    """(card, hand, phase) -> Helds, alike cards of one hand (same halves, same phase) as one Held
    with copies: trying one stands for all."""
    groups: dict[tuple[str | None, str, str, int], list[str]] = {}
    for cid, hand, phase in cards:
        c = card(cid)
        groups.setdefault((hand, c.action, c.move, phase), []).append(cid)
    return tuple(
        Held(ids[0], (action, move), phase, hand, tuple(ids[1:])) for (hand, action, move, phase), ids in groups.items()
    )


def flight_boards(flight: Flight, gifts: Sequence[Gift] | None = None) -> list[Board]:
    """The on-board crew's boards, in action order (the order of flight.to_game()'s players).
    `gifts`: the flight's data-transfer gifts in journal order, None when unknown."""
    arrivals = Arrivals(flight, gifts)
    on_board = [m for m in flight.members if m.on_board]
    solo = next((m for m in flight.members if not m.on_board), None)
    planners = [solo] if solo is not None else [m for m in on_board if not m.android]
    turns = flight.last_turn
    boards = []
    for m in on_board:
        plan = [board.BLANK] * board.TURNS
        placed: dict[int, Held] = {}
        for turn, slot in m.board.items():
            c = card(slot.card)
            plan[turn - 1] = c.code(slot.half)
            # whose hand it came from: the planner's, or (an android's heroic card) the android's own
            holder = m.name if (not m.android or slot.card == m.heroic) else slot.placed_by
            placed[turn] = _held(slot.card, arrivals.phase(holder, slot.card), holder)
        boards.append(Board(m.name, tuple(plan), placed, _unplayed(_hand_for(m, planners, arrivals)), turns))
    return boards


def _hand_for(m: Member, planners: list[Member], arrivals: Arrivals) -> list[tuple[str, str | None, int]]:
    """The cards that could have gone on `m`'s board and were not played: a human's own hand; an
    android's heroic card and each planner's hand but their heroic card."""
    if not m.android:
        return [(cid, m.name, arrivals.phase(m.name, cid)) for cid in m.hand]
    out: list[tuple[str, str | None, int]] = [(cid, m.name, 1) for cid in m.hand]  # its own heroic card, if not played
    for p in planners:
        out += [(cid, p.name, arrivals.phase(p.name, cid)) for cid in p.hand if not card(cid).heroic]
    return out
