"""The card faces of Star World: Escape as plain immutable records, and the station generator.

Why here and not in the rules: the seed (003) gives the rules but not the cards (rules doc §G1):
missions, characters, gear, events and tile contents come from a content pack (`pack.py` loads
one; `data/default_pack.json` is our own).  Referee mode builds the same records from numbers the
crew types off their physical cards, so the rules never care where a card came from.

Pure: no I/O; the layout generator takes a seed and returns the same station for the same seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

Kind: TypeAlias = Literal["human", "mutant", "cyborg"]
GearType: TypeAlias = Literal["weapon", "armour", "boots", "helmet", "stim", "tool"]
Goal: TypeAlias = Literal["take_cargo", "take_disk", "shutdown_reactor", "take_center", "hold_center", "escape"]
TileKind: TypeAlias = Literal[
    "start",
    "corridor",
    "crate",
    "trap",
    "hyperportal",
    "lift",
    "medbay",
    "docks",
    "warehouse",
    "reactor",
    "armoury",
    "lab",
    "control_center",
]
GOALS: tuple[str, ...] = ("take_cargo", "take_disk", "shutdown_reactor", "take_center", "hold_center", "escape")
TILE_KINDS: tuple[str, ...] = (
    "start",
    "corridor",
    "crate",
    "trap",
    "hyperportal",
    "lift",
    "medbay",
    "docks",
    "warehouse",
    "reactor",
    "armoury",
    "lab",
    "control_center",
)
GEAR_TYPES: tuple[str, ...] = ("weapon", "armour", "boots", "helmet", "stim", "tool")
KINDS: tuple[str, ...] = ("human", "mutant", "cyborg")
SIZE = 5  # rules doc D3: the station is 5 × 5 (centre, 8 inner, 16 outer)
CENTER = (2, 2)


@dataclass(frozen=True, slots=True)
class Character:
    """A character card (seed §2.1.3): action points, unarmed damage, carry weight, Health."""

    id: str
    kind: Kind
    ap: int
    unarmed: int
    max_weight: int
    health: int


@dataclass(frozen=True, slots=True)
class GearCard:
    """A gear card (seed §2.1.3 icons).  `charges` 0 means a melee weapon that never runs dry;
    `armour` is the number of armour sections a suit absorbs before Health (seed §2.1.8 step 4)."""

    id: str
    type: GearType
    weight: int = 0
    damage: int = 0
    hands: int = 1
    charges: int = 0
    double_shot: bool = False
    auto_aim: bool = False
    armour: int = 0
    heal: int = 0
    story: bool = False


@dataclass(frozen=True, slots=True)
class Enemy:
    """A station character on a local event or a guard (seed §2.1.8): Health and damage."""

    health: int
    damage: int


@dataclass(frozen=True, slots=True)
class LocalEvent:
    """A local event card (seed §2.1.6).  `kind`: encounter (dialogue bands `fight_upto` and
    `part_upto`: a check at or below `fight_upto` fights, at or below `part_upto` parts ways,
    above negotiates), body (`damage` or a gear draw when `gear`), hazard (roll at or above
    `safe_from` or lose `damage`), nothing, repair_drone."""

    id: str
    kind: Literal["encounter", "body", "hazard", "nothing", "repair_drone"]
    enemy: Enemy | None = None
    fight_upto: int = 0
    part_upto: int = 0
    damage: int = 0
    safe_from: int = 0
    gear: bool = False


@dataclass(frozen=True, slots=True)
class GeneralEvent:
    """A general event (seed §2.1.4), hitting every player: damage, heal, ap (next turn's AP
    change), calm (aggression discarded), gear (everyone draws outer gear), nothing."""

    id: str
    kind: Literal["damage", "heal", "ap", "calm", "gear", "nothing"]
    amount: int = 0


@dataclass(frozen=True, slots=True)
class Mission:
    """A mission card: an ordered list of goals from the seed's targets (rules doc D12)."""

    id: str
    goals: tuple[Goal, ...]


@dataclass(frozen=True, slots=True)
class Pack:
    """A whole content pack.  Immutable, so a game state may share it instead of copying it."""

    id: str
    characters: tuple[Character, ...]
    gear_outer: tuple[GearCard, ...]
    gear_inner: tuple[GearCard, ...]
    story: tuple[GearCard, ...]
    local_outer: tuple[LocalEvent, ...]
    local_inner: tuple[LocalEvent, ...]
    general: tuple[GeneralEvent, ...]
    missions: tuple[Mission, ...]
    guards: dict[str, Enemy]
    layout_outer: dict[str, int]
    layout_inner: dict[str, int]
    raw: dict[str, Any] = field(default_factory=dict, compare=False)

    def __deepcopy__(self, memo: dict[int, Any]) -> Pack:
        return self  # immutable by contract: a copied game state shares its pack

    def gear(self, gear_id: str) -> GearCard:
        for card in (*self.gear_outer, *self.gear_inner, *self.story):
            if card.id == gear_id:
                return card
        raise KeyError(gear_id)


def ring(cell: tuple[int, int]) -> int:
    """0 for the centre, 1 for the inner ring (level 2), 2 for the outer ring (level 1)."""
    return max(abs(cell[0] - 2), abs(cell[1] - 2))


def level_of(cell: tuple[int, int]) -> int:
    """The deck level of a cell (seed §2.1.2): backs "1" outside, "2" inside and at the centre."""
    return 1 if ring(cell) == 2 else 2


CORNERS = ((0, 0), (0, 4), (4, 4), (4, 0))  # clockwise: seat i starts at CORNERS[i] (rules doc D3)


def generate_layout(seed: int, outer: dict[str, int], inner: dict[str, int]) -> list[list[str]]:
    """The station for one game (rules doc D3): the control center in the middle, the 4 start
    tiles on the outer corners, the outer kinds shuffled over the 12 other outer cells and the
    inner kinds over the 8 inner cells.  Seeded and pure.  Counts must fill their rings exactly
    (the pack loader checks); a lift never lands on a corner, so each lift touches the inner ring."""
    rng = random.Random(seed)
    grid = [["corridor"] * SIZE for _ in range(SIZE)]
    grid[2][2] = "control_center"
    for r, c in CORNERS:
        grid[r][c] = "start"
    outer_cells = [(r, c) for r in range(SIZE) for c in range(SIZE) if ring((r, c)) == 2 and (r, c) not in CORNERS]
    inner_cells = [(r, c) for r in range(SIZE) for c in range(SIZE) if ring((r, c)) == 1]
    for cells, counts in ((outer_cells, outer), (inner_cells, inner)):
        kinds = [kind for kind, n in sorted(counts.items()) for _ in range(n)]
        rng.shuffle(kinds)
        for (r, c), kind in zip(cells, kinds, strict=True):
            grid[r][c] = kind
    return grid
