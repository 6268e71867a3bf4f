"""`/escape start|stop|board|schema` and `/escape-admin pack`: Star World: Escape in a channel, on
the platform's game-session store.

One game per channel (the store refuses a second lobby or game: `ChannelBusy`).  `/escape start`
posts the platform's lobby (bot/platform/tables.py: join / leave; the host begins with 2-4 players
or cancels; the table also routes every later click here, permission checked).  Starting deals the
game (`_doc.begin`) and posts ONE public station post (the clock, whose move it is, each pawn's
public numbers, the last lines and, in digital mode, the station picture with fog of war), edited
after every step.  Everything a player owns is on their private panel ("My panel", answered
ephemerally): the secret mission, the character, gear, Health and AP, their own map, and the
controls of the moves the engine allows them now.  A command from a member whose move it is not
is refused by the engine's code, worded politely; a member without a seat is refused by the
platform's permission check.  After a step the player to move is pinged, and only them, and
every other seat's open panel is redrawn: an ephemeral message can be edited through the token of
the interaction that answered with it for 15 minutes, so each seat's newest panel token is kept in
the session document (`_doc.remember_panel`) and an expired or refused token is simply dropped.

The bot plays the station's people in every fight (the engine's rule D8, docs/escape-rules.md):
the seed has the next player act out the enemy, which the issue asks to remove so no player ever
plays an enemy against a rival; the next player is still the one pinged when a duel is theirs to
answer.

Nothing of a game lives in this process: every click loads the session by the id in its custom id
(the table does) and changes it with `change_session` (one unit of work, version-checked), so a restart in the
middle simply goes on.  The change that ends a game carries its `SessionResult`, so the store
records it in the same unit of work (_logbook.py).
"""

from __future__ import annotations

import asyncio
import io
import logging
import secrets
import time
from importlib import resources
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.escape import _doc
from bot.games.escape._logbook import board_text, session_result
from bot.games.escape._picture import station_png
from bot.games.escape._render import (
    TRADE,
    enemy_options,
    event_lines,
    lobby_text,
    panel_controls,
    panel_text,
    result_text,
    spoken_lines,
    station_text,
    trade_options,
    turn_line,
)
from bot.platform import tables
from bot.platform.components import Components
from bot.platform.hosting.gate import may_start
from bot.platform.hosting.server_settings import server_language
from bot.platform.i18n import t
from bot.platform.permissions import Seats, guard
from bot.platform.session_posts import edit, post, session_posts
from bot.platform.sessions import GameSession
from bot.platform.storage.base import ChannelBusy
from bot.platform.text import no_mentions, user_text
from engine.escape.content import Pack
from engine.escape.pack import PackRefusal, load_pack
from engine.escape.policy import actor
from engine.escape.rules import Command
from engine.escape.snapshot import SnapshotError
from engine.escape.state import State
from engine.escape.views import player_view, public_view

log = logging.getLogger(__name__)

GAME = "escape"
LANGUAGES = ("en", "ru", "cs", "sk")
# Referee commands whose card numbers the crew types in (a modal asks for them).
PACK_SETTING = "escape_pack"  # the server's own content pack (raw JSON), loaded by /escape-admin pack
MAX_PACK_BYTES = 256_000
NUMBERED = {"ref_encounter": 5, "ref_gear": 9, "ref_damage": 1, "ref_guard": 2, "ref_hold_fight": 2}


def _choices(values: tuple[str, ...]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=v, value=v) for v in values]


# ---------------------------------------------------------------- components


def pack_answer(lang: str, data: bytes, filename: str, *, too_large: bool = False) -> tuple[Pack | None, str]:
    """A pack an admin uploaded: the pack to store and the answer, or None and why it was refused
    (the engine's code, worded; what they typed is shown inert)."""
    if too_large:
        why = t(lang, "escape.pack.too_large", where=user_text(filename, 60))
        return None, t(lang, "escape.ui.pack_refused", why=why)
    loaded = load_pack(data)
    if isinstance(loaded, PackRefusal):
        why = t(lang, f"escape.pack.{loaded.code}", where=user_text(loaded.where or filename, 120))
        return None, t(lang, "escape.ui.pack_refused", why=why)
    counts = {
        "characters": len(loaded.characters),
        "gear": len(loaded.gear_outer) + len(loaded.gear_inner),
        "events": len(loaded.local_outer) + len(loaded.local_inner) + len(loaded.general),
        "missions": len(loaded.missions),
    }
    return loaded, t(lang, "escape.ui.pack_loaded", pack=user_text(loaded.id, 60), **counts)


class NumbersModal(discord.ui.Modal):
    """Referee mode: the numbers off a physical card, typed once, checked by the engine."""

    def __init__(self, cog: EscapeCog, sid: str, lang: str, command: Command | None) -> None:
        """`command` None: the seat's own character card (_doc.set_character)."""
        super().__init__(title=t(lang, "escape.ui.numbers_title")[:45], timeout=600)
        self.cog, self.sid, self.command = cog, sid, command
        key = command.kind if command is not None else _doc.CHARACTER
        self.numbers: discord.ui.TextInput[NumbersModal] = discord.ui.TextInput(
            label=t(lang, f"escape.ui.numbers_{key}")[:45],
            placeholder=t(lang, f"escape.ui.numbers_hint_{key}")[:100],
            max_length=60,
            custom_id="numbers",
        )
        self.add_item(self.numbers)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        try:
            numbers = tuple(int(x) for x in str(self.numbers.value).replace(",", " ").split())
        except ValueError:
            numbers = ()
        c = self.command
        if c is None:
            await self.cog.set_character(interaction, self.sid, numbers)
            return
        await self.cog.play(interaction, self.sid, Command(c.kind, -1, c.target, c.cell, numbers), from_modal=True)


def _panel_button(sid: str, lang: str) -> Components:
    return Components(
        tables.button(GAME, sid, "panel", label=t(lang, "escape.ui.panel"), style=discord.ButtonStyle.primary)
    )


def _panel_view(sid: str, doc: dict[str, Any], state: State, seat: int) -> Components:
    """The private panel's controls: moves and end turn as buttons, the rest in one select."""
    lang = doc["lang"]
    view = Components()
    buttons, options = panel_controls(doc, state, seat)
    for label, value, enabled in buttons:
        row = 0 if value.startswith("move.") else 1
        view.add_item(tables.button(GAME, sid, "do", value, label=label, disabled=not enabled, row=row))
    # The other legal actions, then (referee mode) the enemy card picked from the pack, beside
    # typing its numbers: each a select of its own row when there is anything to pick.
    picks = (
        ("pick_act", options, "escape.ui.actions", 2),
        ("pick_enemy", enemy_options(doc, state, seat), "escape.ui.pick_enemy", 3),
    )
    for action, choices, placeholder, row in picks:
        if choices:
            entries = [(value, label) for label, value in choices]
            view.add_item(tables.select(GAME, sid, action, entries, placeholder=t(lang, placeholder), row=row))
    return view


def _trade_view(sid: str, arg: str, options: list[tuple[str, str]], placeholder: str) -> Components:
    """One pick of a trade offer: the select carries what was picked before in its id (`arg`:
    the rival, then the rival and the card given), so nothing waits in memory between picks."""
    return Components(
        tables.select(
            GAME, sid, "pick_trade", [(value, label) for label, value in options], placeholder=placeholder, arg=arg
        )
    )


# ---------------------------------------------------------------- the cog


class EscapeCog(commands.Cog, name="Escape"):
    escape = app_commands.Group(name="escape", description="Star World: Escape", guild_only=True)
    # A top-level group: only there does Discord honour default_member_permissions (hidden from members).
    escape_admin = app_commands.Group(
        name="escape-admin",
        description="Star World: Escape server setup (Manage Server)",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    rules = _doc.RULES  # the platform's table: 2-4 seats

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        # Output only: the panel refresher of each game, and the step each panel token shows.
        self._refreshers: dict[str, asyncio.Task[None]] = {}
        self._refresh_again: set[str] = set()
        self._shown: dict[str, dict[str, int]] = {}

    async def cog_load(self) -> None:
        """Nothing to rebuild: every click reads its session from the store.  Count the games a
        restart left running, for the log.  Their posts a crash left unsent go out through the
        platform's outbox (bot/platform/session_posts.py), drawn by `render`."""
        session_posts(self.bot).register("escape", self.render)
        try:
            running = await self.bot.storage.active_sessions("escape")
            log.info("Escape: %d games in progress resume on their next click", len(running))
        except Exception:
            log.exception("could not read the Escape games in progress")

    async def _lang(self, interaction: discord.Interaction, chosen: str | None) -> str:
        if chosen in LANGUAGES:
            return str(chosen)
        default = getattr(getattr(self.bot, "settings", None), "default_language", "en")
        try:
            return await server_language(self.bot.storage, interaction.guild_id, default)
        except Exception:
            return str(default)

    # -- slash commands --------------------------------------------------------------------------
    @escape.command(name="start", description="Open a game of Star World: Escape in this channel")
    @app_commands.describe(
        mode="digital: the station on Discord; referee: the bot referees the box on your table",
        difficulty="easy 20 hours, medium 15, hard 10",
        language="Language of this game",
        seed="Replay a deal: the same seed deals the same missions, station and dice",
        missions="Referee mode: your box's mission texts, separated by | (dealt secretly, one each)",
        enemy="Digital mode: who rolls for the station's enemies (the rulebook: the next player)",
    )
    @app_commands.choices(
        mode=_choices(_doc.MODES),
        difficulty=_choices(_doc.DIFFICULTIES),
        language=_choices(LANGUAGES),
        enemy=_choices(("next_player", "bot")),
    )
    async def start(
        self,
        interaction: discord.Interaction,
        mode: str,
        difficulty: str,
        language: str | None = None,
        seed: app_commands.Range[int, 0, 2**31 - 1] | None = None,
        missions: str | None = None,
        enemy: str | None = None,
    ) -> None:
        lang = await self._lang(interaction, language)
        if not await may_start(self.bot.storage, interaction, "escape.start", lang):
            return
        if mode not in _doc.MODES or difficulty not in _doc.DIFFICULTIES:
            await interaction.response.send_message(t(lang, "escape.ui.no_game"), ephemeral=True)
            return
        name = str(getattr(interaction.user, "display_name", None) or interaction.user)
        pack = await self.bot.storage.get_setting(interaction.guild_id or 0, PACK_SETTING)
        seed = secrets.randbelow(2**31) if seed is None else seed
        doc = _doc.new_document(lang, mode, difficulty, seed, interaction.user.id, name, pack)
        if mode == "referee":
            doc["mission_texts"] = _doc.mission_texts(missions)
        elif enemy in ("next_player", "bot"):
            doc["enemy"] = enemy
        try:
            session = await self.bot.storage.open_session(
                "escape", interaction.guild_id or 0, interaction.channel_id or 0, interaction.user.id, doc
            )
        except ChannelBusy:
            await interaction.response.send_message(
                t(lang, "escape.ui.busy"), ephemeral=True, allowed_mentions=no_mentions()
            )
            return
        await interaction.response.send_message(
            lobby_text(doc), view=tables.lobby_view(GAME, session.id, lang), allowed_mentions=no_mentions()
        )

    @escape.command(name="stop", description="End this channel's Escape game (the host or Manage Server)")
    async def stop(self, interaction: discord.Interaction) -> None:
        lang = await self._lang(interaction, None)
        found = await self.bot.storage.session_in_channel(interaction.channel_id or 0)
        if found is None or found.game != "escape":
            await interaction.response.send_message(t(lang, "escape.ui.no_game"), ephemeral=True)
            return
        lang = found.state.get("lang", lang)
        if not await guard(interaction, "escape.stop", lang, Seats.of(found.host_id, found.state["seats"])):
            return

        def abandon(s: Any) -> bool:
            if s.status not in ("lobby", "running"):
                return False
            s.status = "abandoned"
            s.state.pop("panels", None)  # the panels' tokens need not outlive the game
            if s.state.get("engine") is not None:
                s.stage(self._station_edit(s))  # its buttons go (drawn from the abandoned game)
            return True

        stopped = await self.bot.storage.change_session(found.id, abandon)
        try:
            await interaction.response.send_message(t(lang, "escape.ui.stopped"), allowed_mentions=no_mentions())
        finally:
            if stopped is not None:
                await self._deliver(stopped)

    @escape.command(name="board", description="This server's Escape record, or a member's career")
    @app_commands.describe(member="Show this member's games and wins too")
    async def board(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        lang = await self._lang(interaction, None)
        if not await guard(interaction, "escape.board", lang):
            return
        member_id = member.id if member is not None else None
        results = await self.bot.storage.session_results(
            game="escape", guild_id=interaction.guild_id or 0, user_id=member_id, limit=500
        )
        await interaction.response.send_message(board_text(lang, results, member_id), allowed_mentions=no_mentions())

    @escape_admin.command(name="pack", description="Load this server's Escape content pack (JSON; Manage Server)")
    async def pack(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        lang = await self._lang(interaction, None)
        if not await guard(interaction, "escape.pack", lang):  # Discord hides it; a stale client may not
            return
        data = b"" if file.size > MAX_PACK_BYTES else await file.read()
        loaded, answer = pack_answer(lang, data, file.filename, too_large=file.size > MAX_PACK_BYTES)
        if loaded is not None:
            await self.bot.storage.set_setting(interaction.guild_id or 0, PACK_SETTING, loaded.raw)
        await interaction.response.send_message(answer, ephemeral=True, allowed_mentions=no_mentions())

    @escape.command(name="schema", description="The JSON Schema of an Escape content pack")
    async def schema(self, interaction: discord.Interaction) -> None:
        text = resources.files("engine.escape").joinpath("data", "pack.schema.json").read_bytes()
        await interaction.response.send_message(
            t(await self._lang(interaction, None), "escape.ui.schema"),
            file=discord.File(io.BytesIO(text), filename="escape-pack.schema.json"),
            ephemeral=True,
        )

    # -- the platform's table (bot/platform/tables.py) calls these ------------------------------------
    def begin(self, session: GameSession) -> str | None:
        """The host's Begin: deal the game into the document (pure; the table's unit of work).
        A refusal of our own is returned worded (the table shows a game's own text as it is)."""
        why = _doc.begin(session.state)
        if why is None:  # the station post and the first ping commit with the deal (issue 25)
            doc = session.state
            session.stage(self._station_post(session), *self._ping(session, int(doc["actor"])))
        if why in tables.REFUSALS or why is None:
            return why
        return t(str(session.state["lang"]), f"escape.ui.refuse_{why}")

    async def on_lobby(self, interaction: discord.Interaction, session: GameSession, action: str) -> None:
        """A lobby press the table has applied: redraw the lobby, or post the station."""
        doc = session.state
        if action in ("join", "leave"):
            await interaction.response.edit_message(content=lobby_text(doc), allowed_mentions=no_mentions())
        elif action == "cancel":
            await interaction.response.edit_message(content=t(doc["lang"], "escape.ui.cancelled"), view=None)
        else:
            try:
                await interaction.response.edit_message(
                    content=lobby_text(doc), view=None, allowed_mentions=no_mentions()
                )
            finally:
                await self._deliver(session)  # the station post and the first ping `begin` staged
            await self._say(session, [turn_line(doc, int(doc["actor"]))])

    async def on_press(
        self, interaction: discord.Interaction, session: GameSession, action: str, arg: str, values: list[str]
    ) -> None:
        """A seated member's click (the table has checked `escape.<action>`): My panel, or a move
        from a panel (a button's `do` with the command in its id, or the select's value)."""
        lang = str(session.state["lang"])
        if session.status != "running":
            await interaction.response.send_message(t(lang, "escape.ui.not_started"), ephemeral=True)
            return
        if action == "panel":
            await self._send_panel(interaction, session)
            return
        if action == "pick_act" and values == [_doc.CHARACTER]:  # referee mode: my card's numbers
            await interaction.response.send_modal(NumbersModal(self, session.id, lang, None))
            return
        if action == "pick_act" and values and values[0].startswith(f"{TRADE}."):  # Trade with …
            await self._trade_pick(interaction, session, values[0][len(TRADE) + 1 :], None)
            return
        if action == "pick_trade":
            await self._trade_pick(interaction, session, arg, values[0] if values else "")
            return
        picked = action in ("pick_act", "pick_enemy")
        command = _doc.decode(values[0] if picked and values else arg)
        if command is None or action not in ("do", "pick_act", "pick_enemy"):
            await interaction.response.send_message(t(lang, "escape.reject.unknown_command"), ephemeral=True)
            return
        if command.kind in NUMBERED and not command.numbers:
            await interaction.response.send_modal(NumbersModal(self, session.id, lang, command))
            return
        await self.play(interaction, session.id, command)

    async def _trade_pick(
        self, interaction: discord.Interaction, session: GameSession, arg: str, value: str | None
    ) -> None:
        """A trade offer picked in steps on the offerer's panel (rules doc D26): the rival, then
        the card to give, then the card to ask for, which offers it (one command, `play`).  Each
        step redraws the panel in place with the next pick; the picks offered are only those some
        legal offer allows, and the engine checks the offer itself when it is made."""
        doc = session.state
        lang = str(doc["lang"])
        seat = _doc.seat_of(doc, interaction.user.id)
        try:
            parts = [int(x) for x in arg.split(".")]
            chosen = int(value) if value is not None else None
            state = _doc.state_of(doc)
        except (ValueError, SnapshotError):
            await interaction.response.send_message(t(lang, "escape.reject.unknown_command"), ephemeral=True)
            return
        if len(parts) == 2 and chosen is not None:  # the last pick: offer it
            command = Command("offer_trade", -1, target=parts[0], numbers=(parts[1], chosen))
            await self.play(interaction, session.id, command)
            return
        rival = parts[0]
        give = chosen if len(parts) == 1 else None
        options = trade_options(doc, state, seat, rival, give) if seat >= 0 and len(parts) == 1 else []
        if not options:  # out of turn, out of AP, a rival gone from the tile, a stale or forged pick
            await interaction.response.send_message(t(lang, "escape.ui.trade_none"), ephemeral=True)
            return
        name = _doc.name_of(doc, rival)
        if give is None:
            content = t(lang, "escape.ui.trade_give", name=name)
            view = _trade_view(session.id, str(rival), options, t(lang, "escape.ui.trade_pick_give"))
        else:
            given = dict((v, label) for label, v in trade_options(doc, state, seat, rival, None)).get(str(give))
            content = t(lang, "escape.ui.trade_ask", name=name, give=given or t(lang, "escape.ui.nothing"))
            view = _trade_view(session.id, f"{rival}.{give}", options, t(lang, "escape.ui.trade_pick_ask"))
        await interaction.response.edit_message(content=content, view=view, allowed_mentions=no_mentions())

    def _station_post(self, session: GameSession) -> dict[str, Any]:
        """The game's one public post (a named post: later steps edit it), drawn when it is sent."""
        text = station_text(session.state, _doc.state_of(session.state))
        marker = text.split("\n", 1)[0]  # its title line: how a successor finds it after a crash
        return post(session.channel_id, text, render="station", slot="station", marker=marker)

    def _station_edit(self, session: GameSession) -> dict[str, Any]:
        """An edit of the station post: this step's text, its buttons and picture drawn from the
        stored game when it is sent (of several pending edits only the newest goes: they coalesce)."""
        post_id = session.state.get("post_id")  # a game started before the outbox kept its post's id
        state = _doc.state_of(session.state)
        text = station_text(session.state, state)
        target = int(post_id) if post_id else None
        over = state.over or session.status != "running"  # the buttons go with this text, not a later one
        return edit(session.channel_id, message_id=target, slot="station", content=text, render="station", over=over)

    async def _deliver(self, session: GameSession | str) -> None:
        try:
            await session_posts(self.bot).deliver(session)
        except Exception:
            log.exception("Escape %s: its posts wait for the next delivery", getattr(session, "id", session))

    async def render(self, session: GameSession | None, payload: dict[str, Any]) -> dict[str, Any]:
        """What a staged post cannot carry as JSON: the station post (text, My panel, picture) and
        the ping's My panel button, from the stored game."""
        if session is None:
            return {}
        doc = session.state
        kind = payload.get("render")
        if kind == "ping":
            return {"view": _panel_button(session.id, doc["lang"])}
        if kind != "station" or doc.get("engine") is None:
            return {}
        state = _doc.state_of(doc)
        over = bool(payload.get("over", state.over or session.status != "running"))
        fields: dict[str, Any] = {}
        if payload.get("content") is None:
            fields["content"] = station_text(doc, state)
        if payload.get("op") == "send":
            if not over:
                fields["view"] = _panel_button(session.id, doc["lang"])
            fields.update(self._picture(doc, state))
        else:
            fields["view"] = None if over else _panel_button(session.id, doc["lang"])
            picture = self._picture(doc, state)
            if picture:
                fields["attachments"] = [picture["file"]]
        return fields

    def _picture(self, doc: dict[str, Any], state: State) -> dict[str, Any]:
        """The station picture (digital mode; the referee's board is on the table)."""
        if doc["mode"] != "digital":
            return {}
        png = station_png(doc["lang"], public_view(state))
        return {"file": discord.File(io.BytesIO(png), filename="station.png")}

    def _own_picture(self, doc: dict[str, Any], state: State, seat: int) -> dict[str, Any]:
        """The seat's own station (digital mode): the tiles it has seen, for its eyes only."""
        if doc["mode"] != "digital":
            return {}
        png = station_png(doc["lang"], player_view(state, seat))
        return {"file": discord.File(io.BytesIO(png), filename="my-station.png")}

    async def _send_panel(self, interaction: discord.Interaction, session: Any) -> None:
        doc = session.state
        seat = _doc.seat_of(doc, interaction.user.id)
        try:
            state = _doc.state_of(doc)
        except SnapshotError:
            await interaction.response.send_message(t(doc["lang"], "escape.ui.no_game"), ephemeral=True)
            return
        if seat < 0:  # the permission check seats the member first; a race with a leave
            await interaction.response.send_message(t(doc["lang"], "permissions.seated"), ephemeral=True)
            return
        await interaction.response.send_message(
            panel_text(doc, state, seat),
            view=_panel_view(session.id, doc, state, seat),
            ephemeral=True,
            allowed_mentions=no_mentions(),
            **self._own_picture(doc, state, seat),
        )
        token, now, shows = interaction.token, time.time(), int(doc.get("step", 0))

        def remember(s: GameSession) -> bool:
            _doc.remember_panel(s.state, seat, token, now, shows)
            return True

        await self.bot.storage.change_session(session.id, remember)

    async def set_character(self, interaction: discord.Interaction, sid: str, numbers: tuple[int, ...]) -> None:
        """Referee mode: a seat's own character card typed in (one unit of work), then its panel."""
        uid = interaction.user.id
        refused: list[str] = []

        def change(s: GameSession) -> bool:
            refused.clear()
            why = _doc.set_character(s.state, uid, numbers) if s.status == "running" else "game_over"
            if why is not None:
                refused.append(why)
            else:  # the modal's answer below is the seat's panel now
                _doc.remember_panel(s.state, _doc.seat_of(s.state, uid), interaction.token, time.time())
                s.stage(self._station_edit(s))
            return why is None

        session = await self.bot.storage.change_session(sid, change)
        lang = str(session.state["lang"]) if session is not None else "en"
        if session is None or refused:
            code = refused[0] if refused else "game_over"
            await interaction.response.send_message(t(lang, f"escape.reject.{code}"), ephemeral=True)
            return
        doc = session.state
        state = _doc.state_of(doc)
        seat = _doc.seat_of(doc, uid)
        await interaction.response.send_message(
            panel_text(doc, state, seat),
            view=_panel_view(sid, doc, state, seat),
            ephemeral=True,
            allowed_mentions=no_mentions(),
        )
        await self._deliver(session)

    async def play(
        self, interaction: discord.Interaction, sid: str, command: Command, *, from_modal: bool = False
    ) -> None:
        """One command of a seated member: applied in one unit of work, then the panel, the public
        post, the ping of whoever moves next, and the logbook when the game ends."""
        uid = interaction.user.id
        outcome: list[_doc.Step | str] = []

        def change(s: Any) -> bool:
            outcome.clear()
            if s.status != "running":
                outcome.append("game_over")
                return False
            step = _doc.act(s.state, uid, command)
            outcome.append(step)
            if isinstance(step, str):
                return False
            _doc.add_log(s.state, event_lines(s.state["lang"], s.state, step.events))
            _doc.count_step(s.state)  # every other open panel is out of date now
            _doc.remember_panel(s.state, _doc.seat_of(s.state, uid), interaction.token, time.time())
            if step.over:
                s.status = "finished"
                s.result = session_result(s.state, _doc.state_of(s.state))  # recorded with this change
            # The public half of the step commits with it (issue 25): the station post's edit, then
            # the result or the ping of whoever moves next.
            s.stage(self._station_edit(s))
            if step.over:
                s.stage(post(s.channel_id, result_text(s.state, _doc.state_of(s.state))))
            elif step.actor_after != step.actor_before or any(e.code == "turn_started" for e in step.events):
                offer_by = next((e.player for e in step.events if e.code == "trade_offered"), -1)
                s.stage(*self._ping(s, step.actor_after, offer_by=offer_by))
            return True

        session = await self.bot.storage.change_session(sid, change)
        step = outcome[0] if outcome else "game_over"
        lang = session.state["lang"] if session is not None else await self._lang(interaction, None)
        if isinstance(step, str) or session is None:
            code = step if isinstance(step, str) else "game_over"
            key = f"escape.reject.{code}" if code != "seated" else "permissions.seated"
            await interaction.response.send_message(t(lang, key), ephemeral=True, allowed_mentions=no_mentions())
            return
        doc = session.state
        state = _doc.state_of(doc)
        seat = _doc.seat_of(doc, uid)
        content = panel_text(doc, state, seat)
        view = None if state.over else _panel_view(sid, doc, state, seat)
        own = self._own_picture(doc, state, seat)
        try:
            if from_modal:
                await interaction.response.send_message(
                    content, view=view or discord.utils.MISSING, ephemeral=True, allowed_mentions=no_mentions(), **own
                )
            else:
                await interaction.response.edit_message(
                    content=content,
                    view=view,
                    allowed_mentions=no_mentions(),
                    attachments=[own["file"]] if own else discord.utils.MISSING,
                )
        finally:  # the step is committed: its public posts go out even when this answer failed (late)
            await self._deliver(session)
        spoken = spoken_lines(lang, doc, step.events)
        if not state.over and (
            step.actor_after != step.actor_before or any(e.code == "turn_started" for e in step.events)
        ):
            spoken.append(turn_line(doc, step.actor_after))
        await self._say(session, spoken)
        self._refresh_panels(sid)

    def _refresh_panels(self, sid: str) -> None:
        """Redraw the other seats' open panels after a step, in the background.  Coalesced per
        game: while one round of edits is on its way, later steps only ask for another round,
        which reads the newest document, so a panel never ends on an older state."""
        task = self._refreshers.get(sid)
        if task is not None and not task.done():
            self._refresh_again.add(sid)
            return
        self._refreshers[sid] = asyncio.create_task(self._send_panel_edits(sid))

    async def _send_panel_edits(self, sid: str) -> None:
        try:
            while True:
                self._refresh_again.discard(sid)
                await self.refresh_panels(sid)
                if sid not in self._refresh_again:
                    break
        except Exception:  # a panel is a convenience: the game goes on, My panel redraws it
            log.exception("Escape %s: refreshing the panels failed", sid)
        finally:
            self._refreshers.pop(sid, None)

    async def refresh_panels(self, sid: str) -> None:
        """Edit every seat's open panel drawn before the last step (through the token kept in the
        document); a token Discord no longer accepts, and every expired one, is dropped."""
        session = await self.bot.storage.load_session(sid)
        if session is None or session.state.get("engine") is None:
            return
        doc, now = session.state, time.time()
        state = _doc.state_of(doc)
        step = int(doc.get("step", 0))
        shown = self._shown.setdefault(sid, {})
        dead: set[str] = set()
        for seat, token in _doc.stale_panels(doc, now):
            if shown.get(token, -1) >= step:
                continue
            # The seat's own map is drawn again only when the move is now theirs: a waiting seat's
            # map changes little, and a picture per panel per step would cost more than the text.
            own = self._own_picture(doc, state, seat) if seat == actor(state) and not state.over else {}
            try:
                await self._edit_panel(
                    token,
                    content=panel_text(doc, state, seat),
                    view=None if state.over else _panel_view(sid, doc, state, seat),
                    attachments=[own["file"]] if own else discord.utils.MISSING,
                )
            except discord.HTTPException as exc:
                if exc.status in (401, 403, 404):  # expired token, or the panel was dismissed
                    dead.add(token)
                else:
                    log.info("Escape %s: panel of seat %d not refreshed: %s", sid, seat, exc)
                continue
            shown[token] = step
        tokens = {str(p["token"]) for p in (doc.get("panels") or {}).values()}
        self._shown[sid] = {k: v for k, v in shown.items() if k in tokens and k not in dead}
        if state.over:  # the panels show the end: no token need outlive the game in the store
            self._shown.pop(sid, None)
            dead |= tokens
        panels = (doc.get("panels") or {}).values()
        expired = any(now - float(p["at"]) >= _doc.PANEL_TOKEN_S for p in panels)
        if dead or expired:
            await self.bot.storage.change_session(sid, lambda s: _doc.forget_panels(s.state, dead, now))

    async def _edit_panel(self, token: str, **fields: Any) -> None:
        """Edit the ephemeral panel a token answered with (its interaction's original response)."""
        webhook = discord.Webhook.partial(int(self.bot.application_id), token, client=self.bot)
        await webhook.edit_message(cast(int, "@original"), allowed_mentions=no_mentions(), **fields)

    async def _say(self, session: GameSession, lines: list[str]) -> None:
        """The station's announcements (each hour, a general event, the reactor, the alarm, whose
        move it is), spoken by the platform's voice (`say_now`) in the voice channel of the first
        seated member found in one, the host first.  The same words are already in the station
        post and the ping, so when nobody sits in voice, or voice is unavailable or fails, the game
        simply stays in text: voice never stops or delays a step."""
        lines = [line for line in lines if line]
        voice = getattr(self.bot, "voice", None)
        if not lines or voice is None or not hasattr(voice, "say_now"):
            return
        channel_id = self._voice_channel_of(session)
        if channel_id is None:
            return
        try:
            why = await voice.say_now(session.guild_id, channel_id, lines, str(session.state["lang"]))
        except Exception:
            log.exception("Escape %s: announcing in voice failed", session.id)
            return
        if why is not None:
            log.info("Escape %s: announcements stay in text (%s)", session.id, why)

    def _voice_channel_of(self, session: GameSession) -> int | None:
        """Where the crew sits: the voice channel of the first seat found in one (seat order, so
        the host first); None when nobody is in voice."""
        get_guild = getattr(self.bot, "get_guild", None)
        guild = get_guild(session.guild_id) if callable(get_guild) else None
        if guild is None:
            return None
        for member_id in session.state["seats"]:
            member = guild.get_member(int(member_id))
            channel = getattr(getattr(member, "voice", None), "channel", None)
            if channel is not None:
                return int(channel.id)
        return None

    def _ping(self, session: GameSession, seat: int, *, offer_by: int = -1) -> list[dict[str, Any]]:
        """Name the one member whose move it is (the only ping the game sends), with their panel;
        a rival offered a trade is told so (who offers, never the cards: those are in the panel)."""
        doc = session.state
        if not 0 <= seat < len(doc["seats"]):
            return []
        member_id = int(doc["seats"][seat])
        mention = f"<@{member_id}>"
        if offer_by >= 0:
            text = t(doc["lang"], "escape.ui.trade_ping", mention=mention, name=_doc.name_of(doc, offer_by))
        else:
            text = t(doc["lang"], "escape.ui.ping", mention=mention)
        return [post(session.channel_id, text, mentions=[member_id], render="ping")]
