"""`/stats [player]`: a career in one embed with the score-history chart.

Looking at yourself shows your flights everywhere, privately (ephemeral); looking at someone
else shows what this server may show: its own flights and those of public servers.  The reply is
deferred, the chart is drawn in a worker thread, and an unmigrated database gets a clear answer.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.space_alert.records import games
from bot.games.space_alert.stats import queries
from bot.games.space_alert.stats._board import NO_PINGS, guild_language
from bot.games.space_alert.stats._text import tx
from bot.games.space_alert.stats.career import Career
from bot.games.space_alert.stats.chart import chart_alt, score_chart
from bot.games.space_alert.threat_names import threat_name
from bot.platform.i18n import t
from bot.platform.text import user_text

if TYPE_CHECKING:
    from bot.platform.client import SpaceAlertBot

log = logging.getLogger(__name__)


def career_embed(
    lang: str, name: str, career: Career, *, everywhere: bool, others: list[games.Tally] | None = None
) -> discord.Embed:
    embed = discord.Embed(title=tx(lang, "stats.title", name=name))
    rate = round(100 * career.survival_rate)
    embed.add_field(
        name=tx(lang, "stats.flights"),
        value=tx(lang, "stats.flights_value", flights=career.flights, survived=career.survived, rate=rate),
        inline=False,
    )
    lines = [
        f"{t(lang, f'difficulty.{f.normal}')}/{t(lang, f'difficulty.{f.serious}')}: "
        f"{'—' if f.average_score is None else f'{f.average_score:.1f}'} ({f.survived}/{f.flights})"
        for f in career.by_difficulty
    ]
    embed.add_field(name=tx(lang, "stats.by_difficulty"), value="\n".join(lines) or "—", inline=False)
    if career.favourite_role:
        role = career.favourite_role
        shown = t(lang, f"role.{role}") if role in ("captain", "comms", "security") else role
        embed.add_field(name=tx(lang, "stats.role"), value=shown)
    if career.destroyed_by_deck:
        decks = ", ".join(f"{tx(lang, f'deck.{deck}')} {n}" for deck, n in sorted(career.destroyed_by_deck.items()))
        embed.add_field(name=tx(lang, "stats.decks"), value=decks)
    if career.killer:
        embed.add_field(
            name=tx(lang, "stats.killer"),
            value=tx(lang, "stats.killer_value", threat=threat_name(lang, career.killer), n=career.killer_count),
        )
    if others:  # Legion voyages, Escape games: one line each (their boards have the rest)
        embed.add_field(
            name=t(lang, "records.other_games"),
            value="\n".join(games.career_line(lang, o) for o in others),
            inline=False,
        )
    embed.set_footer(text=tx(lang, "stats.scope_all" if everywhere else "stats.scope_here"))
    embed.set_image(url="attachment://scores.png")
    return embed


class StatsCog(commands.Cog, name="Stats"):
    def __init__(self, bot: SpaceAlertBot) -> None:
        self.bot = bot

    @app_commands.command(name="stats", description="A player's career: flights, scores, nemesis")
    @app_commands.guild_only()
    @app_commands.describe(player="Whose career (yourself if empty)")
    async def stats(self, interaction: discord.Interaction, player: discord.User | None = None) -> None:
        lang = await guild_language(self.bot, interaction.guild_id)
        who = player or interaction.user
        everywhere = who.id == interaction.user.id
        await interaction.response.defer(ephemeral=everywhere, thinking=True)
        scope = queries.Scope(None if everywhere else interaction.guild_id)
        try:
            career = await queries.career(self.bot.storage, who.id, scope)
            others = await games.tallies(self.bot.storage, who.id, scope.guild_id)
        except Exception:  # the records cannot be read (database down): say so, never stay silent
            log.exception("/stats failed")
            await interaction.followup.send(tx(lang, "stats.unavailable"), ephemeral=True)
            return
        name = user_text(who.display_name)
        if not career.flights:
            lines = [tx(lang, "stats.none", name=name)] if not others else [tx(lang, "stats.title", name=name)]
            lines += [games.career_line(lang, o) for o in others]  # a Legion-only player still has a career
            await interaction.followup.send("\n".join(lines), allowed_mentions=NO_PINGS)
            return
        png = await score_chart(career.history, lang=lang)
        await interaction.followup.send(
            embed=career_embed(lang, name, career, everywhere=everywhere, others=others),
            file=discord.File(io.BytesIO(png), filename="scores.png", description=chart_alt(career.history, lang)),
            allowed_mentions=NO_PINGS,
        )
