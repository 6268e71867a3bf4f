"""`/campaign start|status|end`, the vote buttons and the repair menu (rulebook §6).

One campaign per channel, stored as JSON through the storage interface's per-server settings
(key `campaign:<channel id>`, plus `campaigns` listing the channels), so it survives restarts
until storage gets the proposed `campaigns` table.  Flights stay the Mission cog's: when the crew
has voted, the campaign announces the recording and difficulties; the flight code puts
`carried_for(channel)` into its GAME.json and dispatches `flight_resolved(record, result)` when
the mission is resolved, and the campaign takes it from there (repairs, next vote, score).
"""

from __future__ import annotations

import contextlib
import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.exts.campaign._render import (
    ID_TEMPLATE,
    SELECT_TEMPLATE,
    repair_embed,
    repair_from_value,
    repair_view,
    score_embed,
    vote_embed,
    vote_view,
)
from bot.text import user_text
from engine.campaign.flow import Campaign
from engine.campaign.session import CampaignSession, Ended, FlyNext, SessionError
from engine.model import Result

if TYPE_CHECKING:
    from bot.client import SpaceAlertBot

log = logging.getLogger(__name__)
NO_PINGS = discord.AllowedMentions.none()
INDEX_KEY = "campaigns"


def _key(channel_id: int) -> str:
    return f"campaign:{channel_id}"


class CampaignButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ID_TEMPLATE):
    def __init__(self, custom_id: str, *, label: str | None = None, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id, label=label, row=row))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CampaignButton:
        return cls(match.string, label=getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction).on_press(interaction, self.custom_id, [])


class CampaignSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    def __init__(self, custom_id: str, options: list[discord.SelectOption] | None = None) -> None:
        options = options or [discord.SelectOption(label="-", value="-")]
        super().__init__(discord.ui.Select(custom_id=custom_id, options=options, placeholder="What do you repair?"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CampaignSelect:
        return cls(match.string, list(getattr(item, "options", [])) or None)

    async def callback(self, interaction: discord.Interaction) -> None:
        data: Any = interaction.data or {}
        values = [str(v) for v in data.get("values", [])]
        await _cog(interaction).on_press(interaction, self.custom_id, values)


def _cog(interaction: discord.Interaction) -> CampaignCog:
    client: Any = interaction.client
    cog = client.get_cog("Campaign")
    assert isinstance(cog, CampaignCog)
    return cog


class CampaignCog(commands.Cog, name="Campaign"):
    campaign = app_commands.Group(name="campaign", description="Exploration campaigns", guild_only=True)

    def __init__(self, bot: SpaceAlertBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        if self.bot.run_timers:
            self.timer.start()

    async def cog_unload(self) -> None:
        self.timer.cancel()

    @tasks.loop(seconds=10)
    async def timer(self) -> None:
        with contextlib.suppress(Exception):  # a failed tick is retried on the next one
            await self.tick_all()

    # --- storage -----------------------------------------------------------------------------
    async def load(self, guild_id: int, channel_id: int) -> dict[str, Any] | None:
        doc = await self.bot.storage.get_setting(guild_id, _key(channel_id))
        return doc if isinstance(doc, dict) else None

    async def save(self, guild_id: int, channel_id: int, doc: dict[str, Any]) -> None:
        await self.bot.storage.set_setting(guild_id, _key(channel_id), doc)
        index = set(await self.bot.storage.get_setting(guild_id, INDEX_KEY) or [])
        finished = doc["session"]["phase"] == "finished"
        changed = index - {channel_id} if finished else index | {channel_id}
        if changed != index:
            await self.bot.storage.set_setting(guild_id, INDEX_KEY, sorted(changed))

    async def carried_for(self, guild_id: int, channel_id: int) -> dict[str, Any] | None:
        """The `carried` block for the campaign mission about to be flown in this channel."""
        doc = await self.load(guild_id, channel_id)
        if doc is None or doc["session"]["phase"] != "flying":
            return None
        return CampaignSession.from_dict(doc["session"]).carried_block()

    # --- commands ------------------------------------------------------------------------------
    @campaign.command(name="start", description="Start an exploration campaign (up to three missions)")
    @app_commands.describe(p2="Crew member", p3="Crew member", p4="Crew member", p5="Crew member")
    async def start(
        self,
        interaction: discord.Interaction,
        p2: discord.Member | None = None,
        p3: discord.Member | None = None,
        p4: discord.Member | None = None,
        p5: discord.Member | None = None,
    ) -> None:
        guild_id, channel_id = interaction.guild_id or 0, interaction.channel_id or 0
        current = await self.load(guild_id, channel_id)
        if current is not None and current["session"]["phase"] != "finished":
            await interaction.response.send_message(
                "A campaign is already running in this channel (/campaign status).", ephemeral=True
            )
            return
        people = [interaction.user, *(m for m in (p2, p3, p4, p5) if m is not None)]
        members = {str(p.id): user_text(p.display_name) for p in people}
        crew = list(dict.fromkeys(members.values()))
        session = CampaignSession.start(Campaign(seed=interaction.id % 2**31, crew=crew), now=self.bot.clock())
        doc = {"session": session.to_dict(), "members": members, "host": interaction.user.id}
        await self.save(guild_id, channel_id, doc)
        await interaction.response.send_message(
            embed=vote_embed(session), view=vote_view(session, channel_id, CampaignButton), allowed_mentions=NO_PINGS
        )

    @campaign.command(name="status", description="The campaign of this channel so far")
    async def status(self, interaction: discord.Interaction) -> None:
        doc = await self.load(interaction.guild_id or 0, interaction.channel_id or 0)
        if doc is None:
            await interaction.response.send_message("No campaign in this channel.", ephemeral=True)
            return
        session = CampaignSession.from_dict(doc["session"])
        if session.phase == "finished" and not session.campaign.lines:
            await interaction.response.send_message("The campaign ended before its first mission.", ephemeral=True)
            return
        if session.phase == "finished":
            embed = score_embed(session, session.campaign.score())
        elif session.phase == "repair":
            embed = repair_embed(session)
        else:
            embed = vote_embed(session)
        await interaction.response.send_message(embed=embed, ephemeral=True, allowed_mentions=NO_PINGS)

    @campaign.command(name="end", description="End the campaign after the missions flown so far")
    async def end(self, interaction: discord.Interaction) -> None:
        guild_id, channel_id = interaction.guild_id or 0, interaction.channel_id or 0
        doc = await self.load(guild_id, channel_id)
        if doc is None or doc["session"]["phase"] == "finished":
            await interaction.response.send_message("No campaign is running in this channel.", ephemeral=True)
            return
        if interaction.user.id != doc["host"] and not interaction.permissions.manage_guild:
            await interaction.response.send_message(
                "Only the host or someone with Manage Server can end the campaign.", ephemeral=True
            )
            return
        session = CampaignSession.from_dict(doc["session"])
        session.campaign.end()
        session.phase, session.deadline = "finished", None
        doc["session"] = session.to_dict()
        await self.save(guild_id, channel_id, doc)
        if session.campaign.lines:
            await interaction.response.send_message(embed=score_embed(session, session.campaign.score()))
        else:
            await interaction.response.send_message("The campaign ended before its first mission.")

    # --- presses -----------------------------------------------------------------------------
    async def on_press(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        match = re.fullmatch(ID_TEMPLATE, custom_id) or re.fullmatch(SELECT_TEMPLATE, custom_id)
        guild_id = interaction.guild_id or 0
        channel_id = int(match["channel"]) if match else 0
        doc = await self.load(guild_id, channel_id) if match else None
        if match is None or doc is None:
            await interaction.response.send_message("This campaign is over.", ephemeral=True)
            return
        name = doc["members"].get(str(interaction.user.id))
        if name is None:
            await interaction.response.send_message("Only the campaign's crew can choose here.", ephemeral=True)
            return
        session = CampaignSession.from_dict(doc["session"])
        try:
            if match["what"] == "repairmenu":
                session.choose_repair(name, repair_from_value(values[0] if values else ""))
            else:
                session.vote(name, match["what"], match["value"])
        except SessionError as exc:
            await interaction.response.send_message(f"Not counted: {exc}.", ephemeral=True)
            return
        step = session.tick(self.bot.clock())
        doc["session"] = session.to_dict()
        await self.save(guild_id, channel_id, doc)
        embed, view = self._message(session, channel_id, step)
        await interaction.response.edit_message(embed=embed, view=view)
        if isinstance(step, FlyNext):
            await self._announce(interaction.channel, session, step)

    def _message(
        self, session: CampaignSession, channel_id: int, step: FlyNext | Ended | None
    ) -> tuple[discord.Embed, discord.ui.View | None]:
        if isinstance(step, Ended):
            return score_embed(session, session.campaign.score()), None
        if session.phase == "repair":
            return repair_embed(session), repair_view(session, channel_id, CampaignSelect)
        if session.phase == "vote":  # still voting, or the repairs closed and the next vote opens
            return vote_embed(session), vote_view(session, channel_id, CampaignButton)
        embed = vote_embed(session)
        embed.description = "The crew has voted."
        return embed, None

    async def _announce(self, channel: Any, session: CampaignSession, step: FlyNext) -> None:
        if channel is None:
            return
        n = session.campaign.flown + 1
        await channel.send(
            f"🚀 Campaign mission {n}: **{step.recording.mission}**, threats {step.common} / {step.serious}. "
            f"Start it with `/mission start mission:{step.recording.mission} normal:{step.common} "
            f"serious:{step.serious}`; the ship keeps its damage.",
            allowed_mentions=NO_PINGS,
        )

    # --- results and the clock -----------------------------------------------------------------
    @commands.Cog.listener()
    async def on_flight_resolved(self, record: Any, result: Result) -> None:
        """A flight ended; if it was this channel's campaign mission, carry on with the campaign."""
        doc = await self.load(record.guild_id, record.channel_id)
        if doc is None or doc["session"]["phase"] != "flying":
            return
        session = CampaignSession.from_dict(doc["session"])
        step = session.mission_flown(result, str(record.options.get("mission", "?")), self.bot.clock())
        doc["session"] = session.to_dict()
        await self.save(record.guild_id, record.channel_id, doc)
        channel: Any = self.bot.get_channel(record.channel_id)
        if channel is None:
            return
        embed, view = self._message(session, record.channel_id, step)
        await channel.send(embed=embed, view=view, allowed_mentions=NO_PINGS)

    async def tick_all(self) -> None:
        """Close votes and repair steps whose time is up, in every guild the bot is in."""
        now = self.bot.clock()
        for guild in self.bot.guilds:
            for channel_id in await self.bot.storage.get_setting(guild.id, INDEX_KEY) or []:
                await self.tick_channel(guild.id, int(channel_id), now)

    async def tick_channel(self, guild_id: int, channel_id: int, now: float) -> None:
        doc = await self.load(guild_id, channel_id)
        if doc is None:
            return
        session = CampaignSession.from_dict(doc["session"])
        before = session.phase
        step = session.tick(now)
        if session.phase == before and step is None:
            return
        doc["session"] = session.to_dict()
        await self.save(guild_id, channel_id, doc)
        channel: Any = self.bot.get_channel(channel_id)
        if channel is None:
            return
        embed, view = self._message(session, channel_id, step)
        await channel.send(embed=embed, view=view, allowed_mentions=NO_PINGS)
        if isinstance(step, FlyNext):
            await self._announce(channel, session, step)
