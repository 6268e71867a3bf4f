"""What a player, or the whole crew, may see of a running flight: read-only views.

A station view is one crew member's private station (hand, own board, the androids' boards) plus
the commands `Flight.apply` would accept from them right now.  Those legal commands are found with
the rules table's own checks (engine/flight/rules.py), never with a second copy of the rules, so a
control the bot shows is a control that works, and a rule changed in the machine changes what
is offered.  The deck view is what the flight deck shows every crew member: phase, deadlines,
announced threats, open windows, communications.

Views are frozen dataclasses of plain values; building one changes nothing in the flight.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from engine.board import phase_of
from engine.flight import rules
from engine.flight.cards import card
from engine.flight.commands import GiveCard, MoveCard, Rejected, TakeBack
from engine.flight.crew import Member
from engine.vocab import ActionCode, Half, TrackId, Zone

if TYPE_CHECKING:
    from engine.flight.machine import Flight

Status = Literal["ready", "running", "ended"]


@dataclass(frozen=True, slots=True)
class CardView:
    """An action card: the code of each half, and whether it is heroic."""

    id: str
    action: ActionCode
    move: ActionCode
    heroic: bool

    def code(self, half: Half) -> ActionCode:
        return self.action if half == "action" else self.move


def card_view(card_id: str) -> CardView:
    c = card(card_id)
    return CardView(c.id, c.action, c.move, c.heroic)


@dataclass(frozen=True, slots=True)
class SlotView:
    """One turn of a board as the viewer sees it.

    `locked`: its phase is over for the viewer (or the round is).  `open`: the viewer may put a
    card here now.  `hidden`: a card lies here that the viewer may not see (another human's).
    `movable`: the viewer may move the card or take it back.
    """

    turn: int
    phase: int
    locked: bool
    open: bool
    card: CardView | None = None
    half: Half | None = None
    hidden: bool = False
    movable: bool = False

    @property
    def code(self) -> ActionCode | None:
        return self.card.code(self.half) if self.card is not None and self.half is not None else None


@dataclass(frozen=True, slots=True)
class BoardView:
    """An action board: the crew member's own, or an android's that the humans plan for.

    `planners` names who may put cards on it (an android: every human; solo: the one player).
    `heroic` is an android's own heroic card while it still waits to be placed.
    """

    owner: str
    android: bool
    slots: tuple[SlotView, ...]
    planners: tuple[str, ...]
    heroic: CardView | None = None

    @property
    def open_turns(self) -> tuple[int, ...]:
        return tuple(s.turn for s in self.slots if s.open)


@dataclass(frozen=True, slots=True)
class Placement:
    """A legal PlaceCard: `card` may go on any of `turns` of `board` (None: the viewer's own), either half up."""

    card: CardView
    board: str | None
    turns: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Relocation:
    """A legal MoveCard / TakeBack: the card on `from_turn` of `board` may go to `to_turns` or back to the hand."""

    board: str | None
    from_turn: int
    to_turns: tuple[int, ...]
    take_back: bool


@dataclass(frozen=True, slots=True)
class StationView:
    player: str
    status: Status
    now_s: float
    round_phase: int
    planning_phase: int
    phases: int
    solo: bool
    hand: tuple[CardView, ...]
    board: BoardView | None  # None for the solo player, who has no board of their own
    androids: tuple[BoardView, ...]
    placements: tuple[Placement, ...]
    relocations: tuple[Relocation, ...]
    can_finish: bool
    can_draw: bool
    giveable: tuple[CardView, ...]  # cards the player may give in the open data transfer
    give_to: tuple[str, ...]
    can_agree: bool
    agreed_end: bool
    comm_down: bool
    untimed: bool = False  # the phase ends when every human has pressed Finish, not by the clock
    paused_by: str | None = None  # the flight is paused (by whom): nothing can be done until resumed

    @property
    def running(self) -> bool:
        return self.status == "running"

    def placement(self, card_id: str, board: str | None = None) -> Placement | None:
        return next((p for p in self.placements if p.card.id == card_id and p.board == board), None)

    def relocation(self, turn: int, board: str | None = None) -> Relocation | None:
        return next((r for r in self.relocations if r.from_turn == turn and r.board == board), None)


@dataclass(frozen=True, slots=True)
class ThreatView:
    id: str
    name: str  # the card's English name (a caller with other languages looks up `id`)
    turn: int
    zone: Zone | None  # None: internal
    track: TrackId


@dataclass(frozen=True, slots=True)
class DeckView:
    mission: str  # the timeline's id
    status: Status
    now_s: float
    phase: int  # the phase the intercom is in (1 before the start)
    phases: int
    phase_end_s: tuple[float, ...]
    threats: tuple[ThreatView, ...]
    incoming_open: bool
    transfer_closes_at_s: float | None  # a data transfer is open until then
    comm_down_until_s: float | None
    crew: tuple[str, ...]  # everyone with a board, in action order
    humans: tuple[str, ...]
    agreed_end: tuple[str, ...]
    complete: bool  # the round is over and its last line has been said: resolve now
    untimed: bool = False  # the phase ends when every human has pressed Finish, not by the clock
    waiting_for: tuple[str, ...] = ()  # untimed: the humans who have not pressed Finish for this phase
    paused_by: str | None = None  # the flight is paused, by whom
    paused_s: float = 0.0  # the time spent paused so far: mission second s is `paused_s` later on the wall

    @property
    def phase_ends_at_s(self) -> float | None:
        """When the current phase ends on the clock (None: not running, or an untimed flight)."""
        if self.status != "running" or self.untimed or self.phase > len(self.phase_end_s):
            return None
        return self.phase_end_s[self.phase - 1]


# -- building them -------------------------------------------------------------------------------------
def _slots(flight: Flight, board: Member, viewer: Member) -> tuple[SlotView, ...]:
    out = []
    planner = viewer if not viewer.android else board
    for turn in range(1, flight.last_turn + 1):
        phase = phase_of(turn)
        slot = board.board.get(turn)
        running = flight.status == "running"
        locked = flight.status == "ended" or phase < flight.round_phase or (board is planner and phase < planner.phase)
        free = running and rules.turn_open(flight, planner, board, turn) is None
        visible = board.android or board is viewer
        movable = False
        if slot is not None and running and not viewer.android:
            movable = not isinstance(rules.slot_for_change(flight, viewer, board, turn), Rejected)
        out.append(
            SlotView(
                turn=turn,
                phase=phase,
                locked=locked,
                open=free and slot is None,
                card=card_view(slot.card) if slot is not None and visible else None,
                half=slot.half if slot is not None and visible else None,
                hidden=slot is not None and not visible,
                movable=movable,
            )
        )
    return tuple(out)


def _board(flight: Flight, board: Member, viewer: Member) -> BoardView:
    ready = flight.status == "ready"
    planners = tuple(m.name for m in flight.humans()) if board.android else (board.name,)
    heroic = board.hand[0] if board.android and board.hand and not ready else None
    return BoardView(
        owner=board.name,
        android=board.android,
        slots=_slots(flight, board, viewer),
        planners=planners,
        heroic=card_view(heroic) if heroic else None,
    )


def station(flight: Flight, name: str) -> StationView:
    """`name`'s station; raises FlightError for a name not in the crew."""
    from engine.flight.machine import FlightError

    me = flight.member(name)
    if me is None:
        raise FlightError(f"{name} is not in the crew")
    ready = flight.status == "ready"
    acting = flight.status == "running" and not me.android and flight.paused_by is None
    own = _board(flight, me, me) if me.on_board else None
    androids = tuple(_board(flight, m, me) for m in flight.members if m.android)
    hand = tuple(card_view(c) for c in me.hand) if not ready else ()

    placements: list[Placement] = []
    relocations: list[Relocation] = []
    if acting:
        boards: list[tuple[str | None, Member]] = [(None, me)] if me.on_board else []
        boards += [(m.name, m) for m in flight.members if m.android]
        for key, board in boards:
            # `_check_place` is these checks in this order; taken apart so a hand of 90 cards (solo)
            # costs cards + turns checks, not cards x turns
            if isinstance(rules.board_of(flight, me, key), Rejected):
                continue
            free = tuple(
                t
                for t in range(1, flight.last_turn + 1)
                if rules.turn_open(flight, me, board, t) is None and t not in board.board
            )
            candidates = list(me.hand) + (list(board.hand) if board.android else [])
            for cid in dict.fromkeys(candidates) if free else ():
                if not isinstance(rules.card_owner(flight, me, board, cid), Rejected):
                    placements.append(Placement(card_view(cid), key, free))
            for turn in sorted(board.board):
                back = rules.check_take_back(flight, me, TakeBack(player=me.name, turn=turn, board=key))
                if isinstance(back, Rejected):
                    continue
                to = tuple(
                    t
                    for t in range(1, flight.last_turn + 1)
                    if t != turn
                    and not isinstance(
                        rules.check_move(flight, me, MoveCard(player=me.name, from_turn=turn, to_turn=t, board=key)),
                        Rejected,
                    )
                )
                relocations.append(Relocation(key, turn, to, take_back=True))

    giving = acting and not isinstance(rules.check_giving(flight, me), Rejected)
    others = tuple(m.name for m in flight.humans() if m is not me)
    giveable = tuple(
        card_view(c)
        for c in me.hand
        if giving
        and others
        and not isinstance(rules.check_give(flight, me, GiveCard(player=me.name, card=c, to=others[0])), Rejected)
    )
    give_to = tuple(
        o
        for o in others
        if giveable
        and not isinstance(rules.check_give(flight, me, GiveCard(player=me.name, card=giveable[0].id, to=o)), Rejected)
    )
    return StationView(
        player=me.name,
        status=flight.status,
        now_s=flight.now_s,
        round_phase=flight.round_phase,
        planning_phase=me.phase,
        phases=flight.timeline.phases,
        solo=flight.solo,
        hand=hand,
        board=own,
        androids=androids,
        placements=tuple(placements),
        relocations=tuple(relocations),
        can_finish=acting and rules.check_finish(flight, me) is None,
        can_draw=acting and not isinstance(rules.check_draw(flight, me), Rejected),
        giveable=giveable,
        give_to=give_to,
        can_agree=acting and rules.check_agree(flight, me) is None,
        agreed_end=me.agreed_end,
        comm_down=flight.comm_down_until is not None,
        untimed=flight.config.untimed,
        paused_by=flight.paused_by,
    )


def deck(flight: Flight) -> DeckView:
    from engine.threats.catalog import base_cards

    threats = tuple(
        ThreatView(
            id=t["id"],
            name=base_cards()[t["id"]].name,
            turn=int(t["turn"]),
            zone=t.get("zone"),
            track=flight.tracks["internal" if t.get("zone") is None else t["zone"]],  # type: ignore[arg-type]
        )
        for t in flight.threats
    )
    from engine.flight.timeline import TRANSFER_BEEP_AFTER_S

    transfer_closes = None
    if flight.transfer is not None:
        transfer_closes = float(flight.timeline.events[flight.transfer].t) + TRANSFER_BEEP_AFTER_S + flight.delay_s
    return DeckView(
        mission=flight.timeline.id,
        status=flight.status,
        now_s=flight.now_s,
        phase=max(1, flight.round_phase),
        phases=flight.timeline.phases,
        phase_end_s=tuple(float(s) for s in flight.timeline.phase_end_s),
        threats=threats,
        incoming_open=bool(flight.incoming),
        transfer_closes_at_s=transfer_closes,
        comm_down_until_s=flight.comm_down_until,
        crew=tuple(m.name for m in flight.members if m.on_board),
        humans=tuple(m.name for m in flight.humans()),
        agreed_end=tuple(m.name for m in flight.humans() if m.agreed_end),
        complete=flight.complete,
        untimed=flight.config.untimed,
        waiting_for=tuple(flight.waiting_for),
        paused_by=flight.paused_by,
        paused_s=flight.paused_s,
    )
