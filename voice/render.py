"""Rendering a piece of text to a `Clip`: cache first, then the engines in order, then the cache again.

The order for one (text, language):

1. every engine's cache entry, best engine first: a gTTS rendering made yesterday is used even
   while gTTS is blocked today, and a hit costs one memory lookup (or one small file read);
2. the primary engine (gTTS) if its breaker allows;
3. the fallback engine (espeak-ng).

Decoding (miniaudio), trimming and Opus encoding run in worker threads: the C libraries release
the GIL, so pre-rendering a mission uses both cores and never blocks the event loop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from dataclasses import dataclass, field

from voice.audio import Clip, decode_to_pcm, encode_opus, trim_silence
from voice.cache import AudioCache, cache_key
from voice.effects import EffectBank
from voice.tts import SpeechEngines, TTSBackend, TTSError, TTSRateLimited, TTSUnavailable

log = logging.getLogger(__name__)


@dataclass
class RenderStats:
    """What one pre-render did; the bot may log it, the bench prints it."""

    requested: int = 0
    cache_hits: int = 0
    synthesized: dict[str, int] = field(default_factory=dict)
    fallbacks: int = 0
    errors: list[str] = field(default_factory=list)


class Renderer:
    """Turns (text, language) into Opus clips, through the cache, with bounded parallelism."""

    def __init__(
        self,
        engines: SpeechEngines,
        cache: AudioCache,
        effects: EffectBank | None = None,
        *,
        concurrency: int = 4,
    ) -> None:
        self.engines = engines
        self.cache = cache
        self.effects = effects or EffectBank()
        self.concurrency = max(1, concurrency)

    def _keys(self, text: str, lang: str) -> list[tuple[TTSBackend, str]]:
        return [(b, cache_key(b.name, b.voice(lang), lang, text)) for b in self.engines.order(lang)]

    async def speech(self, text: str, lang: str, stats: RenderStats | None = None) -> Clip:
        """One line of speech as a clip; raises TTSError only if no engine at all could speak it."""
        stats = stats if stats is not None else RenderStats()
        keys = self._keys(text, lang)
        if not keys:
            raise TTSUnavailable(f"no speech engine for language {lang!r} ({self.engines.describe()})")
        errors: list[str] = []
        for backend, key in keys:
            # Each engine in order: its cache entry (memory, then disk in a thread), then synthesis.
            # So a healthy gTTS replaces an espeak-ng rendering left from an outage, while a paused
            # gTTS falls through to the espeak-ng entry at no cost.
            clip = self.cache.get_memory(key) or await asyncio.to_thread(self.cache.get, key)
            if clip is not None:
                stats.cache_hits += 1
                return clip
            guarded = backend is self.engines.primary
            if guarded and not self.engines.breaker.allow():
                errors.append(f"{backend.name}: paused after an earlier failure")
                continue
            try:
                data = await backend.synthesize(text, lang)
                clip = await asyncio.to_thread(self._finish, data, backend.name)
            except TTSError as exc:
                errors.append(f"{backend.name}: {exc}")
                if guarded:
                    self.engines.breaker.record_failure(exc, rate_limited=isinstance(exc, TTSRateLimited))
                    log.warning("gTTS failed (%s); using espeak-ng until it recovers", exc)
                continue
            except Exception as exc:  # bad audio from the engine: count as an engine failure
                errors.append(f"{backend.name}: {type(exc).__name__}: {exc}")
                if guarded:
                    self.engines.breaker.record_failure(exc)
                continue
            if guarded:
                self.engines.breaker.record_success()
            if backend is not keys[0][0]:
                stats.fallbacks += 1
            stats.synthesized[backend.name] = stats.synthesized.get(backend.name, 0) + 1
            await asyncio.to_thread(self.cache.put, key, clip)
            return clip
        raise TTSError(f"could not speak {text!r} in {lang}: " + "; ".join(errors))

    @staticmethod
    def _finish(data: bytes, source: str) -> Clip:
        pcm = trim_silence(decode_to_pcm(data))
        if not pcm:
            raise TTSError(f"{source} produced only silence", backend=source)
        return Clip(tuple(encode_opus(pcm)), source)

    async def render_many(
        self, items: Iterable[tuple[str, str]], stats: RenderStats | None = None
    ) -> dict[tuple[str, str], Clip]:
        """Render distinct (text, lang) pairs in parallel, at most `concurrency` at once.

        A pair that no engine can speak is reported in `stats.errors` and left out of the result,
        so one bad line does not sink the whole flight's voice.
        """
        stats = stats if stats is not None else RenderStats()
        unique = list(dict.fromkeys(items))
        stats.requested += len(unique)
        sem = asyncio.Semaphore(self.concurrency)
        out: dict[tuple[str, str], Clip] = {}

        async def one(item: tuple[str, str]) -> None:
            text, lang = item
            # Fast path outside the semaphore: memory hits cost nothing.  A fallback entry only
            # counts while the primary engine is paused (otherwise the primary gets its chance).
            for backend, key in self._keys(text, lang):
                clip = self.cache.get_memory(key)
                if clip is not None:
                    stats.cache_hits += 1
                    out[item] = clip
                    return
                if backend is self.engines.primary and self.engines.breaker.state != "open":
                    break
            async with sem:
                try:
                    out[item] = await self.speech(text, lang, stats)
                except TTSError as exc:
                    stats.errors.append(str(exc))

        if unique and self.engines.primary is not None:
            # One line first: if gTTS is down, the breaker trips once instead of every parallel
            # request waiting for its own timeout.
            await one(unique[0])
            unique = unique[1:]
        await asyncio.gather(*(one(i) for i in unique))
        return out
