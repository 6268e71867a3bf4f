"""What a flight takes from a campaign and gives back, for the flight code to call.

Before the lobby opens: `campaign_due(bot, channel_id)` says which campaign mission waits in this
channel (its recording and difficulties, as announced, or as the host changed them with
`/campaign change`); `/mission start` refuses another one, and `CampaignDue.options` are what the
campaign adds to the lobby (`campaign_id`, `carried`, the mission's number).  At the end:
`resolve_flight(flight, options)` resolves the engine flight with the carried ship (the rulebook
§6.2 damage, energy and squads) when the options hold one; the flight code then writes
`campaign_id` on the logbook entry and dispatches `flight_resolved(record, result)`, which
CampaignCog (next vote or score) and SchoolCog (progress, hints) take from there.  Their posts
wait for `after_result`: a follow-up never comes before the result it follows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from engine.campaign.carried import Carried
from engine.campaign.session import Due
from engine.model import Game, Result
from engine.resolution.mission import resolve

CAMPAIGN_OPTION = "campaign_id"  # lobby option: the campaign a flight is a mission of


class _Resolvable(Protocol):
    def to_game(self) -> Game: ...


@dataclass(frozen=True, slots=True)
class CampaignDue:
    """The campaign mission waiting in a channel."""

    campaign_id: str
    carried: dict[str, Any]
    due: Due

    @property
    def options(self) -> dict[str, Any]:
        """What the campaign adds to the lobby's options."""
        return {
            CAMPAIGN_OPTION: self.campaign_id,
            "carried": self.carried,
            "campaign_mission": self.due.number,
            "campaign_drawn": self.due.drawn,
        }

    def matches(self, mission: str, normal: str, serious: str) -> bool:
        """Whether a flight of `mission` at these difficulties is this campaign mission."""
        return (mission.upper(), normal, serious) == (self.due.mission.upper(), self.due.common, self.due.serious)


async def campaign_due(bot: Any, channel_id: int) -> CampaignDue | None:
    """The campaign mission due in this channel (None when no campaign waits for a flight here)."""
    cog: Any = bot.get_cog("Campaign")
    return await cog.due_flight(channel_id) if cog is not None else None


async def campaign_options(bot: Any, channel_id: int) -> dict[str, Any]:
    """The lobby options of the campaign mission due in this channel ({} when none is)."""
    due = await campaign_due(bot, channel_id)
    return due.options if due is not None else {}


async def after_result(bot: Any, record: Any) -> None:
    """Wait until the flight's own result post is out (its follow-ups come after it)."""
    cog: Any = bot.get_cog("Mission")
    flight_id = getattr(record, "id", None)
    if cog is not None and flight_id is not None:
        await cog.flights.result_posted(flight_id)


def game_of(flight: _Resolvable, options: dict[str, Any]) -> Game:
    """The flight's Game, starting from the campaign's carried ship when there is one."""
    game = flight.to_game()
    carried = options.get("carried")
    if carried is None:
        return game
    return game.model_copy(update={"carried": Carried.model_validate(carried)})


def resolve_flight(flight: _Resolvable, options: dict[str, Any]) -> Result:
    """`flight.resolve(log=True)`, with the carried ship of a campaign mission."""
    return resolve(game_of(flight, options), log=True)
