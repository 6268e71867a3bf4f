"""Who is aboard and what each one holds: crew size rules (rulebook §5) and the members' state.

Kept apart from the machine so the crew-size rules (how many androids, how many cards a phase)
are found by their rulebook names, and so the rules table (engine/flight/rules.py) and the views
share one public shape of a member instead of reaching into the machine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.vocab import Half


def androids_needed(humans: int, fifth: bool) -> int:
    """§5: androids fill the crew to four (solo: four androids, the human plans for them); §5.4 adds one."""
    if humans == 1:
        return 4
    return max(0, 4 - humans) + (1 if fifth else 0)


def cards_per_phase(humans: int, fifth: bool) -> tuple[int, int, int]:
    """Cards each human takes per phase, heroic card included in phase 1 (§2 picture, §5.1, §5.4)."""
    if humans == 2:
        counts = [9, 6, 6]
    elif humans == 3:
        counts = [6, 6, 6]
    else:
        counts = [5, 5, 5]
    if fifth:
        counts[0] += 1
    return counts[0], counts[1], counts[2]


@dataclass
class Slot:
    """A card planned on a turn of an action board, and who put it there."""

    card: str
    half: Half
    placed_by: str

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "half": self.half, "placed_by": self.placed_by}


@dataclass
class Member:
    """One crew member's state during the action round (a human, an android, or the solo planner)."""

    name: str
    android: bool
    on_board: bool  # False only for the solo player, who plans for four androids
    heroic: str | None = None
    hand: list[str] = field(default_factory=list)  # an android's "hand" is its heroic card
    pending: dict[int, list[str]] = field(default_factory=dict)  # phase -> cards dealt face down
    phase: int = 1  # the phase this member is planning
    board: dict[int, Slot] = field(default_factory=dict)
    drew: list[int] = field(default_factory=list)  # incoming-data event indices used
    gave: list[int] = field(default_factory=list)  # data-transfer event indices used
    agreed_end: bool = False
    finished_last: bool = False  # untimed flights: pressed Finish in the last phase

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "android": self.android,
            "on_board": self.on_board,
            "heroic": self.heroic,
            "hand": list(self.hand),
            "pending": {str(k): list(v) for k, v in self.pending.items()},
            "phase": self.phase,
            "board": {str(k): v.to_dict() for k, v in sorted(self.board.items())},
            "drew": list(self.drew),
            "gave": list(self.gave),
            "agreed_end": self.agreed_end,
            "finished_last": self.finished_last,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Member:
        return cls(
            name=d["name"],
            android=d["android"],
            on_board=d["on_board"],
            heroic=d["heroic"],
            hand=list(d["hand"]),
            pending={int(k): list(v) for k, v in d["pending"].items()},
            phase=d["phase"],
            board={int(k): Slot(**v) for k, v in d["board"].items()},
            drew=list(d["drew"]),
            gave=list(d["gave"]),
            agreed_end=d["agreed_end"],
            finished_last=d["finished_last"],
        )
