"""The rulebook's setup and spawn tables, as data (seed 004: Setup, Alien Spawn, Missions).

Everything a setup or a spawn needs that the rulebook prints in a table is here, keyed by the
vocabulary types; the functions that read these tables live in `setup.py` and `spawn.py`.
Where the rulebook is silent the choice is written next to the value.
"""

from __future__ import annotations

from typing import Final

from engine.elite.vocab import ClusterNumber, EliteDifficulty, ExplorationKind, MapSide, MissionId

ROUNDS: Final = 8
MIN_PLAYERS: Final = 1
MAX_PLAYERS: Final = 6
SOLO_HEROES: Final = 2  # Solo: one player runs 2 heroes ...
SOLO_ACTION_DICE: Final = 5  # ... with a shared pool of 5 Action dice.
ACTION_DICE_PER_HERO: Final = 4
HIT_DICE_PER_PLAYER: Final = 3
BASIC_WEAPONS_EXTRA: Final = 2  # deal players + 2 Basic Weapons (solo: one per hero + 2, our reading)
CLUSTER_TOKENS: Final[tuple[ClusterNumber, ...]] = (1, 2, 3)
ACTION_PHASE_S: Final = 120
TIME_STEP_S: Final = 15  # the ±15 s buttons

# Objective cells per mission, map and player band.  Band 2 is the "1-2 players" row (solo too).
# Transcribed from the mission pages; "all" (6 players, Destruction and Exploration) is 1..12.
_ALL: Final = tuple(range(1, 13))
OBJECTIVE_CELLS: Final[dict[MissionId, dict[MapSide, dict[int, tuple[int, ...]]]]] = {
    "extermination": {
        "abandoned_lab": {
            2: (1, 4, 11),
            3: (2, 4, 6, 11),
            4: (2, 4, 6, 9, 10),
            5: (1, 3, 5, 7, 8, 11),
            6: (1, 4, 5, 7, 9, 10, 11),
        },
        "crash_site": {
            2: (7, 9, 10),
            3: (2, 6, 9, 10),
            4: (1, 3, 7, 9, 10),
            5: (1, 4, 7, 8, 9, 10),
            6: (2, 3, 5, 9, 10, 11, 12),
        },
    },
    "capture": {
        "abandoned_lab": {2: (5, 11), 3: (3, 7, 11), 4: (2, 5, 6, 11), 5: (1, 3, 7, 9, 11), 6: (2, 5, 6, 7, 9, 11)},
        "crash_site": {2: (6, 10), 3: (7, 10, 12), 4: (1, 9, 10, 11), 5: (3, 6, 10, 11, 12), 6: (1, 3, 7, 9, 10, 11)},
    },
    "destruction": {
        "abandoned_lab": {
            2: (1, 3, 7, 11),
            3: (1, 3, 4, 6, 7, 11),
            4: (1, 2, 3, 4, 6, 7, 11, 12),
            5: (1, 2, 4, 5, 6, 7, 9, 10, 11, 12),
            6: _ALL,
        },
        "crash_site": {
            2: (6, 7, 9, 10),
            3: (5, 7, 9, 10, 11, 12),
            4: (2, 4, 5, 6, 7, 9, 10, 12),
            5: (1, 2, 3, 5, 6, 7, 8, 9, 10, 12),
            6: _ALL,
        },
    },
    "recon": {
        "abandoned_lab": {2: (6, 11), 3: (4, 7, 11), 4: (2, 7, 11, 12), 5: (1, 5, 7, 9, 11), 6: (2, 4, 6, 9, 11, 12)},
        "crash_site": {2: (4, 7), 3: (1, 7, 10), 4: (1, 6, 9, 10), 5: (1, 4, 7, 9, 11), 6: (2, 7, 8, 9, 10, 11)},
    },
    "exploration": {
        "abandoned_lab": {
            2: (4, 7, 10, 12),
            3: (1, 3, 4, 7, 10, 12),
            4: (3, 4, 5, 7, 8, 9, 11, 12),
            5: (1, 3, 4, 5, 7, 8, 9, 10, 11, 12),
            6: _ALL,
        },
        "crash_site": {
            2: (1, 8, 10, 11),
            3: (2, 3, 5, 7, 9, 11),
            4: (1, 3, 5, 7, 8, 9, 11, 12),
            5: (1, 4, 5, 6, 7, 8, 9, 10, 11, 12),
            6: _ALL,
        },
    },
}

# Traps per Capture token (the Capture mission puts 2 Trap tokens next to each Capture token).
TRAPS_PER_CAPTURE_TOKEN: Final = 2
# Destruction: each hero carries one Destruction token of each of the two kinds.
DESTRUCTION_TOKENS_PER_HERO: Final = 2

# Event timeline: the printed number sorts the 25 events into piles; each difficulty draws a fixed
# number from each pile (8 in all), then the 8 are shuffled into a face-down row.
EVENT_PILES: Final[tuple[tuple[int, ...], ...]] = (
    tuple(range(1, 17)),  # persistent effect
    tuple(range(17, 22)),  # no effect
    (22, 23),  # immediate
    (24,),  # immediate
    (25,),  # immediate
)
EVENT_DRAWS: Final[dict[EliteDifficulty, tuple[int, ...]]] = {
    "easy": (0, 5, 2, 1, 0),
    "medium": (3, 2, 2, 1, 0),
    "hard": (4, 0, 2, 1, 1),
}
PERSISTENT_EVENTS: Final = range(1, 17)
NO_EFFECT_EVENTS: Final = range(17, 22)
IMMEDIATE_EVENTS: Final = range(22, 26)
EVENT_COUNT: Final = 25

# Alien Spawn per round: swarm cards = players (solo counts as 2) + extra; boss cards fixed.
SWARM_EXTRA: Final[dict[EliteDifficulty, int]] = {"easy": 0, "medium": 0, "hard": 1}
BOSS_CARDS: Final[dict[EliteDifficulty, int]] = {"easy": 1, "medium": 2, "hard": 2}

# The Boss Spawn deck: the 8 Boss stat cards shuffled with 12 All Clear cards, never reshuffled.
BOSS_DECK_ALL_CLEAR: Final = 12
BOSS_DECK_SIZE: Final = 20


def cluster_for_roll(roll: int) -> ClusterNumber:
    """A boss spawns at the Cluster token a Hit die picks: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3."""
    if not 1 <= roll <= 6:
        raise ValueError(f"a d6 shows 1..6, not {roll}")
    cluster: ClusterNumber = 1 if roll <= 2 else 2 if roll <= 4 else 3
    return cluster


# The Exploration mission's 12 tokens (one is dealt face down on each listed cell).
EXPLORATION_MIX: Final[dict[ExplorationKind, int]] = {
    "boss_alarm": 1,
    "smell_of_battle": 1,
    "swarm_alarm": 1,
    "debris": 3,
    "alien_relic": 3,
    "lucky_debris": 1,
    "scattered_alarm": 2,
}
