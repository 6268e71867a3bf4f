"""Content packs: the cards a voyage is played with, their JSON Schema and a loader that refuses.

Why a pack: the seed describes card kinds but prints almost no card faces, so all numbers live in
data (our own default pack in data/default_pack.json, or a server admin's).  `load_pack` never
raises: malformed text, a schema error or a dangling reference come back as a `PackRefusal` with
a code and the place of the first problem, which the adapter words for the admin.
`pack_json_schema()` is the published schema; data/pack.schema.json is its stored copy (a test
keeps the two equal).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from importlib import resources
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

PACK_FORMAT = 1
MAX_PACK_BYTES = 512_000

Id = Annotated[str, Field(pattern=r"^[a-z0-9_]{1,40}$")]
Faction = Literal["pirates", "unknown", "legion"]
ShipClass = Literal["corvette", "frigate", "cruiser", "battleship", "dreadnought"]
EquipmentKind = Literal["weapon", "engine", "armour", "special"]
SpecialEffect = Literal["attack", "armour", "evasion", "repair"]
EventEffect = Literal["boost", "jam", "wound", "strain", "steady", "patch", "breach", "spoil", "none"]
AbilityKind = Literal["heal", "calm", "repair", "aim", "evade", "navigate", "scavenge"]
MissionKind = Literal["delivery", "destruction", "reconnaissance", "exploration"]
ServiceKind = Literal["sell_goods", "buy_supply", "repair", "shipyard", "hand_in"]
Reward = Literal["supply", "goods", "credits", "special", "mental", "health"]
AnomalyEffect = Literal["hull", "mental", "health", "supply", "energy"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Ship(_Strict):
    """A ship card (seed 3.1.2): hull ("condition"), slot counts, hold compartments, pod."""

    id: Id
    hull: int = Field(ge=4, le=40)
    weapon_slots: int = Field(ge=1, le=4)
    engine_slots: int = Field(ge=1, le=4)
    special_slots: int = Field(ge=0, le=4)
    hold: int = Field(ge=2, le=8)
    pod: Literal["weapon", "engine", "special"] | None = None


class Equipment(_Strict):
    """A module (Weapon/Engine/Armour I-IV) or special equipment; `value` is its bonus."""

    id: Id
    kind: EquipmentKind
    level: int = Field(ge=0, le=4)
    value: int = Field(ge=0, le=20)
    price: int = Field(ge=0, le=60)
    effect: SpecialEffect | None = None


class Enemy(_Strict):
    id: Id
    faction: Faction
    ship_class: ShipClass
    attack: int = Field(ge=1, le=20)


class Service(_Strict):
    kind: ServiceKind
    price: int = Field(ge=0, le=30)
    amount: int = Field(ge=0, le=20)


class PlanetTask(_Strict):
    """What each player may do once on a planet (seed 3.1.7): pay, maybe roll, get a reward."""

    cost_health: int = Field(ge=0, le=5)
    cost_mental: int = Field(ge=0, le=5)
    target: int = Field(ge=0, le=6)  # 0: no roll
    reward: Reward
    amount: int = Field(ge=1, le=10)


class FlightCard(_Strict):
    id: Id
    type: Literal["combat", "station", "planet", "anomaly"]
    enemy: Id | None = None
    evadable: bool = False
    dump: int = Field(default=0, ge=0, le=20)  # goods the captain may dump to avoid; 0: not allowed
    services: tuple[Service, ...] = ()
    no_hand_in: bool = False  # bars and black markets take no live pirates (seed 3.1.6)
    task: PlanetTask | None = None
    anomaly: AnomalyEffect | None = None
    amount: int = Field(default=0, ge=0, le=10)
    count: int = Field(default=1, ge=1, le=6)


class EventCard(_Strict):
    id: Id
    effect: EventEffect
    amount: int = Field(ge=0, le=5)
    count: int = Field(default=1, ge=1, le=10)


class Ability(_Strict):
    kind: AbilityKind
    amount: int = Field(ge=0, le=5)


class Character(_Strict):
    id: Id
    skill: int = Field(ge=0, le=3)
    ability: Ability


class Mission(_Strict):
    id: Id
    kind: MissionKind
    flights: int = Field(ge=3, le=30)
    final_attack: int = Field(default=0, ge=0, le=20)
    advance: int = Field(default=0, ge=0, le=60)  # credits the mission pays up front (our card text)


class Pack(_Strict):
    """A whole pack.  `ours` marks content written by this project, not taken from the seed."""

    format: Literal[1]
    id: Id
    ours: bool = False
    missions: tuple[Mission, ...] = Field(min_length=1)
    ships: tuple[Ship, ...] = Field(min_length=1)
    equipment: tuple[Equipment, ...] = Field(min_length=3)
    enemies: tuple[Enemy, ...] = Field(min_length=1)
    flights: tuple[FlightCard, ...] = Field(min_length=4)
    events: tuple[EventCard, ...] = Field(min_length=1)
    characters: tuple[Character, ...] = Field(min_length=4)
    starting_modules: tuple[Id, Id, Id]


@dataclass(frozen=True)
class PackRefusal:
    """Why a pack was refused: a code (`not_json`, `too_large`, `schema`, `reference`,
    `duplicate_id`, `incomplete`) and where (a dotted path) with the offending value's id."""

    code: str
    where: str = ""
    detail: str = ""


@dataclass(frozen=True)
class Content:
    """A validated pack with look-ups by id; shared, never copied with a game state."""

    pack: Pack
    equipment: dict[str, Equipment] = field(init=False, repr=False)
    enemies: dict[str, Enemy] = field(init=False, repr=False)
    flights: dict[str, FlightCard] = field(init=False, repr=False)
    events: dict[str, EventCard] = field(init=False, repr=False)
    characters: dict[str, Character] = field(init=False, repr=False)
    ships: dict[str, Ship] = field(init=False, repr=False)
    missions: dict[str, Mission] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        for name in ("equipment", "enemies", "flights", "events", "characters", "ships", "missions"):
            object.__setattr__(self, name, {item.id: item for item in getattr(self.pack, name)})

    def __deepcopy__(self, memo: dict[int, Any]) -> Content:
        return self

    def __reduce__(self) -> tuple[Any, tuple[int]]:
        """Copying a state by pickling it (rules.apply) shares the pack instead of copying it."""
        _LIVE.setdefault(id(self), self)
        return (_live_content, (id(self),))


# Packs in use, by identity, so a state's in-memory copy refers to the same `Content`.  Packs are
# few (the default and one per server that uploads its own), so they are kept for the process.
_LIVE: dict[int, Content] = {}


def _live_content(key: int) -> Content:
    return _LIVE[key]


def _where(loc: tuple[int | str, ...]) -> str:
    return ".".join(str(part) for part in loc)


def _references(pack: Pack) -> PackRefusal | None:
    """Every id unique within its kind; every reference points at something; enough to set up."""
    for name in ("missions", "ships", "equipment", "enemies", "flights", "events", "characters"):
        seen: set[str] = set()
        for item in getattr(pack, name):
            if item.id in seen:
                return PackRefusal("duplicate_id", name, item.id)
            seen.add(item.id)
    equipment = {item.id: item for item in pack.equipment}
    enemies = {item.id for item in pack.enemies}
    for slot, (module, kind) in enumerate(zip(pack.starting_modules, ("weapon", "engine", "armour"), strict=True)):
        if module not in equipment or equipment[module].kind != kind:
            return PackRefusal("reference", f"starting_modules.{slot}", module)
    for index, item in enumerate(pack.equipment):
        if (item.kind == "special") != (item.effect is not None):
            return PackRefusal("reference", f"equipment.{index}.effect", item.id)
    kinds = {flight.type for flight in pack.flights}
    for index, flight in enumerate(pack.flights):
        if flight.type == "combat" and flight.enemy not in enemies:
            return PackRefusal("reference", f"flights.{index}.enemy", flight.id)
        if flight.type == "station" and not flight.services:
            return PackRefusal("incomplete", f"flights.{index}.services", flight.id)
        if flight.type == "planet" and flight.task is None:
            return PackRefusal("incomplete", f"flights.{index}.task", flight.id)
        if flight.type == "anomaly" and flight.anomaly is None:
            return PackRefusal("incomplete", f"flights.{index}.anomaly", flight.id)
    if "combat" not in kinds:
        return PackRefusal("incomplete", "flights", "combat")
    if not any(e.kind != "special" and e.level >= 1 for e in pack.equipment):
        return PackRefusal("incomplete", "equipment", "modules")
    if sum(card.count for card in pack.events) < 25:
        return PackRefusal("incomplete", "events", "count")
    return None


def load_pack(raw: str | bytes | dict[str, Any]) -> Content | PackRefusal:
    """The pack as `Content`, or the first reason it cannot be played.  Never raises."""
    try:
        if isinstance(raw, bytes | str):
            if len(raw) > MAX_PACK_BYTES:
                return PackRefusal("too_large")
            data = json.loads(raw)
        else:
            data = raw
    except (ValueError, RecursionError):
        return PackRefusal("not_json")
    if not isinstance(data, dict):
        return PackRefusal("schema", "", "not_an_object")
    try:
        pack = Pack.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        return PackRefusal("schema", _where(first["loc"]), str(first["type"]))
    except (ValueError, TypeError, RecursionError):
        return PackRefusal("schema")
    refusal = _references(pack)
    return refusal if refusal is not None else Content(pack)


def pack_json_schema() -> dict[str, Any]:
    """The JSON Schema of a pack, as published beside data/default_pack.json."""
    return Pack.model_json_schema()


def default_pack() -> Content:
    """Our own default pack, shipped with the engine."""
    text = resources.files("engine.legion").joinpath("data/default_pack.json").read_text(encoding="utf-8")
    loaded = load_pack(text)
    if isinstance(loaded, PackRefusal):  # pragma: no cover - guarded by tests
        raise ValueError(f"default pack refused: {loaded}")
    return loaded
