"""`/replay <flight>` and `/whatif <flight>`: a logged flight's pictures and captain's log again, and
the same flight with one crew member's 12 actions changed (a solo player's: one android's, whose
board they planned).  The pictures' turn buttons also serve the captain's log (bot/games/space_alert/mission/
_posting.py posts them at its end).

Both re-resolve the stored game (the engine is deterministic: same game and seed, same flight), so
nothing but the game needs storing.  Resolution and drawing run in `asyncio.to_thread`; every
click answers within Discord's 3 seconds (a deferral first where the work is heavier).  What-if
results are shown ephemerally; each is also kept (comparisons.py, table flight_comparisons) so the
flight's web page lists the comparisons that were asked for.
"""

from __future__ import annotations

import asyncio
import io
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.space_alert.comparisons import Comparison, Comparisons
from bot.games.space_alert.logbook import Logbook
from bot.games.space_alert.mission.components import view_of
from bot.games.space_alert.mission.render import captains_log, mission_label
from bot.games.space_alert.mission.storage import Flights
from bot.games.space_alert.pictures import Replay, render_overview, render_turn, resolve_with_states
from bot.games.space_alert.pictures.alt import turn_alt
from bot.games.space_alert.pictures.labels import word
from bot.games.space_alert.replay import _ids
from bot.games.space_alert.replay._editor import EditorState, apply_click, editor_message, parse_state
from bot.games.space_alert.replay._whatif import Comparison as Outcome
from bot.games.space_alert.replay._whatif import (
    Hand,
    Slot,
    WhatIfError,
    alternative,
    boards_of,
    compare,
    encode,
    given_away,
    hand_of,
    plan_changes,
)
from bot.games.space_alert.replay.components import turn_buttons
from bot.games.space_alert.replay.text import text
from bot.platform.permissions import Seats, actor_of, decide
from bot.platform.text import code_text, plain_text, user_text
from engine import board
from engine.flight.machine import Flight
from engine.model import Game

if TYPE_CHECKING:
    from bot.games.space_alert.mission.storage import FlightRecord
    from bot.platform.client import SpaceAlertBot

log = logging.getLogger(__name__)


@dataclass
class Logged:
    """A finished flight of this server and the game it was resolved from."""

    record: FlightRecord
    flight: Flight
    game: Game

    @property
    def lang(self) -> str:
        return self.record.language

    @property
    def mission(self) -> str:
        return mission_label(self.record.options)


def game_of(record: FlightRecord, flight: Flight) -> Game:
    """The game to re-resolve: a stored copy if the store kept one, else rebuilt from the snapshot.

    Today the logbook keeps only the result; the flight row keeps the final `Flight` snapshot, from
    which `to_game()` rebuilds exactly what was resolved.  A `game` entry in the flight's notes
    (or a logbook column, once storage adds one) wins, so a snapshot schema change cannot make old
    flights unreplayable.
    """
    stored = record.notes.get("game")
    if isinstance(stored, dict):
        return Game.model_validate(stored)
    return flight.to_game()


def replay_picture(game: Game, index: int, lang: str) -> tuple[Replay, bytes]:
    """Resolve and draw snapshot `index` (clamped to the flight); run in a worker thread."""
    replay = resolve_with_states(game)
    index = max(0, min(index, len(replay.states) - 1))
    return replay, render_turn(replay, index, lang)


def outcome_text(lang: str, outcome: str) -> str:
    return text(lang, "survived" if outcome == "survived" else "destroyed")


class ReplayCog(commands.Cog, name="Replay"):
    def __init__(self, bot: SpaceAlertBot) -> None:
        self.bot = bot

    # -- loading ------------------------------------------------------------------------------------------
    async def load(self, guild_id: int | None, flight_id: str) -> Logged | str:
        """The logged flight, or the text to answer with."""
        lang = self.bot.settings.default_language
        fid = flight_id.strip().lower()
        record = await Flights(self.bot.storage).load_flight(fid) if len(fid) == 8 else None
        if record is None or record.guild_id != guild_id or record.status != "finished" or record.state is None:
            return text(lang, "not_found", flight=code_text(fid, 20))
        try:
            flight = Flight.from_dict(record.state)
            return Logged(record, flight, game_of(record, flight))
        except Exception as exc:  # an old snapshot schema, a game the engine no longer accepts
            log.warning("flight %s: cannot rebuild its game: %s", fid, exc)
            return text(record.language, "cannot_replay", reason=code_text(exc, 200))

    async def _flight_choices(
        self, interaction: discord.Interaction, current: str, *, mine: bool
    ) -> list[app_commands.Choice[str]]:
        entries = await Logbook(self.bot.storage).entries(
            interaction.guild_id or 0, user_id=interaction.user.id if mine else None, limit=25
        )
        out = []
        for e in entries:
            if not e.flight_id:
                continue
            label = f"{e.flown_at[:16].replace('T', ' ')} · {e.mission_id} · {e.outcome} · {e.total} · {e.flight_id}"
            if current.lower() in label.lower():
                out.append(app_commands.Choice(name=plain_text(label, 100), value=e.flight_id))
        return out[:25]

    # -- /replay ---------------------------------------------------------------------------------------------
    @app_commands.command(name="replay", description="A logged flight's pictures and captain's log again")
    @app_commands.guild_only()
    @app_commands.describe(flight="The flight (pick from the logbook)", turn="Start at this turn (0 = before turn 1)")
    async def replay(
        self, interaction: discord.Interaction, flight: str, turn: app_commands.Range[int, 0, 13] | None = None
    ) -> None:
        logged = await self.load(interaction.guild_id, flight)
        if isinstance(logged, str):
            await interaction.response.send_message(logged, ephemeral=True)
            return
        index = turn if turn is not None else board.TURNS + 1  # the end by default
        replay = await self.post_turn(interaction, logged, index, ephemeral=False)
        data = replay.result.to_json_dict(with_log=True)
        chunks = captains_log(logged.lang, data.get("log") or [])
        log_file = discord.File(io.BytesIO("\n".join(chunks).encode("utf-8")), filename="captains-log.md")
        await interaction.followup.send(text(logged.lang, "log_file", flight=logged.record.id), file=log_file)

    async def post_turn(
        self, interaction: discord.Interaction, logged: Logged, index: int, *, ephemeral: bool
    ) -> Replay:
        """A new message with snapshot `index` and the previous/next buttons (deferred first)."""
        await interaction.response.defer(thinking=True, ephemeral=ephemeral)
        replay, picture = await asyncio.to_thread(replay_picture, logged.game, index, logged.lang)
        index = max(0, min(index, len(replay.states) - 1))
        embed, file, view = self.turn_message(logged, replay, index, picture)
        await interaction.followup.send(embed=embed, file=file, view=view, ephemeral=ephemeral)
        return replay

    def turn_message(
        self, logged: Logged, replay: Replay, index: int, picture: bytes
    ) -> tuple[discord.Embed, discord.File, discord.ui.View]:
        lang, fid = logged.lang, logged.record.id
        result = replay.result
        won = result.outcome == "survived"
        embed = discord.Embed(
            title=text(
                lang,
                "replay_title",
                mission=logged.mission,
                outcome=outcome_text(lang, result.outcome),
                total=result.score.total,
            )[:256],
            colour=discord.Colour.green() if won else discord.Colour.red(),
        )
        name = f"turn-{index:02d}.png"
        embed.set_image(url=f"attachment://{name}")
        embed.set_footer(text=text(lang, "replay_footer", flight=fid))
        last = len(replay.states) - 1
        view = view_of(*turn_buttons(fid, index, last, replay.turns))
        alt = turn_alt(replay, index, lang)  # what the picture shows, for a screen reader
        return embed, discord.File(io.BytesIO(picture), filename=name, description=alt), view

    async def show_turn(self, interaction: discord.Interaction, logged: Logged, index: int) -> None:
        await interaction.response.defer()
        replay, picture = await asyncio.to_thread(replay_picture, logged.game, index, logged.lang)
        index = max(0, min(index, len(replay.states) - 1))
        embed, file, view = self.turn_message(logged, replay, index, picture)
        await interaction.edit_original_response(embed=embed, attachments=[file], view=view)

    # -- /whatif ---------------------------------------------------------------------------------------------
    @app_commands.command(name="whatif", description="Change your own 12 actions of a logged flight and compare")
    @app_commands.guild_only()
    @app_commands.describe(flight="A flight you flew (pick from the logbook)")
    async def whatif(self, interaction: discord.Interaction, flight: str) -> None:
        found = await self.whatif_hand(interaction, flight, 0)
        if found is None:
            return
        logged, hand, boards = found
        embed, view = editor_message(
            logged.lang, logged.record.id, logged.mission, hand, boards, EditorState(0, hand.real)
        )
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)

    async def whatif_hand(
        self, interaction: discord.Interaction, flight_id: str, board_index: int
    ) -> tuple[Logged, Hand, tuple[str, ...]] | None:
        """The flight, the caller's cards for board number `board_index` (their own; solo, an
        android's) and the boards they may edit, or None after answering why not."""
        logged = await self.load(interaction.guild_id, flight_id)
        if isinstance(logged, str):
            await interaction.response.send_message(logged, ephemeral=True)
            return None
        member = logged.record.member(interaction.user.id)
        seats = Seats.of(logged.record.host_id, (m.user_id for m in logged.record.crew))
        if member is None or decide("replay.whatif", actor_of(interaction), seats) is not None:
            await interaction.response.send_message(text(logged.lang, "not_crew"), ephemeral=True)
            return None
        try:
            boards = boards_of(logged.flight, member.name)
            if not 0 <= board_index < len(boards):
                raise WhatIfError("bad_plan")
            journal = await Flights(self.bot.storage).flight_events(logged.record.id)
            given = given_away(journal, member.name)
            return logged, hand_of(logged.flight, member.name, given, boards[board_index]), boards
        except WhatIfError as exc:
            await interaction.response.send_message(text(logged.lang, str(exc)), ephemeral=True)
            return None

    async def run_whatif(
        self, interaction: discord.Interaction, logged: Logged, hand: Hand, plan: tuple[Slot, ...]
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        real, alt, cmp = await asyncio.to_thread(_compare_flights, logged.game, hand, plan)
        lang = logged.lang
        real_png, alt_png = await asyncio.to_thread(lambda: (render_overview(real, lang), render_overview(alt, lang)))
        lines = [
            text(lang, "score_line", real=cmp.real_total, alt=cmp.alt_total, delta=cmp.delta),
            text(
                lang,
                "outcome_line",
                real=outcome_text(lang, cmp.real_outcome),
                alt=outcome_text(lang, cmp.alt_outcome),
            ),
        ]
        for zone in board.ZONES:
            if cmp.real_damage[zone] != cmp.alt_damage[zone]:
                lines.append(
                    text(
                        lang,
                        "damage_line",
                        zone=word(lang, zone),
                        real=cmp.real_damage[zone],
                        alt=cmp.alt_damage[zone],
                    )
                )
        board_note = [text(lang, "editing_android", android=user_text(hand.board))] if hand.android else []
        if cmp.first_divergence is None:
            lines.append(text(lang, "same"))
        else:
            lines.append(text(lang, "diverges", turn=cmp.first_divergence))
        embed = discord.Embed(
            title=text(lang, "whatif_title", name=user_text(hand.name), mission=logged.mission)[:256],
            description="\n".join([*board_note, *lines]),
            colour=discord.Colour.green() if cmp.delta > 0 else discord.Colour.dark_grey(),
        )
        embed.set_footer(text=text(lang, "not_logged"))
        await self.keep_comparison(interaction, logged, hand, plan, cmp)
        files = [
            discord.File(io.BytesIO(real_png), filename="real.png", description=text(lang, "real")),
            discord.File(io.BytesIO(alt_png), filename="whatif.png", description=text(lang, "alt")),
        ]
        await interaction.followup.send(embed=embed, files=files, ephemeral=True)

    async def keep_comparison(
        self, interaction: discord.Interaction, logged: Logged, hand: Hand, plan: tuple[Slot, ...], cmp: Outcome
    ) -> None:
        """Keep the comparison for the flight's web page (what was asked for, by whom, and how it
        came out).  An unchanged plan is nothing to compare and is not kept.  Best effort: the
        player's answer never fails with the store."""
        changes = plan_changes(hand, plan)
        if not changes:
            return
        comparison = Comparison(
            flight_id=logged.record.id,
            kind="whatif",
            asked_by=interaction.user.id,
            asked_name=hand.name,
            board=hand.board,
            plan=encode(plan),
            changes=changes,
            real_outcome=cmp.real_outcome,
            real_total=cmp.real_total,
            alt_outcome=cmp.alt_outcome,
            alt_total=cmp.alt_total,
            diverges_at=cmp.first_divergence,
        )
        try:
            await Comparisons(self.bot.storage).add(comparison)
        except Exception:
            log.exception("flight %s: cannot keep a what-if comparison", logged.record.id)

    # -- the one router --------------------------------------------------------------------------------------
    async def on_component(self, interaction: discord.Interaction, cid: _ids.ReplayId, values: list[str]) -> None:
        if cid.action in ("turn", "open"):
            logged = await self.load(interaction.guild_id, cid.flight)
            if isinstance(logged, str):
                await interaction.response.send_message(logged, ephemeral=True)
                return
            parts = cid.parts
            index = int(parts[0]) if parts and parts[0].isdigit() else 0
            if cid.action == "turn":
                await self.show_turn(interaction, logged, index)
            else:
                await self.post_turn(interaction, logged, index, ephemeral=True)
            return
        lang = self.bot.settings.default_language
        if cid.action in _ids.LEGACY_ACTIONS:  # an editor drawn by an older version of the bot
            await interaction.response.send_message(text(lang, "bad_plan"), ephemeral=True)
            return
        try:
            if cid.action == "wboard":  # solo: another android's board, shown with its real plan
                board_index = int(values[0]) if values and values[0].isdigit() else -1
                plan_text, sel = "", None
            else:
                board_index, plan_text, sel = parse_state(cid)
        except WhatIfError:
            await interaction.response.send_message(text(lang, "bad_plan"), ephemeral=True)
            return
        found = await self.whatif_hand(interaction, cid.flight, board_index)
        if found is None:
            return
        logged, hand, boards = found
        try:
            if sel is None:  # another android's board: its real plan
                state = EditorState(board_index, hand.real)
            else:
                state = apply_click(cid.action, hand, board_index, plan_text, sel, values)
        except WhatIfError:
            await interaction.response.send_message(text(logged.lang, "bad_plan"), ephemeral=True)
            return
        if cid.action == "run":
            await self.run_whatif(interaction, logged, hand, state.plan)
            return
        embed, view = editor_message(logged.lang, logged.record.id, logged.mission, hand, boards, state)
        await interaction.response.edit_message(embed=embed, view=view)

    # -- autocomplete ------------------------------------------------------------------------------------------
    @replay.autocomplete("flight")
    async def _replay_flights(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._flight_choices(interaction, current, mine=False)

    @whatif.autocomplete("flight")
    async def _whatif_flights(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._flight_choices(interaction, current, mine=True)


def _compare_flights(game: Game, hand: Hand, plan: tuple[Slot, ...]) -> tuple[Replay, Replay, Any]:
    real = resolve_with_states(game)
    alt = resolve_with_states(alternative(game, hand, plan))
    return real, alt, compare(real, alt)
