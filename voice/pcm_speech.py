"""Speech as PCM for a mixed source, through the intercom's own renderer.

A game that mixes its speech with music (the ELITE director: `voice.music_bed.MixedSource`)
needs 48 kHz s16 PCM, not the intercom's Opus frames.  Synthesis, caching and fallback are the
same problem the intercom solved (`voice.render.Renderer`: any engine's cached clip first, gTTS
raced with espeak-ng behind the stored breaker, clips trimmed to their onset and kept on disk),
so this only turns a rendered `Clip` back into PCM: Opus-decoded in a worker thread and trimmed
to its onset again, so its first audible sample is exactly `LEAD_FRAMES` frames in.  A restart
reads yesterday's clips from the disk cache; nothing is synthesised twice.

`speech_for(service, tts)` honours a server's `tts` setting: ``espeak`` renders with espeak-ng
only (same cache, same keys), anything else uses the service's renderer (gTTS first when it is
healthy).  Decoded lines are kept per game in a small dict (a game says about twenty lines).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from voice.audio import LEAD_FRAMES, Clip, decode_opus, trim_to_onset
from voice.render import Blocking, Renderer
from voice.tts import SpeechEngines

log = logging.getLogger(__name__)

MAX_LINES = 256  # a game's lines, many times over; a bound, not a tuning knob


def clip_to_pcm(clip: Clip) -> bytes:
    """A rendered clip as PCM whose first audible sample starts frame `LEAD_FRAMES` (b"" if silent)."""
    if clip.source == "silence" or not clip.frames:
        return b""
    return trim_to_onset(decode_opus(clip.frames))


class PcmSpeech:
    """Lines as PCM: the renderer's clip (cache, engines, breaker), decoded once per game."""

    lead_frames = LEAD_FRAMES

    def __init__(self, renderer: Renderer, *, run_blocking: Blocking = asyncio.to_thread) -> None:
        self.renderer = renderer
        self._blocking = run_blocking
        self._pcm: dict[tuple[str, str], bytes] = {}
        self._rendering: dict[tuple[str, str], asyncio.Future[bytes | None]] = {}
        self.sources: dict[str, int] = {}  # engine name -> lines it rendered (cache hits included)

    def ready(self, text: str, lang: str) -> bytes | None:
        """A line already decoded, without waiting (the timer's planner uses this)."""
        return self._pcm.get((text, lang))

    async def pcm(self, text: str, lang: str) -> bytes | None:
        """The line as PCM; None when no engine could speak it (the game goes on in text)."""
        found = self._pcm.get((text, lang))
        if found is not None:
            return found
        busy = self._rendering.get((text, lang))
        if busy is not None:  # the same line asked for twice at once (prepare and a planned call)
            return await asyncio.shield(busy)
        task = asyncio.ensure_future(self._render(text, lang))
        self._rendering[(text, lang)] = task
        task.add_done_callback(lambda _: self._rendering.pop((text, lang), None))
        return await asyncio.shield(task)

    async def _render(self, text: str, lang: str) -> bytes | None:
        try:
            clip = await self.renderer.speech(text, lang)
            pcm: bytes = await self._blocking(clip_to_pcm, clip)
        except Exception as exc:  # TTSError or bad audio: a line that cannot be spoken stays in text
            log.warning("line %r (%s) could not be rendered: %s", text, lang, exc)
            return None
        if not pcm:
            return None
        self.sources[clip.source] = self.sources.get(clip.source, 0) + 1
        if len(self._pcm) >= MAX_LINES:
            self._pcm.pop(next(iter(self._pcm)))
        self._pcm[(text, lang)] = pcm
        return pcm


def speech_for(service: Any, tts: str | None = None) -> PcmSpeech:
    """PCM speech through a `VoiceService`, honouring a server's `tts` setting (see the module doc)."""
    renderer: Renderer = service.renderer
    engines: SpeechEngines = service.engines
    if tts == "espeak" and engines.primary is not None and engines.fallback is not None:
        offline = SpeechEngines(None, engines.fallback, engines.breaker)
        renderer = Renderer(
            offline,
            service.cache,
            service.effects,
            concurrency=service.config.render_concurrency,
            online_budget_s=service.config.online_budget_s,
            run_blocking=service._blocking,
        )
    return PcmSpeech(renderer, run_blocking=service._blocking)
