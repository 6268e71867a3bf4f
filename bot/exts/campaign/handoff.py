"""What a flight takes from a campaign and gives back, for the flight code to call.

Before the lobby opens: `campaign_options(bot, channel_id)` gives the options a campaign mission
adds to its lobby (`campaign_id`, `carried`), or nothing when no campaign waits for a flight in
this channel.  At the end: `resolve_flight(flight, options)` resolves the engine flight with the
carried ship (the rulebook §6.2 damage, energy and squads) when the options hold one; the flight
code then writes `campaign_id` on the logbook entry and dispatches `flight_resolved(record,
result)`, which CampaignCog (next vote or score) and SchoolCog (progress, hints) take from there.
"""

from __future__ import annotations

from typing import Any, Protocol

from engine.campaign.carried import Carried
from engine.model import Game, Result
from engine.resolution.mission import resolve


class _Resolvable(Protocol):
    def to_game(self) -> Game: ...


async def campaign_options(bot: Any, channel_id: int) -> dict[str, Any]:
    """The lobby options of the campaign mission due in this channel ({} when none is)."""
    cog: Any = bot.get_cog("Campaign")
    handoff = await cog.flight_handoff(channel_id) if cog is not None else None
    if handoff is None:
        return {}
    campaign_id, carried = handoff
    return {"campaign_id": campaign_id, "carried": carried}


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
