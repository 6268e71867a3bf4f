"""The bot object: owns settings, storage, per-flight locks, the clock and the voice bridge.

Start-up work (dynamic component registration, the cogs, resuming flights, the command sync)
runs in `setup_hook`, once, before the gateway connects — never in `on_ready`, which fires again
on every reconnect.  The clock is injectable so tests can run a ten-minute mission in
milliseconds and a "restart" is just a second bot instance over the same database.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import hashlib
import importlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.platform.claims import ShardClaims
from bot.platform.cluster import Cluster, IdentifyGate, ShardPlan, startup_line
from bot.platform.errors import report_interaction_error
from bot.platform.locks import FlightLocks
from bot.platform.settings import Settings
from bot.platform.storage import Storage, StorageError
from bot.platform.text import no_mentions

log = logging.getLogger(__name__)

# The platform's own extensions; the games' come from the package the GAMES_PACKAGE setting names
# (its EXTENSIONS tuple), so nothing here imports a game.
PLATFORM_EXTENSIONS: tuple[str, ...] = ("bot.platform.about", "bot.platform.hosting")


def game_extensions(package: str) -> tuple[str, ...]:
    """The extensions a games package lists, loaded after the platform's."""
    return tuple(importlib.import_module(package).EXTENSIONS)


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
        cluster: Cluster | None = None,
        claims: ShardClaims | None = None,
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
        # Which guilds this process owns and which flight clocks it runs (bot/platform/cluster.py); over
        # PostgreSQL every clock is guarded by a lease, over SQLite it is trivially ours.
        self.cluster = cluster or Cluster(
            storage,
            ShardPlan.from_settings(settings),
            shared=bool(getattr(storage, "shared", False)),
            clock=clock,
            ttl=settings.flight_lease_ttl_s,
        )
        # The shards this process claimed before connecting (bot/platform/claims.py; PostgreSQL only).
        self.claims = claims
        self.exit_code = 0
        self._heap_frozen = False
        self._identify_gate: IdentifyGate | None = None
        # Every failing slash command gets a logged error and an apology (bot/platform/errors.py); the
        # buttons and selects reach the same handler through their router.
        self.tree.on_error = self.on_app_command_error  # type: ignore[method-assign]

    async def until_ready(self, timeout: float = 60.0) -> None:
        """Wait (bounded) until the gateway has delivered the servers.  After a restart the
        flights resume in `setup_hook`, before that: a server looked up then is simply not there
        yet, which is not the same as gone.  Returns at once when never logged in (tests)."""
        if self.is_ready():
            return
        with contextlib.suppress(RuntimeError, TimeoutError):  # RuntimeError: never logged in
            await asyncio.wait_for(self.wait_until_ready(), timeout=timeout)

    async def on_app_command_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        await report_interaction_error(interaction, error)

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A press or form no handler took (an expired private picker, a restart): answered, not
        left to Discord's "This interaction failed" (bot/platform/unclaimed.py)."""
        from bot.platform.unclaimed import answer_unclaimed

        await answer_unclaimed(self, interaction, self.settings.default_language)

    async def setup_hook(self) -> None:
        from bot.platform import discord_fixes
        from bot.platform.tables import TableButton, TableSelect

        discord_fixes.apply()  # a voice reconnect must not leave discord.py's waits pending

        self.add_dynamic_items(TableButton, TableSelect)  # every session game's clicks (tables.py)
        if self.voice is None:
            from bot.platform.voicebridge import make_voice

            self.voice = make_voice(self)
        log.info(startup_line(self.cluster.plan, self.cluster.process, type(self.storage).__name__))
        if self.tree.translator is None:  # descriptions and choices in the clients' languages
            from bot.platform.command_locale import CommandTranslator

            await self.tree.set_translator(CommandTranslator())
        for name in PLATFORM_EXTENSIONS + game_extensions(self.settings.games_package):
            await self.load_extension(name)
        self.cluster.start()
        if self.claims is not None:
            self.claims.start(self._claim_lost)
        await self.sync_commands()

    async def _claim_lost(self, shards: list[int]) -> None:
        """Another process runs our shards now: stop at once (exit 4) rather than run them twice."""
        from bot.platform.claims import EXIT_CLAIM_LOST

        self.exit_code = EXIT_CLAIM_LOST
        asyncio.get_running_loop().create_task(self.close())

    async def close(self) -> None:
        await super().close()
        await self.cluster.close()  # hand the flight leases back: a successor resumes at once
        if self.claims is not None:
            await self.claims.close()  # then the shards: a waiting standby wakes (NOTIFY)

    # -- start-up coordination between processes -------------------------------------------
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """One IDENTIFY per 5 s per bucket over every process on the database (the library's own
        hook only spaces the shards of this process)."""
        try:
            gate = await self.identify_gate()
            await gate.wait_turn(shard_id)
        except (StorageError, OSError) as exc:
            log.warning("identify coordination failed (%s); waiting the plain 5 s", exc)
            if not initial:
                await asyncio.sleep(5.0)

    async def identify_gate(self) -> IdentifyGate:
        if self._identify_gate is None:
            concurrency = self.settings.identify_concurrency
            if concurrency is None:
                try:
                    _shards, _url, limit = await self.http.get_bot_gateway()
                    concurrency = int(limit.get("max_concurrency", 1))
                except (discord.HTTPException, KeyError, TypeError, ValueError):
                    concurrency = 1
            self._identify_gate = IdentifyGate(self.storage, concurrency=concurrency)
        return self._identify_gate

    def syncs_commands(self) -> bool:
        """Commands are global: one process syncs them (the one running shard 0)."""
        plan = self.cluster.plan
        return plan.shard_ids is None or 0 in plan.shard_ids

    async def command_digest(self, guild: discord.abc.Snowflake | None = None) -> str:
        """A hash of the command tree as it would be sent, translations included: an unchanged
        tree is not re-synced, a changed translation is."""
        translator = self.tree.translator
        commands = self.tree.get_commands(guild=guild)
        if translator is None:
            payload = [cmd.to_dict(self.tree) for cmd in commands]
        else:
            payload = [await cmd.get_translated_payload(self.tree, translator) for cmd in commands]
        return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()

    async def sync_commands(self) -> None:
        """Sync per COMMAND_SYNC, once over all processes and only when the tree changed; a
        failure is logged, the bot keeps running with old commands."""
        mode = self.settings.command_sync
        if mode == "off":
            return
        if not self.syncs_commands():
            log.info("command sync is left to the process running shard 0")
            return
        guild = None if mode == "global" else discord.Object(id=self.settings.sync_guild_id or 0)
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        key = f"commands:{self.application_id}:{mode}"
        digest = await self.command_digest(guild)
        try:
            if await self.storage.get_cluster_value(key) == digest:
                log.info("application commands unchanged since their last sync (%s); not syncing", mode)
                return
        except StorageError as exc:
            log.warning("cannot read the stored command hash (%s); syncing anyway", exc)
        try:
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d application commands (%s)", len(synced), mode)
        except (discord.HTTPException, app_commands.CommandSyncFailure) as exc:
            log.error("command sync (%s) failed: %s; the commands already registered stay in use", mode, exc)
            return
        try:
            await self.storage.set_cluster_value(key, digest)
        except StorageError as exc:
            log.warning("cannot store the command hash (%s); the next start syncs again", exc)

    async def on_ready(self) -> None:
        if not self._heap_frozen:  # once: on_ready fires again on every reconnect
            self._heap_frozen = True
            freeze_startup_heap()
        log.info(
            "logged in as %s (%s); invite: %s",
            self.user,
            startup_line(self.cluster.plan, self.cluster.process, type(self.storage).__name__),
            self._invite(),
        )

    def _invite(self) -> str:
        from bot.platform.invite import invite_url

        return invite_url(self.application_id) if self.application_id else "(unknown application id)"


def freeze_startup_heap() -> int:
    """Move what start-up built (modules, catalogues, cogs, the servers' cache) out of the
    collector's sight; the number of objects frozen.

    Why: those objects live as long as the process, yet every full collection walks all of them
    (tens of ms on a busy machine, the whole event loop stopped: the slowest clicks), and the
    collector only runs a full collection once new survivors reach a quarter of them, so cyclic
    garbage (discord.py's interactions and views are cycles) piled up meanwhile as memory per
    running game.  Frozen, a full collection walks only what came after start-up, often enough."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


class ShardedSpaceAlertBot(SpaceAlertBot, commands.AutoShardedBot):
    """The bot over several gateway shards in one process (`--shards 0-3 --shard-count 8`)."""


def make_bot(*, settings: Settings, storage: Storage, **kwargs: Any) -> SpaceAlertBot:
    """The plain bot, or the sharded one when SHARD_COUNT / --shard-count is set."""
    plan = ShardPlan.from_settings(settings)
    if not plan.sharded:
        return SpaceAlertBot(settings=settings, storage=storage, **kwargs)
    kwargs.setdefault("shard_ids", list(plan.shard_ids or ()))
    kwargs.setdefault("shard_count", plan.shard_count)
    return ShardedSpaceAlertBot(settings=settings, storage=storage, **kwargs)
