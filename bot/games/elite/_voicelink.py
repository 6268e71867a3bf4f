"""The ELITE cog's side of voice: join, keep the planned calls in step with the timer, rejoin.

Why a class of its own: the cog drives the game; this holds one `EliteVoice` per channel and the
three things voice needs from the game's life: a join (the host's channel at Start, the stored
channel after a restart, or the host's "Rejoin voice" button), `sync` after every step (music on
only while the timer runs; the calls planned on the timer's clock while it runs, taken back when
it stops) and the announcements.  Speech comes from the process's voice service (`bot.voice`'s
`service`, the Space Alert intercom's) with the server's `tts` setting; without a service the
director runs in text and says why.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.games.elite._i18n import call_text, text, ui
from bot.games.elite._session import Session
from bot.games.elite._voice import EliteVoice, Speech
from bot.platform.components import Components
from bot.platform.hosting.server_settings import load_settings
from engine.elite.timer import ALL_CALLS
from voice.music_bed import MusicBed
from voice.pcm_speech import speech_for

if TYPE_CHECKING:
    from bot.games.elite._cog import EliteCog

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()


def running(session: Session) -> bool:
    timer = session.game.timer
    return session.game.phase == "action" and timer is not None and timer.state == "running"


def call_plan(session: Session) -> tuple[float | None, list[tuple[float, int, str]]]:
    """The instant the running timer ends (on the game's clock, None if it does not run) and
    (instant, key, words) of every call still to come.

    The end instant changes only when the timer starts, resumes or is changed, so it tells a
    plan that needs replacing from one the source already holds: a step handled late (the
    database was slow) must not plan again a call the source has already played.
    """
    game = session.game
    timer = game.timer
    if not running(session) or timer is None:
        return None, []
    now = game.clock()
    end = now + timer.length_s - timer.elapsed()  # not clamped at 0, unlike remaining()
    return end, [(now + offset, call.seconds, call_text(session.lang, call)) for offset, call in timer.schedule()]


class VoiceLink:
    def __init__(self, cog: EliteCog) -> None:
        self.cog = cog
        self.voices: dict[int, EliteVoice] = {}
        #: one bed for every game of the process (its loops are rendered once); tests may swap it
        self.bed = MusicBed()
        #: tests replace it: (guild id) -> speech, or a reason code when there is none
        self.speech: Callable[[int], Any] = self._service_speech
        self._background: set[asyncio.Task[Any]] = set()

    @property
    def bot(self) -> Any:
        return self.cog.bot

    async def _service_speech(self, guild_id: int) -> Speech | str:
        service = getattr(getattr(self.bot, "voice", None), "service", None)
        if service is None or service.unavailable_reason():
            return "no_speech"
        try:
            tts: str | None = (await load_settings(self.bot.storage, guild_id)).tts
        except Exception:  # a settings read never keeps voice from starting
            tts = None
        return speech_for(service, tts)

    # -- joining -----------------------------------------------------------------------------------
    async def join(self, session: Session, guild_id: int, *, member: Any = None, channel: Any = None) -> str | None:
        """Join the member's voice channel (or else `channel`) for this game; a reason code, or None."""
        speech = await self.speech(guild_id)
        if isinstance(speech, str):
            return speech
        # The session's game is replaced by each stored step: read it through the session.
        voice = EliteVoice(
            session.lang,  # every language of the bot has ELITE's words (bot/platform/locales/elite)
            lambda: session.game.timer.remaining() if session.game.timer else 120.0,
            speech,
            clock=lambda: session.game.clock(),
            bed=self.bed,
        )
        why = await (voice.connect(member) if member is not None else voice.connect_to(channel))
        if why is not None:
            return why
        old = self.voices.pop(session.channel_id, None)
        if old is not None:
            await old.close()
        self.voices[session.channel_id] = voice
        doc = self.cog.docs.get(session.channel_id)
        if doc is not None and doc.voice_channel_id != voice.channel_id:
            await self.cog.remember(session.channel_id, voice_channel_id=voice.channel_id)
        self.sync(session)
        lines = [call_text(session.lang, c) for c in ALL_CALLS]
        lines += [text(session.lang, k) for k in ("say.paused", "say.resumed", "say.get_ready")]
        self._spawn(self._prepare(session, voice, lines))
        return None

    async def _prepare(self, session: Session, voice: EliteVoice, lines: list[str]) -> None:
        await voice.prepare(lines)
        if self.voices.get(session.channel_id) is voice:
            voice.forget_plan()  # calls planned before their words were ready are planned again
            self.sync(session)

    def _spawn(self, work: Any) -> asyncio.Task[Any]:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    # -- the game's steps --------------------------------------------------------------------------
    def sync(self, session: Session) -> None:
        """Music only while the timer runs; its calls planned on its clock, or taken back."""
        voice = self.voices.get(session.channel_id)
        if voice is None:
            return
        on = running(session)
        voice.music(on)
        if on:
            end, plan = call_plan(session)
            voice.plan_calls(plan, end=end)
        elif session.game.timer is None or session.game.timer.state != "times_up":
            voice.cancel_calls()  # (time's up: the last call may still be starting; nothing follows it)

    async def say(self, session: Session, lines: list[str]) -> None:
        voice = self.voices.get(session.channel_id)
        if voice is not None:
            await voice.say(lines)

    async def close(self, channel_id: int) -> None:
        voice = self.voices.pop(channel_id, None)
        if voice is not None:
            await voice.close()

    async def close_all(self) -> None:
        for channel_id in list(self.voices):
            await self.close(channel_id)
        for task in list(self._background):
            task.cancel()

    # -- after a restart ---------------------------------------------------------------------------
    def after_restart(self, session: Session, guild_id: int, voice_channel_id: int | None, paused: bool) -> None:
        """A resumed game: rejoin its stored voice channel once the bot is connected (in the background)."""
        self._spawn(self._after_restart(session, guild_id, voice_channel_id, paused))

    async def _after_restart(self, session: Session, guild_id: int, voice_channel_id: int | None, paused: bool) -> None:
        wait = getattr(self.bot, "wait_until_ready", None)
        if wait is not None:
            await wait()
        await self.cog._refresh(session)  # the status message shows the game as stored (a paused timer)
        lines: list[str] = []
        view: discord.ui.View | None = None
        if voice_channel_id is not None and self.cog.use_voice:
            channel = getattr(self.bot, "get_channel", lambda _id: None)(voice_channel_id)
            why = await self.join(session, guild_id, channel=channel)
            if why is None:
                lines.append(ui(session.lang, "voice.back_after_restart"))
            else:
                lines.append(ui(session.lang, "voice.lost_on_restart", why=ui(session.lang, f"voice.{why}")))
                view = self.rejoin_view(session)
        if paused:
            lines.append(ui(session.lang, "voice.paused_after_restart"))
        if lines:
            await self._post(session.channel_id, "\n".join(lines), view)

    def rejoin_view(self, session: Session) -> discord.ui.View:
        from bot.games.elite._cog import EliteButton

        view = Components()
        label = ui(session.lang, "voice.rejoin")
        view.add_item(EliteButton("voice", session.channel_id, label=label, style=discord.ButtonStyle.primary))
        return view

    async def _post(self, channel_id: int, content: str, view: discord.ui.View | None) -> None:
        channel = getattr(self.bot, "get_channel", lambda _id: None)(channel_id)
        if channel is None:
            return
        extra: dict[str, Any] = {"view": view} if view is not None else {}
        with contextlib.suppress(discord.HTTPException):
            await channel.send(content, allowed_mentions=NO_PINGS, **extra)

    async def rejoin_clicked(self, interaction: discord.Interaction, session: Session, guild_id: int) -> None:
        """The "Rejoin voice" button (the host's or Manage Server's: the platform checked it before
        this runs); the presser's voice channel now, else the stored one."""
        lang = session.lang
        await interaction.response.defer(ephemeral=True)
        channel = getattr(getattr(interaction.user, "voice", None), "channel", None)
        if channel is None:
            doc = self.cog.docs.get(session.channel_id)
            stored = doc.voice_channel_id if doc is not None else None
            channel = getattr(self.bot, "get_channel", lambda _id: None)(stored) if stored else None
        why = await self.join(session, guild_id, channel=channel) if channel is not None else "no_channel"
        if why is None:
            answer = ui(lang, "voice.rejoined")
        else:
            answer = ui(lang, "voice.rejoin_failed", why=ui(lang, f"voice.{why}"))
        with contextlib.suppress(discord.HTTPException):
            await interaction.followup.send(answer, ephemeral=True)
