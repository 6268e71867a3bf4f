"""`/about`: the process (host:pid), its shards and the shard of the asking server.

Why a command and not only a log line: with several processes, "which one is serving us?" is
the first question of anyone debugging a stuck flight, and the person asking is often a server
admin without access to the logs.  The answer is ephemeral and names no one.  Its words are the
catalogue's `about` area, in the server's language like /help; process names, shard ids and
counts are data and shown as they are.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.platform.claims import cluster_lines
from bot.platform.cluster import compact, shard_of
from bot.platform.hosting.server_settings import server_language
from bot.platform.i18n import t
from bot.platform.text import no_mentions

if TYPE_CHECKING:
    from bot.platform.client import SpaceAlertBot

#: storage class -> its catalogue key (another backend is named by its class)
BACKENDS = {"PostgresStorage": "about.storage.postgres", "SqliteStorage": "about.storage.sqlite"}


def about_text(bot: SpaceAlertBot, guild_id: int | None, lang: str = "en") -> str:
    cluster = bot.cluster
    plan = cluster.plan
    if plan.shard_count is None:
        shards = t(lang, "about.shards.none")
    else:
        shards = t(lang, "about.shards.some", ids=compact(plan.shard_ids or ()), count=plan.shard_count)
    lines = [t(lang, "about.process", process=cluster.process), t(lang, "about.shards", shards=shards)]
    if guild_id is not None and plan.shard_count is not None:
        lines.append(t(lang, "about.this_shard", shard=shard_of(guild_id, plan.shard_count)))
    backend = type(bot.storage).__name__
    lines.append(t(lang, "about.storage", storage=t(lang, BACKENDS[backend]) if backend in BACKENDS else backend))
    lines.append(t(lang, "about.clocks", n=len(cluster.held)))
    return "\n".join(lines)


class AboutCog(commands.Cog, name="About"):
    def __init__(self, bot: SpaceAlertBot) -> None:
        self.bot = bot

    @app_commands.command(name="about", description="Which bot process and shard serve this server")
    async def about(self, interaction: discord.Interaction) -> None:
        settings = self.bot.settings
        lang = await server_language(self.bot.storage, interaction.guild_id, settings.default_language)
        text = about_text(self.bot, interaction.guild_id, lang)
        claims = getattr(self.bot, "claims", None)
        if claims is not None:  # several processes over PostgreSQL: who runs what (bot/platform/claims.py)
            try:
                lines = await asyncio.wait_for(cluster_lines(claims, lang), timeout=1.5)
            except Exception as exc:  # the answer must come within Discord's 3 s regardless
                lines = [t(lang, "about.claims.unavailable", error=type(exc).__name__)]
            text = "\n".join([text, *lines])
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=no_mentions())
