"""`/legion start|stop|board|schema`, `/legion-admin pack`: the lobby, the bridge post, the
private panel, pings and reminders, the voyage log, the result.

The voyage sits at the platform's table (bot/platform/tables.py): its seats, lobby (join, leave,
Start and cancel, the host's) and every component (`gm:legion:<sid>:<action>:<arg>`) are the
platform's; the table loads the session, checks `legion.<action>` and calls this cog's `begin`,
`on_lobby` and `on_press`.  No game is kept in memory: each move changes the stored document in
one unit of work (`storage.change_session`), so a restart in the middle of a tour resumes from what was stored and
a click from before the restart still works.  Private things (side, character, hand, the pool card
drawn) are only ever sent as ephemeral answers to their own member's "My hand" (and the side, once,
by DM when the member's DMs are open); the public bridge is one message edited after every step,
with a picture of its gauges; each step's public lines go to the voyage log thread; the member(s)
the voyage waits for get a ping that may mention only them, and another after five idle minutes;
the bridge's announcements (contact, hull damage, supplies exhausted, a new captain) and whose move
it is are spoken in the crew's voice channel through the platform's `say_now`.
The last change stores the result (`GameSession.result`) in the same unit of work; the reveal is
posted.  A server's own pack (Manage Server) rides in the lobby's document.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import secrets
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.legion import _play as play
from bot.games.legion._picture import bridge_png
from bot.platform import tables
from bot.platform.components import Components
from bot.platform.hosting.gate import may_start, serves
from bot.platform.hosting.server_settings import server_language
from bot.platform.i18n import t
from bot.platform.permissions import guard
from bot.platform.session_posts import edit, post, session_posts, split
from bot.platform.storage.base import ChannelBusy
from bot.platform.text import no_mentions
from engine.legion.pack import MAX_PACK_BYTES, PackRefusal, load_pack, pack_json_schema

if TYPE_CHECKING:
    from bot.platform.sessions import GameSession

log = logging.getLogger(__name__)

GAME = "legion"
LANGS = ("en", "ru", "cs", "sk")
MISSIONS = ("delivery", "destruction", "reconnaissance", "exploration")
LIVE = ("lobby", "running")
REMIND_AFTER_S = 300.0  # a member the voyage waits for is pinged again after 5 min (TIME_SCALE)
POLL_S = 30.0
PACK_SETTING = "legion_pack"  # the server's own pack, in its settings (None: ours)


def bridge_view(sid: str, lang: str) -> Components:
    return Components(
        tables.button(GAME, sid, "hand", label=t(lang, "legion.bridge.hand"), style=discord.ButtonStyle.primary)
    )


def panel_view(sid: str, lang: str, panel: play.Panel) -> Components:
    """The private panel: a button per plain move (`act`), the card select (`pick_card`) and the
    other moves' select (`pick_move`)."""
    view = Components()
    for index, (arg, key) in enumerate(panel.buttons[:10]):
        style = discord.ButtonStyle.danger if arg == "refuse" else discord.ButtonStyle.primary
        view.add_item(tables.button(GAME, sid, "act", arg, label=t(lang, key), style=style, row=index // 5))
    if panel.cards:
        view.add_item(tables.select(GAME, sid, "pick_card", panel.cards, placeholder=t(lang, "legion.panel.cards")))
    if panel.picks:
        view.add_item(tables.select(GAME, sid, "pick_move", panel.picks, placeholder=t(lang, "legion.panel.picks")))
    return view


def picture(doc: dict[str, Any], state: Any) -> discord.File:
    """The bridge's picture (public facts only) as an attachment that replaces the last one."""
    names = [str(doc["names"].get(str(user), "?")) for user in doc["seats"]]
    return discord.File(io.BytesIO(bridge_png(doc["lang"], names, state)), filename="bridge.png")


def lobby_text(doc: dict[str, Any]) -> str:
    """The lobby post: the game, its mission, and who sits at the table (the platform's line)."""
    lang = doc["lang"]
    mission = t(lang, f"legion.mission.{doc['mission']}") if doc["mission"] else t(lang, "legion.lobby.any_mission")
    return t(lang, "legion.lobby.text", mission=mission, seated=tables.lobby_line(doc, play.RULES))


class LegionCog(commands.Cog, name="Legion"):
    legion = app_commands.Group(
        name="legion", description="Scarlet Legion: a ship's crew with a traitor", guild_only=True
    )
    # A top-level group: only there does Discord honour default_member_permissions (hidden from
    # members without Manage Server); the handler checks again through the platform.
    legion_admin = app_commands.Group(
        name="legion-admin",
        description="Scarlet Legion server setup (Manage Server)",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.scale = float(getattr(getattr(bot, "settings", None), "time_scale", 1.0) or 1.0)
        self._reminders: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        session_posts(self.bot).register(GAME, self.render)
        self._reminders = asyncio.create_task(self._remind_loop())

    async def cog_unload(self) -> None:
        if self._reminders is not None:
            self._reminders.cancel()

    async def _remind_loop(self) -> None:
        """Every half minute, ping again whoever a voyage has waited on for five minutes.  Read
        from the store, so reminders go on after a restart; once per step (the document remembers
        the version it reminded at)."""
        while True:
            await asyncio.sleep(max(0.5, POLL_S / self.scale))
            try:
                await self.remind_slow(datetime.now(UTC))
            except Exception:
                log.exception("Scarlet Legion reminders failed; trying again")

    async def remind_slow(self, now: datetime) -> int:
        """Ping the slow members of every running voyage this process serves; how many were pinged."""
        pinged = 0
        for session in await self.bot.storage.active_sessions(GAME):
            if session.status != "running" or not serves(self.bot, session.guild_id):
                continue
            try:
                idle = (now - datetime.fromisoformat(session.updated_at)).total_seconds()
            except ValueError:
                continue
            if idle < REMIND_AFTER_S / self.scale or session.state.get("reminded") == session.version:
                continue
            seen = session.version

            def mark(s: GameSession, seen: int = seen) -> bool:
                if s.version != seen or s.status != "running":
                    return False  # someone moved meanwhile: no reminder needed
                s.state["reminded"] = seen + 1  # the version this write gives the document
                s.stage(*self._ping(s, play.load(s.state, play.content_of(s.state)), reminder=True))
                return True

            stored = await self.bot.storage.change_session(session.id, mark)
            if stored is None or stored.version == seen:
                continue
            await self._deliver(stored)
            pinged += 1
        return pinged

    async def _server_lang(self, guild_id: int | None) -> str:
        default = str(getattr(getattr(self.bot, "settings", None), "default_language", "en"))
        try:
            return await server_language(self.bot.storage, guild_id, default)
        except Exception:  # a settings read never stops an answer
            return default

    # -- commands -------------------------------------------------------------------------------------
    @legion.command(name="start", description="Open a Scarlet Legion lobby in this channel (3-4 players)")
    @app_commands.describe(mission="Leave empty to draw one", language="The voyage's language", seed="Dice seed")
    @app_commands.choices(
        mission=[app_commands.Choice(name=m, value=m) for m in MISSIONS],
        language=[app_commands.Choice(name=code, value=code) for code in LANGS],
    )
    async def start(
        self,
        interaction: discord.Interaction,
        mission: str | None = None,
        language: str | None = None,
        seed: app_commands.Range[int, 0, 2**31 - 1] | None = None,
    ) -> None:
        server_lang = await self._server_lang(interaction.guild_id)
        if not await may_start(self.bot.storage, interaction, "legion.start", server_lang):
            return
        lang = language if language in LANGS else server_lang
        name = getattr(interaction.user, "display_name", None) or str(interaction.user)
        pack = await self.bot.storage.get_setting(interaction.guild_id or 0, PACK_SETTING)
        doc = play.new_lobby(
            interaction.user.id,
            name,
            lang,
            seed if seed is not None else secrets.randbelow(2**31),
            mission,
            pack if isinstance(pack, dict) else None,
        )
        try:
            session = await self.bot.storage.open_session(
                GAME, interaction.guild_id or 0, interaction.channel_id or 0, interaction.user.id, doc
            )
        except ChannelBusy:
            await interaction.response.send_message(t(lang, "legion.busy"), ephemeral=True)
            return
        await interaction.response.send_message(
            lobby_text(doc), view=tables.lobby_view(GAME, session.id, lang), allowed_mentions=no_mentions()
        )
        message = await interaction.original_response()

        def remember(s: GameSession) -> bool:
            s.state["bridge"] = message.id
            return True

        await self.bot.storage.change_session(session.id, remember)

    @legion.command(name="stop", description="Abandon this channel's Scarlet Legion voyage (its host)")
    async def stop(self, interaction: discord.Interaction) -> None:
        session = await self.bot.storage.session_in_channel(interaction.channel_id or 0)
        lang = await self._server_lang(interaction.guild_id)
        if session is None or session.game != GAME:
            await interaction.response.send_message(t(lang, "legion.no_game"), ephemeral=True)
            return
        lang = session.state.get("lang", lang)
        if not await guard(interaction, "legion.stop", lang, tables.seats_of(session)):
            return

        def abandon(s: GameSession) -> bool:
            if s.status not in LIVE:
                return False
            s.status = "abandoned"
            s.stage(*self._bridge(s))  # drawn from the stored session: "stopped", no buttons
            return True

        stored = await self.bot.storage.change_session(session.id, abandon)
        try:
            await interaction.response.send_message(t(lang, "legion.stopped"), allowed_mentions=no_mentions())
        finally:
            if stored is not None:
                await self._deliver(stored)

    @legion.command(name="board", description="Scarlet Legion records: crew and Legion wins per mission")
    async def board(self, interaction: discord.Interaction) -> None:
        """The server's voyages from the platform's results: wins per side and mission, and how
        many of the caller's voyages they sailed as the Legion's agent."""
        lang = await self._server_lang(interaction.guild_id)
        results = await self.bot.storage.session_results(game=GAME, guild_id=interaction.guild_id or 0, limit=1000)
        if not results:
            await interaction.response.send_message(t(lang, "legion.board.empty"), ephemeral=True)
            return
        lines = [t(lang, "legion.board.title", games=len(results))]
        for mission in MISSIONS:
            played = [r for r in results if r.details.get("mission") == mission]
            if played:
                crew = sum(r.outcome == "crew" for r in played)
                lines.append(
                    t(
                        lang,
                        "legion.board.mission",
                        mission=t(lang, f"legion.mission.{mission}"),
                        crew=crew,
                        legion=len(played) - crew,
                    )
                )
        mine = [p for r in results for p in r.players if p.get("user_id") == interaction.user.id]
        if mine:
            agent = sum(p.get("role") == "legion" for p in mine)
            lines.append(
                t(
                    lang,
                    "legion.board.career",
                    voyages=len(mine),
                    agent=agent,
                    won=sum(bool(p.get("won")) for p in mine),
                )
            )
        await interaction.response.send_message("\n".join(lines), allowed_mentions=no_mentions())

    @legion_admin.command(name="pack", description="Load this server's Scarlet Legion pack (JSON; Manage Server)")
    @app_commands.describe(file="A pack as /legion schema describes it; leave empty to go back to ours")
    async def pack(self, interaction: discord.Interaction, file: discord.Attachment | None = None) -> None:
        lang = await self._server_lang(interaction.guild_id)
        if not await guard(interaction, "legion.pack", lang):
            return
        guild_id = interaction.guild_id or 0
        if file is None:
            await self.bot.storage.set_setting(guild_id, PACK_SETTING, None)
            await interaction.response.send_message(t(lang, "legion.pack.reset"), ephemeral=True)
            return
        loaded = load_pack(await file.read()) if file.size <= MAX_PACK_BYTES else PackRefusal("too_large")
        if isinstance(loaded, PackRefusal):
            why = play.pack_refusal(lang, loaded)
            await interaction.response.send_message(t(lang, "legion.pack.not_loaded", why=why), ephemeral=True)
            return
        await self.bot.storage.set_setting(guild_id, PACK_SETTING, loaded.pack.model_dump(mode="json"))
        counts = {"flights": len(loaded.pack.flights), "events": len(loaded.pack.events)}
        await interaction.response.send_message(t(lang, "legion.pack.loaded", **counts), ephemeral=True)

    @legion.command(name="schema", description="The JSON schema of a Scarlet Legion pack")
    async def schema(self, interaction: discord.Interaction) -> None:
        data = json.dumps(pack_json_schema(), indent=2).encode()
        await interaction.response.send_message(
            t(await self._server_lang(interaction.guild_id), "legion.pack.schema_file"),
            file=discord.File(io.BytesIO(data), filename="legion-pack.schema.json"),
            ephemeral=True,
        )

    # -- the platform's table (bot/platform/tables.py) calls these ------------------------------------
    rules = play.RULES

    def begin(self, session: GameSession) -> str | None:
        """The host's Start: deal the voyage into the document (pure; inside the table's unit of
        work).  A refusal of our own is returned worded (the table shows a game's text as it is)."""
        why = play.begin(session.state, play.content_of(session.state))
        if why is None:  # the first ping commits with the deal (sent by `on_lobby`, or a successor)
            session.stage(*self._ping(session, play.load(session.state, play.content_of(session.state))))
        return None if why is None else t(str(session.state["lang"]), f"legion.lobby.{why}")

    async def on_lobby(self, interaction: discord.Interaction, session: GameSession, action: str) -> None:
        """A lobby press the table has applied: redraw the lobby; on cancel say so; on begin turn
        the lobby post into the bridge, open the voyage log thread, ping and deal privately."""
        doc = session.state
        lang = doc["lang"]
        if action == "cancel":
            await interaction.response.edit_message(
                content=t(lang, "legion.stopped"), view=None, allowed_mentions=no_mentions()
            )
            return
        if action != "begin":
            await interaction.response.edit_message(
                content=lobby_text(doc), view=tables.lobby_view(GAME, session.id, lang), allowed_mentions=no_mentions()
            )
            return
        state = play.load(doc, play.content_of(doc))
        await interaction.response.edit_message(
            content=play.bridge_text(doc, state),
            view=bridge_view(session.id, lang),
            attachments=[picture(doc, state)],
            allowed_mentions=no_mentions(),
        )
        thread_id = 0
        with contextlib.suppress(discord.HTTPException, AttributeError, ValueError, TypeError):
            message = interaction.message
            if message is not None:
                thread = await message.create_thread(name=t(lang, "legion.thread"))
                thread_id = thread.id

        def remember(s: GameSession) -> bool:
            s.state["thread"] = thread_id
            s.stage(*self._log(s, [t(lang, "legion.log.start"), *s.state["last"]]))
            return True

        stored = await self.bot.storage.change_session(session.id, remember) or session
        await self._deliver(stored)  # the ping the deal staged, then the log's first lines
        await self._say(stored, [play.turn_line(doc, state)])
        await self._deal_privately(stored, state)

    async def on_press(
        self, interaction: discord.Interaction, session: GameSession, action: str, arg: str, values: list[str]
    ) -> None:
        """A seated member's click (the table has loaded the session and checked
        `legion.<action>`): My hand, or a choice of the private panel."""
        if action == "hand":
            await self._hand(interaction, session)
        else:
            await self._act(interaction, session, action, arg, values[0] if values else "")

    async def _deal_privately(self, session: GameSession, state: Any) -> None:
        """Each member's side and character by DM, as the seed's face-down side card.  Optional:
        a member whose DMs are closed reads the same on the bridge's My hand (never in public)."""
        doc = session.state
        lang = doc["lang"]
        for index, user_id in enumerate(doc["seats"]):
            seat = state.seats[index]
            text = t(
                lang,
                "legion.dm.side",
                side=t(lang, f"legion.side.{seat.side}"),
                character=play.character_name(lang, seat.character),
            )
            try:
                user = self.bot.get_user(user_id) or await self.bot.fetch_user(user_id)
                await user.send(text, allowed_mentions=no_mentions())
            except discord.HTTPException as exc:  # closed DMs (50007): My hand still shows it
                log.info("voyage %s: no DM to member %s (%s); My hand shows the side", session.id, user_id, exc)

    async def _hand(self, interaction: discord.Interaction, session: GameSession) -> None:
        doc = session.state
        lang = doc["lang"]
        seat = tables.seat_of(doc, interaction.user.id)
        if session.status != "running" or seat is None:
            await interaction.response.send_message(t(lang, "legion.not_started"), ephemeral=True)
            return
        state = play.load(doc, play.content_of(doc))
        await interaction.response.send_message(
            play.panel_text(doc, state, seat),
            view=panel_view(session.id, lang, play.panel(doc, state, seat)),
            ephemeral=True,
            allowed_mentions=no_mentions(),
        )

    async def _act(
        self, interaction: discord.Interaction, session: GameSession, action: str, arg: str, value: str
    ) -> None:
        doc = session.state
        lang = doc["lang"]
        seat = tables.seat_of(doc, interaction.user.id)
        if session.status != "running" or seat is None:
            await interaction.response.send_message(t(lang, "legion.not_started"), ephemeral=True)
            return
        command = play.command_of(seat, action, arg, value)
        if command is None:
            await interaction.response.send_message(t(lang, "legion.reject.wrong_phase"), ephemeral=True)
            return
        if action == "pick_move" and play.needs_card(play.load(doc, play.content_of(doc)), seat, value):
            state = play.load(doc, play.content_of(doc))  # the move is paid with a card: choose it next
            hand = sorted(set(state.seats[seat].hand))
            choices = [(card, play.event_name(lang, card)) for card in hand]
            view = Components(
                tables.select(GAME, session.id, "pick_pay", choices, placeholder=t(lang, "legion.panel.pay"), arg=value)
            )
            await interaction.response.edit_message(
                content=play.panel_text(doc, state, seat) + "\n" + t(lang, "legion.panel.pay"), view=view
            )
            return
        outcome: list[play.Outcome] = []
        pinged: list[list[int]] = []

        def change(s: GameSession) -> bool:
            outcome.clear()
            pinged.clear()
            if s.status != "running":
                outcome.append(play.Outcome(refused="game_over"))
                return False
            result = play.act(s.state, play.content_of(s.state), command)
            outcome.append(result)
            if result.refused is not None:
                return False
            state = play.load(s.state, play.content_of(s.state))
            waiting = play.waiting_for(state)
            if waiting != s.state.get("pinged"):
                s.state["pinged"] = waiting
                pinged.append(waiting)
            if result.over:
                s.status = "finished"
                s.result = play.session_result(s.state, state)  # recorded in the same unit of work
            # The public half of the step commits with it (issue 25): the bridge, the log, then
            # the reveal or the next ping; sent after the commit, or by a successor after a crash.
            s.stage(*self._bridge(s), *self._log(s, result.lines))
            if result.over:
                s.stage(*self._reveal(s, state))
            elif pinged:
                s.stage(*self._ping(s, state))
            return True

        stored = await self.bot.storage.change_session(session.id, change)
        result = outcome[0] if outcome else play.Outcome(refused="game_over")
        if result.refused is not None or stored is None:
            await interaction.response.send_message(t(lang, f"legion.reject.{result.refused}"), ephemeral=True)
            return
        doc = stored.state
        state = play.load(doc, play.content_of(doc))
        try:
            await interaction.response.edit_message(
                content=play.panel_text(doc, state, seat),
                view=panel_view(stored.id, lang, play.panel(doc, state, seat)),
                allowed_mentions=no_mentions(),
            )
        finally:  # the step is committed: its public posts go out even when this answer failed (late)
            await self._deliver(stored)
        await self._say(stored, [*result.spoken, *([play.turn_line(doc, state)] if pinged else [])])

    # -- posting (staged with the change, sent by the platform: bot/platform/session_posts.py) --------
    async def _deliver(self, session: GameSession | str) -> None:
        """Send what the committed change staged (a failure leaves it to the platform's sweep)."""
        try:
            await session_posts(self.bot).deliver(session)
        except Exception:
            log.exception("voyage %s: its posts wait for the next delivery", getattr(session, "id", session))

    async def render(self, session: GameSession | None, payload: dict[str, Any]) -> dict[str, Any]:
        """What a staged post cannot carry as JSON, drawn from the stored session when it is sent:
        the bridge (its text, My hand, its picture; "stopped" once abandoned)."""
        if payload.get("render") != "bridge" or session is None:
            return {}
        doc = session.state
        lang = doc["lang"]
        if session.status == "abandoned":
            return {"content": t(lang, "legion.stopped"), "view": None}
        state = play.load(doc, play.content_of(doc))
        over = bool(payload.get("over", session.status != "running"))  # as when its text was staged
        fields: dict[str, Any] = {
            "view": None if over else bridge_view(session.id, lang),
            "attachments": [picture(doc, state)],
        }
        if payload.get("content") is None:
            fields["content"] = play.bridge_text(doc, state)
        return fields

    def _bridge(self, session: GameSession) -> list[dict[str, Any]]:
        """An edit of the bridge (the lobby post): this step's text, its buttons and picture drawn
        at send time from the stored voyage; of several pending edits only the newest goes."""
        bridge = session.state.get("bridge") or 0
        if not bridge:
            return []
        doc = session.state
        text = None if session.status == "abandoned" else play.bridge_text(doc, play.load(doc, play.content_of(doc)))
        over = session.status != "running"
        return [edit(session.channel_id, message_id=int(bridge), content=text, render="bridge", over=over)]

    def _log(self, session: GameSession, lines: list[str]) -> list[dict[str, Any]]:
        """The voyage log thread (else the channel) gets each step's public lines."""
        if not lines:
            return []
        target = int(session.state.get("thread") or session.channel_id)
        return [post(target, part) for part in split("\n".join(lines))]

    def _ping(self, session: GameSession, state: Any, *, reminder: bool = False) -> list[dict[str, Any]]:
        """Name whose move it is; the message may mention only those members."""
        doc = session.state
        users = [int(doc["seats"][s]) for s in play.waiting_for(state)]
        if not users:
            return []
        lang = doc["lang"]
        text = t(
            lang,
            "legion.remind" if reminder else "legion.ping",
            who=" ".join(f"<@{u}>" for u in users),
            what=t(lang, f"legion.phase.{state.phase}"),
        )
        return [post(session.channel_id, text, mentions=users)]

    def _reveal(self, session: GameSession, state: Any) -> list[dict[str, Any]]:
        """The reveal, posted publicly (the result row is stored with the same change)."""
        return [post(session.channel_id, "\n".join(play.reveal_lines(session.state, state)))]

    async def _say(self, session: GameSession, lines: list[str]) -> None:
        """The bridge's announcements, spoken by the platform's voice (`say_now`) in the voice
        channel where the crew sits (the first seat found in one, host first); in text only when
        no one is in voice or voice is unavailable (the log and pings already carry the words)."""
        lines = [line for line in lines if line]
        voice = getattr(self.bot, "voice", None)
        if not lines or voice is None or not hasattr(voice, "say_now"):
            return
        channel_id = self._crew_voice_channel(session)
        if channel_id is None:
            return
        try:
            why = await voice.say_now(session.guild_id, channel_id, lines, session.state["lang"])
        except Exception:  # voice never stops a voyage
            log.exception("voyage %s: announcing in voice failed", session.id)
            return
        if why is not None:
            log.info("voyage %s: announcements stay in text (%s)", session.id, why)

    def _crew_voice_channel(self, session: GameSession) -> int | None:
        guild = self.bot.get_guild(session.guild_id) if hasattr(self.bot, "get_guild") else None
        if guild is None:
            return None
        for member_id in session.state["seats"]:
            member = guild.get_member(member_id)
            channel = getattr(getattr(member, "voice", None), "channel", None)
            if channel is not None:
                return int(channel.id)
        return None
