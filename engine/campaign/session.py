"""A campaign night as a state machine with an injected clock: vote -> fly -> repair -> vote ...

The Discord adapter only forwards button presses (`vote`, `choose_repair`), hands over each
mission's result (`mission_flown`) and calls `tick(now)` from its timer; `tick` closes a vote or a
repair step when everyone has chosen or the time limit is up, using the defaults for whoever did
not choose (a missing vote counts for nobody; a missing repair is the default repair).  The whole
session is JSON (`to_dict`), so a restart in the middle of a vote loses nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from engine.campaign.flow import Campaign
from engine.campaign.recording import Recording
from engine.campaign.repairs import Repair, repair_options
from engine.campaign.vote import CONTINUE_CAUTION, DIFFICULTY_CAUTION, tally
from engine.model import Result
from engine.vocab import Difficulty

Phase: TypeAlias = Literal["vote", "flying", "repair", "finished"]
VoteKind: TypeAlias = Literal["common", "serious", "continue"]
VOTE_SECONDS = 90.0
REPAIR_SECONDS = 120.0


class SessionError(ValueError):
    """A press that does not fit now (not in the crew, wrong phase, unknown choice)."""


@dataclass(frozen=True, slots=True)
class FlyNext:
    """What `tick` asks the adapter to do: fly this recording at these difficulties."""

    recording: Recording
    common: Difficulty
    serious: Difficulty


@dataclass(frozen=True, slots=True)
class Ended:
    """The campaign is over (voted to end, three missions flown, or the ship lost)."""

    reason: Literal["voted", "complete", "lost"]


@dataclass(frozen=True, slots=True)
class Due:
    """The campaign mission waiting to be flown: its number (1-3), recording and difficulties;
    `drawn` is the recording §6.1 drew, which differs from `mission` after the host's choice."""

    number: int
    mission: str
    drawn: str
    common: Difficulty
    serious: Difficulty


@dataclass
class CampaignSession:
    campaign: Campaign
    phase: Phase = "vote"
    deadline: float | None = None
    votes: dict[str, dict[str, str]] = field(default_factory=dict)  # kind -> member -> choice
    repairs: dict[str, Repair] = field(default_factory=dict)
    knocked_out: list[str] = field(default_factory=list)

    @classmethod
    def start(cls, campaign: Campaign, now: float) -> CampaignSession:
        return cls(campaign, "vote", now + VOTE_SECONDS)

    # --- votes -----------------------------------------------------------------------------
    def vote_kinds(self) -> tuple[VoteKind, ...]:
        """Difficulties before every mission; from the second one also going on or ending."""
        return ("common", "serious", "continue") if self.campaign.flown else ("common", "serious")

    def vote(self, member: str, kind: str, choice: str) -> None:
        self._member(member)
        if self.phase != "vote":
            raise SessionError("no vote is open")
        if kind not in self.vote_kinds():
            raise SessionError(f"nothing to vote on called {kind!r}")
        allowed: tuple[str, ...] = CONTINUE_CAUTION if kind == "continue" else DIFFICULTY_CAUTION
        if choice not in allowed:
            raise SessionError(f"{kind}: choose one of {', '.join(allowed)}")
        self.votes.setdefault(kind, {})[member] = choice

    def _all_voted(self) -> bool:
        return all(len(self.votes.get(kind, {})) == len(self.campaign.crew) for kind in self.vote_kinds())

    def _close_vote(self) -> FlyNext | Ended:
        if "continue" in self.vote_kinds() and tally(self.votes.get("continue", {}), CONTINUE_CAUTION) == "end":
            self.campaign.end()
            return self._finish("voted")
        common = tally(self.votes.get("common", {}), DIFFICULTY_CAUTION)
        serious = tally(self.votes.get("serious", {}), DIFFICULTY_CAUTION)
        recording = self.campaign.start_mission(common, serious)
        self.votes.clear()
        self.phase, self.deadline = "flying", None
        return FlyNext(recording, common, serious)

    # --- missions and repairs --------------------------------------------------------------
    def due(self) -> Due | None:
        """The mission the crew voted for and has not flown yet (None outside that phase)."""
        c = self.campaign
        if self.phase != "flying" or not c.voted:
            return None
        common, serious = c.difficulties[-1]
        return Due(c.flown + 1, c.due_mission(), c.drawn_mission(), common, serious)

    def change_mission(self, mission: str) -> Due:
        """The host's explicit choice: fly `mission` as the due campaign mission (recorded)."""
        if self.phase != "flying":
            raise SessionError("no campaign mission is due")
        self.campaign.swap_mission(mission)
        due = self.due()
        assert due is not None
        return due

    def carried_block(self) -> dict[str, Any]:
        """GAME.json's `carried` block for the mission being flown."""
        return self.campaign.carried_block()

    def mission_flown(self, result: Result, mission: str, now: float) -> Ended | None:
        if self.phase != "flying":
            raise SessionError("no mission is being flown")
        self.campaign.record(result, mission)
        if self.campaign.lost:
            return self._finish("lost")
        if self.campaign.finished:
            return self._finish("complete")
        self.phase, self.deadline = "repair", now + REPAIR_SECONDS
        self.knocked_out = list(result.knocked_out)
        self.repairs.clear()
        return None

    def repair_choices(self) -> list[Repair]:
        """What may be repaired at all now (each member's pick is checked again in order)."""
        return repair_options(self.campaign.carried)

    def choose_repair(self, member: str, choice: Repair) -> None:
        self._member(member)
        if self.phase != "repair":
            raise SessionError("no repair step is open")
        if member in self.knocked_out:
            raise SessionError("a knocked-out crew member only recovers")
        self.repairs[member] = choice

    def _all_repaired(self) -> bool:
        conscious = [m for m in self.campaign.crew if m not in self.knocked_out]
        return all(m in self.repairs for m in conscious)

    def _close_repairs(self, now: float) -> None:
        self.campaign.repair(self.knocked_out, self.repairs)
        self.repairs.clear()
        self.knocked_out = []
        self.phase, self.deadline = "vote", now + VOTE_SECONDS

    # --- the clock -------------------------------------------------------------------------
    def tick(self, now: float) -> FlyNext | Ended | None:
        """Advance when everyone has chosen or the time is up; returns what the adapter must do."""
        timed_out = self.deadline is not None and now >= self.deadline
        if self.phase == "repair" and (timed_out or self._all_repaired()):
            self._close_repairs(now)
            return None
        if self.phase == "vote" and (timed_out or self._all_voted()):
            return self._close_vote()
        return None

    def _finish(self, reason: Literal["voted", "complete", "lost"]) -> Ended:
        self.phase, self.deadline = "finished", None
        return Ended(reason)

    def _member(self, member: str) -> None:
        if member not in self.campaign.crew:
            raise SessionError("only the campaign's crew takes part")

    # --- storage ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "campaign": self.campaign.to_dict(),
            "phase": self.phase,
            "deadline": self.deadline,
            "votes": {kind: dict(v) for kind, v in self.votes.items()},
            "repairs": {m: [r.kind, r.zone, r.token] for m, r in self.repairs.items()},
            "knocked_out": list(self.knocked_out),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CampaignSession:
        phase = data.get("phase", "vote")
        if phase not in ("vote", "flying", "repair", "finished"):
            raise SessionError(f"unknown phase {phase!r}")
        return cls(
            campaign=Campaign.from_dict(data["campaign"]),
            phase=phase,
            deadline=data.get("deadline"),
            votes={kind: dict(v) for kind, v in data.get("votes", {}).items()},
            repairs={m: Repair(*r) for m, r in data.get("repairs", {}).items()},
            knocked_out=list(data.get("knocked_out", [])),
        )
