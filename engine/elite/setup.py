"""A game's configuration (validated at the edge) and the setup the rulebook tables give for it.

`make_setup` only reads the tables and a seeded `random.Random`; the same seed gives the same
shuffles, so a posted setup can be reproduced from the logbook.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.elite import tables
from engine.elite.vocab import ClusterNumber, EliteDifficulty, EventKind, HeroId, MapSide, MissionId


class EliteConfig(BaseModel):
    """What the crew chose in the wizard: map side, mission, difficulty, players and their heroes.

    Solo is `players == 1` with two heroes (the rulebook's solo mode); otherwise one hero per player.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    map: MapSide
    mission: MissionId
    difficulty: EliteDifficulty
    players: int = Field(ge=tables.MIN_PLAYERS, le=tables.MAX_PLAYERS)
    heroes: tuple[HeroId, ...]

    @model_validator(mode="after")
    def _heroes_fit(self) -> EliteConfig:
        want = tables.SOLO_HEROES if self.players == 1 else self.players
        if len(self.heroes) != want:
            raise ValueError(f"{self.players} player(s) need {want} heroes, got {len(self.heroes)}")
        if len(set(self.heroes)) != len(self.heroes):
            raise ValueError("each hero can be chosen only once")
        return self

    @property
    def solo(self) -> bool:
        return self.players == 1

    @property
    def table_band(self) -> int:
        """The row of the mission tables: solo and 2 players share the "1-2 players" row."""
        return max(2, self.players)

    @property
    def spawn_players(self) -> int:
        """Player count for spawns: a solo game spawns as for 2 players."""
        return max(2, self.players)


def event_kind(number: int) -> EventKind:
    """The kind printed with an event's number: 1-16 persistent, 17-21 no effect, 22-25 immediate."""
    if number in tables.PERSISTENT_EVENTS:
        return "persistent"
    if number in tables.NO_EFFECT_EVENTS:
        return "no_effect"
    if number in tables.IMMEDIATE_EVENTS:
        return "immediate"
    raise ValueError(f"events are numbered 1..{tables.EVENT_COUNT}, not {number}")


def objective_cells(mission: MissionId, map_side: MapSide, players: int) -> tuple[int, ...]:
    """The numbered Objective cells a mission uses on a map side for a player count (solo = 1)."""
    if not tables.MIN_PLAYERS <= players <= tables.MAX_PLAYERS:
        raise ValueError(f"ELITE is for 1..6 players, not {players}")
    return tables.OBJECTIVE_CELLS[mission][map_side][max(2, players)]


def event_timeline(difficulty: EliteDifficulty, rng: random.Random) -> tuple[int, ...]:
    """Draw from each shuffled pile as the difficulty says, then shuffle the 8 into a face-down row."""
    drawn: list[int] = []
    for pile, count in zip(tables.EVENT_PILES, tables.EVENT_DRAWS[difficulty], strict=True):
        shuffled = list(pile)
        rng.shuffle(shuffled)
        drawn.extend(shuffled[:count])
    rng.shuffle(drawn)
    return tuple(drawn)


def cluster_permutation(rng: random.Random) -> tuple[ClusterNumber, ...]:
    """The 3 Cluster tokens shuffled onto the 3 Cluster cells (listed in the board's reading order)."""
    tokens = list(tables.CLUSTER_TOKENS)
    rng.shuffle(tokens)
    return tuple(tokens)


@dataclass(frozen=True, slots=True)
class MissionTokens:
    """The mission's components to lay out, beyond the Objective cells (counts only)."""

    traps: int = 0  # Capture: 2 next to each Capture token
    destruction_per_hero: int = 0  # Destruction: one of each kind per hero
    recon_in_start_zone: int = 0  # Recon: one per hero, face up in the Starting Zone
    exploration_face_down: int = 0  # Exploration: one per listed cell, dealt by the director


@dataclass(frozen=True, slots=True)
class EliteSetup:
    """The public setup a crew lays out.  Hidden parts (decks, Exploration tokens) live in the game."""

    config: EliteConfig
    objective_cells: tuple[int, ...]
    basic_weapons: int
    cluster_tokens: tuple[ClusterNumber, ...]
    event_timeline: tuple[int, ...]
    tokens: MissionTokens
    action_dice: int  # per hero, or the shared solo pool
    seed: int


def mission_tokens(config: EliteConfig, cells: tuple[int, ...]) -> MissionTokens:
    heroes = len(config.heroes)
    if config.mission == "capture":
        return MissionTokens(traps=tables.TRAPS_PER_CAPTURE_TOKEN * len(cells))
    if config.mission == "destruction":
        return MissionTokens(destruction_per_hero=tables.DESTRUCTION_TOKENS_PER_HERO)
    if config.mission == "recon":
        return MissionTokens(recon_in_start_zone=heroes)
    if config.mission == "exploration":
        return MissionTokens(exploration_face_down=len(cells))
    return MissionTokens()


def make_setup(config: EliteConfig, seed: int) -> EliteSetup:
    """Everything the rulebook's setup steps decide, from the tables and one seed.

    The shuffles use their own `Random(seed)` in a fixed order (events, then clusters), so the
    posted setup never depends on how the game later draws its decks.
    """
    rng = random.Random(seed)
    cells = objective_cells(config.mission, config.map, config.players)
    timeline = event_timeline(config.difficulty, rng)
    clusters = cluster_permutation(rng)
    return EliteSetup(
        config=config,
        objective_cells=cells,
        basic_weapons=len(config.heroes) + tables.BASIC_WEAPONS_EXTRA,
        cluster_tokens=clusters,
        event_timeline=timeline,
        tokens=mission_tokens(config, cells),
        action_dice=tables.SOLO_ACTION_DICE if config.solo else tables.ACTION_DICE_PER_HERO,
        seed=seed,
    )
