"""Campaign scoring (rulebook §6.3; engine/campaign/README.md).

Every mission is a logbook line with its threat points and its visual-confirmation points; the
penalties are written only on the last line; the observation points of all missions are averaged
(rounded down) before they are added.  A destroyed ship loses the campaign: no score, and the
line names the threat that destroyed it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.model import Result
from engine.vocab import Outcome

KNOCKED_OUT_PENALTY = 2


@dataclass(frozen=True, slots=True)
class Penalties:
    """Negative numbers, as on the logbook line."""

    damage: int = 0
    worst_zone: int = 0
    knocked_out: int = 0
    battlebots: int = 0

    @property
    def total(self) -> int:
        return self.damage + self.worst_zone + self.knocked_out + self.battlebots


@dataclass(frozen=True, slots=True)
class MissionLine:
    """One campaign mission's logbook line."""

    mission: str
    outcome: Outcome
    threat_points: int
    observation: int
    penalties: Penalties  # written down only if this turns out to be the last line
    destroyed_by: str | None = None  # the threat card id (or the loss cause) when lost


@dataclass(frozen=True, slots=True)
class CampaignScore:
    lines: tuple[MissionLine, ...]
    threat_points: int
    penalties: Penalties
    observation: int  # the averaged observation points added to the total
    total: int | None  # None: the campaign was lost
    destroyed_by: str | None = None

    @property
    def lost(self) -> bool:
        return self.total is None


def destroyed_by(result: Result) -> str | None:
    """The threat that destroyed the ship: read from the log when there is one, else the cause."""
    if result.lost is None:
        return None
    for entry in reversed(result.log or []):
        extra = entry.model_extra or {}
        if extra.get("kind") == "zone_destroyed" and extra.get("source"):
            return str(extra["source"])
        if extra.get("kind") == "ship_lost" and extra.get("threat"):
            return str(extra["threat"])
    return result.lost.cause


def mission_line(result: Result, mission: str) -> MissionLine:
    """A resolved mission as a campaign line.  Penalties come from the carried end state if given,
    so a squad left off the ship because it was never repaired still costs its point."""
    if result.outcome == "destroyed":
        return MissionLine(mission, "destroyed", 0, 0, Penalties(), destroyed_by(result))
    score = result.score
    penalties = Penalties(score.damage, score.worst_zone, score.knocked_out, score.battlebots)
    if result.carry is not None:
        carry = result.carry
        counts = [len(tokens) for tokens in carry.damage.values()] or [0]
        penalties = Penalties(
            damage=-carry.token_count,
            worst_zone=-max(counts),
            knocked_out=-KNOCKED_OUT_PENALTY * len(result.knocked_out),
            battlebots=-carry.broken_squads,
        )
    return MissionLine(mission, "survived", score.threats, score.observation, penalties)


def campaign_score(lines: Sequence[MissionLine]) -> CampaignScore:
    """The campaign's score after its last line (one to three lines)."""
    if not lines:
        raise ValueError("a campaign scores after at least one mission")
    lost = next((line for line in lines if line.outcome == "destroyed"), None)
    threats = sum(line.threat_points for line in lines)
    if lost is not None:
        return CampaignScore(tuple(lines), threats, Penalties(), 0, None, lost.destroyed_by)
    penalties = lines[-1].penalties
    observation = sum(line.observation for line in lines) // len(lines)
    total = threats + penalties.total + observation
    return CampaignScore(tuple(lines), threats, penalties, observation, total)
