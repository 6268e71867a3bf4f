"""`/logbook`, `/leaderboard` and `/resolve`.

`/resolve` takes exactly what `python -m engine resolve` takes (an attachment or pasted JSON),
validates it with the engine's own model and resolves it off the event loop after deferring,
since a 13-turn resolution with a log may take longer than Discord's 3 seconds on a busy host.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.space_alert.logbook import Logbook
from bot.games.space_alert.mission.render import captains_log, leaderboard_embed, logbook_embed, result_embed
from bot.games.space_alert.mission.result import (
    overview_description,
    overview_picture,
    picture_file,
    resolve_game,
    with_picture,
)
from bot.games.space_alert.records import games
from bot.games.space_alert.stats.board import show_leaderboard
from bot.platform.hosting.server_settings import server_language
from bot.platform.i18n import t
from bot.platform.text import MESSAGE_LIMIT, code_text, no_mentions, plain_text
from bot.web.links import server_link
from engine.documents import MAX_GAME_BYTES, DocumentError, parse_game
from engine.vocab import is_language

if TYPE_CHECKING:
    from bot.platform.client import SpaceAlertBot

log = logging.getLogger(__name__)

DIFFICULTY_CHOICES = [app_commands.Choice(name=d, value=d) for d in ("white", "yellow", "mixed")]


def _client_language(interaction: discord.Interaction) -> str | None:
    """The caller's Discord client language when the bot speaks it ("ru", "cs", "en-GB" -> "en")."""
    code = str(getattr(interaction, "locale", "")).split("-")[0]
    return code if is_language(code) else None


class RecordsCog(commands.Cog, name="Records"):
    def __init__(self, bot: SpaceAlertBot) -> None:
        self.bot = bot

    async def lang(self, guild_id: int | None) -> str:
        """The server's language (/settings language), else the bot's default: the logbook and
        the leaderboard are the server's pages, so they speak what its admins chose."""
        return await server_language(self.bot.storage, guild_id, self.bot.settings.default_language)

    @app_commands.command(name="logbook", description="This server's recent flights")
    @app_commands.guild_only()
    @app_commands.describe(
        crew_member="Only flights with this crew member",
        mission="Only this mission (e.g. S2-1, random)",
        difficulty="Only flights with this threat difficulty",
    )
    @app_commands.choices(difficulty=DIFFICULTY_CHOICES)
    async def logbook(
        self,
        interaction: discord.Interaction,
        crew_member: discord.User | None = None,
        mission: str | None = None,
        difficulty: str | None = None,
    ) -> None:
        entries = await Logbook(self.bot.storage).entries(
            interaction.guild_id or 0,
            user_id=crew_member.id if crew_member else None,
            mission_id=mission.strip() if mission else None,
            difficulty=difficulty,
        )
        lang = await self.lang(interaction.guild_id)
        embed = logbook_embed(lang, entries)
        if not mission and not difficulty:  # missions and difficulties are Space Alert's: no other game matches
            await self._other_games(embed, lang, interaction.guild_id or 0, crew_member.id if crew_member else None)
        embed.url = await server_link(self.bot.storage, self.bot.settings, interaction.guild_id)  # web logbook
        await interaction.response.send_message(embed=embed)

    async def _other_games(self, embed: discord.Embed, lang: str, guild_id: int, user_id: int | None) -> None:
        """A short section per other game with records here (Legion voyages, Escape games), after
        the flights; nothing at all when there are none, so a Space Alert server's logbook is as before."""
        found = {
            game: await self.bot.storage.session_results(
                game=game, guild_id=guild_id, user_id=user_id, limit=games.SHOWN
            )
            for game in games.GAMES
        }
        for title, text in games.logbook_sections(lang, found):
            embed.add_field(name=title, value=text, inline=False)

    @logbook.autocomplete("mission")
    async def _mission_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._missions(interaction, current)

    async def _missions(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The missions a /logbook or /leaderboard option may name, filtered by what was typed."""
        cog: Any = self.bot.get_cog("Mission")
        names = await cog.catalog.choices(interaction.guild_id) if cog else []
        return [
            app_commands.Choice(name=plain_text(label, 100), value=mid)
            for mid, label in names
            if current.lower() in mid.lower()
        ][:25]

    @app_commands.command(name="leaderboard", description="Best scores per mission and difficulty on this server")
    @app_commands.guild_only()
    @app_commands.describe(
        mission="One mission's board, page by page (e.g. S2-1)",
        normal="Normal threats of that board (default white)",
        serious="Serious threats of that board (default white)",
        everywhere="Every public server, not only this one",
        campaigns="Campaign totals instead of single flights",
    )
    @app_commands.choices(normal=DIFFICULTY_CHOICES, serious=DIFFICULTY_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        mission: str | None = None,
        normal: str | None = None,
        serious: str | None = None,
        everywhere: bool = False,
        campaigns: bool = False,
    ) -> None:
        """Without options: the best flight of every mission and difficulty here, and the lost ones.
        With any: the paged board of one mission and difficulty pair (or of campaigns), here or on
        every public server, with Previous / Next (stats/board.py)."""
        if mission or normal or serious or everywhere or campaigns:
            await show_leaderboard(
                self.bot,
                interaction,
                mission=mission.strip().upper() if mission else None,
                normal=normal,
                serious=serious,
                everywhere=everywhere,
                campaigns=campaigns,
            )
            return
        logbook = Logbook(self.bot.storage)
        rows = await logbook.leaderboard(interaction.guild_id or 0)
        recent = await logbook.entries(interaction.guild_id or 0, limit=50)
        lost = [e for e in recent if e.outcome == "destroyed"]
        lang = await self.lang(interaction.guild_id)
        await interaction.response.send_message(embed=leaderboard_embed(lang, rows, lost))

    @leaderboard.autocomplete("mission")
    async def _board_mission_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._missions(interaction, current)

    @app_commands.command(name="resolve", description="Resolve a physical game: attach or paste GAME.json")
    @app_commands.describe(
        game="GAME.json in the engine CLI format",
        json_text="Or paste the JSON here",
        language="Language of the captain's log",
    )
    @app_commands.rename(json_text="json")
    @app_commands.choices(
        language=[
            app_commands.Choice(name=n, value=v)
            for n, v in (("English", "en"), ("Русский", "ru"), ("Čeština", "cs"), ("Slovenčina", "sk"))
        ]
    )
    async def resolve(
        self,
        interaction: discord.Interaction,
        game: discord.Attachment | None = None,
        json_text: str | None = None,
        language: str | None = None,
    ) -> None:
        server = await self.lang(interaction.guild_id)
        lang = language or server  # the public result: the chosen language, else the server's
        mine = language or _client_language(interaction) or server  # private errors: the caller's own
        if game is None and not json_text:
            await interaction.response.send_message(t(mine, "resolve.need_input"), ephemeral=True)
            return
        # Refused by declared size before anything is downloaded.
        if game is not None and game.size > MAX_GAME_BYTES:
            reason = t(mine, "custom.file_too_large", size=game.size, limit=MAX_GAME_BYTES)
            await interaction.response.send_message(
                t(mine, "resolve.invalid", reason=code_text(reason, 320)), ephemeral=True
            )
            return
        # Private until the input is known to be valid: a bad game's error is nobody else's business.
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            raw_bytes = await game.read() if game is not None else (json_text or "").encode("utf-8", "replace")
            parsed = await asyncio.to_thread(parse_game, raw_bytes)  # up to ~0.1 s at the size cap
        except discord.HTTPException as exc:
            await self._private(
                interaction,
                t(mine, "resolve.invalid", reason=code_text(t(mine, "custom.file_unreachable", status=exc.status), 80)),
            )
            return
        except DocumentError as exc:
            await self._private(interaction, t(mine, "resolve.invalid", reason=code_text(str(exc), 320)))
            return
        try:
            result, replay = await asyncio.to_thread(resolve_game, parsed)
        except Exception as exc:  # an engine bug: say so privately, never leave "thinking…"
            log.exception("resolving a valid game failed")
            await self._private(interaction, t(mine, "resolve.failed", reason=code_text(str(exc), 320)))
            return
        data = result.to_json_dict(with_log=True)
        from engine.threats.catalog import card_or_none

        names = {th["id"]: (c.name if (c := card_or_none(th["id"])) else th["id"]) for th in data["threats"]}
        embed = result_embed(lang, data, title=t(lang, "resolve.title"), names=names)
        log_text = "\n".join(captains_log(lang, data.get("log") or []))
        files = [discord.File(io.BytesIO(log_text.encode("utf-8")), filename="captains-log.md")]
        picture = await overview_picture(replay, lang)  # the same picture as a flight's result post
        if picture is not None:
            files.append(picture_file(picture, overview_description(replay, lang)))
            with_picture(embed)
        # The first follow-up after an ephemeral defer stays ephemeral (it replaces "thinking…"),
        # so the private note goes first and the result after it, public.
        await interaction.edit_original_response(content=t(mine, "resolve.title"))
        await interaction.followup.send(embed=embed, files=files, ephemeral=False, allowed_mentions=no_mentions())

    @staticmethod
    async def _private(interaction: discord.Interaction, content: str) -> None:
        """An error after the ephemeral defer: it replaces "thinking…", seen by the caller only."""
        await interaction.followup.send(content[:MESSAGE_LIMIT], ephemeral=True, allowed_mentions=no_mentions())
