"""Rendering a piece of text to a `Clip`: any engine's cached clip first, then a race of the engines.

The order for one (text, language):

1. every engine's cache entry, best engine first: a gTTS rendering made yesterday is used even
   while gTTS is blocked today, and a hit costs one memory lookup (or one small file read).  The
   network is never touched when any engine's clip is on disk;
2. on a miss, the online engine (gTTS, if its breaker allows) and espeak-ng start together.  gTTS
   gets a short budget (`budget_s`, shortened by the caller when the line is due soon); when it is
   late or fails, espeak-ng's clip is used and the breaker opens, so a hanging Google never delays a
   line.  A gTTS answer that arrives after its budget is still cached for next time.

Decoding (miniaudio), trimming and Opus encoding run in worker threads: the C libraries release
the GIL, so pre-rendering a mission uses both cores and never blocks the event loop.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from voice.audio import LEAD_FRAMES, Clip, decode_to_pcm, encode_opus, trim_to_onset
from voice.cache import AudioCache, cache_key
from voice.effects import EffectBank
from voice.tts import SpeechEngines, TTSBackend, TTSError, TTSRateLimited, TTSTimeout, TTSUnavailable

log = logging.getLogger(__name__)

#: Runs a blocking function off the event loop (`asyncio.to_thread`, or inline in tests).
Blocking = Callable[..., Awaitable[Any]]


@dataclass
class RenderStats:
    """What one pre-render did; the bot may log it, the bench prints it."""

    requested: int = 0
    cache_hits: int = 0
    synthesized: dict[str, int] = field(default_factory=dict)
    fallbacks: int = 0
    errors: list[str] = field(default_factory=list)


class Renderer:
    """Turns (text, language) into Opus clips, through the cache, racing the online engine."""

    def __init__(
        self,
        engines: SpeechEngines,
        cache: AudioCache,
        effects: EffectBank | None = None,
        *,
        concurrency: int = 4,
        online_budget_s: float = 1.5,
        run_blocking: Blocking = asyncio.to_thread,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.engines = engines
        self.cache = cache
        self.effects = effects or EffectBank()
        self.concurrency = max(1, concurrency)
        self.online_budget_s = online_budget_s
        self._blocking = run_blocking  # file and codec work off the loop; tests run it inline
        self._sleep = sleep
        self._late: set[asyncio.Future[Any]] = set()  # gTTS answers still on their way

    def _keys(self, text: str, lang: str, offline_only: bool = False) -> list[tuple[TTSBackend, str]]:
        engines = [b for b in self.engines.order(lang) if not (offline_only and b is self.engines.primary)]
        return [(b, cache_key(b.name, b.voice(lang), lang, text)) for b in engines]

    async def cached(self, text: str, lang: str, offline_only: bool = False) -> Clip | None:
        """Any engine's cached clip (memory first for all, then disk), best engine first."""
        keys = self._keys(text, lang, offline_only)
        for _, key in keys:
            clip = self.cache.get_memory(key)
            if clip is not None:
                return clip
        for _, key in keys:
            found: Clip | None = await self._blocking(self.cache.get, key)
            if found is not None:
                return found
        return None

    async def speech(
        self,
        text: str,
        lang: str,
        stats: RenderStats | None = None,
        *,
        budget_s: float | None = None,
        offline_only: bool = False,
    ) -> Clip:
        """One line of speech as a clip; raises TTSError only if no engine at all could speak it.

        `budget_s` caps how long the online engine may take for this line (default and maximum
        `online_budget_s`); espeak-ng renders meanwhile, so the answer is never much later.
        `offline_only` (a server that chose espeak-ng) leaves the online engine out entirely, its
        cached clips included, so the flight sounds the same from its first line to its last.
        """
        stats = stats if stats is not None else RenderStats()
        keys = self._keys(text, lang, offline_only)
        if not keys:
            raise TTSUnavailable(f"no speech engine for language {lang!r} ({self.engines.describe()})")
        clip = await self.cached(text, lang, offline_only)
        if clip is not None:
            stats.cache_hits += 1
            return clip
        errors: list[str] = []
        online = next(((b, k) for b, k in keys if b is self.engines.primary), None)
        offline = [(b, k) for b, k in keys if b is not self.engines.primary]
        offline_task = asyncio.ensure_future(self._offline(offline, text, lang, errors)) if offline else None
        if online is not None:
            if not self.engines.breaker.allow():
                errors.append(f"{online[0].name}: paused after an earlier failure")
            else:
                limit = self.online_budget_s if budget_s is None else max(0.0, min(budget_s, self.online_budget_s))
                if offline_task is None:  # nothing to race against: wait for the engine's own deadline
                    limit = max(limit, float(getattr(online[0], "timeout_s", 10.0)) + 1.0)
                clip = await self._online(online, text, lang, limit, errors)
                if clip is not None:
                    if offline_task is not None:
                        self._keep_late(offline_task)
                    self._count(stats, clip.source, fallback=False)
                    return clip
        if offline_task is not None:
            clip = await offline_task
            if clip is not None:
                self._count(stats, clip.source, fallback=online is not None)
                return clip
        raise TTSError(f"could not speak {text!r} in {lang}: " + "; ".join(errors))

    async def _render(self, backend: TTSBackend, key: str, text: str, lang: str) -> Clip:
        """Synthesize, decode, trim, encode and cache (the CPU parts in a worker thread)."""
        data = await backend.synthesize(text, lang)
        clip: Clip = await self._blocking(self._finish, data, backend.name)
        await self._blocking(self.cache.put, key, clip)
        return clip

    async def _online(
        self, online: tuple[TTSBackend, str], text: str, lang: str, limit: float, errors: list[str]
    ) -> Clip | None:
        """The online engine within `limit` seconds, with the breaker told the outcome."""
        backend, key = online
        task = asyncio.ensure_future(self._render(backend, key, text, lang))
        timer = asyncio.ensure_future(self._sleep(limit))
        try:
            await asyncio.wait({task, timer}, return_when=asyncio.FIRST_COMPLETED)
        except asyncio.CancelledError:  # shutting down: leave no task pending behind us
            task.cancel()
            raise
        finally:
            timer.cancel()
        done = task.done()
        if done and not task.cancelled() and task.exception() is None:
            self.engines.breaker.record_success()
            return task.result()
        exc: BaseException | None
        if done:
            exc = TTSError("cancelled", backend=backend.name) if task.cancelled() else task.exception()
        else:
            exc = TTSTimeout(f"{backend.name} did not answer within {limit:g} s", backend=backend.name)
            self._keep_late(task)  # a late answer is still cached for the next flight
        errors.append(f"{backend.name}: {exc}")
        self.engines.breaker.record_failure(exc or "failed", rate_limited=isinstance(exc, TTSRateLimited))
        log.warning("%s failed or was too slow (%s); espeak-ng speaks until it recovers", backend.name, exc)
        return None

    async def _offline(
        self, engines: list[tuple[TTSBackend, str]], text: str, lang: str, errors: list[str]
    ) -> Clip | None:
        for backend, key in engines:
            try:
                return await self._render(backend, key, text, lang)
            except TTSError as exc:
                errors.append(f"{backend.name}: {exc}")
            except Exception as exc:  # bad audio from the engine: try the next one
                errors.append(f"{backend.name}: {type(exc).__name__}: {exc}")
        return None

    def _keep_late(self, task: asyncio.Future[Clip | None] | asyncio.Future[Clip]) -> None:
        """Let a slower engine finish in the background (its clip is cached when it lands)."""
        self._late.add(task)

        def forget(t: asyncio.Future[Any]) -> None:
            self._late.discard(t)
            if not t.cancelled():
                t.exception()  # retrieved, so asyncio does not log it as never retrieved

        task.add_done_callback(forget)

    def render_in_order(
        self,
        items: Sequence[tuple[str, str]],
        stats: RenderStats,
        *,
        budget: Callable[[int], float | None] | None = None,
        offline_only: bool = False,
    ) -> tuple[dict[tuple[str, str], asyncio.Future[Clip | None]], asyncio.Task[None]]:
        """Start rendering distinct (text, lang) pairs in the given (schedule) order.

        Returns one future per pair, resolved (None if no engine could speak it; the reason goes
        to `stats.errors`) as soon as it is ready, and the task doing the work.  The first pair
        renders alone when there is an online engine (if it is down, the breaker trips once instead
        of every parallel request waiting for its budget); the rest `concurrency` at a time, in
        order.  `budget(i)` is the online engine's budget for the i-th pair (its deadline).
        `offline_only`: espeak-ng only (see `speech`).
        """
        loop = asyncio.get_running_loop()
        unique = list(dict.fromkeys(items))
        stats.requested += len(unique)
        futures: dict[tuple[str, str], asyncio.Future[Clip | None]] = {k: loop.create_future() for k in unique}
        sem = asyncio.Semaphore(self.concurrency)

        async def one(i: int, item: tuple[str, str]) -> None:
            async with sem:
                try:
                    clip: Clip | None = await self.speech(
                        *item, stats, budget_s=budget(i) if budget else None, offline_only=offline_only
                    )
                except TTSError as exc:
                    stats.errors.append(str(exc))
                    clip = None
                except Exception as exc:  # never leave a line waiting forever
                    stats.errors.append(f"{type(exc).__name__}: {exc}")
                    clip = None
            futures[item].set_result(clip)

        async def run() -> None:
            jobs = list(enumerate(unique))
            if jobs and self.engines.primary is not None and not offline_only:
                await one(*jobs.pop(0))
            await asyncio.gather(*(one(i, item) for i, item in jobs))

        return futures, asyncio.ensure_future(run())

    async def render_many(
        self, items: Sequence[tuple[str, str]], stats: RenderStats | None = None
    ) -> dict[tuple[str, str], Clip]:
        """Render distinct pairs (see `render_in_order`) and wait for all; unspeakable ones are left out."""
        futures, task = self.render_in_order(items, stats if stats is not None else RenderStats())
        await task
        return {k: clip for k, f in futures.items() if (clip := f.result()) is not None}

    @staticmethod
    def _count(stats: RenderStats, name: str, *, fallback: bool) -> None:
        if fallback:
            stats.fallbacks += 1
        stats.synthesized[name] = stats.synthesized.get(name, 0) + 1

    @staticmethod
    def _finish(data: bytes, source: str) -> Clip:
        pcm = trim_to_onset(decode_to_pcm(data))
        if not pcm:
            raise TTSError(f"{source} produced only silence", backend=source)
        return Clip(tuple(encode_opus(pcm)), source, LEAD_FRAMES)
