"""The state of one game of Star World: Escape: players' panels, the station, the clock, the dice.

Why mutable dataclasses behind a pure `apply`: `rules.apply` copies the state and changes the
copy, so callers see a pure function, while the simulator (`rules.apply_in_place`) can skip the
copy for thousands of games.  Every die comes from `State.roll`, seeded by (seed, draw number):
the same seed and the same commands give the same game, and a snapshot needs two integers for
its dice instead of a whole generator state.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Literal, TypeAlias

from engine.escape.content import Character, GearCard, Mission, Pack

Mode: TypeAlias = Literal["referee", "digital"]
Difficulty: TypeAlias = Literal["easy", "medium", "hard"]
HOURS: dict[str, int] = {"easy": 20, "medium": 15, "hard": 10}  # seed §2.1.3 step 5


@dataclass(slots=True)
class Item:
    """One gear card a player carries, with its live charges and armour sections."""

    gear: str
    charges: int = 0
    armour: int = 0


@dataclass(slots=True)
class Player:
    """A player's panel (issue 27: Health, armour, charges, AP left, weight, aggression, mission)."""

    character: str
    mission: Mission
    health: int
    items: list[Item] = field(default_factory=list)
    ap: int = 0
    aggression: int = 0
    fought_this_round: bool = False
    knocked_out_hour: int = -1
    ap_penalty: int = 0
    cell: tuple[int, int] = (0, 0)
    looted_here: bool = False
    seen: set[tuple[int, int]] = field(default_factory=set)
    shut_reactor: bool = False
    won_center: bool = False
    hold_left: int = 0
    held_center: bool = False
    escaped: bool = False
    drone: bool = False


@dataclass(slots=True)
class Fight:
    """A fight in progress (seed §2.1.8).  `opponent` is -1 for a station character, else the
    defending player's seat.  `purpose` says what a win gives.  `enemy_by` is the seat that rolls
    for a station character (seed §2.1.8 step 2: the next player; rules doc D29), -1 when the
    engine rolls at once (D8); `enemy_turn` says that seat's roll is due (it is `to_act` then)."""

    attacker: int
    opponent: int
    enemy_health: int
    enemy_damage: int
    purpose: Literal["encounter", "warehouse", "lab", "control_center", "hold", "pvp"]
    to_act: int
    level: int = 1
    enemy_by: int = -1
    enemy_turn: bool = False


@dataclass(slots=True)
class Offer:
    """A trade the active player offered a rival on their tile, waiting for the rival's answer
    (rules doc D26).  `give` is a slot of the offerer's, `ask` a slot of the rival's; -1: nothing."""

    by: int
    to: int
    give: int
    ask: int


@dataclass(slots=True)
class State:
    """The whole game.  `order` is the clockwise seating from the first player (seed §2.1.3 step 9)."""

    mode: Mode
    difficulty: Difficulty
    seed: int
    pack: Pack
    players: list[Player]
    draws: int = 0
    hour: int = 0
    limit: int = 20
    turn: int = 0
    turns_taken: int = 0
    grid: list[list[str]] = field(default_factory=list)
    opened: set[tuple[int, int]] = field(default_factory=set)
    portals_unlocked: set[tuple[int, int]] = field(default_factory=set)
    gravity_off: bool = False
    next_plays_enemy: bool = False
    alarm: bool = False
    docks_unlocked: bool = False
    docks_depressurised: bool = False
    cargo_taken: bool = False
    disk_taken: bool = False
    decks: dict[str, list[str]] = field(default_factory=dict)
    fight: Fight | None = None
    overweight: int = -1
    spoils: tuple[int, int] | None = None
    hold_due: int = -1
    offer: Offer | None = None
    cards: dict[str, GearCard] = field(default_factory=dict)
    chars: dict[str, Character] = field(default_factory=dict)
    winner: int = -1
    timed_out: bool = False

    def roll(self) -> int:
        """One d6 (rules doc D2: one die, rolled anew for every check), seeded by (seed, draw)."""
        self.draws += 1
        return random.Random(self.seed * 1_000_003 + self.draws).randint(1, 6)

    def rng(self) -> random.Random:
        """A generator for a shuffle, advancing the same draw counter as the dice."""
        self.draws += 1
        return random.Random(self.seed * 1_000_003 + self.draws)

    def gear(self, gear_id: str) -> GearCard:
        """A card by id: one the crew typed in (referee mode) or the pack's."""
        card = self.cards.get(gear_id)
        return card if card is not None else self.pack.gear(gear_id)

    def character(self, seat: int) -> Character:
        char_id = self.players[seat].character
        found = self.chars.get(char_id)
        if found is not None:
            return found
        return next(c for c in self.pack.characters if c.id == char_id)

    @property
    def over(self) -> bool:
        return self.winner >= 0 or self.timed_out
