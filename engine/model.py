"""Pydantic models at the engine's edges: the GAME.json a crew hands in and the result it gets back.

The shapes are a public contract (the CLI, the bot's /resolve and the flight all speak them), so
field names follow the issue text exactly.  Inside the engine plain dataclasses do the work; these
models only validate and normalise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engine.board import ACTION_CODES, TURNS
from engine.campaign.carried import Carried
from engine.threats.catalog import card_or_none

Zone = Literal["red", "white", "blue"]
TrackId = Literal["T1", "T2", "T3", "T4", "T5", "T6", "T7"]
Fate = Literal["destroyed", "survived", "active", "not_appeared"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Tracks(_Strict):
    """Which trajectory board lies beside each zone, and the one for internal threats."""

    red: TrackId
    white: TrackId
    blue: TrackId
    internal: TrackId


class PlayerPlan(_Strict):
    """One crew member (or android) and the 12 action codes of their action board."""

    name: str = Field(min_length=1, max_length=64)
    actions: list[str]

    @field_validator("actions", mode="before")
    @classmethod
    def _split(cls, value: Any) -> Any:
        if isinstance(value, str):
            return list(value)
        return value

    @field_validator("actions")
    @classmethod
    def _check(cls, value: list[str]) -> list[str]:
        if len(value) != TURNS:
            raise ValueError(f"exactly {TURNS} actions are needed, got {len(value)}")
        for i, code in enumerate(value, start=1):
            if code not in ACTION_CODES:
                raise ValueError(f"turn {i}: unknown action code {code!r} (use one of {''.join(ACTION_CODES)})")
        return value

    @property
    def codes(self) -> str:
        return "".join(self.actions)


class ThreatPlacement(_Strict):
    """A threat card put on a track: its card id, the T+ turn it appears, and its zone if external."""

    id: str
    turn: Annotated[int, Field(ge=1, le=8)]
    zone: Zone | None = None

    @model_validator(mode="after")
    def _check(self) -> ThreatPlacement:
        card = card_or_none(self.id)
        if card is None:
            raise ValueError(f"unknown threat id {self.id!r}")
        if card.internal and self.zone is not None:
            raise ValueError(f"{self.id} is an internal threat and takes no zone")
        if not card.internal and self.zone is None:
            raise ValueError(f"{self.id} is an external threat and needs a zone (red, white or blue)")
        return self


DamageTokenName = Literal["structural", "lift", "shield", "reactor", "upper_cannon", "lower_cannon"]


class Game(_Strict):
    """Everything needed to resolve one mission: tracks, crew plans in action order, threats."""

    tracks: Tracks
    players: Annotated[list[PlayerPlan], Field(min_length=1, max_length=5)]
    threats: list[ThreatPlacement] = Field(default_factory=list)
    seed: int = 0
    damage_tokens: dict[Zone, list[DamageTokenName]] | None = None
    carried: Carried | None = None  # campaign (rulebook §6.2): the ship's state at the start

    @field_validator("damage_tokens")
    @classmethod
    def _tokens(cls, value: dict[str, list[str]] | None) -> dict[str, list[str]] | None:
        if value is None:
            return value
        for zone, names in value.items():
            if len(set(names)) != len(names):
                raise ValueError(f"{zone}: each of the six damage tokens may be listed once")
        return value


# The result parts are plain dataclasses: resolve() builds thousands per second, and pydantic
# serialises dataclasses inside the Result model just the same.
@dataclass(slots=True)
class ThreatOutcome:
    id: str
    turn: int
    zone: Zone | None
    fate: Fate
    points: int


@dataclass(slots=True)
class Lost:
    turn: int
    cause: str


@dataclass(slots=True)
class Score:
    threats: int = 0
    damage: int = 0
    worst_zone: int = 0
    knocked_out: int = 0
    battlebots: int = 0
    observation: int = 0
    total: int = 0


class LogEntry(BaseModel):
    model_config = ConfigDict(extra="allow")

    turn: int
    step: str
    text: str


class Result(BaseModel):
    """The resolution of a mission, serialised exactly as the CLI prints it."""

    outcome: Literal["survived", "destroyed"]
    lost: Lost | None
    damage: dict[Zone, int]
    threats: list[ThreatOutcome]
    knocked_out: list[str]
    disabled_battlebots: int
    observation: list[int]
    score: Score
    log: list[LogEntry] | None = None
    carry: Carried | None = None  # set when the game had a `carried` block: the state to carry on

    def to_json_dict(self, with_log: bool = False) -> dict[str, Any]:
        data = self.model_dump(mode="json", exclude={"log"} if self.carry else {"log", "carry"})
        if with_log:
            data["log"] = [e.model_dump(mode="json") for e in (self.log or [])]
        return data
