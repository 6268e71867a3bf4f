"""The only module of `voice` that touches discord.py: audio sources, the VoiceClient sink, joining.

Kept small on purpose: everything above it (rendering, scheduling, lateness) is tested without
Discord, and this glue is tested with spec'd fakes of discord.py objects.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import Any

import discord

from voice.audio import FRAME_BYTES
from voice.mixer import FrameMixer

log = logging.getLogger(__name__)


class OpusFrameSource(discord.AudioSource):
    """Pre-encoded 20 ms Opus packets: `is_opus()` is True, so discord.py never runs the encoder.

    `read()` is called from discord.py's player thread; it only indexes a tuple, which is why a
    speaking flight costs almost no CPU.  With `loop=True` the frames repeat until the player is
    stopped (static, klaxon).
    """

    def __init__(self, frames: Sequence[bytes], *, loop: bool = False) -> None:
        self._frames = tuple(frames)
        self._loop = loop and bool(self._frames)
        self._i = 0

    def read(self) -> bytes:
        frames = self._frames
        if self._i >= len(frames):
            if not self._loop:
                return b""
            self._i = 0
        frame = frames[self._i]
        self._i += 1
        return frame

    def is_opus(self) -> bool:
        return True


class IntercomSource(discord.AudioSource):
    """The flight's one long-lived source: each 20 ms read asks the `FrameMixer` for the next frame.

    Speech, effects, static and silence are all pre-encoded Opus, so discord.py never encodes, and
    the player is never stopped or restarted between sounds (no closing silence mid-intercom).
    The stream ends (b"") only when the mixer is drained or stopped.
    """

    def __init__(self, mixer: FrameMixer) -> None:
        self.mixer = mixer
        self.retired = False

    def read(self) -> bytes:
        # A player left behind on an old connection must not take frames from the new one.
        return b"" if self.retired else self.mixer.read()

    def is_opus(self) -> bool:
        return True


class PCMFrameSource(discord.AudioSource):
    """Raw 48 kHz stereo PCM frames (discord.py encodes each one): the costly path, kept for the bench."""

    def __init__(self, pcm: bytes) -> None:
        self._pcm = memoryview(pcm)
        self._pos = 0

    def read(self) -> bytes:
        chunk = bytes(self._pcm[self._pos : self._pos + FRAME_BYTES])
        self._pos += FRAME_BYTES
        if len(chunk) < FRAME_BYTES:
            return b""
        return chunk

    def is_opus(self) -> bool:
        return False


# -- permissions and connecting ------------------------------------------------------------------


def voice_permission_problem(channel: Any, me: Any) -> str | None:
    """Why the bot cannot speak in `channel` (None if it can).  Checked before connecting, so the
    crew gets a clear sentence instead of a 403 or a silent intercom."""
    if channel is None:
        return "the host is not in a voice channel"
    perms = channel.permissions_for(me)
    name = getattr(channel, "name", "the voice channel")
    if not perms.view_channel:
        return f"I cannot see the voice channel {name}"
    if not perms.connect:
        return f"I lack the Connect permission in {name}"
    if not perms.speak:
        return f"I lack the Speak permission in {name}"
    limit = getattr(channel, "user_limit", 0) or 0
    members = getattr(channel, "members", []) or []
    if limit and len(members) >= limit and not perms.move_members and me not in members:
        return f"the voice channel {name} is full"
    return None


def describe_voice_error(exc: BaseException) -> str:
    """A short, human-readable reason for a failed voice connection."""
    code = getattr(exc, "code", None)
    if isinstance(exc, TimeoutError):
        return "connecting to voice timed out"
    if code == 4017:
        return "Discord requires end-to-end encrypted voice (DAVE); install discord.py[voice] >= 2.7.1"
    if code == 4014:
        return "I was disconnected from voice (kicked or the channel was deleted)"
    if isinstance(exc, RuntimeError) and "davey" in str(exc):
        return "voice support is not installed (discord.py[voice] with davey)"
    if isinstance(exc, discord.opus.OpusNotLoaded):
        return "libopus is not installed (Debian package libopus0)"
    if isinstance(exc, discord.Forbidden):
        return "Discord refused the voice connection (missing permissions)"
    return f"voice connection failed: {type(exc).__name__}: {exc}"


async def connect_voice(channel: Any, *, timeout: float = 20.0) -> tuple[Any | None, str | None]:
    """Join `channel` (or move there), cleaning up a stale voice client first.

    Returns (voice_client, None) or (None, reason).
    """
    guild = channel.guild
    problem = voice_permission_problem(channel, guild.me)
    if problem is not None:
        return None, problem
    vc = guild.voice_client
    try:
        if vc is not None:
            if vc.is_connected():
                if vc.channel is None or vc.channel.id != channel.id:
                    await vc.move_to(channel, timeout=timeout)
                return vc, None
            # A stale client from a dropped session: throw it away before joining again.
            with contextlib.suppress(Exception):
                await vc.disconnect(force=True)
        vc = await channel.connect(timeout=timeout, reconnect=True, self_deaf=True)
        return vc, None
    except Exception as exc:
        return None, describe_voice_error(exc)


class DiscordVoiceSink:
    """`VoiceSink` over a `discord.VoiceClient`, playing the flight's mixer through one player.

    `channel_resolver` returns where the intercom should be now: normally the host's current voice
    channel, else the channel the flight started in.  A sink that is connected elsewhere counts as
    disconnected, so the scheduler's reconnect moves it to the host.  `voice_client` may be None:
    the scheduler's first `reconnect` then joins (in the background of the flight).

    `mark_member_disconnect()` is called by the bot's voice-state listener when someone else took
    the bot out of voice; our own `close()` is not such a disconnect.
    """

    def __init__(
        self,
        voice_client: Any | None,
        *,
        channel_resolver: Callable[[], Any | None] | None = None,
        connect_timeout: float = 20.0,
    ) -> None:
        self.vc: Any = voice_client
        self._resolve = channel_resolver or (lambda: getattr(self.vc, "channel", None))
        self.connect_timeout = connect_timeout
        self.member_disconnected = False
        self.closing = False
        self._reconnecting = False
        self._source: IntercomSource | None = None
        self._playing_on: Any = None  # the voice client whose player reads our source

    def is_connected(self) -> bool:
        vc = self.vc
        if vc is None or not vc.is_connected():
            return False
        wanted = self._resolve()
        return wanted is None or vc.channel is None or vc.channel.id == wanted.id

    def is_playing(self) -> bool:
        vc = self.vc
        if vc is None or vc is not self._playing_on:
            return False
        return bool(vc.is_playing())

    def attach(self, mixer: FrameMixer) -> None:
        vc = self.vc
        if vc is None:
            raise RuntimeError("not connected to voice")
        if self.is_playing():
            return
        if vc.is_playing():
            vc.stop()  # something else was playing on this connection; the intercom owns it now
        if self._source is not None:
            self._source.retired = True  # one reader per mixer, whatever happened to the old player
        source = self._source = IntercomSource(mixer)
        vc.play(source, after=self._after)
        self._playing_on = vc

    def _after(self, error: BaseException | None) -> None:
        """The player thread ended (stream over, or the connection stayed down): the watchdog decides."""
        if error is not None:
            log.info("intercom player ended: %s", error)
        self._playing_on = None

    def mark_member_disconnect(self) -> None:
        """Someone else took the bot out of voice (ignored while we leave or re-join ourselves)."""
        if not self.closing and not self._reconnecting:
            self.member_disconnected = True

    async def reconnect(self) -> str | None:
        channel = self._resolve()
        if channel is None:
            return "no voice channel to join"
        self._reconnecting = True
        try:
            vc, reason = await connect_voice(channel, timeout=self.connect_timeout)
        finally:
            self._reconnecting = False
        if vc is not None:
            self.vc = vc
            self.closing = False
        return reason

    async def close(self) -> None:
        self.closing = True
        vc, self.vc = self.vc, None
        self._playing_on = None
        if vc is not None:
            with contextlib.suppress(Exception):
                vc.stop()
                await asyncio.wait_for(vc.disconnect(force=False), 10)


def host_channel_resolver(guild: Any, host_id: int, fallback_channel_id: int | None) -> Callable[[], Any | None]:
    """Where the intercom belongs: the host's voice channel now, else the flight's original channel."""

    def resolve() -> Any | None:
        member = guild.get_member(host_id)
        voice = getattr(member, "voice", None)
        if voice is not None and voice.channel is not None:
            return voice.channel
        return guild.get_channel(fallback_channel_id) if fallback_channel_id is not None else None

    return resolve


async def connect_for_host(host: Any, *, timeout: float = 20.0) -> tuple[DiscordVoiceSink | None, str | None]:
    """Join the host's voice channel and return a sink that follows the host; or (None, reason)."""
    voice = getattr(host, "voice", None)
    channel = getattr(voice, "channel", None)
    if channel is None:
        return None, "the host is not in a voice channel"
    vc, reason = await connect_voice(channel, timeout=timeout)
    if vc is None:
        return None, reason
    resolver = host_channel_resolver(channel.guild, host.id, channel.id)
    return DiscordVoiceSink(vc, channel_resolver=resolver, connect_timeout=timeout), None
