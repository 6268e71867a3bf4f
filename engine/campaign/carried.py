"""The ship state a campaign carries from one mission into the next (rulebook §6.2).

Only three things survive a hyperspace jump home and the repairs: the damage tokens still lying
in each zone, and which battlebot squads are still working.  Everything else is set up afresh
(energy cubes, rockets, fuel, the computer, oval tokens and the systems broken by malfunctions,
which §6.2 repairs automatically); knocked-out crew wake up for the next mission.

GAME.json's optional `carried` block is a `Carried`; without it a mission starts on a new ship.
`apply_carried` lays it on a freshly built ship, `end_state` reads it back off a resolved mission.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, TypeAlias, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator

from engine import board
from engine.vocab import DAMAGE_TOKEN_KINDS, ZONES, DamageTokenKind, Zone

if TYPE_CHECKING:  # engine.model imports this module: no runtime import of the engine's state here
    from engine.state import Mission, Ship

Depot: TypeAlias = Literal["upper_blue", "lower_red"]
DEPOTS: tuple[Depot, ...] = get_args(Depot)

# §6.2: an unrepaired reactor or shield starts the next mission with one energy cube less (on top
# of the capacity the token already takes away); unrepaired structural damage doubles every later
# damage to its zone.
CARRIED_ENERGY_LOSS = 1
STRUCTURAL_FACTOR = 2


class Carried(BaseModel):
    """The ship at the start of a campaign mission.  An empty block is a brand-new ship.

    `damage`: the damage tokens lying in each zone (at most six, each kind once; the same names as
    GAME.json's `damage_tokens`).  `battlebots`: the depots that hold a working squad at the start
    (a squad left unrepaired is not placed; with one squad the crew chose its depot).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    damage: dict[Zone, list[DamageTokenKind]] = Field(default_factory=dict)
    battlebots: list[Depot] = Field(default_factory=lambda: list(DEPOTS))

    @field_validator("damage")
    @classmethod
    def _one_of_each(cls, value: dict[Zone, list[DamageTokenKind]]) -> dict[Zone, list[DamageTokenKind]]:
        for zone, tokens in value.items():
            if len(set(tokens)) != len(tokens):
                raise ValueError(f"{zone}: each of the six damage tokens can lie in a zone only once")
        return {zone: tokens for zone, tokens in value.items() if tokens}

    @field_validator("battlebots")
    @classmethod
    def _depots_once(cls, value: list[Depot]) -> list[Depot]:
        if len(set(value)) != len(value):
            raise ValueError("each battlebot depot holds at most one squad")
        return value

    def tokens(self, zone: Zone) -> list[DamageTokenKind]:
        return list(self.damage.get(zone, []))

    @property
    def token_count(self) -> int:
        return sum(len(tokens) for tokens in self.damage.values())

    @property
    def broken_squads(self) -> int:
        """Squads not on the ship: disabled at the end of the last mission and not repaired."""
        return len(DEPOTS) - len(self.battlebots)


def apply_carried(ship: Ship, carried: Carried) -> None:
    """Lay the carried state on a ship just set up for a new mission (§6.2 "Оставшиеся фишки ...")."""
    for zone in ZONES:
        tokens = carried.tokens(zone)
        if not tokens:
            continue
        ship.damage[zone] = list(tokens)
        ship.piles[zone] = [tok for tok in ship.piles[zone] if tok not in tokens]
        for tok in tokens:
            if tok == "shield":
                ship.shield_cap[zone] -= 1
                ship.shields[zone] = max(0, min(ship.shields[zone] - CARRIED_ENERGY_LOSS, ship.shield_cap[zone]))
            elif tok == "reactor":
                ship.reactor_cap[zone] -= 1
                ship.reactors[zone] = max(0, min(ship.reactors[zone] - CARRIED_ENERGY_LOSS, ship.reactor_cap[zone]))
            elif tok == "structural":
                ship.multiplier[zone] = STRUCTURAL_FACTOR
            elif tok == "upper_cannon" or tok == "lower_cannon":
                ship.weaken_cannon(zone, tok)
            # a lift token acts through Ship.damage, exactly as in a single mission
    for depot in board.BATTLEBOT_DEPOTS:
        ship.depots[depot] = "ready" if depot in carried.battlebots else None


def working_depots(m: Mission) -> list[Depot]:
    """Where the squads that end the mission working start the next one: a squad still ready in
    its depot stays there; a squad active with a crew member (aboard or in space: the interceptors
    bring squads and bodies back, §6.2) goes back to a free depot, in the board's order."""
    stay = [d for d in DEPOTS if m.ship.depots.get(d) == "ready"]
    free = [d for d in DEPOTS if d not in stay]
    carried = sum(1 for p in m.crew if p.bots == "active")
    return [d for d in DEPOTS if d in stay or d in free[:carried]]


def end_state(m: Mission) -> Carried:
    """The ship state to carry out of a resolved mission, before any repair."""
    damage: dict[Zone, list[DamageTokenKind]] = {}
    for zone in ZONES:
        tokens = [tok for tok in DAMAGE_TOKEN_KINDS if tok in m.ship.damage[zone]]
        order = {tok: i for i, tok in enumerate(m.ship.damage[zone])}
        tokens.sort(key=order.__getitem__)  # the order they were taken, each kind once
        if tokens:
            damage[zone] = tokens
    return Carried(damage=damage, battlebots=working_depots(m))
