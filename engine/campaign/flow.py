"""One campaign from start to score, as a plain state object the bot stores between missions.

The order of things (rulebook §6): vote (difficulty; from the second mission also go on / end)
-> draw the recording -> fly with the `carried` block -> record the line -> if it was not the
last mission, repair -> ... -> score.  `to_dict` / `from_dict` make it JSON, so a campaign
survives a restart of the bot.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.campaign.carried import Carried, Depot
from engine.campaign.recording import Recording, choose_recording
from engine.campaign.repairs import Repair, RepairResult, repair
from engine.campaign.scoring import CampaignScore, MissionLine, Penalties, campaign_score, mission_line
from engine.model import Result
from engine.vocab import Difficulty

MAX_MISSIONS = 3


class CampaignError(RuntimeError):
    """A step asked for out of order (flying a fourth mission, repairing a finished campaign...)."""


@dataclass
class Campaign:
    seed: int
    crew: list[str]  # player order: the captain first
    generated: bool = False  # generated recordings instead of the official S2-x
    lines: list[MissionLine] = field(default_factory=list)
    carried: Carried = field(default_factory=Carried)
    difficulties: list[tuple[Difficulty, Difficulty]] = field(default_factory=list)  # (common, serious)
    ended: bool = False  # the crew voted to end, or the ship was lost
    # mission index -> the recording the host chose instead of the drawn one (an explicit choice,
    # kept so the campaign shows what was flown in place of what)
    swaps: dict[int, str] = field(default_factory=dict)

    @property
    def flown(self) -> int:
        return len(self.lines)

    @property
    def lost(self) -> bool:
        return any(line.outcome == "destroyed" for line in self.lines)

    @property
    def finished(self) -> bool:
        return self.ended or self.lost or self.flown >= MAX_MISSIONS

    def next_recording(self) -> Recording:
        if self.finished:
            raise CampaignError("the campaign is over")
        return choose_recording(self.seed, self.flown, [line.mission for line in self.lines], generated=self.generated)

    def carried_block(self) -> dict[str, Any]:
        """GAME.json's `carried` block for the next mission."""
        return self.carried.model_dump(mode="json")

    @property
    def voted(self) -> bool:
        """Difficulties are chosen for the next mission: it is due to be flown."""
        return len(self.difficulties) > self.flown and not self.finished

    def drawn_mission(self) -> str:
        """The recording drawn for the next mission (§6.1), whatever the host chose instead."""
        return self.next_recording().mission

    def due_mission(self) -> str:
        """The recording the next mission flies: the drawn one, or the host's recorded choice."""
        return self.swaps.get(self.flown) or self.drawn_mission()

    def swap_mission(self, mission: str) -> None:
        """The host flies `mission` instead of the drawn recording (back to it when they are equal)."""
        if not self.voted:
            raise CampaignError("no campaign mission is due")
        if mission.upper() == self.drawn_mission().upper():
            self.swaps.pop(self.flown, None)
        else:
            self.swaps[self.flown] = mission

    def start_mission(self, common: Difficulty, serious: Difficulty) -> Recording:
        recording = self.next_recording()
        self.difficulties.append((common, serious))
        return recording

    def record(self, result: Result, mission: str) -> MissionLine:
        """Write the mission's line.  A destroyed ship ends (and loses) the campaign."""
        if self.finished:
            raise CampaignError("the campaign is over")
        line = mission_line(result, mission)
        self.lines.append(line)
        if result.carry is not None:
            self.carried = result.carry
        return line

    def repair(
        self,
        knocked_out: Collection[str],
        choices: Mapping[str, Repair],
        squad_depot: Depot | None = None,
    ) -> RepairResult:
        """The repair step before the next mission (never after the last one)."""
        if self.finished:
            raise CampaignError("no repairs after the last mission")
        done = repair(self.carried, self.crew, knocked_out, choices, squad_depot=squad_depot)
        self.carried = done.carried
        return done

    def end(self) -> None:
        """The crew voted to stop: the last line flown is the last line."""
        self.ended = True

    def score(self) -> CampaignScore:
        return campaign_score(self.lines)

    # --- storage ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "crew": list(self.crew),
            "generated": self.generated,
            "lines": [
                {
                    "mission": line.mission,
                    "outcome": line.outcome,
                    "threat_points": line.threat_points,
                    "observation": line.observation,
                    "penalties": [
                        line.penalties.damage,
                        line.penalties.worst_zone,
                        line.penalties.knocked_out,
                        line.penalties.battlebots,
                    ],
                    "destroyed_by": line.destroyed_by,
                }
                for line in self.lines
            ],
            "carried": self.carried_block(),
            "difficulties": [list(pair) for pair in self.difficulties],
            "ended": self.ended,
            "swaps": {str(index): mission for index, mission in self.swaps.items()},
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Campaign:
        lines = [
            MissionLine(
                mission=str(row["mission"]),
                outcome="destroyed" if row["outcome"] == "destroyed" else "survived",
                threat_points=int(row["threat_points"]),
                observation=int(row["observation"]),
                penalties=Penalties(*(int(x) for x in row["penalties"])),
                destroyed_by=row.get("destroyed_by"),
            )
            for row in data.get("lines", [])
        ]
        return cls(
            seed=int(data["seed"]),
            crew=[str(name) for name in data["crew"]],
            generated=bool(data.get("generated", False)),
            lines=lines,
            carried=Carried.model_validate(data.get("carried") or {}),
            difficulties=[(common, serious) for common, serious in data.get("difficulties", [])],
            ended=bool(data.get("ended", False)),
            swaps={int(index): str(mission) for index, mission in (data.get("swaps") or {}).items()},
        )
