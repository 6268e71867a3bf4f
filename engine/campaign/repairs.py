"""The repair step between two campaign missions (rulebook §6.2; engine/campaign/README.md).

Knocked-out crew only recover; every conscious member, captain first, repairs one damage token
or one disabled battlebot squad; no zone gets more than two tokens repaired.  The crew chooses
in Discord; a missing or impossible choice becomes the default repair, so the step always ends.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from engine.campaign.carried import DEPOTS, Carried, Depot
from engine.vocab import ZONES, DamageTokenKind, Zone

MAX_REPAIRS_PER_ZONE = 2
BIG_ZONE_DAMAGE = 4  # a zone this damaged is repaired first: two more hits and the ship is lost
# The default's preference among the things one can repair (most harmful when left first).
REPAIR_PRIORITY: tuple[DamageTokenKind | Literal["battlebots"], ...] = (
    "structural",
    "reactor",
    "shield",
    "battlebots",
    "lift",
    "upper_cannon",
    "lower_cannon",
)

RepairKind = Literal["token", "battlebots", "nothing", "recover"]


@dataclass(frozen=True, slots=True)
class Repair:
    """One crew member's repair: a token (zone + kind), a squad, nothing, or (knocked out) recovery."""

    kind: RepairKind
    zone: Zone | None = None
    token: DamageTokenKind | None = None

    @staticmethod
    def of_token(zone: Zone, token: DamageTokenKind) -> Repair:
        return Repair("token", zone, token)


SQUAD = Repair("battlebots")
NOTHING = Repair("nothing")
RECOVER = Repair("recover")


@dataclass(frozen=True, slots=True)
class RepairStep:
    """What one member did, and whether it was their own choice or the default."""

    member: str
    repair: Repair
    chosen: bool


@dataclass(frozen=True, slots=True)
class RepairResult:
    carried: Carried
    steps: tuple[RepairStep, ...]


class _Ship:
    """The state while repairs are made one by one."""

    def __init__(self, start: Carried) -> None:
        self.damage: dict[Zone, list[DamageTokenKind]] = {z: start.tokens(z) for z in ZONES}
        self.broken_squads = start.broken_squads
        self.repaired: dict[Zone, int] = dict.fromkeys(ZONES, 0)

    def options(self) -> list[Repair]:
        out = [
            Repair.of_token(zone, tok)
            for zone in ZONES
            if self.repaired[zone] < MAX_REPAIRS_PER_ZONE
            for tok in self.damage[zone]
        ]
        if self.broken_squads:
            out.append(SQUAD)
        return out

    def allows(self, repair: Repair) -> bool:
        return repair == NOTHING or repair in self.options()

    def apply(self, repair: Repair) -> None:
        if repair.kind == "token" and repair.zone is not None and repair.token is not None:
            self.damage[repair.zone].remove(repair.token)
            self.repaired[repair.zone] += 1
        elif repair.kind == "battlebots":
            self.broken_squads -= 1

    def default(self) -> Repair:
        options = self.options()
        if not options:
            return NOTHING
        return min(options, key=self._urgency)

    def _urgency(self, repair: Repair) -> tuple[int, int, int, int]:
        if repair.kind == "battlebots":
            return (1, REPAIR_PRIORITY.index("battlebots"), 0, 0)
        assert repair.zone is not None and repair.token is not None
        count = len(self.damage[repair.zone])
        return (
            0 if count >= BIG_ZONE_DAMAGE else 1,
            REPAIR_PRIORITY.index(repair.token),
            -count,
            ZONES.index(repair.zone),
        )


def repair_options(start: Carried, done: Sequence[Repair] = ()) -> list[Repair]:
    """What the next member may still repair after `done` (for the buttons in Discord)."""
    ship = _Ship(start)
    for repair in done:
        ship.apply(repair)
    return ship.options()


def default_repair(start: Carried, done: Sequence[Repair] = ()) -> Repair:
    """The repair a member gets when they do not choose in time."""
    ship = _Ship(start)
    for repair in done:
        ship.apply(repair)
    return ship.default()


def repair(
    start: Carried,
    crew: Sequence[str],
    knocked_out: Collection[str],
    choices: Mapping[str, Repair],
    *,
    squad_depot: Depot | None = None,
) -> RepairResult:
    """Run the repair step on the state carried out of a mission.

    `crew` in player order (the captain first), `choices` the repairs the members picked (an
    impossible pick - a zone already repaired twice, a token that is not there - falls back to the
    default like a missing one).  `squad_depot`: where the single remaining squad starts, if only
    one is left.
    """
    ship = _Ship(start)
    steps: list[RepairStep] = []
    for member in crew:
        if member in knocked_out:
            steps.append(RepairStep(member, RECOVER, chosen=False))
            continue
        wanted = choices.get(member)
        chosen = wanted is not None and wanted.kind != "recover" and ship.allows(wanted)
        made = wanted if chosen and wanted is not None else ship.default()
        ship.apply(made)
        steps.append(RepairStep(member, made, chosen))
    squads = len(DEPOTS) - ship.broken_squads
    if squads == 1 and squad_depot is not None:
        depots: list[Depot] = [squad_depot]
    else:
        depots = list(start.battlebots[:squads]) if squads <= len(start.battlebots) else list(DEPOTS[:squads])
    carried = Carried(damage={z: tokens for z, tokens in ship.damage.items() if tokens}, battlebots=depots)
    return RepairResult(carried, tuple(steps))
