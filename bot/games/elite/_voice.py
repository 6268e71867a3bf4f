"""ELITE in voice: one mixed PCM source (music bed + speech) per game, speech from the voice service.

discord.py plays one source at a time, so the bed and the speech go through `MixedSource`.  The
speech comes from the project's voice service (`voice.pcm_speech`: the intercom's renderer, its
disk cache and gTTS/espeak-ng fallback, the server's `tts` setting honoured), so a restart does
not synthesise again and Russian lines use gTTS while it is healthy.

Timer calls are planned, not spoken when the event loop gets to them: whenever the timer starts,
resumes or changes, `plan_calls` hands the source every call still to come with its instant on
the timer's clock, and the source's player thread starts each one on the frame that puts its
first audible sample on that instant.  A pause takes the planned calls back.  Announcements
(button presses) are queued behind whatever is playing.

Voice is optional: without a voice channel, opus or a speech engine the game runs in text;
`connect` returns a reason code (`elite.voice.<code>` in the locale tables) instead of raising.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

import discord

from voice.audio import opus_available
from voice.music_bed import MixedSource, MusicBed, as_discord_source

log = logging.getLogger(__name__)

#: connect()'s reasons, each a locale key `elite.voice.<code>`
REASONS = ("no_channel", "channel_gone", "no_opus", "no_speech", "cannot_join")


class Speech(Protocol):
    """What EliteVoice needs of speech (voice.pcm_speech.PcmSpeech)."""

    lead_frames: int

    def ready(self, text: str, lang: str) -> bytes | None: ...

    async def pcm(self, text: str, lang: str) -> bytes | None: ...


class EliteVoice:
    def __init__(
        self,
        lang: str,
        seconds_left: Callable[[], float],
        speech: Speech,
        *,
        clock: Callable[[], float],
        bed: MusicBed | None = None,
    ) -> None:
        self.lang = lang
        self.speech = speech
        self.clock = clock
        self.bed = bed or MusicBed()
        self.source = MixedSource(self.bed, seconds_left, clock=clock)
        self.source.music_on = False
        self.client: Any | None = None
        self.channel_id: int | None = None
        self._pending: set[asyncio.Task[None]] = set()
        self._plan_version = 0
        self._plan_end: float | None = None  # the timer end the calls in the source were planned for

    # -- joining -----------------------------------------------------------------------------------
    async def connect(self, member: Any) -> str | None:
        """Join the member's voice channel and start the source; a reason code, or None."""
        channel = getattr(getattr(member, "voice", None), "channel", None)
        if channel is None:
            return "no_channel"
        return await self.connect_to(channel)

    async def connect_to(self, channel: Any) -> str | None:
        """Join `channel` (a stored one after a restart) and start the source; a reason code, or None."""
        if channel is None or not hasattr(channel, "connect"):
            return "channel_gone"
        if not opus_available():
            return "no_opus"
        try:
            await asyncio.to_thread(self.bed.prepare)
            self.client = await channel.connect()
            self.client.play(as_discord_source(self.source))
        except (TimeoutError, discord.DiscordException, OSError) as exc:
            log.warning("ELITE voice could not connect: %s", exc)
            await self.close()
            return "cannot_join"
        self.channel_id = getattr(channel, "id", None)
        return None

    @property
    def connected(self) -> bool:
        return self.client is not None

    # -- speech ------------------------------------------------------------------------------------
    async def prepare(self, lines: Iterable[str]) -> None:
        """Render lines ahead (the timer's calls before Start): cache hits after a restart."""
        for line in lines:
            await self.speech.pcm(line, self.lang)

    async def say(self, lines: Iterable[str]) -> None:
        """Announcements: spoken in order, behind whatever is playing."""
        if self.client is None:
            return
        for line in lines:
            pcm = await self.speech.pcm(line, self.lang)
            if pcm:
                self.source.say(pcm)

    def plan_calls(self, plan: Sequence[tuple[float, Any, str]], *, end: float | None = None) -> None:
        """Hand the source every call to come: (instant on the timer's clock, key, words).

        Replaces the previous plan (calls not started yet), unless it was made for the same
        timer `end`: then the source already holds it, minus the calls it has played.  A call
        whose words are not rendered yet is rendered now and handed over when ready (the source
        drops it if that is too late).
        """
        if self.client is None:
            return
        if end is not None and self._plan_end is not None and abs(end - self._plan_end) < 1e-6:
            return
        self._plan_end = end
        self._plan_version += 1
        self.source.drop_calls(after=self.clock())
        for due, key, words in plan:
            pcm = self.speech.ready(words, self.lang)
            if pcm is not None:
                self.source.at(due, pcm, key=key, lead_frames=self.speech.lead_frames)
            else:
                task = asyncio.create_task(self._late(self._plan_version, due, key, words))
                self._pending.add(task)
                task.add_done_callback(self._pending.discard)

    async def _late(self, version: int, due: float, key: Any, words: str) -> None:
        pcm = await self.speech.pcm(words, self.lang)
        if pcm and version == self._plan_version and self.client is not None:
            self.source.at(due, pcm, key=key, lead_frames=self.speech.lead_frames)

    def forget_plan(self) -> None:
        """The next `plan_calls` replaces the plan even for the same timer end."""
        self._plan_end = None

    def cancel_calls(self) -> None:
        """A pause (or the end): the calls not started yet are taken back."""
        self._plan_end = None
        self._plan_version += 1
        self.source.drop_calls(after=self.clock())

    def music(self, on: bool) -> None:
        self.source.music_on = on

    async def close(self) -> None:
        self._plan_version += 1
        for task in list(self._pending):
            task.cancel()
        self.source.drop_calls()
        if self.client is not None:
            with contextlib.suppress(discord.DiscordException):
                await self.client.disconnect(force=True)
            self.client = None
