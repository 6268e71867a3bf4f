"""What a player may ask of the flight and what the flight answers (rulebook §2: the action
round's moves), as data: the commands, the events they cause and the stable refusal codes.

Apart from the machine so the rules table (engine/flight/rules.py), the views and the bot share
these shapes without importing the machine; the words for each code live with the bot's locales.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, TypeAlias, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from engine.flight.script import Cue
from engine.vocab import Half

# Every kind of FlightEvent the machine can emit (tests check each one occurs).
EventKind: TypeAlias = Literal[
    "intercom",  # a spoken line is due; carries the Cue
    "round_started",  # phase 1 begins: hands may be looked at and played
    "android_revealed",  # an android's heroic card turns face up (at the start of phase 1)
    "cards_dealt",  # a crew member takes the cards of a phase (at its start or on finishing early)
    "threat_drawn",  # a threat card is drawn and placed on its track with its T+ number
    "threat_ignored",  # an unconfirmed report with fewer than five crew (or an empty deck)
    "incoming_data",  # each crew member may draw one card
    "transfer_opened",  # each crew member may give one card until the beep
    "transfer_closed",  # the beep
    "comm_down",  # no talking until comm_restored
    "comm_restored",
    "phase_ended",  # the turns of that phase are locked for everybody
    "round_ended",  # the action round is over (normally or by agreement)
    "card_placed",
    "card_moved",
    "card_taken_back",
    "phase_finished",  # a crew member finished planning a phase early
    "card_drawn",
    "card_given",
    "end_agreed",
    "paused",  # the host stopped the clock: nothing falls due and no command is taken until resumed
    "resumed",  # the clock runs again from where it stopped; carries the pause's length
]
EVENT_KINDS: tuple[EventKind, ...] = get_args(EventKind)

# Why a command is refused: one enumeration, stable codes; each language's sentence lives with the
# caller (the bot's locales), never here.
RejectionCode: TypeAlias = Literal[
    "not_started",  # before the mission start announcement
    "round_over",  # the action round has ended
    "not_in_crew",  # no such crew member / board
    "android_cannot_act",  # an android issued a command
    "not_your_board",  # another human's board (or, solo, the controller's non-existent board)
    "not_your_card",  # the card is not in the player's hand
    "heroic_owner_only",  # a heroic card may only go on its owner's board
    "bad_turn",  # no such turn in this mission (1-12, 1-7 in a two-phase test run)
    "phase_over",  # the turn's phase has ended (for everyone, or for this player who finished it)
    "turn_of_other_phase",  # the turn belongs to a phase the player has not reached yet
    "slot_taken",  # one card per turn
    "slot_empty",
    "card_fixed",  # a card on an android's board can never be moved again (not solo)
    "no_next_phase",  # finishing the last phase early
    "already_finished",  # a second press of one Finish: the phase it named is finished already
    "no_incoming_data",  # no incoming data is open
    "already_drew",
    "deck_empty",
    "transfer_closed",  # no data transfer running
    "already_gave",
    "heroic_not_transferable",
    "bad_target",  # give to oneself, to an android, or to nobody
    "too_early",  # agreeing to end before the second phase has ended
    "already_agreed",
    "paused",  # the flight is paused (a command, or a second pause)
    "not_paused",  # resuming a flight that runs
]
REASONS: tuple[RejectionCode, ...] = get_args(RejectionCode)


# --- commands ---------------------------------------------------------------------------------------
class _Cmd(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    player: str


class PlaceCard(_Cmd):
    """Put a card from the hand on a turn, `half` up; `board` names an android to plan for it."""

    type: Literal["place"] = "place"
    card: str
    turn: int
    half: Half
    board: str | None = None


class MoveCard(_Cmd):
    """Move a planned card to another turn of the same phase (optionally turning it to the other half)."""

    type: Literal["move"] = "move"
    from_turn: int
    to_turn: int
    half: Half | None = None
    board: str | None = None


class TakeBack(_Cmd):
    type: Literal["take_back"] = "take_back"
    turn: int
    board: str | None = None


class FinishPhase(_Cmd):
    """Finish planning the current phase early and take the next phase's cards.

    `phase` is the phase the player saw when pressing (None: whichever is current).  Why: Discord
    delivers a double click as two presses of one button; naming the phase makes the second one a
    refusal instead of finishing the next phase, which the player never saw."""

    type: Literal["finish_phase"] = "finish_phase"
    phase: int | None = None


class DrawCard(_Cmd):
    """Incoming data: draw one card from the action deck."""

    type: Literal["draw"] = "draw"


class GiveCard(_Cmd):
    """Data transfer: give one card (not heroic) to another human until the beep."""

    type: Literal["give"] = "give"
    card: str
    to: str


class AgreeEnd(_Cmd):
    """Agree to end the action round early (possible once the second phase has ended)."""

    type: Literal["agree_end"] = "agree_end"


Command = Annotated[
    PlaceCard | MoveCard | TakeBack | FinishPhase | DrawCard | GiveCard | AgreeEnd,
    Field(discriminator="type"),
]
_COMMAND = TypeAdapter(Command)


def parse_command(data: dict[str, Any]) -> Command:
    """A command from its JSON form ({"type": "place", "player": ..., ...})."""
    return _COMMAND.validate_python(data)


# --- answers and events -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FlightEvent:
    """Something that happened at `at_s`.  `private_to` names the only player who may see `data`."""

    seq: int
    at_s: float
    kind: EventKind
    data: dict[str, Any] = field(default_factory=dict)
    cue: Cue | None = None
    private_to: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "at_s": self.at_s,
            "kind": self.kind,
            "data": self.data,
            "cue": self.cue.to_dict() if self.cue else None,
            "private_to": self.private_to,
        }


@dataclass(frozen=True, slots=True)
class Accepted:
    events: list[FlightEvent]
    ok: Literal[True] = True


@dataclass(frozen=True, slots=True)
class Rejected:
    """A refused command: a code from `RejectionCode` and the values a sentence about it may need
    (the words are the caller's, per language)."""

    reason: RejectionCode
    params: dict[str, Any] = field(default_factory=dict)
    ok: Literal[False] = False
