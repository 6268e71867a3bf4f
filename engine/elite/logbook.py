"""The logbook row one ELITE game leaves behind (the storage adapter persists it as it likes).

A row knows its game (`game = "elite"`), so the platform's logbook and leaderboards can hold
Space Alert flights and ELITE games side by side.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.elite import tables
from engine.elite.vocab import ELITE_DIFFICULTIES, DefeatCause, EliteDifficulty, GameResult, HeroId, MapSide, MissionId


class LogbookRow(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    game: Literal["elite"] = "elite"
    map: MapSide
    mission: MissionId
    difficulty: EliteDifficulty
    players: int = Field(ge=tables.MIN_PLAYERS, le=tables.MAX_PLAYERS)
    heroes: tuple[HeroId, ...]
    rounds: int = Field(ge=0, le=tables.ROUNDS)
    result: GameResult
    cause: DefeatCause | None = None
    bosses_killed: int = Field(ge=0, le=8)
    seed: int

    @model_validator(mode="after")
    def _cause_only_for_defeat(self) -> LogbookRow:
        if (self.result == "defeat") != (self.cause is not None):
            raise ValueError("a defeat needs a cause, and only a defeat has one")
        return self


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """A server's ELITE boards: wins per difficulty and the fewest rounds to a win per mission."""

    games: int
    wins: dict[EliteDifficulty, int]
    fewest_rounds: dict[MissionId, int]
    hardest_win: EliteDifficulty | None


def leaderboard(rows: Iterable[LogbookRow]) -> Leaderboard:
    games = 0
    wins: dict[EliteDifficulty, int] = dict.fromkeys(ELITE_DIFFICULTIES, 0)
    fewest: dict[MissionId, int] = {}
    for row in rows:
        games += 1
        if row.result != "victory":
            continue
        wins[row.difficulty] += 1
        fewest[row.mission] = min(fewest.get(row.mission, row.rounds), row.rounds)
    hardest = next((d for d in reversed(ELITE_DIFFICULTIES) if wins[d]), None)
    return Leaderboard(games, wins, fewest, hardest)
