"""The two spawn decks the director can hold: the Boss Spawn deck (always) and the Swarm Spawn deck
(only from a data pack; otherwise the crew draws physical cards).

The Boss deck is 8 bosses shuffled with 12 All Clear cards and is never reshuffled: once empty, no
more bosses come.  The Swarm deck reshuffles its discard pile when a draw finds it empty.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.elite import tables
from engine.elite.datapack import SwarmSpawnCard
from engine.elite.vocab import BOSSES, BossId

ALL_CLEAR = None  # an All Clear card in the Boss deck


@dataclass
class BossDeck:
    """Face-down boss cards, top first; `None` entries are All Clear."""

    cards: list[BossId | None]
    drawn: list[BossId | None] = field(default_factory=list)

    @classmethod
    def shuffled(cls, rng: random.Random) -> BossDeck:
        cards: list[BossId | None] = [*BOSSES, *([ALL_CLEAR] * tables.BOSS_DECK_ALL_CLEAR)]
        rng.shuffle(cards)
        return cls(cards)

    def __len__(self) -> int:
        return len(self.cards)

    def draw(self) -> tuple[bool, BossId | None]:
        """(drawn, card): (False, None) once the deck is empty; it is never reshuffled."""
        if not self.cards:
            return False, None
        card = self.cards.pop(0)
        self.drawn.append(card)
        return True, card


@dataclass
class SwarmDeck:
    """A data pack's Swarm Spawn cards, shuffled; the discard is reshuffled when the deck runs out."""

    cards: list[SwarmSpawnCard]
    discard: list[SwarmSpawnCard] = field(default_factory=list)
    reshuffles: int = 0

    @classmethod
    def shuffled(cls, cards: Sequence[SwarmSpawnCard], rng: random.Random) -> SwarmDeck:
        deck = list(cards)
        rng.shuffle(deck)
        return cls(deck)

    def draw(self, rng: random.Random) -> SwarmSpawnCard | None:
        """The top card, reshuffling the discard first if the deck is empty (None if both are)."""
        if not self.cards:
            if not self.discard:
                return None
            self.cards, self.discard = self.discard, []
            rng.shuffle(self.cards)
            self.reshuffles += 1
        card = self.cards.pop(0)
        self.discard.append(card)
        return card
