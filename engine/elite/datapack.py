"""Owner-entered card data: the JSON shape of a data pack and its validation with a clear first error.

The director ships no card texts.  An owner may type in what their own components print (swarm and
boss stat cards, swarm spawn cards, events, equipment, hero damage tracks) and upload it per
server; every part is optional, and the director prompts for physical cards where data is missing.
`pack_json_schema()` is the schema to publish beside the upload command.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from engine.documents import DocumentError, decode_json
from engine.elite import tables
from engine.elite.errors import EliteError
from engine.elite.vocab import BossId, ClusterNumber, EquipmentDeck, EquipmentKind, HeroId, SwarmType

PACK_VERSION = 1
MAX_PACK_BYTES = 256_000  # far above a full set of cards; refuses accidental uploads of other files


class PackError(EliteError, ValueError):
    """The pack is not valid; the values name the first problem and where it is."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# Display texts are per language ("en", "ru", ...), all optional: an owner types what they have.
# Bounded, so one card's text always fits a Discord message with the rest of the status.
Texts = dict[Annotated[str, Field(min_length=2, max_length=5)], Annotated[str, Field(max_length=600)]]


class AlienAbility(_Strict):
    """How the activation helper rolls for an alien: Hit dice against a stored Hit value.

    Either `hit_value` (each hero in range rolls `dice_per_alien` Hit dice per alien in range;
    each die >= hit_value deals `damage_per_hit`) or `fixed_damage` (no roll), or neither for an
    ability the helper cannot roll (the crew reads the card).
    """

    range: int | None = Field(default=None, ge=0, le=20)
    hit_value: int | None = Field(default=None, ge=1, le=6)
    dice_per_alien: int = Field(default=1, ge=1, le=6)
    damage_per_hit: int = Field(default=1, ge=1, le=6)
    fixed_damage: int | None = Field(default=None, ge=0, le=12)

    @model_validator(mode="after")
    def _one_way(self) -> AlienAbility:
        if self.hit_value is not None and self.fixed_damage is not None:
            raise ValueError("give either hit_value or fixed_damage, not both")
        return self


class SwarmStat(_Strict):
    type: SwarmType
    health: int = Field(default=1, ge=1, le=20)
    movement: int = Field(ge=0, le=10)
    ability: AlienAbility = AlienAbility()
    text: Texts = {}


class BossCard(_Strict):
    id: BossId
    health: int = Field(ge=1, le=30)
    movement: int = Field(ge=0, le=10)
    activation: bool = False
    ability: AlienAbility = AlienAbility()
    name: Texts = {}
    text: Texts = {}


class SwarmSpawnCard(_Strict):
    type: SwarmType
    count: int = Field(ge=1, le=15)
    cluster: ClusterNumber | None = None  # None = the [?] face: the players choose
    activation: bool = False


class EventCard(_Strict):
    number: int = Field(ge=1, le=tables.EVENT_COUNT)
    name: Texts = {}
    text: Texts = {}
    timer_change_s: int = Field(default=0, ge=-120, le=120)


class EquipmentCard(_Strict):
    id: str = Field(min_length=1, max_length=64)
    deck: EquipmentDeck
    kind: EquipmentKind
    range: int | None = Field(default=None, ge=0, le=20)  # None = unlimited
    hit_dice: int | None = Field(default=None, ge=0, le=10)
    hit_value: int | None = Field(default=None, ge=1, le=6)
    name: Texts = {}
    text: Texts = {}


class HeroTrack(_Strict):
    """A hero board's damage track: `length` cells (0 = leftmost) and its damage thresholds.

    Threshold `t` sits between cells t-1 and t: a marker moving onto cell t or beyond crosses it.
    """

    hero: HeroId
    length: int = Field(ge=2, le=30)
    thresholds: tuple[int, ...] = ()

    @model_validator(mode="after")
    def _inside(self) -> HeroTrack:
        if list(self.thresholds) != sorted(set(self.thresholds)):
            raise ValueError("thresholds must be distinct and in increasing order")
        if any(not 1 <= t < self.length for t in self.thresholds):
            raise ValueError(f"thresholds must lie between 1 and {self.length - 1}")
        return self


class DataPack(_Strict):
    version: int = Field(PACK_VERSION, ge=PACK_VERSION, le=PACK_VERSION)
    name: str = Field(default="", max_length=100)
    swarm: list[SwarmStat] = []
    bosses: list[BossCard] = []
    swarm_spawn: list[SwarmSpawnCard] = Field(default=[], max_length=200)
    events: list[EventCard] = []
    equipment: list[EquipmentCard] = Field(default=[], max_length=300)
    heroes: list[HeroTrack] = []

    @model_validator(mode="after")
    def _unique(self) -> DataPack:
        for label, keys in (
            ("swarm", [s.type for s in self.swarm]),
            ("bosses", [b.id for b in self.bosses]),
            ("events", [e.number for e in self.events]),
            ("equipment", [e.id for e in self.equipment]),
            ("heroes", [h.hero for h in self.heroes]),
        ):
            seen: set[object] = set()
            for key in keys:
                if key in seen:
                    raise ValueError(f"{label}: {key!r} appears twice")
                seen.add(key)
        return self

    def swarm_stat(self, kind: SwarmType) -> SwarmStat | None:
        return next((s for s in self.swarm if s.type == kind), None)

    def boss(self, boss: BossId) -> BossCard | None:
        return next((b for b in self.bosses if b.id == boss), None)

    def event(self, number: int) -> EventCard | None:
        return next((e for e in self.events if e.number == number), None)

    def hero(self, hero: HeroId) -> HeroTrack | None:
        return next((h for h in self.heroes if h.hero == hero), None)


def _where(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "pack"


def load_pack(raw: str | bytes | dict[str, Any]) -> DataPack:
    """Parse and validate a pack; raise `PackError` naming the first problem (path: message).

    Total: for any text or bytes the answer is a pack or a PackError.  The JSON goes through the
    engine's bounded decoder (engine/documents.py), so a pack nested a thousand levels deep or
    holding a 5,000-digit number is refused, not a RecursionError or a slow int()."""
    if isinstance(raw, str | bytes):
        if len(raw) > MAX_PACK_BYTES:
            raise PackError("pack_too_large", size=len(raw), limit=MAX_PACK_BYTES)
        data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
        try:
            raw = decode_json(data, MAX_PACK_BYTES * 4)  # a str's 256,000 characters may be 4 bytes each
        except DocumentError as exc:
            raise PackError("pack_not_json", detail=str(exc)) from None
    if not isinstance(raw, dict):
        raise PackError("pack_not_object")
    try:
        return DataPack.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        where = _where(tuple(p for p in first["loc"] if not (isinstance(p, str) and p.startswith("function-"))))
        message = first["msg"].removeprefix("Value error, ")
        raise PackError("pack_invalid", where=where, detail=message) from None


def pack_json_schema() -> dict[str, Any]:
    """The JSON schema an owner fills in (published beside the upload command)."""
    return DataPack.model_json_schema()
