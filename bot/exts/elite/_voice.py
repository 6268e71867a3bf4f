"""ELITE in voice: one mixed PCM source (music bed + speech) per game, speech pre-rendered.

discord.py plays one source at a time, so the bed and the calls go through `MixedSource`.  Every
line the timer can say is rendered (espeak-ng, offline) before the Start button is pressed, so a
call is never late for synthesis; a line that was not pre-rendered is rendered on demand.
Voice is optional: without a voice channel, opus or espeak-ng, the game runs in text.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from typing import Any

import discord

from voice.audio import decode_to_pcm, opus_available, trim_silence
from voice.music_bed import MixedSource, MusicBed, as_discord_source
from voice.tts import EspeakBackend

log = logging.getLogger(__name__)


class EliteVoice:
    def __init__(self, lang: str, seconds_left: Callable[[], float], *, tts: Any | None = None) -> None:
        self.lang = lang
        self.tts = tts or EspeakBackend()
        self.bed = MusicBed()
        self.source = MixedSource(self.bed, seconds_left)
        self.source.music_on = False
        self.client: discord.VoiceClient | None = None
        self._pcm: dict[str, bytes] = {}

    async def connect(self, member: Any) -> str | None:
        """Join the member's voice channel and start the source; returns why not, or None."""
        channel = getattr(getattr(member, "voice", None), "channel", None)
        if channel is None:
            return "join a voice channel to hear the timer"
        if not opus_available():
            return "voice is unavailable on this host (libopus missing)"
        try:
            await asyncio.to_thread(self.bed.prepare)
            self.client = await channel.connect()
            self.client.play(as_discord_source(self.source))
        except (TimeoutError, discord.DiscordException, OSError) as exc:
            log.warning("ELITE voice could not connect: %s", exc)
            return "the bot could not join the voice channel"
        return None

    async def prepare(self, lines: Iterable[str]) -> None:
        for line in lines:
            await self._render(line)

    async def _render(self, line: str) -> bytes | None:
        if line in self._pcm:
            return self._pcm[line]
        try:
            audio = await self.tts.synthesize(line, self.lang)
            pcm = await asyncio.to_thread(lambda: trim_silence(decode_to_pcm(audio)))
        except Exception as exc:  # a line that cannot be spoken stays in text
            log.warning("ELITE line %r could not be rendered: %s", line, exc)
            return None
        self._pcm[line] = pcm
        return pcm

    async def say(self, lines: Iterable[str], *, interrupt: bool = False) -> None:
        """Speak lines in order; `interrupt` (timer calls) first drops speech still queued."""
        if self.client is None:
            return
        for line in lines:
            pcm = await self._render(line)
            if pcm:
                self.source.say(pcm, interrupt=interrupt)
                interrupt = False

    def music(self, on: bool) -> None:
        self.source.music_on = on

    async def close(self) -> None:
        if self.client is not None:
            with contextlib.suppress(discord.DiscordException):
                await self.client.disconnect(force=True)
            self.client = None
