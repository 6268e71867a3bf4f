"""Pydantic models at the engine's edges: the GAME.json a crew hands in and the result it gets back.

The shapes are a public contract (the CLI, the bot's /resolve and the flight all speak them), so
field names never change.  Inside the engine plain dataclasses do the work; these
models only validate and normalise.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engine.board import ACTION_CODES, TURNS
from engine.campaign.carried import Carried
from engine.threats.catalog import card_or_none
from engine.vocab import Fate, TrackId, Zone

# Physical limits of a real table (rulebook §1-§2; the structure every official mission shares):
MAX_PLAYERS = 5  # 1-5 crew; androids fill the seats of a smaller crew and are listed as players
THREAT_TURNS = 8  # threats appear on T+1 ... T+8
# One external and one internal threat per T+ number at most (the base game uses each T+ once; the
# New Frontier double-action tracks pair one internal with one external), so at most 16 threats.
MAX_THREATS = 2 * THREAT_TURNS
MAX_NAME_CHARS = 64
MAX_SEED = 2**63 - 1


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

    name: str = Field(min_length=1, max_length=MAX_NAME_CHARS)
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

    id: str = Field(min_length=1, max_length=16)
    turn: Annotated[int, Field(ge=1, le=THREAT_TURNS)]
    zone: Zone | None = None

    @field_validator("id")
    @classmethod
    def _known(cls, value: str) -> str:
        if card_or_none(value) is None:
            raise ValueError(f"unknown threat id {value!r}")
        return value

    @model_validator(mode="after")
    def _check(self) -> ThreatPlacement:
        card = card_or_none(self.id)
        assert card is not None  # checked by _known
        if card.internal and self.zone is not None:
            raise ValueError(f"{self.id} is an internal threat and takes no zone")
        if not card.internal and self.zone is None:
            raise ValueError(f"{self.id} is an external threat and needs a zone (red, white or blue)")
        return self


DamageTokenName = Literal["structural", "lift", "shield", "reactor", "upper_cannon", "lower_cannon"]


class Game(_Strict):
    """Everything needed to resolve one mission: tracks, crew plans in action order, threats."""

    tracks: Tracks
    players: Annotated[list[PlayerPlan], Field(min_length=1, max_length=MAX_PLAYERS)]
    threats: list[ThreatPlacement] = Field(default_factory=list, max_length=MAX_THREATS)
    seed: int = Field(default=0, ge=0, le=MAX_SEED)
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


def physical_problem(game: Game) -> str | None:
    """The first rule a real table could not break, as one line naming the field; None if none.

    Kept out of the model's own validators: random games for tests and benchmarks may draw a card
    twice and still exercise the rules; only games handed in from outside must be physical.
    """
    tracks = game.tracks
    seen_track: dict[str, str] = {}
    for place in ("red", "white", "blue", "internal"):
        track = getattr(tracks, place)
        if track in seen_track:
            return (
                f"tracks.{place}: trajectory {track} already lies beside {seen_track[track]} (each board is used once)"
            )
        seen_track[track] = place
    seen_name: dict[str, int] = {}
    for i, player in enumerate(game.players):
        key = player.name.strip().casefold()
        if not key:
            return f"players[{i}].name: must not be blank"
        if key in seen_name:
            return f"players[{i}].name: the same name as players[{seen_name[key]}] (names tell the crew apart)"
        seen_name[key] = i
    seen_card: dict[str, int] = {}
    seen_turn: dict[tuple[int, bool], int] = {}
    for i, threat in enumerate(game.threats):
        if threat.id in seen_card:
            first = seen_card[threat.id]
            return f"threats[{i}].id: card {threat.id} is already placed as threats[{first}] (one card each)"
        seen_card[threat.id] = i
        internal = threat.zone is None
        slot = (threat.turn, internal)
        if slot in seen_turn:
            kind = "internal" if internal else "external"
            return (
                f"threats[{i}].turn: a second {kind} threat on T+{threat.turn} "
                f"(threats[{seen_turn[slot]}] has it; one {kind} threat per T+ number)"
            )
        seen_turn[slot] = i
    return None


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
