"""What-if, the pure part: which boards a crew member may edit and with which cards, their plan as a
short string, the alternative game and how its outcome differs from the real one.

Why a string plan: the ephemeral editor keeps no state in memory (a click after a restart must
still work), so the whole edited plan travels in each component's custom id.  Each of the 12 turns
is three characters, the index of the card in the board's sorted held cards (two base-36 digits,
room for a solo player's whole deck) and the half ('a' action, 'm' move), or '---' for an empty
turn: 36 characters, well inside Discord's 100.

"The cards they held" is everything that was in the member's hand at some time during the flight:
what is on their board and left in their hand at the end, the cards they put on an android's
board, and the cards they gave away in a data transfer (those are only in the flight's journal:
`given_away`).  A card received in a transfer was in their hand too, so it counts (it is on their
board or in their hand at the end).  A solo player has no board of their own: they plan for four
androids, so they edit one android's board at a time, with the cards they could have put there
(the deck left face up, the cards on that android's board and its own heroic card; cards on the
other androids' boards stay there).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from bot.games.space_alert.pictures import Replay
from engine import board
from engine.flight.cards import card
from engine.flight.machine import Flight
from engine.model import Game, PlayerPlan
from engine.vocab import Half, Zone

DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"
EMPTY = "---"
WIDTH = len(EMPTY)  # characters per turn in a plan string
MAX_CARDS = len(DIGITS) ** 2
Slot = tuple[int, Half] | None  # (index into the held cards, half) or an empty turn


class WhatIfError(ValueError):
    """The plan or the member does not allow a what-if (shown to the user as a reason)."""


@dataclass(frozen=True)
class Hand:
    """One board a crew member may edit: the cards they could have played on it, and its real plan."""

    name: str  # the crew member
    board: str  # whose board: the member's own, or (solo) the android's they planned for
    cards: tuple[str, ...]  # card ids, sorted: the index in a plan string points here
    real: tuple[Slot, ...]  # 12 turns

    @property
    def android(self) -> bool:
        return self.board != self.name


def given_away(journal: Iterable[dict[str, Any]], name: str) -> list[str]:
    """The cards `name` gave in data transfers, from the flight's journal (the store's
    `flight_events`: each accepted command is kept in its entry's payload)."""
    out = []
    for entry in journal:
        payload = entry.get("payload")
        command = payload.get("command") if isinstance(payload, dict) else None
        if isinstance(command, dict) and command.get("type") == "give" and command.get("player") == name:
            cid = command.get("card")
            if isinstance(cid, str):
                out.append(cid)
    return out


def boards_of(flight: Flight, name: str) -> tuple[str, ...]:
    """The boards `name` may edit: their own; solo, the androids'.  Raises for anyone else."""
    member = flight.member(name)
    if member is None or member.android:
        raise WhatIfError("no_board")
    if member.on_board:
        return (member.name,)
    return tuple(m.name for m in flight.members if m.android)


def hand_of(flight: Flight, name: str, given: Iterable[str] = (), board_name: str | None = None) -> Hand:
    """`name`'s cards for one board (their own by default; solo, the first android's).

    Limited to the cards they held: a what-if replays the flight the member could have played
    with their cards, not with any card of the deck.  `given` are the cards they gave away
    (`given_away` of the flight's journal; an unknown card id is ignored).
    """
    boards = boards_of(flight, name)
    target = flight.member(board_name or boards[0])
    member = flight.member(name)
    if target is None or member is None or target.name not in boards:
        raise WhatIfError("no_board")
    held: set[str] = {slot.card for slot in target.board.values()} | set(member.hand)
    if target.android:  # solo: the deck left face up, this android's board and its own heroic card
        held |= {target.heroic} if target.heroic else set()
    else:
        for android in (m for m in flight.members if m.android):
            held |= {s.card for s in android.board.values() if s.placed_by == name and s.card != android.heroic}
        held |= {c for c in given if _is_card(c)}
    cards = sorted(held)
    if len(cards) > MAX_CARDS:
        raise WhatIfError("too_many_cards")
    real: list[Slot] = [None] * board.TURNS
    for turn, slot in target.board.items():
        real[turn - 1] = (cards.index(slot.card), slot.half)
    return Hand(name=name, board=target.name, cards=tuple(cards), real=tuple(real))


def _is_card(card_id: str) -> bool:
    try:
        card(card_id)
    except (KeyError, ValueError):
        return False
    return True


def encode(plan: tuple[Slot, ...] | list[Slot]) -> str:
    return "".join(EMPTY if s is None else _index(s[0]) + ("a" if s[1] == "action" else "m") for s in plan)


def _index(i: int) -> str:
    return DIGITS[i // len(DIGITS)] + DIGITS[i % len(DIGITS)]


def decode(text: str, hand: Hand) -> tuple[Slot, ...]:
    """Parse a plan string; raises WhatIfError if it does not fit the member's cards."""
    if len(text) != WIDTH * board.TURNS:
        raise WhatIfError("bad_plan")
    plan: list[Slot] = []
    used: set[int] = set()
    for i in range(board.TURNS):
        part = text[WIDTH * i : WIDTH * (i + 1)]
        if part == EMPTY:
            plan.append(None)
            continue
        hi, lo = DIGITS.find(part[0]), DIGITS.find(part[1])
        index = hi * len(DIGITS) + lo
        if hi < 0 or lo < 0 or index >= len(hand.cards) or part[2] not in "am" or index in used:
            raise WhatIfError("bad_plan")
        used.add(index)
        plan.append((index, "action" if part[2] == "a" else "move"))
    return tuple(plan)


def place(plan: tuple[Slot, ...], turn: int, slot: Slot) -> tuple[Slot, ...]:
    """`plan` with `slot` on `turn` (1-12); a card already on another turn moves here."""
    _check_turn(turn)
    out = [s if s is None or slot is None or s[0] != slot[0] else None for s in plan]
    out[turn - 1] = slot
    return tuple(out)


def move(plan: tuple[Slot, ...], from_turn: int, to_turn: int, half: Half) -> tuple[Slot, ...]:
    """The card on `from_turn` moved to `to_turn` (the same turn: only turned over) with `half` up;
    refused onto a turn that holds another card, as at the station."""
    _check_turn(from_turn)
    _check_turn(to_turn)
    slot = plan[from_turn - 1]
    if slot is None or (to_turn != from_turn and plan[to_turn - 1] is not None):
        raise WhatIfError("bad_plan")
    return place(plan, to_turn, (slot[0], half))


def flip(plan: tuple[Slot, ...], turn: int) -> tuple[Slot, ...]:
    slot = plan[turn - 1]
    if slot is None:
        return plan
    return place(plan, turn, (slot[0], "move" if slot[1] == "action" else "action"))


def _check_turn(turn: int) -> None:
    if not 1 <= turn <= board.TURNS:
        raise WhatIfError("bad_plan")


def codes(plan: tuple[Slot, ...], hand: Hand) -> list[str]:
    return [board.BLANK if s is None else card(hand.cards[s[0]]).code(s[1]) for s in plan]


def alternative(game: Game, hand: Hand, plan: tuple[Slot, ...]) -> Game:
    """The real game with the 12 actions of `hand.board` replaced (same threats, tracks and seed)."""
    players = [PlayerPlan(name=p.name, actions=codes(plan, hand)) if p.name == hand.board else p for p in game.players]
    if all(p.name != hand.board for p in game.players):
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


def plan_changes(hand: Hand, plan: tuple[Slot, ...]) -> list[dict[str, Any]]:
    """The turns whose code the what-if changed, as language-free JSON (kept for the web logbook's
    flight page): `{"turn", "real", "alt"}` with action codes ("-" for an empty turn)."""
    real, alt = codes(hand.real, hand), codes(plan, hand)
    return [{"turn": i + 1, "real": r, "alt": a} for i, (r, a) in enumerate(zip(real, alt, strict=True)) if r != a]
