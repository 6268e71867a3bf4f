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

Storage (bot/platform/storage/platform.py, both backends): a game in progress is journalled and stored on
every step and resumed when the cog loads.  One game per channel is held by the store (a unique
index: a second `/elite start` is refused, never replaces the running game).  Each step is one unit
of work under the channel's lock: the step is applied, then its journal entry is appended to the
stored document with a version check (`change_elite_game`, retried on a stale version), so
simultaneous presses are all kept, in the order they were applied (see _journal.py); and resumed when the cog
loads; a finished game becomes a logbook row with `game = "elite"` (`record_game`), read back for
`/elite board` by `elite_board`; a server's data pack is stored with `save_elite_pack`.  A resumed
game rejoins the voice channel it spoke in (stored in the journal), or posts why not with a
host-only "Rejoin voice" button (custom id `elite:voice:<channel>`).
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
import weakref
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.elite._i18n import error_text, text, ui
from bot.games.elite._journal import RESTART, Journal, ShiftClock, apply, rebuild, roll_args
from bot.games.elite._session import Session
from bot.games.elite._voicelink import VoiceLink
from bot.platform import components
from bot.platform.components import Components, handles
from bot.platform.hosting.gate import may_start, serves
from bot.platform.hosting.server_settings import server_language
from bot.platform.locks import FlightLocks
from bot.platform.permissions import Seats, guard
from bot.platform.storage.base import ChannelBusy
from bot.platform.text import user_text
from engine.elite.activation import HeroRoll
from engine.elite.datapack import AlienAbility, DataPack, PackError, load_pack, pack_json_schema
from engine.elite.errors import EliteError
from engine.elite.game import EliteGame, GameError
from engine.elite.logbook import Leaderboard
from engine.elite.setup import EliteConfig
from engine.elite.timer import TimerError
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


def _choices(values: tuple[str, ...]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=v.replace("_", " "), value=v) for v in values]


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
    """The status message's buttons; each one is a step of the director."""

    def __init__(self, cog: EliteCog, channel_id: int, lang: Language) -> None:
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
            self.add_item(EliteButton(action, channel_id, label=label, style=style, row=row))


KIND = components.register(
    "elite",
    {"action": "[a-z]+", "channel": r"\d{1,21}"},
    summary="the ELITE status message's controls and the Rejoin voice button",
    example=("next", "123456789012345678"),
)


@handles(KIND)
class EliteButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=KIND.pattern()):
    """A status-message button, routed by its custom id, so a click is answered even after a restart."""

    def __init__(self, action: str, channel_id: int, **button: Any) -> None:
        super().__init__(discord.ui.Button(custom_id=KIND.make(action, channel_id), **button))
        self.action, self.channel_id = action, channel_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> EliteButton:
        return cls(match["action"], int(match["channel"]), label=getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("ELITE") if isinstance(interaction.client, commands.Bot) else None
        if not isinstance(cog, EliteCog):
            lang = getattr(getattr(interaction.client, "settings", None), "default_language", "en")
            await interaction.response.send_message(ui(lang, "not_loaded"), ephemeral=True)
            return
        await cog.on_button(interaction, self.channel_id, self.action)


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
    def __init__(self, cog: EliteCog, channel_id: int, lang: Language) -> None:
        super().__init__(timeout=120)
        self.cog, self.channel_id = cog, channel_id
        select: discord.ui.Select[CausePicker] = discord.ui.Select(
            placeholder=ui(lang, "cause_placeholder"),
            options=[discord.SelectOption(label=text(lang, f"cause.{c}")[:100], value=c) for c in DEFEAT_CAUSES],
        )
        select.callback = self._picked  # type: ignore[method-assign]
        self.select = select
        self.add_item(select)

    async def _picked(self, interaction: discord.Interaction) -> None:
        cause = next(c for c in DEFEAT_CAUSES if c == self.select.values[0])
        await self.cog.on_defeat(interaction, self.channel_id, cause)


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
        self.sessions: dict[int, Session] = {}
        self.status_messages: dict[int, discord.Message] = {}
        self.voice = VoiceLink(self)
        self.tasks: dict[int, asyncio.Task[None]] = {}
        # finished games already stored, by id (a Session compares by value, so it is no set member)
        self.recorded: weakref.WeakValueDictionary[int, Session] = weakref.WeakValueDictionary()
        self.packs: dict[int, DataPack] = {}
        self.journals: dict[int, Journal] = {}
        self.clock: Callable[[], float] = time.monotonic
        self.sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
        self.use_voice = True
        self.locks = FlightLocks()  # one per channel: a step and its stored journal entry go together

    async def cog_load(self) -> None:
        add = getattr(self.bot, "add_dynamic_items", None)
        if add is not None:
            add(EliteButton)
        await self.resume_stored()

    async def resume_stored(self) -> None:
        """Rebuild the games that were in progress when the bot stopped (their buttons route
        here by custom id; the status message is found again by its id)."""
        try:
            stored = await self.bot.storage.elite_games()
        except Exception:
            log.exception("could not read the ELITE games in progress")
            return
        for record in stored:
            if not serves(self.bot, record.guild_id):
                continue  # several shards: the process that owns the server runs its games
            try:
                pack = load_pack(record.pack) if record.pack is not None else None
                session, journal = rebuild(record.state, pack, self.clock)
            except Exception:
                log.exception("ELITE game in channel %s cannot be resumed; dropped", record.channel_id)
                await self.bot.storage.drop_elite_game(record.channel_id)
                continue
            if session.game.phase == "over":  # ended but its row stayed (a crash in between)
                await self.bot.storage.drop_elite_game(record.channel_id)
                continue
            self.sessions[record.channel_id] = session
            self.journals[record.channel_id] = journal
            # the replay may have paused a running timer: the whole journal once, before any click
            await self.bot.storage.update_elite_game(record.channel_id, journal.state(session))
            timer = session.game.timer
            if session.game.phase == "action" and timer is not None and timer.state in ("running", "paused"):
                self.tasks[record.channel_id] = asyncio.create_task(self._run_timer(session))
            self.voice.after_restart(session, record.guild_id, journal.voice_channel_id, journal.paused_at_restart)

    async def cog_unload(self) -> None:
        remove = getattr(self.bot, "remove_dynamic_items", None)
        if remove is not None:
            remove(EliteButton)
        # The clocks stop first: a timer task still running while the pause waits for the game's
        # lock would let the timer tick on, and the stored pause would miss that tick.
        for task in self.tasks.values():
            task.cancel()
        for session in self.sessions.values():  # a clean stop pauses running timers where they are
            timer = session.game.timer
            if session.game.phase == "action" and timer is not None and timer.state == "running":
                with contextlib.suppress(GameError, TimerError):
                    await self.act(session, "pause", [RESTART])
        await self.voice.close_all()

    def _lang(self, raw: str | None) -> Language:
        value = raw or getattr(getattr(self.bot, "settings", None), "default_language", "en")
        return cast(Language, value) if is_language(value) else "en"

    def _guild_of(self, session: Session) -> int:
        journal = self.journals.get(session.channel_id)
        return journal.guild_id if journal is not None else 0

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
        game = EliteGame(config, seed, ShiftClock(self.clock), pack)
        session = Session(game, lang, interaction.user.id, channel_id)
        journal = Journal(guild_id, channel_id, interaction.user.id, lang, seed, config.model_dump(mode="json"))
        running = self.sessions.get(channel_id)
        if running is not None and running.game.phase != "over":  # two wizards finished in one channel
            await interaction.response.edit_message(content=text(running.lang, "ui.running_here"), view=None)
            return
        try:
            pack_doc = pack.model_dump(mode="json") if pack is not None else None
            await self.bot.storage.start_elite_game(
                guild_id,
                channel_id,
                journal.state(session),
                pack_doc,
                game_id=f"elite-{channel_id}-{seed}",
                host_id=interaction.user.id,
            )
        except ChannelBusy:  # the store holds one game per channel (another process, a race)
            await interaction.response.edit_message(content=text(lang, "ui.running_here"), view=None)
            return
        except Exception:
            log.exception("could not store the new ELITE game")
        self.sessions[channel_id] = session
        self.journals[channel_id] = journal
        await interaction.response.edit_message(content=text(lang, "ui.setup_posted"), view=None)
        if not isinstance(channel, discord.abc.Messageable):
            return
        await channel.send(session.setup_text(), allowed_mentions=NO_PINGS)
        status = await channel.send(
            session.status(), view=ControlView(self, channel_id, lang), allowed_mentions=NO_PINGS
        )
        self.status_messages[channel_id] = status
        journal.status_message_id = getattr(status, "id", None)
        await self._store(session, [])
        if self.use_voice:
            why = await self.voice.join(session, guild_id, member=interaction.user)
            if why is not None:
                text_only = ui(lang, "voice.text_only", why=ui(lang, f"voice.{why}"))
                with contextlib.suppress(discord.HTTPException):
                    await interaction.followup.send(text_only, ephemeral=True)

    # -- the buttons -------------------------------------------------------------------------------
    async def _host_only(self, interaction: discord.Interaction, session: Session, action: str) -> bool:
        """The platform's check of a director's control (declared Who.HOST): True to go on."""
        return await guard(interaction, f"elite.{action}", session.lang, Seats.of(session.host_id))

    async def on_button(self, interaction: discord.Interaction, channel_id: int, action: str) -> None:
        session = self.sessions.get(channel_id)
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
                await interaction.response.send_message(
                    text(session.lang, "ui.cause"), view=CausePicker(self, channel_id, session.lang), ephemeral=True
                )
                return
            if action == "pause":  # pause or resume: decided under the game's lock (act)
                step, args = TOGGLE, []
            elif action in ("minus", "plus"):
                step, args = "adjust", [15 if action == "plus" else -15]
            else:
                step, args = action, []
            lines = await self.act(session, step, args)
        except EliteError as exc:
            await interaction.response.send_message(error_text(session.lang, exc), ephemeral=True)
            return
        # The click's own answer edits the status message (no second edit: rate limits).
        done: dict[str, Any] = {"view": None} if game.phase == "over" else {}
        await interaction.response.edit_message(content=session.status(), allowed_mentions=NO_PINGS, **done)
        await self._after(session, lines, action)

    async def on_cell(self, interaction: discord.Interaction, channel_id: int, action: str, cell: int) -> None:
        session = self.sessions.get(channel_id)
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
                await self._refresh(session)
                return
            lines = await self.act(session, "reveal", [cell])
        except EliteError as exc:
            await interaction.response.edit_message(content=error_text(session.lang, exc), view=None)
            return
        await interaction.response.edit_message(content=text(session.lang, "ui.revealed"), view=None)
        channel = interaction.channel
        if isinstance(channel, discord.abc.Messageable):
            await channel.send("\n".join(lines), allowed_mentions=NO_PINGS)
        await self._after(session, lines, "reveal")

    async def on_defeat(self, interaction: discord.Interaction, channel_id: int, cause: DefeatCause) -> None:
        session = self.sessions.get(channel_id)
        if session is None or session.game.phase == "over":
            await interaction.response.edit_message(
                content=text(await self.server_lang(interaction.guild_id), "ui.no_game"), view=None
            )
            return
        if not await self._host_only(interaction, session, "defeat"):
            return
        try:
            lines = await self.act(session, "defeat", [cause])
        except EliteError as exc:  # a press that raced the end of the game
            await interaction.response.edit_message(content=error_text(session.lang, exc), view=None)
            return
        await interaction.response.edit_message(content=lines[0], view=None)
        await self._after(session, lines, "defeat")

    async def _after(self, session: Session, lines: list[str], action: str) -> None:
        """Run the timer task, refresh the status message and store a finished game, then speak.

        Why in this order: `say` waits for the words to be rendered, which takes seconds when the
        director has just joined voice (every call is being pre-rendered) or the speech engine is
        remote.  A timer task started after it ran late or never (the Action Phase stayed at 0:00,
        "still running"), and a game won meanwhile was missing from /elite board."""
        self.voice.sync(session)  # before the words: a call planned now is never queued behind them
        if action == "start":
            self.tasks[session.channel_id] = asyncio.create_task(self._run_timer(session))
        if action in ("reveal", "defeat"):  # answered in an ephemeral: the status message needs an edit
            await self._refresh(session)
        over = session.game.phase == "over"
        if over:
            await self._record(session)
        await self.voice.say(session, lines)
        if over:
            await self._finish(session)

    async def act(self, session: Session, step: str, args: list[Any]) -> list[str]:
        """Run one step of the game and store it as one unit of work under the channel's lock:
        the step, then its journal entry appended to the stored game (a restart resumes here).

        `TOGGLE` (the Pause button) becomes pause or resume here, from the timer as it is once the
        lock is held: decided before it, three presses at once read one state and the last ones
        were refused ("cannot resume: it is running") although the host had only pressed Pause."""
        async with self.locks.get(f"elite:{session.channel_id}"):
            if step == TOGGLE:
                timer = session.game.timer
                step = "resume" if timer is not None and timer.state == "paused" else "pause"
            at = session.game.clock()
            lines = apply(session, step, args)
            await self._store(session, [[at, step, *args]])
        return lines

    async def _store(self, session: Session, actions: list[list[Any]]) -> None:
        """Append `actions` to the game's journal, in memory and in the store.  The stored change is
        load -> append -> save with a version check, retried on a stale version
        (`change_elite_game`), so a step is never written over by another one."""
        journal = self.journals.get(session.channel_id)
        if journal is None:
            return
        journal.actions.extend(actions)
        if session.game.phase == "over":
            return  # a finished game leaves its logbook row instead (_finish)
        meta = journal.state(session)

        def append(record: Any) -> bool:
            """The stored journal is a prefix of this process's: append what it lacks (this step,
            and any step whose own store failed), never rewrite what is there."""
            state = record.state
            stored = list(state.get("actions", []))
            state["actions"] = stored + [list(a) for a in meta["actions"][len(stored) :]]
            for key in ("log", "status_message_id", "voice_channel_id"):
                state[key] = meta[key]
            return True

        try:
            await self.bot.storage.change_elite_game(session.channel_id, append)
        except Exception:  # the game goes on; the next step stores its state again
            log.exception("could not store the ELITE game in channel %s", session.channel_id)

    def _status_message(self, channel_id: int) -> Any:
        """The status message: the one posted by this process, else (after a restart) a partial
        message from its stored id."""
        message = self.status_messages.get(channel_id)
        journal = self.journals.get(channel_id)
        if message is None and journal is not None and journal.status_message_id:
            channel = getattr(self.bot, "get_channel", lambda _id: None)(channel_id)
            if channel is not None and hasattr(channel, "get_partial_message"):
                message = channel.get_partial_message(journal.status_message_id)
        return message

    async def _refresh(self, session: Session) -> None:
        message = self._status_message(session.channel_id)
        if message is None:
            return
        view = None if session.game.phase == "over" else discord.utils.MISSING
        with contextlib.suppress(discord.HTTPException):
            await message.edit(content=session.status(), view=view, allowed_mentions=NO_PINGS)

    async def _run_timer(self, session: Session) -> None:
        """Sleep to the next call (at most TICK_S at a time) and poll the timer: its state changes are
        journalled and shown.  The calls are not spoken from here: voice has them planned on the
        timer's clock (VoiceLink.sync), so the loop's lateness never reaches the audio."""
        game = session.game
        while game.phase == "action" and game.timer is not None and game.timer.state in ("running", "paused"):
            due = game.timer.next_due()
            await self.sleep(TICK_S if due is None else min(TICK_S, max(0.0, due - game.clock())))
            if game.phase != "action":
                break
            at = game.clock()
            words = session.calls()
            if not words:
                continue
            async with self.locks.get(f"elite:{session.channel_id}"):  # a call changes the timer: journal it
                await self._store(session, [[at, "poll"]])
            self.voice.sync(session)
            if any(not w.isdigit() for w in words):
                await self._refresh(session)

    def _current(self, session: Session) -> bool:
        """Whether `session` is still the channel's game.  A game's end can run late (behind its
        last words), after the host started the next game in the channel: that game's timer
        task, voice and journal are then not the old game's to stop."""
        found = self.sessions.get(session.channel_id)
        return found is None or found is session

    async def _finish(self, session: Session) -> None:
        if self._current(session):
            task = self.tasks.pop(session.channel_id, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()
            await self.voice.close(session.channel_id)
        await self._record(session)

    async def _record(self, session: Session) -> None:
        """The finished game's logbook row, once per game (`_after` stores it before speaking,
        `_finish` on the paths that end a game without `_after`)."""
        if self.recorded.get(id(session)) is session:
            return
        self.recorded[id(session)] = session
        row = session.row()
        journal = self.journals.pop(session.channel_id, None) if self._current(session) else None
        gid = journal.guild_id if journal is not None else 0
        try:
            if row is not None:
                await self.bot.storage.record_game(
                    gid, row.model_dump(mode="json"), channel_id=session.channel_id, language=session.lang
                )
            else:
                await self.bot.storage.drop_elite_game(session.channel_id)
        except Exception:
            log.exception("could not store the ELITE logbook row")

    async def pack_of(self, guild_id: int) -> DataPack | None:
        """The server's data pack: this process's copy, else the stored one."""
        if guild_id not in self.packs:
            try:
                stored = await self.bot.storage.elite_pack(guild_id)
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
        session = self.sessions.get(interaction.channel_id or 0)
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
            ability = AlienAbility(hit_value=hit_value) if hit_value is not None else None
            at = session.game.clock()
            rolls: tuple[HeroRoll, ...] = session.game.roll_alien(kind, targets, ability)
        except InRangeError as exc:  # what was typed is shown inert (user_text in the parser)
            await interaction.response.send_message(
                ui(session.lang, f"in_range.{exc.key}", **exc.values), ephemeral=True
            )
            return
        except EliteError as exc:
            await interaction.response.send_message(error_text(session.lang, exc), ephemeral=True)
            return
        lang = session.lang
        lines = [f"**{text(lang, 'swarm.' + kind if kind in SWARM_TYPES else 'boss.' + kind)}**"]
        for r in rolls:
            dice = "🎲 " + (" ".join(map(str, r.rolls)) or "—")
            line = text(lang, "ui.damage", hero=text(lang, f"hero.{r.hero}"), dice=dice, damage=r.damage)
            moved = session.game.damage_hero(r.hero, r.damage) if session.game.phase != "over" else None
            if moved is not None and moved.died:
                line += f"; {text(lang, 'ui.dies')}"
            elif moved is not None and moved.dice_locked:
                line += f"; {text(lang, 'ui.locks', count=moved.dice_locked)}"
            lines.append(line)
        async with self.locks.get(f"elite:{session.channel_id}"):
            await self._store(session, [[at, "roll", *roll_args(kind, targets, hit_value)]])
        await interaction.response.send_message("\n".join(lines), allowed_mentions=NO_PINGS)
        if session.game.phase == "over":
            session.log.extend(session.ending())
            await self._refresh(session)
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
            await self.bot.storage.save_elite_pack(
                interaction.guild_id or 0, pack.model_dump(mode="json"), interaction.user.id
            )
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
        counted = await self.bot.storage.elite_board(guild_id)
        wins = {d: counted.wins.get(d, 0) for d in ELITE_DIFFICULTIES}
        fewest = {m: n for m in MISSIONS if (n := counted.fewest_rounds.get(m)) is not None}
        hardest = next((d for d in reversed(ELITE_DIFFICULTIES) if wins[d]), None)
        return Leaderboard(counted.games, wins, fewest, hardest)
