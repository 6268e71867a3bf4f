"""The commands a player can give, and what `apply` answers: plain frozen values, no words.

Every command names the acting seat (`player`, an index into `State.seats`); the adapter maps a
Discord member to a seat.  `Applied` carries the new state and the events (codes with values;
`to` names the one seat an event is private to, None for the table); `Rejected` carries a code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.legion.state import State

Value = int | str


@dataclass(frozen=True)
class Event:
    code: str
    params: dict[str, Value] = field(default_factory=dict)
    to: int | None = None  # private to this seat (hand, drawn pool card, side); None: public


@dataclass(frozen=True)
class Applied:
    state: State
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Rejected:
    code: str


@dataclass(frozen=True)
class AssignRoles:
    """Seed 3.1.1 step 7 (and 3.1.7: reassignment at a planet, station or drift tour)."""

    player: int
    officer: int
    gunner: int
    pilot: int


@dataclass(frozen=True)
class Buy:
    """Seed 3.1.1 step 9: buy from the captain's starting shop before the first flight."""

    player: int
    item: str


@dataclass(frozen=True)
class Depart:
    """Fly on: draw the next flight card (seed 3.1.4; at a station, 'leave', seed 3.1.7)."""

    player: int


@dataclass(frozen=True)
class Wait:
    """Seed 3.1.7: stay another tour at the station for 1 Cr."""

    player: int


@dataclass(frozen=True)
class Drift:
    """Seed 3.1.7: a drift tour for 1 supply, not after fleeing."""

    player: int


@dataclass(frozen=True)
class Evade:
    """Seed 3.1.6 step 1: the pilot tries to avoid the fight with a roll, playing an event card."""

    player: int
    card: str


@dataclass(frozen=True)
class Dump:
    """Seed 3.1.6 step 1: the captain dumps goods to avoid the fight, playing an event card."""

    player: int
    card: str


@dataclass(frozen=True)
class Engage:
    """Seed 3.1.6 step 2: fight."""

    player: int


@dataclass(frozen=True)
class GiveOrders:
    """Seed 3.1.5: the captain allocates the tour's energy to roles, playing an event card."""

    player: int
    card: str
    gunner: int = 0
    pilot: int = 0
    officer: int = 0


@dataclass(frozen=True)
class Submit:
    """Seed 3.1.5 step 2: an ordered player puts one event card face down into the pool."""

    player: int
    card: str


@dataclass(frozen=True)
class UseAbility:
    """Seed 3.1.5/3.1.6: play an event card to use the character's ability."""

    player: int
    card: str
    target: int


@dataclass(frozen=True)
class Obey:
    """Seed 3.1.5: carry out the order, playing the card drawn from the pool."""

    player: int


@dataclass(frozen=True)
class Refuse:
    """Seed 3.1.5: refuse the order; captain and player duel with a d6 each."""

    player: int


@dataclass(frozen=True)
class Operate:
    """Seed 3.1.5: after winning a refusal, use the allotted energy (use=True) or not."""

    player: int
    use: bool


@dataclass(frozen=True)
class Medbay:
    """Seed 3.1.7 / D-5: visit the medbay, playing an event card."""

    player: int
    card: str


@dataclass(frozen=True)
class Cabin:
    """Seed 3.1.7 / D-5: rest in the cabin, playing an event card."""

    player: int
    card: str


@dataclass(frozen=True)
class PlanetTask:
    """Seed 3.1.7: fulfil the planet's condition, once per player, playing an event card."""

    player: int
    card: str


@dataclass(frozen=True)
class Deal:
    """Seed 3.1.7: the captain fulfils one station condition per tour, playing an event card."""

    player: int
    card: str
    service: int
    item: str = ""


@dataclass(frozen=True)
class EndTurn:
    player: int


@dataclass(frozen=True)
class Avoid:
    """Seed 3.1.7: a character whose ability fits avoids the anomaly, playing an event card."""

    player: int
    card: str


@dataclass(frozen=True)
class Endure:
    """Seed 3.1.7: otherwise the captain applies the anomaly."""

    player: int


Command = (
    AssignRoles
    | Buy
    | Depart
    | Wait
    | Drift
    | Evade
    | Dump
    | Engage
    | GiveOrders
    | Submit
    | UseAbility
    | Obey
    | Refuse
    | Operate
    | Medbay
    | Cabin
    | PlanetTask
    | Deal
    | EndTurn
    | Avoid
    | Endure
)
