"""`/help`: what the bot does, the first flight in five steps and every command with its options,
in the server's language, generated from the command tree (one source: a renamed option cannot
be taught wrong here).

On a Russian or Czech server each command and option also shows its localized name, the one a
client in that language lists in its picker (`/mission start` (`/миссия начать`)).  The English
name comes first and is the one the steps and every other message print: it works on every
client (Discord matches typed English names too), and a server's players may use any client
language.  Slovak servers see only the English names: Discord has no Slovak locale.

Also where a new server gets its language: a server without a language setting starts in its
Discord preferred locale when the bot speaks it (Russian, Czech; Discord has no Slovak locale).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.platform.command_line import bare, command_line
from bot.platform.command_locale import (
    CLIENT_LANGUAGES,
    command_description,
    localized_name,
    localized_path,
    option_description,
)
from bot.platform.hosting.server_settings import server_language
from bot.platform.i18n import t
from bot.platform.text import no_mentions

if TYPE_CHECKING:
    from bot.platform.client import SpaceAlertBot

EMBED_TEXT_LIMIT = 5500  # Discord: 6000 characters over all embeds of one message


def command_lines(tree: app_commands.CommandTree[Any], lang: str) -> list[tuple[str, list[str]]]:
    """(group title, lines): every command with its options, grouped by top-level command."""
    groups: list[tuple[str, list[str]]] = []
    for top in sorted(tree.get_commands(), key=lambda c: c.name):
        if not isinstance(top, app_commands.Command | app_commands.Group):
            continue
        leaves = [top] if isinstance(top, app_commands.Command) else [*top.walk_commands()]
        lines: list[str] = []
        for command in leaves:
            if not isinstance(command, app_commands.Command):
                continue
            local = localized_path(lang, command)
            also = f" (`{local}`)" if local else ""
            lines.append(f"**/{command.qualified_name}**{also} — {command_description(lang, command)}")
            for parameter in command.parameters:
                name = localized_name(lang, command, parameter.name) if lang in CLIENT_LANGUAGES.values() else None
                also = f" (`{name}`)" if name and name != parameter.display_name else ""
                described = option_description(lang, command, parameter)
                lines.append(f"  · `{parameter.display_name}`{also} {described}")  # as Discord shows it
        title = ""
        if isinstance(top, app_commands.Group):
            local = localized_path(lang, top)
            title = f"/{top.name}{f' ({local})' if local else ''} — {command_description(lang, top)}"
        groups.append((title, lines))
    return groups


def help_embeds(tree: app_commands.CommandTree[Any], lang: str) -> list[list[discord.Embed]]:
    """The help as messages of embeds (each message under Discord's 6,000 characters)."""
    steps = t(
        lang,
        "evening.help.steps",
        start=command_line(tree, "mission start", mission="S1-1"),
        school=bare(tree, "mission school"),
        campaign=bare(tree, "campaign start"),
        join=t(lang, "lobby.join"),
        go=t(lang, "lobby.start"),
        station=t(lang, "deck.station"),
        finish=t(lang, "hand.finish"),
        roles=", ".join(t(lang, f"role.{role}").lower() for role in ("captain", "comms", "security")),
    )
    first = discord.Embed(title=t(lang, "evening.help.title"), description=t(lang, "evening.help.what"))
    first.add_field(name=t(lang, "evening.help.first_flight"), value=steps[:1024], inline=False)
    messages: list[list[discord.Embed]] = [[first]]
    size = len(first.description or "") + len(steps) + len(first.title or "")
    singles: list[str] = []
    for title, lines in command_lines(tree, lang):
        if not title:  # a command without a group: listed together
            singles += lines
            continue
        size = _add(messages, size, title, lines)
    _add(messages, size, t(lang, "evening.help.other"), singles)
    return messages


def _add(messages: list[list[discord.Embed]], size: int, title: str, lines: list[str]) -> int:
    """Add one group's embed (split at 4,096 characters), opening a new message when full."""
    parts: list[str] = []
    current = ""
    for line in lines:
        if len(current) + len(line) + 1 > 4000:
            parts.append(current)
            current = ""
        current += line + "\n"
    if current:
        parts.append(current)
    for part in parts:
        embed = discord.Embed(title=title[:256], description=part)
        cost = len(part) + len(title)
        if size + cost > EMBED_TEXT_LIMIT or len(messages[-1]) >= 10:
            messages.append([])
            size = 0
        messages[-1].append(embed)
        size += cost
    return size


class HelpCog(commands.Cog, name="Help"):
    def __init__(self, bot: SpaceAlertBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="What the bot does, the first flight in five steps, every command")
    async def help(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is not None and interaction.guild_locale is not None:  # asked before the
            await self.adopt_preferred_locale(interaction.guild_id, interaction.guild_locale)  # gateway said
        lang = await server_language(self.bot.storage, interaction.guild_id, self.bot.settings.default_language)
        messages = help_embeds(self.bot.tree, lang)
        await interaction.response.send_message(embeds=messages[0], ephemeral=True, allowed_mentions=no_mentions())
        for embeds in messages[1:]:
            await interaction.followup.send(embeds=embeds, ephemeral=True, allowed_mentions=no_mentions())

    # -- a new server's language ------------------------------------------------------------------
    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.adopt_preferred_locale(guild.id, guild.preferred_locale)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self.adopt_preferred_locale(guild.id, guild.preferred_locale)

    async def adopt_preferred_locale(self, guild_id: int, locale: discord.Locale) -> str | None:
        """Store the server's Discord locale as its language when it has none and the bot speaks
        it (only ru/cs can differ from the English default; Slovak is no Discord locale)."""
        lang = CLIENT_LANGUAGES.get(locale)
        if lang is None:
            return None
        storage = self.bot.storage
        if await storage.get_setting(guild_id, "language") is not None:
            return None
        await storage.set_setting(guild_id, "language", lang)
        return lang
