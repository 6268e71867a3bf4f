"""Hidden Exploration tokens: dealt face down from the mission's mix, peeked at privately, revealed.

A peek shows one token to one player and to nobody else: `peek` returns a view addressed to that
viewer, and nothing the public status shows (`public_view`) ever carries an unrevealed kind.
A reveal makes the token public and yields the spawn/activation modifier it carries.  Alien Relics
stay face up until the crew removes them (removal is needed for the win, our reading).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from engine.elite import tables
from engine.elite.errors import EliteError
from engine.elite.vocab import EXPLORATION_KINDS, ExplorationKind

TokenState = Literal["hidden", "face_up", "removed"]
TOKEN_STATES: tuple[TokenState, ...] = get_args(TokenState)


@dataclass(frozen=True, slots=True)
class Modifiers:
    """Changes to the next Spawn and the next Activation, from revealed tokens."""

    extra_swarm: int = 0
    extra_boss: int = 0
    extra_move: int = 0
    search_cards: int = 0

    def __add__(self, other: Modifiers) -> Modifiers:
        return Modifiers(
            self.extra_swarm + other.extra_swarm,
            self.extra_boss + other.extra_boss,
            self.extra_move + other.extra_move,
            self.search_cards + other.search_cards,
        )


EFFECTS: dict[ExplorationKind, Modifiers] = {
    "boss_alarm": Modifiers(extra_boss=1),
    "smell_of_battle": Modifiers(extra_move=1),
    "swarm_alarm": Modifiers(extra_swarm=1),
    "debris": Modifiers(),
    "alien_relic": Modifiers(),
    "lucky_debris": Modifiers(search_cards=1),
    "scattered_alarm": Modifiers(extra_boss=-1),
}


@dataclass(frozen=True, slots=True)
class PeekView:
    """What one player sees when peeking: for that viewer's eyes only (an ephemeral message)."""

    cell: int
    kind: ExplorationKind
    viewer: int


@dataclass(frozen=True, slots=True)
class Reveal:
    cell: int
    kind: ExplorationKind
    modifiers: Modifiers
    stays_face_up: bool


@dataclass(frozen=True, slots=True)
class PublicToken:
    """A token as everybody sees it: its kind only once it is face up."""

    cell: int
    state: TokenState
    kind: ExplorationKind | None
    peeked: int  # how many peeks happened (the crew knows someone looked, not what they saw)


class ExplorationError(EliteError, ValueError):
    """A peek or reveal at a cell without a face-down token."""


@dataclass
class _Token:
    kind: ExplorationKind
    state: TokenState = "hidden"
    viewers: list[int] = field(default_factory=list)


class ExplorationTokens:
    """The face-down tokens on the listed Objective cells."""

    def __init__(self, cells: tuple[int, ...], rng: random.Random) -> None:
        mix: list[ExplorationKind] = [k for k, n in tables.EXPLORATION_MIX.items() for _ in range(n)]
        if len(cells) > len(mix):
            raise ValueError(f"{len(cells)} cells but only {len(mix)} Exploration tokens")
        rng.shuffle(mix)
        self._tokens = {cell: _Token(kind) for cell, kind in zip(cells, mix, strict=False)}

    def snapshot(self) -> list[list[Any]]:
        """[cell, kind, state, viewers] per token: hidden kinds included (a stored game is the
        director's, never shown to players)."""
        return [[cell, t.kind, t.state, list(t.viewers)] for cell, t in sorted(self._tokens.items())]

    @classmethod
    def restore(cls, rows: list[list[Any]]) -> ExplorationTokens:
        """The tokens `snapshot` described (no new deal: the stored kinds stay where they were)."""
        tokens = cls.__new__(cls)
        tokens._tokens = {}
        for cell, kind, state, viewers in rows:
            known_kind = next((k for k in EXPLORATION_KINDS if k == kind), None)
            known_state = next((s for s in TOKEN_STATES if s == state), None)
            if known_kind is None or known_state is None:
                raise ValueError(f"unknown Exploration token {kind!r} ({state!r})")
            tokens._tokens[int(cell)] = _Token(known_kind, known_state, [int(v) for v in viewers])
        return tokens

    def _face_down(self, cell: int) -> _Token:
        token = self._tokens.get(cell)
        if token is None or token.state != "hidden":
            raise ExplorationError("no_hidden_token", cell=cell)
        return token

    def peek(self, cell: int, viewer: int) -> PeekView:
        """Show one face-down token to one player; it stays face down for everyone else."""
        token = self._face_down(cell)
        token.viewers.append(viewer)
        return PeekView(cell, token.kind, viewer)

    def reveal(self, cell: int) -> Reveal:
        """Flip a token for all; relics stay face up, other tokens leave the board."""
        token = self._face_down(cell)
        relic = token.kind == "alien_relic"
        token.state = "face_up" if relic else "removed"
        return Reveal(cell, token.kind, EFFECTS[token.kind], relic)

    def remove_relic(self, cell: int) -> None:
        token = self._tokens.get(cell)
        if token is None or token.state != "face_up":
            raise ExplorationError("no_relic", cell=cell)
        token.state = "removed"

    def public_view(self) -> tuple[PublicToken, ...]:
        return tuple(
            PublicToken(cell, t.state, None if t.state == "hidden" else t.kind, len(t.viewers))
            for cell, t in sorted(self._tokens.items())
        )

    def viewers(self, cell: int) -> tuple[int, ...]:
        """Who has peeked at a cell's token (for the log; never what they saw)."""
        return tuple(self._tokens[cell].viewers)

    def all_resolved(self) -> bool:
        """Every token revealed and every relic removed (the mission's objective)."""
        return all(t.state == "removed" for t in self._tokens.values())
