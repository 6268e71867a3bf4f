"""`/elite start|roll|pack|schema|stop`: the Project: ELITE director in a channel.

One game per channel.  `/elite start` is the wizard (map, mission, difficulty, players as options,
then a hero picker); the director then posts the setup and ONE status message, which it edits
after every step; its buttons drive the round (Next, Start, Pause/Resume, -15 s, +15 s, Peek,
Reveal, Victory, Defeat, Stop).  The Action Phase timer runs in a task that sleeps until the next
call (never more than `TICK_S`, so a time change is honoured at once) and polls it; the spoken
calls are planned ahead in the voice source on the timer's clock (_voicelink.py), so they are
heard on their instant whatever the event loop is doing.  Refusals are engine codes worded by
_i18n.py in the game's language.

Who may press what is declared once (bot/games/elite/__init__.py, checked by bot/platform/permissions.py
before a handler runs): the director's controls and `/elite roll` are the host's (or Manage
Server's); `/elite start` follows the server's starters role and channels; the data pack is
uploaded with `/elite-admin pack`, a top-level group Discord hides from members without Manage
Server (a subcommand cannot carry that), and checked in code too.

Storage (bot/games/elite/storage.py, both backends): a game in progress is a platform game session
(bot/platform/sessions.py), its document bot/games/elite/_document.py's (the engine's snapshot and
the bot's fields).  One game of any kind per channel is held by the store (a second `/elite start`
is refused, never replaces the running game).  Every step is one unit of work (`change`): load the
session, restore the game, apply the step, save with a version check, retry on a newer version;
this process's copy is then what was saved, so simultaneous presses are all kept and nothing
acknowledged is lost.  The step that ends a game ends its session and writes its logbook row
(`game = "elite"`, counted for `/elite board`) in the same transaction; a server's data pack is
kept by `EliteStore.save_pack`.  The Action Phase timer runs only in the process holding the
game's clock lease (bot/platform/cluster.py).  A resumed game rejoins the voice channel it spoke in
(stored in the document), or posts why not with a host-only "Rejoin voice" button (custom id
`elite:voice:<channel>`).

A double click is one press: the buttons that move the game on (Next, Start, Pause/Resume,
Victory, Defeat, Stop; `GUARDED`) carry in their custom id how many moves the game had made when
the status message was drawn (`elite:<action>:<channel>:<moves>`, _document.py's `moves`).  The
press is checked against the stored count inside its unit of work: a second press of the same
button (or any press from a status message that has since moved on) is refused with "already
done" instead of moving the game on twice.  Every edit of the status message (the click's answer,
`_refresh` after a peek, a reveal, a timer call, a restart) draws the buttons afresh.  Ids without
the count (messages posted before it existed, the Rejoin voice button, ±15 s, Peek, Reveal) act
on the game as it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.elite._document import (
    DOC_VERSION,
    RESTART,
    GameDoc,
    apply,
    count_move,
    migrate,
    new_state,
    pause_for_restart,
    restore,
    roll_args,
    timer_running,
    write,
)
from bot.games.elite._document import moves as stored_moves
from bot.games.elite._document import record as record_step
from bot.games.elite._i18n import error_text, text, ui
from bot.games.elite._session import Session
from bot.games.elite._voicelink import VoiceLink
from bot.games.elite.storage import FINISHED, PACK, EliteGameRecord, EliteStore
from bot.platform import components
from bot.platform.components import Components, handles
from bot.platform.hosting.gate import may_start, serves
from bot.platform.hosting.server_settings import server_language
from bot.platform.i18n import t
from bot.platform.locks import FlightLocks
from bot.platform.permissions import Seats, guard
from bot.platform.session_posts import edit, post, session_posts
from bot.platform.storage.base import ChannelBusy
from bot.platform.text import user_text
from engine.elite.datapack import DataPack, PackError, load_pack, pack_json_schema
from engine.elite.errors import EliteError
from engine.elite.game import EliteGame, GameError
from engine.elite.logbook import Leaderboard
from engine.elite.setup import EliteConfig
from engine.elite.vocab import (
    BOSSES,
    DEFEAT_CAUSES,
    ELITE_DIFFICULTIES,
    HEROES,
    MAP_SIDES,
    MISSIONS,
    SWARM_TYPES,
    DefeatCause,
    HeroId,
)
from engine.vocab import LANGUAGES, Language, is_language

if TYPE_CHECKING:
    from bot.platform.client import SpaceAlertBot

log = logging.getLogger(__name__)

TICK_S = 0.25
NO_PINGS = discord.AllowedMentions.none()
MAX_PACK_BYTES = 256_000


# Status-message button -> its declared action (bot/games/elite/__init__.py); "start" is the timer's
BUTTON_ACTIONS = {
    "next": "next",
    "start": "timer",
    "pause": "pause",
    "minus": "minus",
    "plus": "plus",
    "peek": "peek",
    "reveal": "reveal",
    "victory": "victory",
    "defeat": "defeat",
    "stop": "stop",
    "voice": "voice",
}
# The buttons that move the game on: their ids carry the game's move count, checked at the press,
# so a double click (or a press from an outdated status message) does not move the game on twice.
GUARDED = frozenset({"next", "start", "pause", "victory", "defeat", "stop"})


def _choices(values: tuple[str, ...]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=v.replace("_", " "), value=v) for v in values]


def ended(session: Session) -> bool:
    """Is the session's game over?  (A function: the game is replaced by each stored step, so a
    phase read before the step says nothing about the one after it.)"""
    return session.game.phase == "over"


class UnreadableGame(Exception):
    """A stored game's document cannot be restored (corrupt, or of a version nobody migrates):
    a restart ends it rather than failing on it at every start."""


class AlreadyDone(Exception):
    """A press made from a status message that has since moved on (the second press of a double
    click): the game is not moved on again, and the player hears it was already done."""


class NotStored(Exception):
    """A step could not be stored (the database failed): it did not happen, and the player is
    asked to press again, rather than shown a change a restart would lose."""


class InRangeError(ValueError):
    """What was typed for "heroes in range" does not parse: a locale key (`elite.in_range.*`)
    and its values, worded in the game's language by the handler."""

    def __init__(self, key: str, **values: str) -> None:
        super().__init__(key)
        self.key, self.values = key, values


def parse_in_range(raw: str) -> dict[HeroId, int]:
    """ "akosha 2, gerid 1" -> {"akosha": 2, "gerid": 1}; a bare name counts one alien."""
    out: dict[HeroId, int] = {}
    for part in raw.replace(";", ",").split(","):
        words = part.split()
        if not words:
            continue
        name = words[0].lower()
        hero = next((h for h in HEROES if h == name), None)
        if hero is None:
            raise InRangeError("unknown_hero", name=user_text(words[0], 40), heroes=", ".join(HEROES))
        try:
            count = int(words[1]) if len(words) > 1 else 1
        except ValueError:
            raise InRangeError("count") from None
        if not 0 <= count <= 15:
            raise InRangeError("count")
        out[hero] = count
    if not out:
        raise InRangeError("none")
    return out


class HeroPicker(discord.ui.View):
    """The wizard's last step: pick exactly as many heroes as the game needs."""

    def __init__(self, cog: EliteCog, fields: dict[str, Any], count: int, lang: Language) -> None:
        super().__init__(timeout=300)
        self.cog, self.fields, self.lang = cog, fields, lang
        select: discord.ui.Select[HeroPicker] = discord.ui.Select(
            placeholder=ui(lang, "heroes_placeholder", count=count),
            min_values=count,
            max_values=count,
            options=[discord.SelectOption(label=text(lang, f"hero.{h}"), value=h) for h in HEROES],
        )
        select.callback = self._picked  # type: ignore[method-assign]
        self.select = select
        self.add_item(select)

    async def _picked(self, interaction: discord.Interaction) -> None:
        config = EliteConfig.model_validate({**self.fields, "heroes": tuple(self.select.values)})
        await self.cog.begin(interaction, config, self.lang)


# The Pause button's step: pause a running timer, resume a paused one (resolved in `act`).
TOGGLE = "pause_or_resume"


class ControlView(Components):
    """The status message's buttons; each one is a step of the director.  `moves`: the game's
    move count as drawn, carried by the ids of the buttons that move the game on (`GUARDED`)."""

    def __init__(self, cog: EliteCog, channel_id: int, lang: Language, moves: int = 0) -> None:
        super().__init__(timeout=None)
        self.cog, self.channel_id = cog, channel_id
        buttons: list[tuple[str, str, discord.ButtonStyle, int]] = [
            ("next", text(lang, "ui.next"), discord.ButtonStyle.primary, 0),
            ("start", text(lang, "ui.start"), discord.ButtonStyle.success, 0),
            ("pause", text(lang, "ui.pause"), discord.ButtonStyle.secondary, 0),
            ("minus", "−15 s", discord.ButtonStyle.secondary, 0),
            ("plus", "+15 s", discord.ButtonStyle.secondary, 0),
            ("peek", text(lang, "ui.peek"), discord.ButtonStyle.secondary, 1),
            ("reveal", text(lang, "ui.reveal"), discord.ButtonStyle.secondary, 1),
            ("victory", text(lang, "ui.victory"), discord.ButtonStyle.success, 1),
            ("defeat", text(lang, "ui.defeat"), discord.ButtonStyle.danger, 1),
            ("stop", text(lang, "ui.stop"), discord.ButtonStyle.danger, 1),
            ("voice", ui(lang, "voice.rejoin"), discord.ButtonStyle.secondary, 2),  # the host's, any time
        ]
        for action, label, style, row in buttons:
            move = moves if action in GUARDED else None
            self.add_item(EliteButton(action, channel_id, move, label=label, style=style, row=row))


KIND = components.register(
    "elite",
    {"action": "[a-z]+", "channel": r"\d{1,21}", "move": r"\d{1,9}"},
    summary="the ELITE status message's controls (those that move the game on name its move count)"
    " and the Rejoin voice button",
    example=("next", "123456789012345678", "7"),
    optional=("move",),  # ids sent before the count existed act on the game as it is
)


@handles(KIND)
class EliteButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=KIND.pattern()):
    """A status-message button, routed by its custom id, so a click is answered even after a restart."""

    def __init__(self, action: str, channel_id: int, move: int | None = None, **button: Any) -> None:
        parts = (action, channel_id) if move is None else (action, channel_id, move)
        super().__init__(discord.ui.Button(custom_id=KIND.make(*parts), **button))
        self.action, self.channel_id, self.move = action, channel_id, move

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> EliteButton:
        move = int(match["move"]) if match["move"] is not None else None
        return cls(match["action"], int(match["channel"]), move, label=getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("ELITE") if isinstance(interaction.client, commands.Bot) else None
        if not isinstance(cog, EliteCog):
            lang = getattr(getattr(interaction.client, "settings", None), "default_language", "en")
            await interaction.response.send_message(ui(lang, "not_loaded"), ephemeral=True)
            return
        await cog.on_button(interaction, self.channel_id, self.action, self.move)


class CellPicker(discord.ui.View):
    """Ephemeral: which Exploration token to peek at or reveal."""

    def __init__(self, cog: EliteCog, channel_id: int, action: str, cells: list[int], lang: Language) -> None:
        super().__init__(timeout=120)
        self.cog, self.channel_id, self.action = cog, channel_id, action
        options = [discord.SelectOption(label=text(lang, "ui.cell", cell=c), value=str(c)) for c in cells]
        select: discord.ui.Select[CellPicker] = discord.ui.Select(
            placeholder=text(lang, "ui.which_token"), options=options
        )
        select.callback = self._picked  # type: ignore[method-assign]
        self.select = select
        self.add_item(select)

    async def _picked(self, interaction: discord.Interaction) -> None:
        await self.cog.on_cell(interaction, self.channel_id, self.action, int(self.select.values[0]))


class CausePicker(discord.ui.View):
    """Ephemeral: the cause of a defeat.  `move`: the move count the Defeat press was made at (the
    defeat is refused if the game moved on meanwhile; None: the game as it is)."""

    def __init__(self, cog: EliteCog, channel_id: int, lang: Language, move: int | None = None) -> None:
        super().__init__(timeout=120)
        self.cog, self.channel_id, self.move = cog, channel_id, move
        select: discord.ui.Select[CausePicker] = discord.ui.Select(
            placeholder=ui(lang, "cause_placeholder"),
            options=[discord.SelectOption(label=text(lang, f"cause.{c}")[:100], value=c) for c in DEFEAT_CAUSES],
        )
        select.callback = self._picked  # type: ignore[method-assign]
        self.select = select
        self.add_item(select)

    async def _picked(self, interaction: discord.Interaction) -> None:
        cause = next(c for c in DEFEAT_CAUSES if c == self.select.values[0])
        await self.cog.on_defeat(interaction, self.channel_id, cause, self.move)


class EliteCog(commands.Cog, name="ELITE"):
    elite = app_commands.Group(name="elite", description="Project: ELITE director", guild_only=True)
    # Admin commands in a top-level group: only a top-level command or group carries
    # default_member_permissions (Discord ignores it on a subcommand), so Discord hides these.
    elite_admin = app_commands.Group(
        name="elite-admin",
        description="Project: ELITE server setup (Manage Server)",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, bot: SpaceAlertBot | Any) -> None:
        self.bot = bot
        # The last stored state of each game in this process: what the status, the voice and the
        # timer task read.  Never changed in place by a step: each step changes the stored
        # document (`change`) and this copy is then replaced by what was saved.
        self.sessions: dict[int, Session] = {}
        self.docs: dict[int, GameDoc] = {}
        self.status_messages: dict[int, discord.Message] = {}
        self.voice = VoiceLink(self)
        self.tasks: dict[int, asyncio.Task[None]] = {}
        self.packs: dict[int, DataPack] = {}  # each server's data pack (for new games)
        self.game_packs: dict[int, DataPack | None] = {}  # the pack each game started with, parsed once
        # Wall time: every process over one database reads the same instants, so a stored running
        # timer means the same to all of them (as the cluster's leases do).  Tests replace it.
        self.clock: Callable[[], float] = time.time
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
        self.use_voice = True
        self.locks = FlightLocks()  # one per channel: this process's steps queue instead of retrying
        # Per channel: the last stored change that staged public posts (sent by `_flush`, after the
        # click's own answer; a crash before that leaves them to the next process's outbox resume).
        self._pending: dict[int, EliteGameRecord] = {}
        self.channels: dict[int, Any] = {}  # the game's text channel as its interactions carry it
        session_posts(bot).register("elite", self.render, resume=False, locate=self._locate, on_sent=self._sent)

    @property
    def store(self) -> EliteStore:
        """ELITE's tables over the bot's storage (read at each use: tests swap the storage)."""
        return EliteStore(self.bot.storage)

    def game_clock(self) -> float:
        """What every game of this cog reads: the cog's clock as it is now (tests swap `clock`)."""
        return self.clock()

    async def cog_load(self) -> None:
        add = getattr(self.bot, "add_dynamic_items", None)
        if add is not None:
            add(EliteButton)
        cluster = getattr(self.bot, "cluster", None)
        if cluster is not None and hasattr(cluster, "watch"):
            cluster.watch(on_lost=self.lease_lost, on_sweep=self.sweep)
        session_posts(self.bot).register("elite")  # what a previous process left unsent goes out
        await self.resume_stored()

    async def resume_stored(self) -> None:
        """Take up the games that were in progress when the bot stopped (their buttons route here
        by custom id; the status message is found again by its id).  A running timer is paused at
        its last stored instant, in one unit of work; a game that ended without its logbook row
        (a crash in between) is logged now."""
        try:
            stored = await self.store.games()
        except Exception:
            log.exception("could not read the ELITE games in progress")
            return
        for record in stored:
            if not serves(self.bot, record.guild_id):
                continue  # several shards: the process that owns the server runs its games
            await self._take_up(record)

    async def _take_up(self, record: Any) -> None:
        """One stored game taken up by this process: a running timer paused at its last stored
        instant (one unit of work), its timer task, and the voice channel it spoke in."""
        channel_id = record.channel_id
        try:
            await self.change(channel_id, None, [], restart=True)
        except UnreadableGame:
            log.exception("ELITE game in channel %s cannot be resumed; dropped", channel_id)
            await self.store.drop(channel_id)
            return
        except (EliteError, NotStored):  # the store failed for a moment: the next click takes it up
            log.warning("ELITE game in channel %s not resumed now; it stays stored", channel_id)
            return
        session, doc = self.sessions.get(channel_id), self.docs.get(channel_id)
        if session is None or doc is None:
            return  # it was over: `change` logged it
        timer = session.game.timer
        if session.game.phase == "action" and timer is not None and timer.state in ("running", "paused"):
            await self._start_timer(session)
        self.voice.after_restart(session, record.guild_id, doc.voice_channel_id, doc.paused_at_restart)

    async def sweep(self) -> None:
        """The cluster keeper's sweep (several processes over PostgreSQL): a game of this process's
        servers whose timer was running and whose clock lease lapsed (its process died) is taken
        up here as after a restart, instead of waiting for the next click.  A live process renews
        its lease, so `acquire` fails for its games and they are left alone."""
        cluster = getattr(self.bot, "cluster", None)
        if cluster is None:
            return
        for record in await self.store.games():
            channel_id = record.channel_id
            task = self.tasks.get(channel_id)
            if not serves(self.bot, record.guild_id) or (task is not None and not task.done()):
                continue
            if not timer_running(record.state) or cluster.holds(self._lease(channel_id)):
                continue
            if await cluster.acquire(self._lease(channel_id)):
                log.warning("ELITE game in channel %s: its clock had no process; taken up here", channel_id)
                await self._take_up(record)

    async def lease_lost(self, name: str) -> None:
        """Another process took one of this process's ELITE clocks: its timer stops here."""
        if not name.startswith("elite-"):
            return  # another game's lease
        with contextlib.suppress(ValueError):
            task = self.tasks.pop(int(name.removeprefix("elite-")), None)
            if task is not None:
                task.cancel()

    async def cog_unload(self) -> None:
        remove = getattr(self.bot, "remove_dynamic_items", None)
        if remove is not None:
            remove(EliteButton)
        # The clocks stop first: a timer task still running while the pause waits for the game's
        # lock would let the timer tick on, and the stored pause would miss that tick.
        for task in self.tasks.values():
            task.cancel()
        for session in list(self.sessions.values()):  # a clean stop pauses running timers where they are
            timer = session.game.timer
            if session.game.phase == "action" and timer is not None and timer.state == "running":
                with contextlib.suppress(EliteError, NotStored):
                    await self.act(session, "pause", [RESTART])
        for channel_id in list(self.docs):
            await self._release(channel_id)
        await self.voice.close_all()

    def _lang(self, raw: str | None) -> Language:
        value = raw or getattr(getattr(self.bot, "settings", None), "default_language", "en")
        return cast(Language, value) if is_language(value) else "en"

    def _guild_of(self, session: Session) -> int:
        doc = self.docs.get(session.channel_id)
        return doc.guild_id if doc is not None else 0

    async def server_lang(self, guild_id: int | None) -> str:
        """The server's language setting (en, ru, cs or sk: the locale tables have all four) for
        messages outside a game, else the bot's default."""
        try:
            return await server_language(self.bot.storage, guild_id, self._lang(None))
        except Exception:  # a settings read never stops an answer
            return self._lang(None)

    # -- the wizard --------------------------------------------------------------------------------
    @elite.command(name="start", description="Set up a Project: ELITE game in this channel")
    @app_commands.describe(players="1 = solo (two heroes)", language="Language of the director")
    @app_commands.choices(
        map=_choices(MAP_SIDES),
        mission=_choices(MISSIONS),
        difficulty=_choices(ELITE_DIFFICULTIES),
        language=_choices(LANGUAGES),
    )
    async def start(
        self,
        interaction: discord.Interaction,
        map: str,
        mission: str,
        difficulty: str,
        players: app_commands.Range[int, 1, 6],
        language: str | None = None,
    ) -> None:
        channel_id = interaction.channel_id or 0
        server = await self.server_lang(interaction.guild_id)
        if not await may_start(self.bot.storage, interaction, "elite.start", server):
            return
        running = self.sessions.get(channel_id)
        if running is not None and running.game.phase != "over":
            await interaction.response.send_message(text(running.lang, "ui.running_here"), ephemeral=True)
            return
        lang = self._lang(language or server)  # the director speaks the server's language unless asked
        count = 2 if players == 1 else players
        fields = {"map": map, "mission": mission, "difficulty": difficulty, "players": players}
        await interaction.response.send_message(
            text(lang, "ui.pick_heroes", count=count), view=HeroPicker(self, fields, count, lang), ephemeral=True
        )

    async def begin(self, interaction: discord.Interaction, config: EliteConfig, lang: Language) -> None:
        channel = interaction.channel
        channel_id = interaction.channel_id or 0
        guild_id = interaction.guild_id or 0
        pack = await self.pack_of(guild_id)
        seed = secrets.randbelow(2**31)
        game = EliteGame(config, seed, self.game_clock, pack)
        session = Session(game, lang, interaction.user.id, channel_id)
        doc = GameDoc(guild_id, channel_id, interaction.user.id, lang, seed, config.model_dump(mode="json"))
        running = self.sessions.get(channel_id)
        if running is not None and running.game.phase != "over":  # two wizards finished in one channel
            await interaction.response.edit_message(content=text(running.lang, "ui.running_here"), view=None)
            return
        try:
            pack_doc = pack.model_dump(mode="json") if pack is not None else None
            await self.store.start(guild_id, channel_id, new_state(doc, session), pack_doc, host_id=interaction.user.id)
        except ChannelBusy:  # the store holds one game per channel (another process, a race)
            await interaction.response.edit_message(content=text(lang, "ui.running_here"), view=None)
            return
        except Exception:  # nothing stored: no game, rather than one a restart would lose
            log.exception("could not store the new ELITE game")
            await interaction.response.edit_message(content=t(lang, "error.busy"), view=None)
            return
        self.sessions[channel_id] = session
        self.docs[channel_id] = doc
        self.game_packs[channel_id] = pack
        await interaction.response.edit_message(content=text(lang, "ui.setup_posted"), view=None)
        if not isinstance(channel, discord.abc.Messageable):
            return
        self.channels[channel_id] = channel
        # The setup and the status message go through the outbox (issue 25): committed, then sent;
        # a crash in between leaves them to the next process.  The status is a named post ("status"):
        # its edits find it by the id its row records; its head line finds it after a crash.
        status_text = session.status()
        first = [
            post(channel_id, session.setup_text()),
            post(channel_id, status_text, slot="status", render="status", marker=status_text.split("\n", 1)[0]),
        ]
        with contextlib.suppress(EliteError, NotStored):
            await self.change(channel_id, None, [], posts=first)
        await self._flush(channel_id)
        status = self.status_messages.get(channel_id)
        if status is not None:
            await self.remember(channel_id, status_message_id=getattr(status, "id", None))
        if self.use_voice:
            why = await self.voice.join(session, guild_id, member=interaction.user)
            if why is not None:
                text_only = ui(lang, "voice.text_only", why=ui(lang, f"voice.{why}"))
                with contextlib.suppress(discord.HTTPException):
                    await interaction.followup.send(text_only, ephemeral=True)

    # -- the buttons -------------------------------------------------------------------------------
    @staticmethod
    def refusal(lang: str, exc: Exception) -> str:
        """The words for a step that did not happen: the engine's refusal, "already done" (a press
        from an outdated status message), or "press again"."""
        if isinstance(exc, EliteError):
            return error_text(lang, exc)
        return ui(lang, "ui.already_done") if isinstance(exc, AlreadyDone) else t(lang, "error.busy")

    def controls(self, session: Session) -> ControlView:
        """The status message's buttons for the game as this process last stored it (its ids carry
        the move count, so they are drawn afresh at every edit of the message)."""
        doc = self.docs.get(session.channel_id)
        return ControlView(self, session.channel_id, session.lang, doc.moves if doc is not None else 0)

    async def _host_only(self, interaction: discord.Interaction, session: Session, action: str) -> bool:
        """The platform's check of a director's control (declared Who.HOST): True to go on."""
        return await guard(interaction, f"elite.{action}", session.lang, Seats.of(session.host_id))

    async def on_button(
        self, interaction: discord.Interaction, channel_id: int, action: str, move: int | None = None
    ) -> None:
        """A status-message button.  `move`: the move count its id carries (None: an id without it,
        acted on against the game as it is); checked only for the buttons that move the game on."""
        session = await self._session(channel_id)
        if session is None or session.game.phase == "over":
            await interaction.response.send_message(
                text(await self.server_lang(interaction.guild_id), "ui.no_game"), ephemeral=True
            )
            return
        if action not in BUTTON_ACTIONS:  # a forged or outdated custom id
            await interaction.response.send_message(text(session.lang, "ui.no_game"), ephemeral=True)
            return
        if not await self._host_only(interaction, session, BUTTON_ACTIONS[action]):
            return
        game = session.game
        move = move if action in GUARDED else None
        try:
            if action == "voice":
                await self.voice.rejoin_clicked(interaction, session, self._guild_of(session))
                return
            if action in ("peek", "reveal"):
                if game.exploration is None:
                    raise GameError("no_exploration")
                cells = [t.cell for t in game.exploration.public_view() if t.state == "hidden"]
                if not cells:
                    raise GameError("no_hidden_tokens")
                view = CellPicker(self, channel_id, action, cells, session.lang)
                await interaction.response.send_message(
                    f"{text(session.lang, f'ui.{action}')}: {text(session.lang, 'ui.which_token')}",
                    view=view,
                    ephemeral=True,
                )
                return
            if action == "defeat":
                if move is not None:  # a picker from an outdated message would not be used
                    await self.change(channel_id, None, [], move=move)  # checks the count, writes nothing
                picker = CausePicker(self, channel_id, session.lang, move)
                await interaction.response.send_message(text(session.lang, "ui.cause"), view=picker, ephemeral=True)
                return
            if action == "pause":  # pause or resume: decided under the game's lock (act)
                step, args = TOGGLE, []
            elif action in ("minus", "plus"):
                step, args = "adjust", [15 if action == "plus" else -15]
            else:
                step, args = action, []
            lines = await self.act(session, step, args, move=move)
        except (EliteError, NotStored, AlreadyDone) as exc:
            await interaction.response.send_message(self.refusal(session.lang, exc), ephemeral=True)
            return
        # The click's own answer edits the status message (no second edit: rate limits), with its
        # buttons drawn afresh: they carry the move count this step may have changed.
        controls = None if ended(session) else self.controls(session)
        await interaction.response.edit_message(content=session.status(), view=controls, allowed_mentions=NO_PINGS)
        await self._after(session, lines, action)

    async def on_cell(self, interaction: discord.Interaction, channel_id: int, action: str, cell: int) -> None:
        session = await self._session(channel_id)
        if session is None or session.game.phase == "over":
            await interaction.response.edit_message(
                content=text(await self.server_lang(interaction.guild_id), "ui.no_game"), view=None
            )
            return
        if not await self._host_only(interaction, session, "peek" if action == "peek" else "reveal"):
            return
        try:
            if action == "peek":
                (private,) = await self.act(session, "peek", [cell, interaction.user.id])
                await interaction.response.edit_message(content=private, view=None)  # only the peeker sees it
                await self._flush(session.channel_id)
                return
            lines = await self.act(session, "reveal", [cell])
        except (EliteError, NotStored) as exc:
            await interaction.response.edit_message(content=self.refusal(session.lang, exc), view=None)
            return
        await interaction.response.edit_message(content=text(session.lang, "ui.revealed"), view=None)
        await self._after(session, lines, "reveal")  # the reveal's lines were staged with it (`_due`)

    async def on_defeat(
        self, interaction: discord.Interaction, channel_id: int, cause: DefeatCause, move: int | None = None
    ) -> None:
        session = await self._session(channel_id)
        if session is None or session.game.phase == "over":
            await interaction.response.edit_message(
                content=text(await self.server_lang(interaction.guild_id), "ui.no_game"), view=None
            )
            return
        if not await self._host_only(interaction, session, "defeat"):
            return
        try:
            lines = await self.act(session, "defeat", [cause], move=move)
        except (EliteError, NotStored, AlreadyDone) as exc:  # a press that raced the end of the game
            await interaction.response.edit_message(content=self.refusal(session.lang, exc), view=None)
            return
        await interaction.response.edit_message(content=lines[0], view=None)
        await self._after(session, lines, "defeat")

    async def _after(self, session: Session, lines: list[str], action: str) -> None:
        """Run the timer task and refresh the status message, then speak, then end a finished game
        (its logbook row was already stored by the step that ended it, in the same transaction).

        Why in this order: `say` waits for the words to be rendered, which takes seconds when the
        director has just joined voice (every call is being pre-rendered) or the speech engine is
        remote.  A timer task started after it ran late or never (the Action Phase stayed at 0:00,
        "still running")."""
        self.voice.sync(session)  # before the words: a call planned now is never queued behind them
        if action in ("start", "pause"):  # "pause" may have resumed a timer taken up after a restart
            # `_start_timer` leaves a live task alone; a finished one left in `tasks` (the
            # channel's previous game, still speaking its last words) must not block this game's.
            await self._start_timer(session)
        if action in ("reveal", "defeat"):  # answered in an ephemeral: the status message's edit was staged
            await self._flush(session.channel_id)
        await self.voice.say(session, lines)
        if session.game.phase == "over":
            await self._finish(session)

    async def act(self, session: Session, step: str, args: list[Any], *, move: int | None = None) -> list[str]:
        """Run one step of the game as one unit of work (`change`); the lines to post or speak.
        Raises the engine's refusal (EliteError), or NotStored when the store failed: then the
        step did not happen, and the player is told to press again.  `TOGGLE` (the Pause button)
        becomes pause or resume inside the change, from the timer as loaded: decided before it,
        three presses at once read one state and the last ones were refused.  `move`: the move
        count the press was made at (AlreadyDone when the game has moved on since)."""
        return await self.change(session.channel_id, step, args, move=move)

    async def change(
        self,
        channel_id: int,
        step: str | None,
        args: list[Any],
        *,
        restart: bool = False,
        move: int | None = None,
        posts: list[dict[str, Any]] | None = None,
        **meta: Any,
    ) -> list[str]:
        """Load the channel's stored game, apply `step` (None: none) and the `meta` fields, save it
        with a version check, and retry all of it on a newer version (EliteStore.change).  The
        change is pure: it restores the game from the loaded document, so a retry starts afresh.
        `restart`: the first load after a restart (a version-1 journal is migrated, a running
        timer paused at its last stored instant).  This process's copy (`sessions`) becomes what
        was saved; a step that ended the game leaves its logbook row in the same transaction.
        `move`: the move count the press was made at; when the stored game has made another number
        of moves (the press came from an outdated status message: the second of a double click),
        AlreadyDone is raised and nothing is written."""
        out: list[str] = []
        fresh: Session | None = None

        def apply_step(record: EliteGameRecord) -> bool:
            nonlocal out, fresh
            state = record.state
            pack = self._game_pack(record)
            changed = False
            try:
                if state.get("version") != DOC_VERSION:  # stored before snapshots: migrated, and written
                    migrated = migrate(state, pack)
                    if PACK in state:
                        migrated[PACK] = state[PACK]
                    state = record.state = migrated
                    changed = True
                if restart:
                    changed = pause_for_restart(state) or changed
                session = restore(state, pack, self.game_clock)
            except (ValueError, KeyError, TypeError, IndexError) as exc:  # pydantic's errors are ValueErrors
                raise UnreadableGame(f"the stored ELITE game in channel {channel_id} cannot be read") from exc
            if move is not None and stored_moves(state) != move:  # checked on the loaded game, not a copy
                raise AlreadyDone(f"move {move} of the ELITE game in channel {channel_id} is past")
            lines: list[str] = []
            current = step
            if current == TOGGLE:  # from the timer as this unit of work loaded it
                timer = session.game.timer
                current = "resume" if timer is not None and timer.state == "paused" else "pause"
            if current is not None:
                at = session.game.clock()
                lines = apply(session, current, args)
                if current == "poll" and not lines:
                    fresh, out = session, []
                    return changed  # no call was due: nothing to write
                record_step(state, at, current, args)
                count_move(state, current, args)
                changed = True
            for key, value in meta.items():
                changed = changed or state.get(key) != value
                state[key] = value
            if posts:  # posts made due by the caller (the game's first posts), staged with this write
                record.stage(*posts)
                changed = True
            if current == "resume":
                state["paused_at_restart"] = False
            elif current == "pause" and args == [RESTART]:  # a clean stop: the crew resumes when back
                state["paused_at_restart"] = True
            if session.game.phase == "over":
                row = session.row()
                if row is not None:
                    state[FINISHED] = row.model_dump(mode="json")
                    changed = True
            if changed:
                write(state, session)
                record.stage(*self._due(channel_id, state, session, current, lines))
            fresh, out = session, lines
            return changed

        async with self.locks.get(f"elite:{channel_id}"):
            try:
                record = await self.store.change(channel_id, apply_step)
            except (EliteError, UnreadableGame, AlreadyDone):
                raise
            except Exception as exc:
                log.exception("could not store a step of the ELITE game in channel %s", channel_id)
                raise NotStored from exc
            if record is None or fresh is None:  # ended (here, or by another process meanwhile)
                self.docs.pop(channel_id, None)  # this process's copy stays: "game over", not "no game"
                raise GameError("game_over")
            self._keep(record, fresh)
            if record.staged:
                self._pending[channel_id] = record
        return out

    async def _session(self, channel_id: int) -> Session | None:
        """This process's copy of the channel's game; taken up from the store when another process
        started it (several processes over one database: a click reaches whichever process serves
        the server, and the stored document, not a process, is the game).  None: no game."""
        session = self.sessions.get(channel_id)
        if session is not None and session.game.phase != "over":
            return session
        try:  # none here, or ours ended: the channel may run a game another process started
            await self.change(channel_id, None, [])  # loads it; changes nothing, writes nothing
        except (EliteError, NotStored, UnreadableGame):
            return self.sessions.get(channel_id)  # the ended one, if any: the caller says "no game"
        session = self.sessions.get(channel_id)
        timer = session.game.timer if session is not None else None
        if session is not None and timer is not None and timer.state in ("running", "paused"):
            await self._start_timer(session)  # its clock too, if its process is gone (the lease is free)
        return session

    def _keep(self, record: EliteGameRecord, fresh: Session) -> None:
        """This process's copy of a game after a unit of work.  The Session object stays the same
        (the voice and the status read it), its game and log are the stored ones."""
        channel_id = record.channel_id
        if fresh.game.phase == "over":
            self.docs.pop(channel_id, None)
            self.game_packs.pop(channel_id, None)
        else:
            self.docs[channel_id] = GameDoc.of(record.state)
        session = self.sessions.get(channel_id)
        if session is None or (session.game.phase == "over" and fresh.game.phase != "over"):
            self.sessions[channel_id] = fresh  # a first copy, or the channel's next game
        else:
            session.game, session.log, session.lang, session.host_id = fresh.game, fresh.log, fresh.lang, fresh.host_id

    def _game_pack(self, record: EliteGameRecord) -> DataPack | None:
        """The data pack the game started with (stored with it), parsed once per game."""
        if record.channel_id not in self.game_packs:
            stored = record.state.get(PACK)
            self.game_packs[record.channel_id] = load_pack(stored) if stored is not None else None
        return self.game_packs[record.channel_id]

    async def remember(self, channel_id: int, **meta: Any) -> None:
        """Store the bot's own fields of a game (its status message, its voice channel)."""
        with contextlib.suppress(EliteError, NotStored):
            await self.change(channel_id, None, [], **meta)

    def _status_message(self, channel_id: int) -> Any:
        """The status message: the one posted by this process, else (after a restart) a partial
        message from its stored id."""
        message = self.status_messages.get(channel_id)
        doc = self.docs.get(channel_id)
        if message is None and doc is not None and doc.status_message_id:
            channel = getattr(self.bot, "get_channel", lambda _id: None)(channel_id)
            if channel is not None and hasattr(channel, "get_partial_message"):
                message = channel.get_partial_message(doc.status_message_id)
        return message

    def _due(
        self, channel_id: int, state: dict[str, Any], session: Session, step: str | None, lines: list[str]
    ) -> list[dict[str, Any]]:
        """The public posts a step makes due, staged with it (issue 25): a reveal's lines, and an
        edit of the status message after a step not answered on it (a peek, a reveal, a defeat, a
        timer call other than a countdown number, a roll that ended the game)."""
        posts: list[dict[str, Any]] = []
        if step == "reveal" and lines:
            posts.append(post(channel_id, "\n".join(lines)))
        over = session.game.phase == "over"
        calls = step == "poll" and any(not w.isdigit() for w in lines)
        if step in ("reveal", "defeat", "peek") or calls or (step == "roll" and over):
            target = state.get("status_message_id")
            status = edit(
                channel_id,
                message_id=int(target) if target else None,
                slot="status",
                content=session.status(),
                render="status",
                over=over,  # its buttons go with this text (a later state's would not match it)
            )
            posts.append(status)
        return posts

    async def _flush(self, channel_id: int) -> None:
        """Send what the channel's last stored change staged (through the platform's outbox)."""
        record = self._pending.pop(channel_id, None)
        if record is None:
            return
        try:
            await session_posts(self.bot).deliver(record)
        except Exception:
            log.exception("ELITE game in channel %s: its posts wait for the next delivery", channel_id)

    async def render(self, session: Any, payload: dict[str, Any]) -> dict[str, Any]:
        """The status message's buttons, drawn when its edit is sent: the stored move count (their
        ids carry it), none once the game is over."""
        if payload.get("render") != "status" or session is None:
            return {}
        state = session.state
        if payload.get("over", not session.active):
            return {"view": None}
        return {"view": ControlView(self, session.channel_id, self._lang(state.get("lang")), stored_moves(state))}

    def _sent(self, payload: dict[str, Any], message: Any) -> None:
        """The status message this process posted: kept, so its edits and clicks find it."""
        if payload.get("slot") == "status" and message is not None:
            self.status_messages[int(payload["channel_id"])] = message

    def _locate(self, channel_id: int, message_id: int | None) -> Any:
        """The status message object this process posted, when the edit is of it; the channel the
        game was played from (its interactions'), for a post."""
        if message_id is None:
            return self.channels.get(channel_id)
        message = self.status_messages.get(channel_id)
        return message if message is not None and getattr(message, "id", None) == message_id else None

    async def _refresh(self, session: Session) -> None:
        """Redraw the status message as stored (after a restart: idempotent, so sent directly)."""
        message = self._status_message(session.channel_id)
        if message is None:
            return
        view = None if session.game.phase == "over" else self.controls(session)  # fresh move counts
        with contextlib.suppress(discord.HTTPException):
            await message.edit(content=session.status(), view=view, allowed_mentions=NO_PINGS)

    # -- the clock -----------------------------------------------------------------------------------
    @staticmethod
    def _lease(channel_id: int) -> str:
        return f"elite-{channel_id}"  # a channel id is unique across servers; one game per channel

    async def _holds(self, channel_id: int, *, take: bool = False) -> bool:
        """Does this process run the game's clock?  Over a shared database the timer runs only
        under a lease (bot/platform/cluster.py), so two processes never drive one timer; with
        SQLite, or without a cluster (tests), it is always ours."""
        cluster, name = getattr(self.bot, "cluster", None), self._lease(channel_id)
        if cluster is None:
            return True
        try:
            return bool(await cluster.acquire(name)) if take else bool(cluster.holds(name))
        except Exception:
            log.exception("could not take the clock lease of the ELITE game in channel %s", channel_id)
            return False

    async def _release(self, channel_id: int) -> None:
        cluster, name = getattr(self.bot, "cluster", None), self._lease(channel_id)
        if cluster is not None:
            with contextlib.suppress(Exception):
                await cluster.release(name)

    async def _start_timer(self, session: Session) -> None:
        """Run the timer task of a game in its Action Phase, if this process holds its clock."""
        channel_id = session.channel_id
        task = self.tasks.get(channel_id)
        if task is not None and not task.done():
            return
        if await self._holds(channel_id, take=True):
            self.tasks[channel_id] = asyncio.create_task(self._run_timer(channel_id))

    async def _run_timer(self, channel_id: int) -> None:
        """Sleep to the next call (at most TICK_S at a time); when one is due, poll the timer as a
        unit of work (its state changes are stored) and show it.  The calls are not spoken from
        here: voice has them planned on the timer's clock (VoiceLink.sync), so the loop's lateness
        never reaches the audio.  Stops when the lease on the game's clock is lost."""
        while True:
            session = self.sessions.get(channel_id)
            if session is None:
                break
            game = session.game
            timer = game.timer
            if game.phase != "action" or timer is None or timer.state not in ("running", "paused"):
                break
            due = timer.next_due()
            await self.sleep(TICK_S if due is None else min(TICK_S, max(0.0, due - game.clock())))
            if not await self._holds(channel_id):
                log.warning("ELITE game in channel %s: clock lease lost; its timer runs elsewhere", channel_id)
                break
            game = session.game
            timer = game.timer
            if game.phase != "action" or timer is None:
                break
            due = timer.next_due()
            if due is None or due > game.clock():
                continue
            try:
                words = await self.change(channel_id, "poll", [])
            except (EliteError, NotStored):
                continue  # the game ended meanwhile, or the store failed: the next tick tries again
            if not words:
                continue
            self.voice.sync(session)
            await self._flush(channel_id)  # the status edit a call other than a countdown staged
        if self.tasks.get(channel_id) is asyncio.current_task():
            del self.tasks[channel_id]

    def _current(self, session: Session) -> bool:
        """Whether `session` is still the channel's game.  A game's end can run late (behind its
        last words), after the host started the next game in the channel: that game's timer
        task, clock lease and voice are then not the old game's to stop."""
        found = self.sessions.get(session.channel_id)
        return found is None or found is session

    async def _finish(self, session: Session) -> None:
        """The game is over (its logbook row was written by the step that ended it): its clock and
        voice stop, unless the channel already runs the next game (this end ran late)."""
        if self._current(session):
            task = self.tasks.pop(session.channel_id, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()
            self.docs.pop(session.channel_id, None)
            await self._release(session.channel_id)
            await self.voice.close(session.channel_id)

    async def pack_of(self, guild_id: int) -> DataPack | None:
        """The server's data pack: this process's copy, else the stored one."""
        if guild_id not in self.packs:
            try:
                stored = await self.store.pack(guild_id)
                if stored is not None:
                    self.packs[guild_id] = load_pack(stored)
            except Exception:
                log.exception("could not read the ELITE data pack of server %s", guild_id)
        return self.packs.get(guild_id)

    # -- helpers -----------------------------------------------------------------------------------
    @elite.command(name="roll", description="Alien activation: roll Hit dice for an alien type")
    @app_commands.describe(
        alien="Swarm type or boss",
        in_range="Heroes in range and how many of these aliens reach them, e.g. 'akosha 2, gerid 1'",
        hit_value="Hit value from the card (when no data pack has it)",
    )
    @app_commands.choices(alien=_choices(SWARM_TYPES + BOSSES))
    async def roll(
        self,
        interaction: discord.Interaction,
        alien: str,
        in_range: str,
        hit_value: app_commands.Range[int, 1, 6] | None = None,
    ) -> None:
        session = await self._session(interaction.channel_id or 0)
        if session is None:
            await interaction.response.send_message(
                text(await self.server_lang(interaction.guild_id), "ui.no_game"), ephemeral=True
            )
            return
        if not await self._host_only(interaction, session, "roll"):
            return
        kind = next(a for a in (*SWARM_TYPES, *BOSSES) if a == alien)
        try:
            targets = parse_in_range(in_range)
            lines = await self.act(session, "roll", roll_args(kind, targets, hit_value))
        except InRangeError as exc:  # what was typed is shown inert (user_text in the parser)
            await interaction.response.send_message(
                ui(session.lang, f"in_range.{exc.key}", **exc.values), ephemeral=True
            )
            return
        except (EliteError, NotStored) as exc:
            await interaction.response.send_message(self.refusal(session.lang, exc), ephemeral=True)
            return
        await interaction.response.send_message("\n".join(lines), allowed_mentions=NO_PINGS)
        await self._flush(session.channel_id)  # a roll that ended the game staged the status edit
        if session.game.phase == "over":
            await self._finish(session)

    @elite_admin.command(name="pack", description="Upload this server's ELITE data pack (JSON; Manage Server)")
    async def pack(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        lang = await self.server_lang(interaction.guild_id)
        if not await guard(interaction, "elite.pack", lang):  # Discord hides it; a stale client may not
            return
        if file.size > MAX_PACK_BYTES:
            too_large = PackError("pack_too_large", size=file.size, limit=MAX_PACK_BYTES)
            await interaction.response.send_message(error_text(lang, too_large), ephemeral=True)
            return
        try:
            pack = load_pack(await file.read())
        except PackError as exc:
            why = error_text(lang, exc)
            await interaction.response.send_message(ui(lang, "pack.not_loaded", why=why), ephemeral=True)
            return
        try:
            await self.store.save_pack(interaction.guild_id or 0, pack.model_dump(mode="json"), interaction.user.id)
        except Exception:
            log.exception("could not store the ELITE data pack")
            await interaction.response.send_message(ui(lang, "pack.not_stored"), ephemeral=True)
            return
        self.packs[interaction.guild_id or 0] = pack
        counts = {
            "swarm": len(pack.swarm_spawn),
            "bosses": len(pack.bosses),
            "events": len(pack.events),
            "equipment": len(pack.equipment),
        }
        await interaction.response.send_message(ui(lang, "pack.loaded", **counts), ephemeral=True)

    @elite.command(name="schema", description="The JSON schema of an ELITE data pack")
    async def schema(self, interaction: discord.Interaction) -> None:
        data = json.dumps(pack_json_schema(), indent=2).encode()
        await interaction.response.send_message(
            ui(await self.server_lang(interaction.guild_id), "schema"),
            file=discord.File(io.BytesIO(data), filename="elite-pack.schema.json"),
            ephemeral=True,
        )

    @elite.command(name="board", description="ELITE leaderboard: wins per difficulty, fewest rounds per mission")
    @app_commands.choices(language=_choices(LANGUAGES))
    async def board(self, interaction: discord.Interaction, language: str | None = None) -> None:
        lang = self._lang(language or await self.server_lang(interaction.guild_id))
        standing = await self.standing(interaction.guild_id or 0)
        if not standing.games:
            await interaction.response.send_message(text(lang, "ui.board_empty"), ephemeral=True)
            return
        wins = ", ".join(f"{text(lang, f'difficulty.{d}')} {n}" for d, n in standing.wins.items())
        fewest = ", ".join(f"{text(lang, f'mission.{m}')} {n}" for m, n in standing.fewest_rounds.items()) or "—"
        lines = [
            text(lang, "ui.board_title"),
            text(lang, "ui.board_games", games=standing.games),
            text(lang, "ui.board_wins", wins=wins),
            text(lang, "ui.board_fewest", fewest=fewest),
        ]
        await interaction.response.send_message("\n".join(lines), allowed_mentions=NO_PINGS)

    async def standing(self, guild_id: int) -> Leaderboard:
        """The server's ELITE boards, counted by the database (indexed)."""
        counted = await self.store.board(guild_id)
        wins = {d: counted.wins.get(d, 0) for d in ELITE_DIFFICULTIES}
        fewest = {m: n for m in MISSIONS if (n := counted.fewest_rounds.get(m)) is not None}
        hardest = next((d for d in reversed(ELITE_DIFFICULTIES) if wins[d]), None)
        return Leaderboard(counted.games, wins, fewest, hardest)
