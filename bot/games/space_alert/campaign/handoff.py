"""What a flight takes from a campaign and gives back, for the flight code to call.

Before the lobby opens: `campaign_due(bot, channel_id)` says which campaign mission waits in this
channel (its recording and difficulties, as announced, or as the host changed them with
`/campaign change`); `/mission start` refuses another one, and `CampaignDue.options` are what the
campaign adds to the lobby (`campaign_id`, `carried`, the mission's number).  At the end:
`resolve_flight(flight, options)` resolves the engine flight with the carried ship (the rulebook
§6.2 damage, energy and squads) when the options hold one; the flight code then writes
`campaign_id` on the logbook entry and asks every cog with `flight_follow_ups(record, result)`
(CampaignCog: the next vote or the score; SchoolCog: progress and hints) for what follows, inside
the finish's own transaction: their steps commit with the finished flight or not at all, and they
answer with their posts as JSON (`follow_up`), which go into the flight's outbox after its result.
A process that crashes after the commit leaves the rows; the one taking over sends them, after the
result, looked up in the channel first so none goes out twice (issue 25).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Protocol

import discord

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


FOLLOW_UPS = "flight_follow_ups"  # the cog method the flight's finish asks for its follow-ups
NO_PINGS = discord.AllowedMentions.none()
VIEW_COG_WAIT_S = 10.0  # how long a restored follow-up waits for the cog drawing its buttons


def follow_up(
    channel_id: int, lang: str, *, content: str | None = None, embed: discord.Embed | None = None, view: str = ""
) -> dict[str, Any]:
    """One follow-up post as an outbox payload (JSON only: it is stored before it is sent).
    `view`: the cog whose `follow_up_view(channel_id, lang)` draws its buttons when it goes out
    (from the state then, so a vote reopened by a restart shows its current choices)."""
    return {
        "op": "follow_up",
        "channel_id": channel_id,
        "language": lang,
        "content": content,
        "embed": embed.to_dict() if embed is not None else None,
        "view": view,
    }


async def view_cog(bot: Any, name: str, wait: float = VIEW_COG_WAIT_S) -> Any:
    """The cog that draws a follow-up's buttons.  A row left by a crash is queued at start-up by
    the flights' extension, which loads before the campaign's: when it goes out before the
    campaign's cog is there (a channel already known), it waits for it a little; without it
    the post goes out without buttons rather than not at all."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    while (cog := bot.get_cog(name)) is None and loop.time() < deadline:
        await asyncio.sleep(0.05)
    return cog


async def send_follow_up(bot: Any, channel: Any, payload: dict[str, Any]) -> Any:
    """Send one `follow_up` payload in `channel`; the message."""
    embed = discord.Embed.from_dict(payload["embed"]) if payload.get("embed") else None
    view: Any = None
    cog: Any = await view_cog(bot, str(payload["view"])) if payload.get("view") else None
    if cog is not None:
        view = await cog.follow_up_view(int(payload["channel_id"]), str(payload.get("language", "en")))
    kwargs: dict[str, Any] = {"allowed_mentions": NO_PINGS}
    if embed is not None:
        kwargs["embed"] = embed
    if view is not None:
        kwargs["view"] = view
    return await channel.send(payload.get("content"), **kwargs)


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
