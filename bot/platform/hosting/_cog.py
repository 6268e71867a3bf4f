"""`/settings show` and `/settings set` (Manage Server), and the runner of scheduled flights
(`/mission schedule`: reminders and lobby openings, checked every 20 seconds).

Discord hides the group from members without Manage Server (default_permissions), but a server
can override that per command, so the permission is checked again on every call.  Answers are
ephemeral and mention nobody.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot.platform.hosting._text import setting_problem, tx
from bot.platform.hosting.scheduler import run_schedules
from bot.platform.hosting.server_settings import SETTING_KEYS, SettingError, load_settings, parse_setting, show
from bot.platform.permissions import actor_of, decide
from bot.platform.storage.web import NAME_SETTING

if TYPE_CHECKING:
    from bot.platform.client import SpaceAlertBot

log = logging.getLogger(__name__)
NO_PINGS = discord.AllowedMentions.none()
KEY_CHOICES = [app_commands.Choice(name=key, value=key) for key in SETTING_KEYS]


class HostingCog(commands.Cog, name="Hosting"):
    settings = app_commands.Group(
        name="settings",
        description="Server settings for Space Alert flights",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: SpaceAlertBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        if self.bot.run_timers:
            self.schedules.start()

    async def cog_unload(self) -> None:
        self.schedules.cancel()

    @tasks.loop(seconds=20)
    async def schedules(self) -> None:
        try:
            await run_schedules(self.bot, self.bot.clock())
        except Exception:  # retried on the next round; the rows say what is still to do
            log.exception("scheduled flights: a round failed")

    @schedules.before_loop
    async def _gateway_ready(self) -> None:
        """The first round finishes what a previous process claimed but did not confirm posted
        (issue 25): it needs the channels, so it waits for the gateway."""
        await self.bot.wait_until_ready()

    async def _lang(self, interaction: discord.Interaction) -> str:
        stored = await self.bot.storage.get_setting(interaction.guild_id or 0, "language")
        return str(stored) if stored else self.bot.settings.default_language

    async def _refused(self, interaction: discord.Interaction, lang: str, action: str) -> bool:
        """Discord hides /settings from members without Manage Server; checked here too (a
        client with stale commands, a permission changed in the channel)."""
        if decide(action, actor_of(interaction)) is None:
            return False
        await interaction.response.send_message(tx(lang, "need_manage"), ephemeral=True, allowed_mentions=NO_PINGS)
        return True

    @settings.command(name="show", description="Show this server's settings")
    async def show_settings(self, interaction: discord.Interaction) -> None:
        lang = await self._lang(interaction)
        if await self._refused(interaction, lang, "hosting.settings_show"):
            return
        current = await load_settings(self.bot.storage, interaction.guild_id or 0)
        embed = discord.Embed(title=tx(lang, "title"))
        embed.description = "\n".join(f"**{key}**: {value} — {tx(lang, f'help.{key}')}" for key, value in show(current))
        await interaction.response.send_message(embed=embed, ephemeral=True, allowed_mentions=NO_PINGS)

    @settings.command(name="set", description="Change one setting")
    @app_commands.describe(key="The setting", value="Its new value (see /settings show)")
    @app_commands.choices(key=KEY_CHOICES)
    async def set_setting(self, interaction: discord.Interaction, key: str, value: str) -> None:
        lang = await self._lang(interaction)
        if await self._refused(interaction, lang, "hosting.settings_set"):
            return
        try:
            parsed = parse_setting(key, value)
        except SettingError as exc:
            await interaction.response.send_message(
                tx(lang, "invalid", reason=setting_problem(lang, exc)), ephemeral=True, allowed_mentions=NO_PINGS
            )
            return
        await self.bot.storage.set_setting(interaction.guild_id or 0, key, parsed)
        name = getattr(interaction.guild, "name", None)
        if key == "leaderboard" and isinstance(name, str):
            # the web logbook names a public server as Discord shows it (it has no Discord connection)
            await self.bot.storage.set_setting(interaction.guild_id or 0, NAME_SETTING, name)
        if key == "language":
            lang = str(parsed)
        shown: dict[str, str] = dict(show(await load_settings(self.bot.storage, interaction.guild_id or 0)))
        await interaction.response.send_message(
            tx(lang, "saved", key=key, value=shown.get(key, value)), ephemeral=True, allowed_mentions=NO_PINGS
        )
