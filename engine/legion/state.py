"""The voyage's state: ship, crew, decks, the tour in progress and the dice.

Plain mutable dataclasses: `rules.apply` deep-copies the state before changing it, so callers see a
pure function; `rules.step` changes it in place for the balance simulation.  The `Content` (the
pack) is shared, never copied.  `random.Random` lives in the state so a snapshot resumes the very
same dice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Literal

from engine.legion.pack import Content

Side = Literal["crew", "legion"]
Role = Literal["captain", "officer", "gunner", "pilot"]
# D-7: the role cards' turn order, in the order the seed lists the roles (seed 3.1.6 step 2).
ROLE_ORDER: tuple[Role, ...] = ("captain", "officer", "gunner", "pilot")
Phase = Literal["shop", "contact", "orders", "submit", "turns", "free", "visit", "anomaly", "after", "over"]
COMPARTMENT = 10  # seed 3.1.2: a hold compartment takes 10 supply or 10 goods or one item
HAND = 5  # seed 3.1.5: hand limit 5
ENERGY = 5  # seed 3.1.2: 5 energy per tour
START_HEALTH = 10
START_MENTAL = 10
START_SUPPLY = 10
START_CREDITS = 20


@dataclass
class Compartment:
    """One hold compartment: empty, supply or goods (up to 10), equipment or the mission item."""

    kind: Literal["empty", "supply", "goods", "equipment", "mission"] = "empty"
    amount: int = 0
    card: str = ""


@dataclass
class Seat:
    character: str
    side: Side
    health: int = START_HEALTH
    mental: int = START_MENTAL
    hand: list[str] = field(default_factory=list)
    out: bool = False  # D-1: Health 0
    broken: bool = False  # D-2: Mental 0
    revealed: bool = False  # D-9


@dataclass
class Ship:
    card: str
    hull: int
    max_hull: int
    weapons: list[str]
    engines: list[str]
    armour: str
    specials: list[str]
    weapon_slots: int
    engine_slots: int
    special_slots: int
    hold: list[Compartment]


@dataclass
class Tour:
    """One combat tour: the orders, the face-down pool, whose turn, and what happened so far."""

    orders: dict[Role, int] = field(default_factory=dict)  # role -> energy
    submitted: dict[Role, str] = field(default_factory=dict)  # role -> card (face down)
    pool: list[str] = field(default_factory=list)  # shuffled, drawn from the end
    drawn: dict[Role, str] = field(default_factory=dict)
    queue: list[Role] = field(default_factory=list)  # ordered roles in role order, still to act
    used_ability: list[int] = field(default_factory=list)
    attack_bonus: int = 0
    armour_bonus: int = 0
    evasion_bonus: int = 0
    card_bonus: int = 0  # the drawn event card's boost or jam for the acting device
    hit_taken: bool = False


@dataclass
class Combat:
    enemy: str
    attack: int
    faction: str
    ship_class: str
    rounds: int = 0
    final: bool = False


@dataclass
class Visit:
    """A non-combat tour (station, planet, drift): each living player in role order takes a turn."""

    kind: Literal["station", "planet", "drift"]
    queue: list[int] = field(default_factory=list)
    captain_deal: bool = False  # station: one condition per tour (seed 3.1.7)
    tasks_done: list[int] = field(default_factory=list)  # planet: once per player
    acted: list[int] = field(default_factory=list)  # medbay/cabin/ability: once per player per tour


@dataclass
class State:
    content: Content
    rng: random.Random
    mission: str
    seats: list[Seat]
    ship: Ship
    credits: int
    captain: int
    roles: dict[int, list[Role]]
    flight_deck: list[str]
    flight_discard: list[str]
    event_deck: list[str]
    event_discard: list[str]
    equipment_deck: list[str]
    shop: list[str]
    phase: Phase = "shop"
    flight: int = 0  # flights drawn so far
    card: str = ""  # the flight card in play
    combat: Combat | None = None
    tour: Tour = field(default_factory=Tour)
    visit: Visit | None = None
    unexecuted: int = 0  # seed 3.1.5: three unexecuted orders pass the captaincy
    fled: bool = False  # seed 3.1.7: no drifting after fleeing
    drift_allowed: bool = False
    prisoners: list[int] = field(default_factory=list)  # live pirates' attack values
    artifact: bool = False
    artifact_flight: int = 0
    exploration_rolls: int = 0
    final_done: bool = False
    winner: Side | None = None
    reason: str = ""

    def seat_of_role(self, role: Role) -> int | None:
        for seat, held in self.roles.items():
            if role in held:
                return seat
        return None

    def living(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if not s.out]

    def supply(self) -> int:
        return sum(c.amount for c in self.ship.hold if c.kind == "supply")

    def goods(self) -> int:
        return sum(c.amount for c in self.ship.hold if c.kind == "goods")


def load_hold(hold: list[Compartment], kind: Literal["supply", "goods"], amount: int) -> int:
    """Put up to `amount` supply or goods into the hold; returns what fitted (seed 3.1.2)."""
    left = amount
    for compartment in hold:
        if compartment.kind == kind and compartment.amount < COMPARTMENT:
            put = min(left, COMPARTMENT - compartment.amount)
            compartment.amount += put
            left -= put
    for compartment in hold:
        if left <= 0:
            break
        if compartment.kind == "empty":
            put = min(left, COMPARTMENT)
            compartment.kind, compartment.amount = kind, put
            left -= put
    return amount - left


def unload_hold(hold: list[Compartment], kind: Literal["supply", "goods"], amount: int) -> int:
    """Take up to `amount` out of the hold, emptying compartments that run dry; returns taken."""
    left = amount
    for compartment in reversed(hold):
        if compartment.kind == kind and left > 0:
            take = min(left, compartment.amount)
            compartment.amount -= take
            left -= take
            if compartment.amount == 0:
                compartment.kind = "empty"
    return amount - left
