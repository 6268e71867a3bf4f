"""`/hindsight flight:` and the result post's Hindsight button.

Both answer within Discord's 3 seconds by deferring, then run the search in a worker thread (it
may take seconds; the event loop keeps serving everyone else) and post the sentence with the
pictures (both plans side by side, then the real flight's and the changed one's overview) in the
captain's log thread under the flight's result post (the command finds that post
among the channel's recent messages; without a thread, or when the post is too far back, it
answers where it was asked).  Only the flight's crew may ask; anyone else gets a polite private
refusal.  The flight is read from the store at each press (the button's custom id `hs:<flight>:go` is its
only state), so a press after a restart works.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.space_alert.comparisons import Comparison, Comparisons
from bot.games.space_alert.hindsight._picture import plans_picture
from bot.games.space_alert.hindsight.answer import SEARCH_BUDGET_S, Found, gifts_of, search, sentence, summary
from bot.games.space_alert.mission.components import FlightButton
from bot.games.space_alert.mission.storage import Flights
from bot.games.space_alert.pictures import render_overview, resolve_with_states
from bot.platform import components
from bot.platform.components import handles
from bot.platform.errors import report_interaction_error
from bot.platform.hosting.server_settings import server_language
from bot.platform.i18n import t
from bot.platform.permissions import Seats, actor_of, decide, refusal

if TYPE_CHECKING:
    from bot.games.space_alert.replay.cog import Logged
    from bot.platform.client import SpaceAlertBot
    from engine.hindsight.flight_boards import Gift

log = logging.getLogger(__name__)
RESULT_SEARCH = 100  # how many recent channel messages /hindsight looks through for the result post

KIND = components.register(
    "hs",
    {"flight": "[0-9a-f]{8}", "action": "go"},
    summary="the result post's Hindsight button",
    example=("0123abcd", "go"),
)


def button_id(flight_id: str) -> str:
    """The Hindsight button's custom id: unique in the result post (the other button is `sr:`)."""
    return KIND.make(flight_id, "go")


@handles(KIND)
class HindsightButton(FlightButton, template=KIND.pattern()):
    async def callback(self, interaction: discord.Interaction) -> None:
        client: Any = interaction.client
        cog = client.get_cog("Hindsight") if client is not None else None
        parts = KIND.parse(self.custom_id)
        if cog is None or parts is None:  # extension unloaded: still answer within 3 s
            lang = getattr(getattr(client, "settings", None), "default_language", "en")
            await interaction.response.send_message(t(lang, "hindsight.unavailable"), ephemeral=True)
            return
        try:
            await cog.answer(interaction, parts["flight"], in_thread=True)
        except Exception as exc:
            await report_interaction_error(interaction, exc, flight_id=parts["flight"])


def hindsight_button(flight_id: str, lang: str) -> HindsightButton:
    return HindsightButton(button_id(flight_id), label=t(lang, "hindsight.button")[:80])


def pictures(found: Found, played: Any, lang: str) -> tuple[bytes, bytes]:
    """The real flight's overview and the changed one's (blocking: run in a thread)."""
    return render_overview(resolve_with_states(played), lang), render_overview(resolve_with_states(found.game), lang)


class HindsightCog(commands.Cog, name="Hindsight"):
    def __init__(self, bot: SpaceAlertBot) -> None:
        self.bot = bot

    @app_commands.command(name="hindsight", description="The smallest change that would have saved the ship")
    @app_commands.guild_only()
    @app_commands.describe(flight="A flight you flew (pick from the logbook)")
    async def hindsight(self, interaction: discord.Interaction, flight: str) -> None:
        await self.answer(interaction, flight, in_thread=False)

    @hindsight.autocomplete("flight")
    async def _flights(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        replay: Any = self.bot.get_cog("Replay")
        if replay is None:
            return []
        choices: list[app_commands.Choice[str]] = await replay._flight_choices(interaction, current, mine=True)
        return choices

    async def answer(self, interaction: discord.Interaction, flight_id: str, *, in_thread: bool) -> None:
        replay: Any = self.bot.get_cog("Replay")
        lang: str = self.bot.settings.default_language
        if replay is None:
            await interaction.response.send_message(t(lang, "hindsight.unavailable"), ephemeral=True)
            return
        logged: Logged | str = await replay.load(interaction.guild_id, flight_id)
        if isinstance(logged, str):
            await interaction.response.send_message(logged, ephemeral=True)
            return
        # the server's language now (the flight's own when the server has none set)
        lang = await server_language(self.bot.storage, interaction.guild_id, logged.lang)
        seats = Seats.of(None, (m.user_id for m in logged.record.crew))
        if (refused := decide("hindsight.ask", actor_of(interaction), seats)) is not None:
            text = t(lang, "hindsight.not_crew") if refused == "seated" else refusal(lang, refused)
            await interaction.response.send_message(text, ephemeral=True)
            return
        await interaction.response.defer(ephemeral=in_thread, thinking=True)
        gifts = await self._gifts(logged.record.id)
        found = await asyncio.to_thread(search, logged.flight, logged.game, SEARCH_BUDGET_S, gifts)
        real_png, changed_png = await asyncio.to_thread(pictures, found, logged.game, lang)
        plans_png = await asyncio.to_thread(plans_picture, found, logged.game, lang)
        content = sentence(lang, found, logged.game)[:1900]
        await self._keep(interaction, logged, found)
        files = [
            discord.File(io.BytesIO(plans_png), filename="plans.png", description=t(lang, "hindsight.plans")[:100]),
            discord.File(io.BytesIO(real_png), filename="real.png", description=t(lang, "hindsight.real")[:100]),
            discord.File(
                io.BytesIO(changed_png), filename="hindsight.png", description=t(lang, "hindsight.changed")[:100]
            ),
        ]
        if in_thread:
            thread = await self._thread(interaction)
        else:
            thread = await self._thread_of_flight(interaction, flight_id)
        if thread is None:
            await interaction.followup.send(content, files=files)
            return
        await thread.send(content, files=files)
        await interaction.followup.send(t(lang, "hindsight.posted", thread=thread.mention), ephemeral=True)

    async def _keep(self, interaction: discord.Interaction, logged: Logged, found: Found) -> None:
        """Keep the answer as a comparison for the flight's web page.  Best effort: the answer is
        posted whether or not the store takes it."""
        answer = found.answer
        member = logged.record.member(interaction.user.id)
        comparison = Comparison(
            flight_id=logged.record.id,
            kind="hindsight",
            asked_by=interaction.user.id,
            asked_name=member.name if member is not None else interaction.user.display_name,
            changes=summary(found, logged.game),
            real_outcome=answer.played.outcome,
            real_total=answer.played.score.total,
            alt_outcome=answer.result.outcome,
            alt_total=answer.result.score.total,
            diverges_at=min((c.turn for c in answer.changes), default=None),
        )
        try:
            await Comparisons(self.bot.storage).add(comparison)
        except Exception:
            log.exception("flight %s: cannot keep the Hindsight answer", logged.record.id)

    async def _gifts(self, flight_id: str) -> list[Gift] | None:
        """The flight's data-transfer gifts from its journal, so that a given card is suggested from
        the phase it arrived in; None (the search then assumes the latest) when the store fails."""
        try:
            return gifts_of(await Flights(self.bot.storage).flight_events(flight_id))
        except Exception:
            log.exception("flight %s: no journal for hindsight; given cards count as late as can be", flight_id)
            return None

    async def _thread_of_flight(self, interaction: discord.Interaction, flight_id: str) -> Any:
        """For `/hindsight`: the captain's log thread under that flight's result post, found by the
        post's own Hindsight button among the channel's recent messages (the store keeps no
        message ids); None when the post is not among them (then: answered in place)."""
        channel: Any = interaction.channel
        wanted = button_id(flight_id)
        me = self.bot.user.id if self.bot.user is not None else None
        try:
            async for message in channel.history(limit=RESULT_SEARCH):
                if message.author.id != me:
                    continue
                ids = {
                    getattr(c, "custom_id", None) for row in message.components for c in getattr(row, "children", [])
                }
                if wanted in ids:
                    return await self._thread_under(interaction, message)
        except (discord.HTTPException, AttributeError, TypeError) as exc:
            log.info("flight %s: cannot look for its result post (%s); answering in place", flight_id, exc)
        return None

    async def _thread(self, interaction: discord.Interaction) -> Any:
        """The captain's log thread under the result post the button is on (a thread started from
        a message has that message's id), None when there is none (then: answered in place)."""
        return await self._thread_under(interaction, interaction.message)

    async def _thread_under(self, interaction: discord.Interaction, message: Any) -> Any:
        if message is None:
            return None
        thread = getattr(message, "thread", None)
        if thread is not None:
            return thread
        guild = interaction.guild
        found = guild.get_thread(message.id) if guild is not None else None
        if found is not None:
            return found
        try:
            channel = await self.bot.fetch_channel(message.id)
        except discord.HTTPException as exc:
            log.info("no captain's log thread under %s (%s); answering in place", message.id, exc)
            return None
        return channel if isinstance(channel, discord.Thread) else None
