"""The action cards of the base game: 90 normal cards and 6 heroic ones.

A card has an action half and a movement half; which half is up decides the code the resolver
sees.  Ids are stable strings so a stored flight and a Discord button can name a card:
normal cards are "<action><move><nn>" (e.g. "a<03" = the third A/red-arrow card), heroic cards
"H1".."H6".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from engine.vocab import ActionCode, Half

# action -> cards per movement (red arrow, blue arrow, gravolift), as printed in the base game's deck
_COUNTS: dict[ActionCode, int] = {"a": 10, "b": 8, "c": 7, "x": 5}
_MOVES: tuple[ActionCode, ...] = ("<", ">", "^")
# heroic card -> (action half, heroic move digit); digits as in engine.board.HEROIC_MOVES
_HEROIC: dict[str, tuple[ActionCode, ActionCode]] = {
    "H1": ("A", "3"),  # heroic A / lower blue
    "H2": ("A", "1"),  # heroic A / lower red
    "H3": ("B", "4"),  # heroic B / upper red
    "H4": ("B", "6"),  # heroic B / upper blue
    "H5": ("X", "5"),  # heroic battlebots / upper white
    "H6": ("X", "2"),  # heroic battlebots / lower white
}


@dataclass(frozen=True, slots=True)
class ActionCard:
    id: str
    action: ActionCode  # a b c x | A B X
    move: ActionCode  # < > ^ | 1-6
    heroic: bool = False

    def code(self, half: Half) -> ActionCode:
        """The resolver's action code for this card played with `half` up."""
        return self.action if half == "action" else self.move

    def to_dict(self) -> dict[str, object]:
        return {"id": self.id, "action": self.action, "move": self.move, "heroic": self.heroic}


@cache
def normal_cards() -> tuple[ActionCard, ...]:
    """The 90 normal cards in a fixed order (shuffling is the flight's job, with its seeded RNG)."""
    cards = []
    for action, count in _COUNTS.items():
        for move in _MOVES:
            cards += [ActionCard(f"{action}{move}{n:02d}", action, move) for n in range(1, count + 1)]
    return tuple(cards)


@cache
def heroic_cards() -> tuple[ActionCard, ...]:
    return tuple(ActionCard(cid, a, m, True) for cid, (a, m) in _HEROIC.items())


@cache
def _by_id() -> dict[str, ActionCard]:
    return {c.id: c for c in (*normal_cards(), *heroic_cards())}


def card(card_id: str) -> ActionCard:
    return _by_id()[card_id]


def is_card(card_id: str) -> bool:
    return card_id in _by_id()
