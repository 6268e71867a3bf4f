"""The action round's rules for players' moves (rulebook §2 "Action round", §5 androids), one entry
per command: each `Rule` is the whole check and its effect together, looked up by the command's
type in `RULES`.

Why a table: a move's rule used to live in four places (the command class, the check dispatch, the
check, the handler); now `Flight.apply` and `Flight.check` both go through `RULES`, the station
view asks the same public predicates (`turn_open`, `card_owner`, ...), and `legal_commands` lists
exactly what `apply` accepts (a test holds the two together).  Rule interpretations where the
rulebook leaves a gap are marked "Interpretation:".

Rulebook names, to find a rule fast:
  playing an action card ..................... `PLACE` (place)
  moving / turning a planned card ............ `MOVE` (move), `TAKE_BACK` (take_back)
  finishing a phase early .................... `FINISH` (finish_phase)
  incoming data (draw one card) .............. `DRAW` (draw)
  data transfer (give one card) .............. `GIVE` (give)
  ending the action round by agreement ....... `AGREE` (agree_end)
  androids' boards (§5) ...................... `board_of`, `slot_for_change`
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from engine.board import phase_of
from engine.flight.cards import card, is_card
from engine.flight.commands import (
    AgreeEnd,
    Command,
    DrawCard,
    FinishPhase,
    FlightEvent,
    GiveCard,
    MoveCard,
    PlaceCard,
    Rejected,
    TakeBack,
)
from engine.flight.crew import Member, Slot
from engine.flight.script import Cue
from engine.vocab import HALVES

if TYPE_CHECKING:
    from engine.flight.machine import Flight

C = TypeVar("C", bound=Command)
P = TypeVar("P")


@dataclass(frozen=True)
class Rule(Generic[C, P]):
    """One move of the action round: `check` says whether it is allowed now and returns what
    `apply` needs (or the refusal); `apply` carries out exactly what the check allowed."""

    name: str  # the rulebook's name for the move
    section: str  # where the rulebook says it
    check: Callable[[Flight, Member, C], P | Rejected]
    apply: Callable[[Flight, Member, C, P], list[FlightEvent]]


# -- who may act, on which board, which turn ------------------------------------------------------
def actor(flight: Flight, name: str) -> Member | Rejected:
    """The human who issued a command, if the round lets anyone act now."""
    if flight.status == "ready":
        return Rejected("not_started")
    if flight.status == "ended":
        return Rejected("round_over")
    if flight.paused_by is not None:
        return Rejected("paused", {"by": flight.paused_by})
    player = flight.member(name)
    if player is None:
        return Rejected("not_in_crew", {"name": name})
    if player.android:
        return Rejected("android_cannot_act", {"name": player.name})
    return player


def board_of(flight: Flight, player: Member, name: str | None) -> Member | Rejected:
    """The board a player plans on: their own (None), or an android's (§5: any human may)."""
    target = player if name is None else flight.member(name)
    if target is None:
        return Rejected("not_in_crew", {"name": name})
    if target is player and player.on_board:
        return target
    if not target.android:
        return Rejected("not_your_board", {"board": target.name})
    return target


def turn_open(flight: Flight, player: Member, board: Member, turn: int) -> Rejected | None:
    """Whether `player` may still change `turn` on `board` (its phase not over, and reached)."""
    if not 1 <= turn <= flight.last_turn:
        return Rejected("bad_turn", {"turn": turn, "last": flight.last_turn})
    phase = phase_of(turn)
    if phase < flight.round_phase:
        return Rejected("phase_over", {"turn": turn, "phase": phase})
    if board is player and (phase < player.phase or player.finished_last):
        return Rejected("phase_over", {"turn": turn, "phase": phase})
    # Interpretation: an android's turn is open once its planner has reached the turn's phase
    if phase > player.phase:
        return Rejected("turn_of_other_phase", {"turn": turn, "phase": phase, "planning": player.phase})
    return None


def card_owner(flight: Flight, player: Member, board: Member, card_id: str) -> Member | Rejected:
    """Whose hand `card_id` leaves when it goes on `board` (the player's, or an android's own heroic)."""
    owner: Member | None = None
    if card_id in player.hand:
        owner = player
    elif board.android and card_id in board.hand:
        owner = board
    if owner is None or not is_card(card_id):
        return Rejected("not_your_card", {"card": card_id})
    if card(card_id).heroic and owner is player and board is not player:
        return Rejected("heroic_owner_only", {"card": card_id})
    return owner


def slot_for_change(flight: Flight, player: Member, board: Member, turn: int) -> Slot | Rejected:
    """The planned card on `turn` if it may still be moved or taken back (§5: an android's card,
    once placed, stays, except in a solo game)."""
    if board.android and not flight.solo and turn in board.board:
        return Rejected("card_fixed", {"turn": turn})
    if not 1 <= turn <= flight.last_turn:
        return Rejected("bad_turn", {"turn": turn, "last": flight.last_turn})
    slot = board.board.get(turn)
    if slot is None:
        return Rejected("slot_empty", {"turn": turn})
    closed = turn_open(flight, player, board, turn)
    return closed or slot


# -- playing an action card -----------------------------------------------------------------------
def check_place(flight: Flight, player: Member, cmd: PlaceCard) -> tuple[Member, Member] | Rejected:
    board = board_of(flight, player, cmd.board)
    if isinstance(board, Rejected):
        return board
    owner = card_owner(flight, player, board, cmd.card)
    if isinstance(owner, Rejected):
        return owner
    closed = turn_open(flight, player, board, cmd.turn)
    if closed:
        return closed
    if cmd.turn in board.board:
        return Rejected("slot_taken", {"turn": cmd.turn})
    return board, owner


def apply_place(flight: Flight, player: Member, cmd: PlaceCard, plan: tuple[Member, Member]) -> list[FlightEvent]:
    board, owner = plan
    owner.hand.remove(cmd.card)
    board.board[cmd.turn] = Slot(cmd.card, cmd.half, player.name)
    face_up = board.android  # a human's plan is private until the resolution; an android's is open
    data = {
        "player": player.name,
        "board": board.name,
        "turn": cmd.turn,
        "half": cmd.half,
        "card": cmd.card if face_up else None,
        "code": card(cmd.card).code(cmd.half) if face_up else None,
    }
    return [flight.emit("card_placed", data, private_to=None if face_up else player.name)]


# -- moving, turning and taking back a planned card ------------------------------------------------
def check_move(flight: Flight, player: Member, cmd: MoveCard) -> tuple[Member, Slot] | Rejected:
    board = board_of(flight, player, cmd.board)
    if isinstance(board, Rejected):
        return board
    slot = slot_for_change(flight, player, board, cmd.from_turn)
    if isinstance(slot, Rejected):
        return slot
    closed = turn_open(flight, player, board, cmd.to_turn)
    if closed:
        return closed
    if cmd.to_turn != cmd.from_turn and cmd.to_turn in board.board:
        return Rejected("slot_taken", {"turn": cmd.to_turn})
    return board, slot


def apply_move(flight: Flight, player: Member, cmd: MoveCard, plan: tuple[Member, Slot]) -> list[FlightEvent]:
    board, slot = plan
    del board.board[cmd.from_turn]
    board.board[cmd.to_turn] = Slot(slot.card, cmd.half or slot.half, slot.placed_by)
    data = {
        "player": player.name,
        "board": board.name,
        "from_turn": cmd.from_turn,
        "to_turn": cmd.to_turn,
        "half": cmd.half or slot.half,
    }
    return [flight.emit("card_moved", data, private_to=None if board.android else player.name)]


def check_take_back(flight: Flight, player: Member, cmd: TakeBack) -> tuple[Member, Slot] | Rejected:
    board = board_of(flight, player, cmd.board)
    if isinstance(board, Rejected):
        return board
    slot = slot_for_change(flight, player, board, cmd.turn)
    if isinstance(slot, Rejected):
        return slot
    return board, slot


def apply_take_back(flight: Flight, player: Member, cmd: TakeBack, plan: tuple[Member, Slot]) -> list[FlightEvent]:
    board, slot = plan
    del board.board[cmd.turn]
    # an android's heroic card goes back to the android, anything else to the player's hand
    (board if board.android and slot.card == board.heroic else player).hand.append(slot.card)
    data = {"player": player.name, "board": board.name, "turn": cmd.turn, "card": slot.card}
    return [flight.emit("card_taken_back", data, private_to=None if board.android else player.name)]


# -- finishing a phase early ------------------------------------------------------------------------
def check_finish(flight: Flight, player: Member, cmd: FinishPhase | None = None) -> Rejected | None:
    # untimed: Finish in the last phase says "I am done", which the operation's end waits for
    last_open = flight.config.untimed and not player.finished_last
    if cmd is not None and cmd.phase is not None and cmd.phase < player.phase:
        # a stale Finish: the clock ended that phase for everyone, or the player finished it
        ended = cmd.phase < flight.round_phase
        return Rejected("phase_over" if ended else "already_finished", {"phase": cmd.phase})
    if player.phase >= flight.timeline.phases and not last_open:
        return Rejected("no_next_phase", {"phase": player.phase})
    return None


def apply_finish(flight: Flight, player: Member, cmd: FinishPhase, plan: None) -> list[FlightEvent]:
    done = player.phase
    if done >= flight.timeline.phases:
        player.finished_last = True
    else:
        player.phase += 1
    events = [flight.emit("phase_finished", {"player": player.name, "phase": done})]
    events += flight.deal(player, player.phase)
    return events + flight.release()


# -- incoming data ----------------------------------------------------------------------------------
def check_draw(flight: Flight, player: Member, cmd: DrawCard | None = None) -> int | Rejected:
    """The incoming-data window the player would draw for."""
    if not flight.incoming:
        return Rejected("no_incoming_data")
    unused = [i for i in flight.incoming if i not in player.drew]
    if not unused:
        return Rejected("already_drew")
    if not flight.action_deck:
        return Rejected("deck_empty")
    return unused[0]


def apply_draw(flight: Flight, player: Member, cmd: DrawCard, window: int) -> list[FlightEvent]:
    cid = flight.action_deck.pop(0)
    player.drew.append(window)
    player.hand.append(cid)
    return [flight.emit("card_drawn", {"player": player.name, "card": cid, "index": window}, private_to=player.name)]


# -- data transfer ----------------------------------------------------------------------------------
def check_giving(flight: Flight, player: Member) -> int | Rejected:
    """The data transfer the player may give a card in (any card, to anyone: checked below)."""
    if flight.transfer is None:
        return Rejected("transfer_closed")
    if flight.transfer in player.gave:
        return Rejected("already_gave")
    return flight.transfer


def check_give(flight: Flight, player: Member, cmd: GiveCard) -> tuple[int, Member] | Rejected:
    window = check_giving(flight, player)
    if isinstance(window, Rejected):
        return window
    if cmd.card not in player.hand:
        return Rejected("not_your_card", {"card": cmd.card})
    if card(cmd.card).heroic:
        return Rejected("heroic_not_transferable", {"card": cmd.card})
    target = flight.member(cmd.to)
    if target is None or target is player or target.android:
        return Rejected("bad_target", {"name": cmd.to})
    return window, target


def apply_give(flight: Flight, player: Member, cmd: GiveCard, plan: tuple[int, Member]) -> list[FlightEvent]:
    window, target = plan
    player.hand.remove(cmd.card)
    target.hand.append(cmd.card)
    player.gave.append(window)
    return [flight.emit("card_given", {"player": player.name, "to": target.name, "card": cmd.card, "index": window})]


# -- ending the action round by agreement ----------------------------------------------------------
def check_agree(flight: Flight, player: Member, cmd: AgreeEnd | None = None) -> Rejected | None:
    if flight.round_phase <= 2:
        return Rejected("too_early")
    if player.agreed_end:
        return Rejected("already_agreed")
    return None


def apply_agree(flight: Flight, player: Member, cmd: AgreeEnd, plan: None) -> list[FlightEvent]:
    player.agreed_end = True
    events = [flight.emit("end_agreed", {"player": player.name})]
    if all(m.agreed_end for m in flight.humans()):
        flight.status = "ended"
        flight.ended_early = True
        flight.incoming = []
        flight.transfer = None
        cue = Cue(flight.now_s, "operation_ended", flight.config.lang)
        events.append(flight.emit("round_ended", {"early": True}, cue))
    return events


PLACE: Rule[PlaceCard, tuple[Member, Member]] = Rule("playing an action card", "§2", check_place, apply_place)
MOVE: Rule[MoveCard, tuple[Member, Slot]] = Rule("moving a planned card", "§2", check_move, apply_move)
TAKE_BACK: Rule[TakeBack, tuple[Member, Slot]] = Rule("taking a card back", "§2", check_take_back, apply_take_back)
FINISH: Rule[FinishPhase, None] = Rule("finishing a phase early", "§2", check_finish, apply_finish)
DRAW: Rule[DrawCard, int] = Rule("incoming data", "§2.1", check_draw, apply_draw)
GIVE: Rule[GiveCard, tuple[int, Member]] = Rule("data transfer", "§2.2", check_give, apply_give)
AGREE: Rule[AgreeEnd, None] = Rule("ending the action round early", "§2", check_agree, apply_agree)

# The one table: a command's `type` -> its rule.
RULES: dict[str, Rule[Any, Any]] = {
    "place": PLACE,
    "move": MOVE,
    "take_back": TAKE_BACK,
    "finish_phase": FINISH,
    "draw": DRAW,
    "give": GIVE,
    "agree_end": AGREE,
}


def legal_commands(flight: Flight, name: str) -> list[Command]:
    """Every command `apply` would accept from `name` now, built from the station view's lists (the
    same predicates), so a control the bot shows is a move the rules allow and nothing is missing."""
    view = flight.station(name)
    out: list[Command] = []
    for placement in view.placements:
        for turn in placement.turns:
            for half in HALVES:
                out.append(PlaceCard(player=name, card=placement.card.id, turn=turn, half=half, board=placement.board))
    for relocation in view.relocations:
        if relocation.take_back:
            out.append(TakeBack(player=name, turn=relocation.from_turn, board=relocation.board))
        # the same turn too: turning the card to its other half where it lies
        for to_turn in (relocation.from_turn, *relocation.to_turns):
            for turned in (None, *HALVES):
                out.append(
                    MoveCard(
                        player=name,
                        from_turn=relocation.from_turn,
                        to_turn=to_turn,
                        half=turned,
                        board=relocation.board,
                    )
                )
    if view.can_finish:
        out.append(FinishPhase(player=name))
    if view.can_draw:
        out.append(DrawCard(player=name))
    for given in view.giveable:
        for receiver in view.give_to:
            out.append(GiveCard(player=name, card=given.id, to=receiver))
    if view.can_agree:
        out.append(AgreeEnd(player=name))
    return out
