"""`/about`: the process (host:pid), its shards and the shard of the asking server.

Why a command and not only a log line: with several processes, "which one is serving us?" is
the first question of anyone debugging a stuck flight, and the person asking is often a server
admin without access to the logs.  The answer is ephemeral and names no one.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.platform.claims import cluster_lines
from bot.platform.cluster import shard_of
from bot.platform.text import no_mentions

if TYPE_CHECKING:
    from bot.platform.client import SpaceAlertBot

BACKENDS = {"PostgresStorage": "PostgreSQL (shared)", "SqliteStorage": "SQLite (this process only)"}


def about_text(bot: SpaceAlertBot, guild_id: int | None) -> str:
    cluster = bot.cluster
    plan = cluster.plan
    lines = [f"Process: {cluster.process}", f"Shards: {plan.describe()}"]
    if guild_id is not None and plan.shard_count is not None:
        lines.append(f"This server is on shard {shard_of(guild_id, plan.shard_count)}")
    lines.append(f"Storage: {BACKENDS.get(type(bot.storage).__name__, type(bot.storage).__name__)}")
    lines.append(f"Flight clocks running here: {len(cluster.held)}")
    return "\n".join(lines)


class AboutCog(commands.Cog, name="About"):
    def __init__(self, bot: SpaceAlertBot) -> None:
        self.bot = bot

    @app_commands.command(name="about", description="Which bot process and shard serve this server")
    async def about(self, interaction: discord.Interaction) -> None:
        text = about_text(self.bot, interaction.guild_id)
        claims = getattr(self.bot, "claims", None)
        if claims is not None:  # several processes over PostgreSQL: who runs what (bot/platform/claims.py)
            try:
                lines = await asyncio.wait_for(cluster_lines(claims), timeout=1.5)
            except Exception as exc:  # the answer must come within Discord's 3 s regardless
                lines = [f"Shard claims: unavailable ({type(exc).__name__})"]
            text = "\n".join([text, *lines])
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=no_mentions())
