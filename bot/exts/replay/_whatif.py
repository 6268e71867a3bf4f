"""What-if, the pure part: a crew member's cards, their plan as a short string, the alternative game
and how its outcome differs from the real one.

Why a string plan: the ephemeral editor keeps no state in memory (a click after a restart must
still work), so the whole edited plan travels in each component's custom id.  Each of the 12 turns
is two characters, the index of the card in the member's sorted held cards (base 36) and the half
('a' action, 'm' move), or '--' for an empty turn: 24 characters, well inside Discord's 100.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.pictures import Replay
from engine import board
from engine.flight.cards import card
from engine.flight.machine import Flight
from engine.model import Game, PlayerPlan
from engine.vocab import Half, Zone

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
EMPTY = "--"
Slot = tuple[int, Half] | None  # (index into the held cards, half) or an empty turn


class WhatIfError(ValueError):
    """The plan or the member does not allow a what-if (shown to the user as a reason)."""


@dataclass(frozen=True)
class Hand:
    """What one crew member held in a flight: the cards they could have played, and their real plan."""

    name: str
    cards: tuple[str, ...]  # card ids, sorted: the index in a plan string points here
    real: tuple[Slot, ...]  # 12 turns


def hand_of(flight: Flight, name: str) -> Hand:
    """The cards on `name`'s action board and those left in their hand at the end of the flight.

    Limited to these: a what-if replays the flight the member could have played with the cards
    they held, not any card of the deck.
    """
    member = flight.member(name)
    if member is None or not member.on_board or member.android:
        raise WhatIfError("no_board")
    held = sorted({slot.card for slot in member.board.values()} | set(member.hand))
    if len(held) > len(DIGITS):
        raise WhatIfError("too_many_cards")
    real: list[Slot] = [None] * board.TURNS
    for turn, slot in member.board.items():
        real[turn - 1] = (held.index(slot.card), slot.half)
    return Hand(name=name, cards=tuple(held), real=tuple(real))


def encode(plan: tuple[Slot, ...] | list[Slot]) -> str:
    return "".join(EMPTY if s is None else DIGITS[s[0]] + ("a" if s[1] == "action" else "m") for s in plan)


def decode(text: str, hand: Hand) -> tuple[Slot, ...]:
    """Parse a plan string; raises WhatIfError if it does not fit the member's cards."""
    if len(text) != 2 * board.TURNS:
        raise WhatIfError("bad_plan")
    plan: list[Slot] = []
    used: set[int] = set()
    for i in range(board.TURNS):
        pair = text[2 * i : 2 * i + 2]
        if pair == EMPTY:
            plan.append(None)
            continue
        index = DIGITS.find(pair[0])
        if index < 0 or index >= len(hand.cards) or pair[1] not in "am" or index in used:
            raise WhatIfError("bad_plan")
        used.add(index)
        plan.append((index, "action" if pair[1] == "a" else "move"))
    return tuple(plan)


def place(plan: tuple[Slot, ...], turn: int, slot: Slot) -> tuple[Slot, ...]:
    """`plan` with `slot` on `turn` (1-12); a card already on another turn moves here."""
    out = [s if s is None or slot is None or s[0] != slot[0] else None for s in plan]
    out[turn - 1] = slot
    return tuple(out)


def flip(plan: tuple[Slot, ...], turn: int) -> tuple[Slot, ...]:
    slot = plan[turn - 1]
    if slot is None:
        return plan
    return place(plan, turn, (slot[0], "move" if slot[1] == "action" else "action"))


def codes(plan: tuple[Slot, ...], hand: Hand) -> list[str]:
    return [board.BLANK if s is None else card(hand.cards[s[0]]).code(s[1]) for s in plan]


def alternative(game: Game, hand: Hand, plan: tuple[Slot, ...]) -> Game:
    """The real game with `hand.name`'s 12 actions replaced (same threats, tracks and seed)."""
    players = [PlayerPlan(name=p.name, actions=codes(plan, hand)) if p.name == hand.name else p for p in game.players]
    if all(p.name != hand.name for p in game.players):
        raise WhatIfError("no_board")
    return game.model_copy(update={"players": players})


@dataclass(frozen=True)
class Comparison:
    real_total: int
    alt_total: int
    real_outcome: str
    alt_outcome: str
    real_damage: dict[Zone, int]
    alt_damage: dict[Zone, int]
    first_divergence: int | None  # the first turn whose board or events differ; None = identical

    @property
    def delta(self) -> int:
        return self.alt_total - self.real_total


def compare(real: Replay, alt: Replay) -> Comparison:
    diverged = None
    for a, b in zip(real.states, alt.states, strict=False):
        if a != b:
            diverged = a.turn if a.turn == b.turn else min(a.turn, b.turn)
            break
    else:
        if len(real.states) != len(alt.states):  # one flight ended earlier (lost)
            diverged = min(real.last.turn, alt.last.turn) + 1
    return Comparison(
        real_total=real.result.score.total,
        alt_total=alt.result.score.total,
        real_outcome=real.result.outcome,
        alt_outcome=alt.result.outcome,
        real_damage=dict(real.result.damage),
        alt_damage=dict(alt.result.damage),
        first_divergence=diverged,
    )
