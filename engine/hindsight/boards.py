"""What each player could have done instead: their board, the cards they held, and the changes the
action round allowed (the station's checks, engine.flight.machine), one at a time.

A change is one of four kinds: `move` a card to an empty turn (same half up), `take_back` a card,
`flip` a card to its other half, or `play` a card the player held and did not play.  A card can go
on a turn of the phase it arrived in or a later one (the cards of phase 2 arrive when phase 2
starts, a drawn or given card in the phase of its draw or gift; a turn stays open until its phase
ends), one card a turn (`slot_taken`), turns 1 to the mission's last (`bad_turn`).

An android's board (a crew of two or three, or a solo flight) is a board like any other, planned by
the humans: a card on it came from the hand of the human who put it there (`Held.hand`), and a
change to it is made by that human (`Change.by`).  Its own heroic card is in no human's hand.

A GAME.json knows codes, not cards: there each played code is a card of one half, held since the
phase of the turn it lies on, and nothing else was held.  So only take-backs and moves to an empty
turn of the same or a later phase are searched; the flight (bot) knows the hands and the halves.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from engine import board

ChangeKind: TypeAlias = Literal["move", "take_back", "flip", "play"]
CHANGE_KINDS: tuple[ChangeKind, ...] = ("move", "take_back", "flip", "play")


@dataclass(frozen=True, slots=True)
class Held:
    """A card a player had: its id (the code itself when only the code is known), the codes its
    halves show (one when the other half is unknown), and the first phase it could be played in.

    `hand`: whose hand it is in (or came from, for a card on a board); None or the board's owner
    for the owner's own cards, a human's name for a card on (or for) an android's board.  `copies`: other
    cards of the same hand just like it (same halves, same phase), so that trying one of them
    stands for all; playing it leaves the next copy in the hand."""

    card: str
    codes: tuple[str, ...]
    phase: int
    hand: str | None = None
    copies: tuple[str, ...] = ()

    def other(self, code: str) -> str | None:
        """The code of the other half, None for a card whose other half is unknown."""
        if len(self.codes) < 2:
            return None
        return self.codes[1] if code == self.codes[0] else self.codes[0]


@dataclass(frozen=True, slots=True)
class Change:
    """One plan change of one player.  `code`: the code the card shows after the change (None for
    a take-back); not part of the public JSON, which the plans already show."""

    player: str  # whose board (and plan) it changes
    kind: ChangeKind
    card: str
    from_turn: int | None
    to_turn: int | None
    code: str | None = None
    by: str | None = None  # the human who makes it when the board is not theirs (an android's)
    # The first turn the change touches (the resolution is the played one before it); the search
    # reads it often, so it is worked out once.
    turn: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        turns = [t for t in (self.from_turn, self.to_turn) if t is not None]
        object.__setattr__(self, "turn", min(turns) if turns else 0)

    @property
    def actor(self) -> str:
        """Who would have made the change: the board's owner, or the human planning for an android
        (the android itself for its own heroic card, which any of them may play)."""
        return self.by or self.player

    def to_json(self) -> dict[str, Any]:
        """The issue's shape; a change on another's board (an android's) also names the board."""
        data: dict[str, Any] = {
            "player": self.actor,
            "kind": self.kind,
            "card": self.card,
            "from_turn": self.from_turn,
            "to_turn": self.to_turn,
        }
        if self.actor != self.player:
            data["board"] = self.player
        return data


@dataclass(frozen=True, slots=True)
class Board:
    """One player's action board during the search, never changed in place: `apply` gives a new one.
    `placed`: turn -> the card lying there; `unplayed`: the cards held and not played."""

    name: str
    plan: tuple[str, ...]
    placed: Mapping[int, Held]
    unplayed: tuple[Held, ...] = ()
    turns: int = board.TURNS  # the mission's last turn (7 in a two-phase test run)

    @classmethod
    def from_codes(cls, name: str, codes: str | list[str] | tuple[str, ...]) -> Board:
        """A board known only by its codes (a GAME.json): each card held since its turn's phase."""
        plan = tuple(codes)
        placed = {t: Held(c, (c,), board.phase_of(t)) for t, c in enumerate(plan, start=1) if c != board.BLANK}
        return cls(name, plan, placed)

    def problem(self, change: Change) -> str | None:
        """Why the action round would refuse `change` on this board (the station's reason codes,
        engine.flight.machine.RejectionCode), None when it allows it."""
        if change.player != self.name:
            return "not_your_board"
        for t in (change.from_turn, change.to_turn):
            if t is not None and not 1 <= t <= self.turns:
                return "bad_turn"
        if change.kind == "play":
            held = _find(self.unplayed, change.card)
            if held is None or change.code not in held.codes or change.by != self._by(held):
                return "not_your_card"
            return self._open(held, change.to_turn)
        turn = change.from_turn
        held = self.placed.get(turn) if turn is not None else None
        if turn is None or held is None or held.card != change.card:
            return "slot_empty"
        if change.by != self._by(held):
            return "not_your_card"
        if change.kind == "move":
            if change.to_turn == change.from_turn:
                return "slot_taken"
            return self._open(held, change.to_turn)
        if change.kind == "flip":
            other = held.other(self.plan[turn - 1])
            if other is None or other != change.code or change.to_turn != change.from_turn:
                return "not_your_card"
        return None

    def _by(self, held: Held) -> str | None:
        return held.hand if held.hand != self.name else None

    def _open(self, held: Held, turn: int | None) -> str | None:
        if turn is None or not 1 <= turn <= self.turns:
            return "bad_turn"
        if board.phase_of(turn) < held.phase:
            return "turn_of_other_phase"  # the card came in a later phase than the turn's
        if turn in self.placed:
            return "slot_taken"
        return None

    def apply(self, change: Change) -> Board:
        """The board after `change` (which must be allowed: see `problem`)."""
        plan = list(self.plan)
        placed = dict(self.placed)
        unplayed = self.unplayed
        if change.kind == "play":
            assert change.to_turn is not None and change.code is not None
            held = _find(unplayed, change.card)
            assert held is not None
            unplayed = tuple(h for h in unplayed if h is not held)
            rest = tuple(c for c in (held.card, *held.copies) if c != change.card)
            if rest:  # the next copy stays in the hand
                unplayed = (*unplayed, Held(rest[0], held.codes, held.phase, held.hand, rest[1:]))
            placed[change.to_turn] = Held(change.card, held.codes, held.phase, held.hand)
            plan[change.to_turn - 1] = change.code
        else:
            assert change.from_turn is not None
            held = placed[change.from_turn]
            code = plan[change.from_turn - 1]
            if change.kind == "take_back":
                del placed[change.from_turn]
                plan[change.from_turn - 1] = board.BLANK
                unplayed = (*unplayed, held)
            elif change.kind == "move":
                assert change.to_turn is not None
                del placed[change.from_turn]
                placed[change.to_turn] = held
                plan[change.from_turn - 1] = board.BLANK
                plan[change.to_turn - 1] = code
            else:  # flip
                assert change.code is not None
                plan[change.from_turn - 1] = change.code
        return Board(self.name, tuple(plan), placed, unplayed, self.turns)

    def changes(self) -> Iterator[Change]:
        """Every change the round allowed on this board, each distinct plan once (once per human making
        it, on an android's board), in turn order."""
        for change, _ in self.changed():
            yield change

    def changed(self) -> list[tuple[Change, Board]]:
        """`changes()` with the board after each."""
        empty = [t for t in range(1, self.turns + 1) if t not in self.placed]
        found: list[Change] = []
        for t, held in sorted(self.placed.items()):
            if t > self.turns:
                continue  # (no such turn in this mission: no change the station allows)
            code = self.plan[t - 1]
            by = self._by(held)
            found.append(Change(self.name, "take_back", held.card, t, None, by=by))
            other = held.other(code)
            if other is not None and other != code:
                found.append(Change(self.name, "flip", held.card, t, t, other, by=by))
            for to in empty:
                if board.phase_of(to) >= held.phase:
                    found.append(Change(self.name, "move", held.card, t, to, code, by=by))
        for held in sorted(self.unplayed, key=lambda h: (h.phase, h.hand or "", h.card)):
            by = self._by(held)
            for to in empty:
                if board.phase_of(to) >= held.phase:
                    for code in held.codes:
                        found.append(Change(self.name, "play", held.card, None, to, code, by=by))
        # Each plan once per player making it: on an android's board two humans may play alike
        # cards, and which of them does it matters to the answer (fewer players involved).
        seen: set[tuple[tuple[str, ...], str | None]] = {(self.plan, None)}
        out = []
        for change in sorted(found, key=lambda c: c.turn):
            after = self.apply(change)
            key = (after.plan, change.by)
            if key not in seen:
                seen.add(key)
                out.append((change, after))
        return out


def _find(unplayed: tuple[Held, ...], card: str) -> Held | None:
    """The unplayed card `card` is (or is a copy of)."""
    return next((h for h in unplayed if h.card == card or card in h.copies), None)


def first_difference(a: tuple[str, ...], b: tuple[str, ...]) -> int | None:
    """The first turn (1..12) two plans differ in, None when they are the same."""
    for i, (x, y) in enumerate(zip(a, b, strict=True)):
        if x != y:
            return i + 1
    return None
