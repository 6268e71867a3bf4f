"""The bot object: owns settings, storage, per-flight locks, the clock and the voice bridge.

Start-up work (dynamic component registration, the cogs, resuming flights, the command sync)
runs in `setup_hook`, once, before the gateway connects — never in `on_ready`, which fires again
on every reconnect.  The clock is injectable so tests can run a ten-minute mission in
milliseconds and a "restart" is just a second bot instance over the same database.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import report_interaction_error
from bot.locks import FlightLocks
from bot.settings import Settings
from bot.storage import Storage
from bot.text import no_mentions

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = (
    "bot.exts.mission",
    "bot.exts.records",
    "bot.exts.replay",
    "bot.exts.elite",
    "bot.exts.hosting",
    "bot.exts.stats",
    "bot.exts.campaign",
)


def make_intents() -> discord.Intents:
    """Guilds and voice states only: no privileged intents (no message content, no member list).

    Voice states put the members sitting in voice channels into the cache, which is all the bot
    needs to server-mute the crew during a communication failure.
    """
    intents = discord.Intents.none()
    intents.guilds = True
    intents.voice_states = True
    return intents


class SpaceAlertBot(commands.Bot):
    def __init__(
        self,
        *,
        settings: Settings,
        storage: Storage,
        clock: Callable[[], float] = time.time,
        voice: Any | None = None,
        run_timers: bool = True,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("intents", make_intents())
        kwargs.setdefault("command_prefix", commands.when_mentioned)
        kwargs.setdefault("help_command", None)
        # User text (ids, names, display names) reaches messages: by default nothing pings.
        # A message that means to mention someone passes bot.text.mention_users explicitly.
        kwargs.setdefault("allowed_mentions", no_mentions())
        super().__init__(**kwargs)
        self.settings = settings
        self.storage = storage
        self.clock = clock
        self.locks = FlightLocks()
        self.voice = voice
        # Tests drive the flight clock by hand; the real bot runs one timer task per flight.
        self.run_timers = run_timers
        # Every failing slash command gets a logged error and an apology (bot/errors.py); the
        # buttons and selects reach the same handler through their router.
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    async def on_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await report_interaction_error(interaction, error)

    async def setup_hook(self) -> None:
        from bot.exts.mission._components import FlightButton, FlightSelect

        self.add_dynamic_items(FlightButton, FlightSelect)
        if self.voice is None:
            from bot.voicebridge import make_voice

            self.voice = make_voice(self)
        for name in EXTENSIONS:
            await self.load_extension(name)
        await self.sync_commands()

    async def sync_commands(self) -> None:
        """Sync per COMMAND_SYNC; a failure is logged, the bot keeps running with old commands."""
        mode = self.settings.command_sync
        if mode == "off":
            return
        try:
            if mode == "global":
                synced = await self.tree.sync()
            else:
                guild = discord.Object(id=self.settings.sync_guild_id or 0)
                self.tree.copy_global_to(guild=guild)
                synced = await self.tree.sync(guild=guild)
            log.info("synced %d application commands (%s)", len(synced), mode)
        except (discord.HTTPException, app_commands.CommandSyncFailure) as exc:
            log.error("command sync (%s) failed: %s; the commands already registered stay in use", mode, exc)

    async def on_ready(self) -> None:
        log.info("logged in as %s; invite: %s", self.user, self._invite())

    def _invite(self) -> str:
        from bot.invite import invite_url

        return invite_url(self.application_id) if self.application_id else "(unknown application id)"
