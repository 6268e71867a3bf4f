"""The API the Discord adapter calls: one `VoiceService` per process, one `IntercomPlayer` per flight.

Typical use in `bot/`::

    service = VoiceService(VoiceConfig(tts_backend=settings.tts_backend, time_scale=settings.time_scale,
                                       cache_dir=data_dir / "voice-cache"))
    ...
    sink, reason = await connect_for_host(host_member, text_channel_fallback=...)   # voice.discord_sink
    player = service.player(sink, on_problem=lambda why: post_once(channel, why))
    await player.prepare(intercom_script(timeline, lang))     # before the countdown to launch
    player.start(mission_start_monotonic)                     # same instant the flight clock uses
    ...
    report = await player.stop()                              # or: await player.wait()

`prepare` renders every line through the cache (in parallel, bounded), so nothing during the
flight waits on synthesis or the network.  `sink` may be None when voice is unavailable: the
player then only reports, and the flight continues in text.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from voice.cache import AudioCache
from voice.config import VoiceConfig
from voice.effects import RED_ALERT, STATIC, EffectBank
from voice.lines import CueLike, Line, build_lines, speech_items
from voice.render import Renderer, RenderStats
from voice.scheduler import Clock, PlaybackScheduler, Sleeper
from voice.sink import LineRecord, VoiceReport, VoiceSink
from voice.tts import SpeechEngines, make_engines

log = logging.getLogger(__name__)


@dataclass
class PrepareResult:
    """What pre-rendering did: how many lines, cache hits, engines used, and any problems."""

    lines: int
    seconds: float
    stats: RenderStats
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


class VoiceService:
    """Process-wide voice resources: engines (with the gTTS breaker), the clip cache, the effects.

    Sharing them means the breaker's state is global (one 429 moves every flight to espeak-ng) and
    a line rendered for one guild is a free cache hit for the next.
    """

    def __init__(
        self,
        config: VoiceConfig | None = None,
        *,
        engines: SpeechEngines | None = None,
        cache: AudioCache | None = None,
        effects: EffectBank | None = None,
        clock: Clock = time.monotonic,
    ) -> None:
        self.config = config or VoiceConfig()
        if engines is None:
            from voice.tts import EspeakBackend

            engines = make_engines(
                self.config.tts_backend,
                gtts_timeout_s=self.config.gtts_timeout_s,
                gtts_tld=self.config.gtts_tld,
                gtts_retry_after_s=self.config.gtts_retry_after_s,
                espeak=EspeakBackend(speed_wpm=self.config.espeak_speed_wpm),
                clock=clock,
            )
        self.engines = engines
        self.cache = cache or AudioCache(self.config.cache_dir, max_bytes=self.config.cache_max_bytes)
        self.effects = effects or EffectBank(red_alert_gain=self.config.red_alert_gain, cache=self.cache)
        self.renderer = Renderer(self.engines, self.cache, self.effects, concurrency=self.config.render_concurrency)

    def unavailable_reason(self) -> str | None:
        """Why no speech engine can run at all (None when at least one can)."""
        if self.engines.primary is None and self.engines.fallback is None:
            return "no text-to-speech engine is installed (install the Debian package espeak-ng)"
        return None

    async def warm_effects(self) -> None:
        await asyncio.to_thread(self.effects.warm)

    def clear_cache(self) -> int:
        """Delete every cached clip; returns the number of files removed."""
        return self.cache.clear()

    def player(
        self,
        sink: VoiceSink | None,
        *,
        clock: Clock = time.monotonic,
        sleep: Sleeper = asyncio.sleep,
        on_problem: Callable[[str], None] | None = None,
        on_line: Callable[[Line, LineRecord], None] | None = None,
        time_scale: float | None = None,
        leave_at_end: bool = True,
    ) -> IntercomPlayer:
        return IntercomPlayer(
            self,
            sink,
            clock=clock,
            sleep=sleep,
            on_problem=on_problem,
            on_line=on_line,
            time_scale=self.config.time_scale if time_scale is None else time_scale,
            leave_at_end=leave_at_end,
        )


class IntercomPlayer:
    """The intercom of one flight in one guild: prepare, start, stop, report."""

    def __init__(
        self,
        service: VoiceService,
        sink: VoiceSink | None,
        *,
        clock: Clock = time.monotonic,
        sleep: Sleeper = asyncio.sleep,
        on_problem: Callable[[str], None] | None = None,
        on_line: Callable[[Line, LineRecord], None] | None = None,
        time_scale: float = 1.0,
        leave_at_end: bool = True,
    ) -> None:
        self.service = service
        self.sink = sink
        self.time_scale = time_scale
        self.leave_at_end = leave_at_end
        self._clock = clock
        self._sleep = sleep
        self._on_problem = on_problem
        self._on_line = on_line
        self._told: str | None = None
        self.lines: list[Line] = []
        self.prepared: PrepareResult | None = None
        self._scheduler: PlaybackScheduler | None = None
        self._task: asyncio.Task[VoiceReport] | None = None
        self._report = VoiceReport()

    def _tell(self, reason: str) -> None:
        """Say why voice is not working, once per flight."""
        if self._told is not None:
            return
        self._told = reason
        self._report.voice_lost = reason
        if self._on_problem is not None:
            try:
                self._on_problem(reason)
            except Exception:
                log.exception("on_problem callback failed")

    async def prepare(self, cues: Sequence[CueLike]) -> PrepareResult:
        """Render every line of the flight (cache first; parallel, bounded) and compose the lines."""
        t0 = time.perf_counter()
        stats = RenderStats()
        reason = self.service.unavailable_reason()
        if reason is not None:
            self._tell(reason)
            speech = {}
        else:
            speech = await self.service.renderer.render_many(speech_items(cues), stats)
        await self.service.warm_effects()
        self.lines, problems = await asyncio.to_thread(build_lines, cues, speech, self.service.effects)
        problems = stats.errors + problems
        self.prepared = PrepareResult(len(self.lines), time.perf_counter() - t0, stats, problems)
        self._report.problems = list(problems)
        if problems:
            log.warning("intercom prepared with %d problem(s): %s", len(problems), problems[:3])
        return self.prepared

    def start(self, mission_start: float) -> asyncio.Task[VoiceReport]:
        """Start playing; `mission_start` is the monotonic instant of mission second 0."""
        if self.prepared is None:
            raise RuntimeError("call prepare(cues) before start()")
        if self._task is not None:
            raise RuntimeError("this intercom is already running")
        if self.sink is None:
            self._tell(self._told or "voice is not connected")
        fillers = {STATIC: self.service.effects.clip(STATIC)}
        background = self.service.effects.clip(RED_ALERT) if self.service.config.red_alert_loop else None
        self._scheduler = PlaybackScheduler(
            self.lines,
            self.sink if self.sink is not None else _NoVoice(self._told or "voice is not connected"),
            fillers=fillers,
            background=background,
            time_scale=self.time_scale,
            clock=self._clock,
            sleep=self._sleep,
            on_problem=self._tell,
            on_line=self._on_line,
            leave_at_end=self.leave_at_end,
        )
        self._scheduler.report = self._report
        if self._told is not None:
            self._report.voice_lost = self._told
        self._task = asyncio.create_task(self._scheduler.run(mission_start), name="intercom")
        return self._task

    @property
    def report(self) -> VoiceReport:
        """Live report (lines played so far, lateness, reconnects)."""
        return self._report

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    async def wait(self) -> VoiceReport:
        if self._task is None:
            return self._report
        return await self._task

    async def stop(self) -> VoiceReport:
        """Stop now (aborted or ended early), leave the channel, return the report."""
        if self._scheduler is not None:
            self._scheduler.stop()
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        elif self._task is None and self.sink is not None and self.leave_at_end:
            try:
                await self.sink.close()
            except Exception:
                log.debug("closing the voice sink failed", exc_info=True)
        return self._report


class _NoVoice:
    """Stand-in sink when there is no voice connection: every line is recorded as ``no_voice``."""

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def is_connected(self) -> bool:
        return False

    def play(self, clip: object, on_done: object, *, loop: bool = False) -> None:
        raise RuntimeError(self.reason)

    def stop(self) -> None:
        return None

    async def reconnect(self) -> str | None:
        return self.reason

    async def close(self) -> None:
        return None
