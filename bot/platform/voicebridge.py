"""The seam between a flight and the voice intercom (the `voice` package).

A flight never depends on voice: every method here may fail or do nothing and the flight goes on
in text, and none of them waits for the voice connection or for speech synthesis.  `NullVoice`
is what runs when voice is off or cannot be imported.  `make_voice` picks the real intercom.

The calls a flight makes, in order:

* `prepare(...)`: cheap checks only (an engine, the channel, permissions); returns the reason
  voice is unavailable, or None.  Never joins, never renders.
* `start(flight_id, started_at, time_scale, resumed=None)`: from here voice joins and renders in
  the background; `started_at` is the flight's own start (the bot clock), so the 0 s line is due
  at Start even if voice is ready later.  `resumed` (default: inferred from how far the flight
  already is) lets lines long past be skipped after a restart.
* `finish(flight_id)` on a natural end (the last lines still play, bounded); `abort(flight_id)`
  on an abort (silence now).  `stop` is the old name of `abort`.
* `rejoin(flight_id)`: after a member disconnected the bot on purpose, the host brings voice back.

Games without a flight's timeline (a session game's announcements: "contact!", "your move") use
`say_now(guild_id, channel_id, lines, lang)`: the lines are spoken now, in order, in that voice
channel (`Announcer` below), never while a flight of that server holds voice.

Events go to the bot through two optional attributes (set once by the cog): `on_text_only(flight_id,
reason)` when voice failed for good during a flight, and `on_member_disconnect(flight_id)` when a
member (a moderator's Disconnect) took the bot out of voice: the bot posts one line and offers
the host `rejoin`.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import io
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

log = logging.getLogger(__name__)

#: A flight further along than this (mission seconds) when voice starts is a resume.
RESUME_AFTER_S = 2.0
# How long a voice client may stay after the bot left voice before it counts as the library's own
# reconnect (a Disconnect drops it within milliseconds).
DISCONNECT_VERDICT_S = 3.0
#: Why a flight speaks in text only while another flight of its server holds the voice connection.
BUSY_REASON = "another flight in this server is using voice"

TextOnlyHandler = Callable[[str, str], Awaitable[None] | None]
DisconnectHandler = Callable[[str], Awaitable[None] | None]


class VoiceBridge(Protocol):
    async def prepare(
        self,
        flight_id: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        lang: str,
        cues: list[Any],
        *,
        tts: str = "gtts",
    ) -> str | None:
        """Cheap checks only; return None when voice will be attempted, or why it is unavailable.
        `tts` is the server's engine setting: "espeak" speaks with espeak-ng alone (no gTTS)."""

    async def start(
        self, flight_id: str, started_at: float, time_scale: float, *, resumed: bool | None = None
    ) -> None: ...

    async def finish(self, flight_id: str) -> None: ...

    async def abort(self, flight_id: str) -> None: ...

    async def stop(self, flight_id: str) -> None: ...

    async def rejoin(self, flight_id: str) -> str | None: ...

    async def say_now(self, guild_id: int, channel_id: int, lines: Sequence[str], lang: str) -> str | None:
        """Speak `lines` now in that voice channel (queued behind lines still playing); None when
        they will be spoken, else why not.  Never waits for the connection or the speech."""


class NullVoice:
    """No voice: the text mirror in the channel carries the intercom."""

    on_text_only: TextOnlyHandler | None = None
    on_member_disconnect: DisconnectHandler | None = None

    def __init__(self, reason: str = "voice intercom is not available in this build") -> None:
        self.reason = reason

    async def prepare(
        self,
        flight_id: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        lang: str,
        cues: list[Any],
        *,
        tts: str = "gtts",
    ) -> str | None:
        return self.reason

    async def start(self, flight_id: str, started_at: float, time_scale: float, *, resumed: bool | None = None) -> None:
        return None

    async def finish(self, flight_id: str) -> None:
        return None

    async def abort(self, flight_id: str) -> None:
        return None

    async def stop(self, flight_id: str) -> None:
        return None

    async def rejoin(self, flight_id: str) -> str | None:
        return self.reason

    async def say_now(self, guild_id: int, channel_id: int, lines: Sequence[str], lang: str) -> str | None:
        return self.reason


class _Flight:
    """What the bridge holds for one flight between `prepare` and the end."""

    def __init__(self, guild_id: int, sink: Any, cues: list[Any], tts: str = "gtts") -> None:
        self.guild_id = guild_id
        self.sink = sink
        self.cues = cues
        self.tts = tts
        self.player: Any | None = None


class IntercomBridge:
    """The `voice` package's IntercomPlayer, one per flight, following the host's voice channel."""

    def __init__(self, bot: Any, service: Any | None = None) -> None:
        from voice import VoiceConfig, VoiceService

        self.bot = bot
        self.service = service if service is not None else VoiceService(VoiceConfig.from_env())
        self.flights: dict[str, _Flight] = {}
        self.on_text_only: TextOnlyHandler | None = None
        self.on_member_disconnect: DisconnectHandler | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.announcer = Announcer(self._speech)
        add_listener = getattr(bot, "add_listener", None)
        if callable(add_listener):
            add_listener(self._voice_state_update, "on_voice_state_update")

    # -- the flight's calls ---------------------------------------------------------------------

    async def prepare(
        self,
        flight_id: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        lang: str,
        cues: list[Any],
        *,
        tts: str = "gtts",
    ) -> str | None:
        from voice.discord_sink import DiscordVoiceSink, host_channel_resolver, voice_permission_problem

        reason = self.service.unavailable_reason()
        if reason:
            return reason
        guild = self.bot.get_guild(guild_id)
        channel = guild.get_channel(channel_id) if guild is not None else None
        if channel is None:
            return "the voice channel is gone"
        problem = voice_permission_problem(channel, guild.me)
        if problem:
            return problem
        if any(other.guild_id == guild_id for fid, other in self.flights.items() if fid != flight_id):
            # Discord gives a bot one voice connection per server: a second flight's join would
            # tear down the first one's handshake and both would end up silent.
            return BUSY_REASON
        old = self.flights.pop(flight_id, None)
        if old is not None and old.player is not None:
            old.player.abort()
        # No connection yet: the intercom's watchdog joins in the background once started.
        sink = DiscordVoiceSink(guild.voice_client, channel_resolver=host_channel_resolver(guild, host_id, channel_id))
        self.flights[flight_id] = _Flight(guild_id, sink, list(cues), tts)
        return None

    async def start(self, flight_id: str, started_at: float, time_scale: float, *, resumed: bool | None = None) -> None:
        flight = self.flights.get(flight_id)
        if flight is None or flight.player is not None:
            return
        elapsed_s = max(0.0, self.bot.clock() - started_at)
        if resumed is None:
            resumed = elapsed_s * time_scale > RESUME_AFTER_S
        player = self.service.player(
            flight.sink,
            time_scale=time_scale,
            on_problem=lambda why: self._emit(self.on_text_only, flight_id, why),
            on_member_disconnect=lambda: self._emit(self.on_member_disconnect, flight_id),
            offline_only=flight.tts == "espeak",
        )
        flight.player = player
        task = player.start(time.monotonic() - elapsed_s, flight.cues, resumed=resumed)
        task.add_done_callback(lambda _: self._ended(flight_id, flight))

    async def finish(self, flight_id: str) -> None:
        """Natural end: the intercom plays its last lines, then leaves (in the background)."""
        flight = self.flights.get(flight_id)
        if flight is None:
            return
        if flight.player is None:
            self.flights.pop(flight_id, None)
            await _close(flight.sink)
            return
        flight.player.finish()

    async def abort(self, flight_id: str) -> None:
        """Abort: silence at once and leave."""
        flight = self.flights.pop(flight_id, None)
        if flight is None:
            return
        if flight.player is not None:
            await flight.player.stop()
        else:
            await _close(flight.sink)

    async def stop(self, flight_id: str) -> None:
        """The old name of `abort` (immediate)."""
        await self.abort(flight_id)

    async def rejoin(self, flight_id: str) -> str | None:
        """Bring voice back after a deliberate disconnect; None on success, else why not."""
        flight = self.flights.get(flight_id)
        if flight is None or flight.player is None:
            return "this flight has no intercom running"
        result: str | None = await flight.player.rejoin()
        return result

    async def say_now(self, guild_id: int, channel_id: int, lines: Sequence[str], lang: str) -> str | None:
        """A game's announcement, spoken now in `channel_id` (see `Announcer`).  A flight of the
        server owns its voice connection while it runs: the game stays in text then."""
        if any(flight.guild_id == guild_id for flight in self.flights.values()):
            return BUSY_REASON
        guild = self.bot.get_guild(guild_id)
        channel = guild.get_channel(channel_id) if guild is not None else None
        return await self.announcer.say(guild, channel, lines, lang)

    async def _speech(self, guild_id: int) -> Any:
        """PCM speech through the intercom's renderer and cache, with the server's `tts` setting;
        or why there is none."""
        from bot.platform.hosting.server_settings import load_settings
        from voice.pcm_speech import speech_for

        reason = self.service.unavailable_reason()
        if reason:
            return reason
        try:
            tts: str | None = (await load_settings(self.bot.storage, guild_id)).tts
        except Exception:  # a settings read never keeps a line from being spoken
            tts = None
        return speech_for(self.service, tts)

    # -- events ---------------------------------------------------------------------------------

    async def _voice_state_update(self, member: Any, before: Any, after: Any) -> None:
        """The bot itself left voice without asking: a moderator's Disconnect (or a deleted channel).

        discord.py's own reconnect after a dropped voice connection leaves the channel too (and
        the event may arrive after it is back): that is no one's Disconnect.  The two differ in
        what the library does next: after a Disconnect it drops the guild's voice client at once,
        while reconnecting it keeps it.  So the verdict waits (briefly) for one or the other."""
        me = getattr(self.bot, "user", None)
        if me is None or getattr(member, "id", None) != me.id:
            return
        if getattr(before, "channel", None) is None or getattr(after, "channel", None) is not None:
            return
        guild = getattr(member, "guild", None)
        guild_id = getattr(guild, "id", None)
        if not await self._disconnected_by_someone(guild):
            log.info("voice in guild %s: the library reconnects by itself; the intercom goes on", guild_id)
            return
        for flight in self.flights.values():
            if flight.guild_id == guild_id:
                flight.sink.mark_member_disconnect()

    @staticmethod
    async def _disconnected_by_someone(guild: Any, *, wait_s: float | None = None) -> bool:
        """True when the guild's voice client goes away within `wait_s` (a Disconnect: the library
        cleans it up), False when it stays (the library's own reconnect keeps it)."""
        if guild is None or not hasattr(guild, "voice_client"):
            return True  # nothing to tell by: as before, a member's Disconnect
        deadline = time.monotonic() + (DISCONNECT_VERDICT_S if wait_s is None else wait_s)
        while guild.voice_client is not None:
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.05)
        return True

    def _emit(self, handler: Callable[..., Awaitable[None] | None] | None, *args: Any) -> None:
        if handler is None:
            return
        try:
            result = handler(*args)
        except Exception:
            log.exception("voice event handler failed")
            return
        if inspect.isawaitable(result):
            task = asyncio.ensure_future(result)
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _ended(self, flight_id: str, flight: _Flight) -> None:
        if self.flights.get(flight_id) is flight:
            self.flights.pop(flight_id, None)


async def _close(sink: Any) -> None:
    with contextlib.suppress(Exception):
        await sink.close()


# -- lines said now --------------------------------------------------------------------------------
class Speech(Protocol):
    """What the announcer needs of speech (voice.pcm_speech.PcmSpeech): 48 kHz s16 stereo PCM."""

    async def pcm(self, text: str, lang: str) -> bytes | None: ...


#: lines that may wait behind the one being spoken (about half a minute of speech)
MAX_WAITING_LINES = 8

#: 20 ms of 48 kHz s16 stereo: what discord.py's PCMAudio reads at a time
PCM_FRAME_BYTES = 3840


@dataclass
class _Speaker:
    """One server's announcer: where it speaks, with what, and the lines still to say."""

    channel: Any
    speech: Speech
    queue: asyncio.Queue[tuple[str, str]] = field(default_factory=asyncio.Queue)
    client: Any | None = None
    task: asyncio.Task[None] | None = None


class Announcer:
    """Say lines now in a voice channel: a game's announcements, not a flight's timed cues.

    Why apart from the intercom: a flight's intercom plays cues on the flight's own timeline (the
    scheduler); a session game announces what just happened when it happens and has no timeline.
    Speech is the intercom's (`speech(guild_id)` gives a `Speech` or a reason, e.g. the process's
    `VoiceService` through `voice.pcm_speech`), so lines are cached and fall back like its own.

    One speaker per server (Discord gives a bot one voice connection per server): it joins the
    channel of the first lines, plays every line in order behind those still queued, and leaves
    after `idle_s` without a line.  At most `max_waiting` lines wait behind the one being spoken:
    a crew that plays faster than speech would otherwise queue announcements without end (memory,
    and "your move" heard minutes after the move); the oldest waiting line is dropped for a new one,
    with a log line, since the newest says where the game is now (and the text has every line).
    A server whose voice connection is held by anything else (an
    ELITE game, a flight) is answered `busy` and never taken over.  Reasons: `no_channel`,
    `no_opus`, `busy`, or the speech's own reason.
    """

    def __init__(
        self,
        speech: Callable[[int], Awaitable[Any]],
        *,
        idle_s: float = 90.0,
        opus: Callable[[], bool] | None = None,
        max_waiting: int = MAX_WAITING_LINES,
    ) -> None:
        self.speech = speech
        self.idle_s = idle_s
        self.max_waiting = max(1, max_waiting)
        self._opus = opus
        self.speakers: dict[int, _Speaker] = {}

    async def say(self, guild: Any, channel: Any, lines: Sequence[str], lang: str) -> str | None:
        lines = [line for line in lines if line.strip()]
        if not lines:
            return None
        if guild is None or channel is None or not hasattr(channel, "connect"):
            return "no_channel"
        if not self._opus_ready():
            return "no_opus"
        speaker = self.speakers.get(guild.id)
        if speaker is None:
            if getattr(guild, "voice_client", None) is not None:
                return "busy"
            speech = await self.speech(guild.id)
            if isinstance(speech, str):
                return speech
            speaker = self.speakers.get(guild.id)  # another say() may have started one meanwhile
            if speaker is None:
                speaker = _Speaker(channel, speech)
                self.speakers[guild.id] = speaker
                speaker.task = asyncio.create_task(self._run(guild.id, speaker))
        dropped = 0
        for line in lines:
            while speaker.queue.qsize() >= self.max_waiting:
                speaker.queue.get_nowait()  # the oldest line still waiting: the game has moved on
                dropped += 1
            speaker.queue.put_nowait((line, lang))
        if dropped:
            log.info(
                "announcements in guild %s: %d stale lines dropped (queue bound %d)",
                guild.id,
                dropped,
                self.max_waiting,
            )
        return None

    def _opus_ready(self) -> bool:
        if self._opus is not None:
            return self._opus()
        from voice.audio import opus_available

        return bool(opus_available())

    async def _run(self, guild_id: int, speaker: _Speaker) -> None:
        """Say the queued lines one after another; leave once idle (or on a voice error)."""
        import discord

        try:
            while True:
                try:
                    text, lang = await asyncio.wait_for(speaker.queue.get(), self.idle_s)
                except TimeoutError:
                    return
                pcm = await speaker.speech.pcm(text, lang)
                if not pcm:
                    continue  # a line no engine could speak stays in text
                if speaker.client is None:
                    speaker.client = await speaker.channel.connect()
                await _play(speaker.client, pcm)
        except (TimeoutError, discord.DiscordException, OSError) as exc:
            log.warning("announcements in guild %s stopped: %s", guild_id, exc)
        finally:
            if self.speakers.get(guild_id) is speaker:
                self.speakers.pop(guild_id, None)
            if speaker.client is not None:
                with contextlib.suppress(Exception):
                    await speaker.client.disconnect(force=True)

    async def close(self) -> None:
        """Silence and leave everywhere (the bot shuts down)."""
        for speaker in list(self.speakers.values()):
            if speaker.task is not None:
                speaker.task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await speaker.task


async def _play(client: Any, pcm: bytes) -> None:
    """Play one line on the voice client and return when it has been heard."""
    import discord

    if len(pcm) % PCM_FRAME_BYTES:
        pcm += bytes(PCM_FRAME_BYTES - len(pcm) % PCM_FRAME_BYTES)
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def heard() -> None:
        if not done.done():
            done.set_result(None)

    def after(error: Exception | None) -> None:  # on the voice client's thread
        loop.call_soon_threadsafe(heard)

    client.play(discord.PCMAudio(io.BytesIO(pcm)), after=after)
    await asyncio.wait_for(done, timeout=len(pcm) / (PCM_FRAME_BYTES * 50) + 10.0)


def make_voice(bot: Any) -> VoiceBridge:
    """The real intercom when the voice package and its native pieces load, else NullVoice."""
    try:
        return IntercomBridge(bot)
    except Exception as exc:  # voice must never stop the bot from starting
        log.warning("voice intercom unavailable: %s", exc)
        return NullVoice(f"voice intercom unavailable: {exc}")
