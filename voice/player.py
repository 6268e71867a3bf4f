"""The API the Discord adapter calls: one `VoiceService` per process, one `IntercomPlayer` per flight.

Typical use (see `bot.platform.voicebridge`)::

    service = VoiceService(VoiceConfig.from_env())
    sink = DiscordVoiceSink(None, channel_resolver=...)      # joins in the background
    player = service.player(sink, on_problem=..., on_member_disconnect=...)
    player.start(t0, worded(intercom_script(timeline, lang)))  # t0: the flight's start instant; returns at once
    ...
    player.finish()       # natural end: the last lines still play
    player.abort()        # abort: silence now
    report = await player.wait()

`start` never waits: lines render in the background in schedule order (each by its own deadline,
the online engine racing espeak-ng), the connection is made by the scheduler's watchdog, and the
mixer plays each line when it is due, late if it had to be.  `sink` may be None when voice is
unavailable: the player then only reports, and the flight continues in text.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import gc
import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from voice.audio import Clip
from voice.cache import AudioCache
from voice.config import VoiceConfig
from voice.effects import RED_ALERT, STATIC, EffectBank
from voice.health import StoredHealth
from voice.lines import CueLike, Line, compose_line, in_schedule_order
from voice.mixer import FrameMixer
from voice.render import Blocking, Renderer, RenderStats
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
        run_blocking: Blocking = asyncio.to_thread,
        sleep: Sleeper = asyncio.sleep,
    ) -> None:
        self.config = config or VoiceConfig()
        self._blocking = run_blocking
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
        self.health = StoredHealth(self.cache.root, self.engines.breaker) if self.engines.primary else None
        self.effects = effects or EffectBank(red_alert_gain=self.config.red_alert_gain, cache=self.cache)
        self.renderer = Renderer(
            self.engines,
            self.cache,
            self.effects,
            concurrency=self.config.render_concurrency,
            online_budget_s=self.config.online_budget_s,
            run_blocking=run_blocking,
            sleep=sleep,
        )
        self._active: set[IntercomPlayer] = set()
        self.releases = 0
        # espeak-ng's version is part of every cache key: ask for it now, off the loop, so the
        # first flight's first line does not wait ~100 ms for a subprocess.
        for engine in (self.engines.primary, self.engines.fallback):
            version = getattr(engine, "version", None)
            if callable(version):
                threading.Thread(target=version, name="voice-warm", daemon=True).start()

    # -- flights in progress and memory ----------------------------------------------------------

    def _flight_started(self, player: IntercomPlayer) -> None:
        self._active.add(player)

    def _flight_ended(self, player: IntercomPlayer) -> None:
        self._active.discard(player)
        if not self._active:
            self.release_memory()

    def release_memory(self) -> None:
        """The last voice flight ended: drop the clips held in memory and give the heap back.

        Clips come back from the disk cache in a millisecond each, so an idle bot need not hold
        the last flight's audio; `malloc_trim` returns the freed arenas to the system.
        """
        self.cache.forget_memory()
        self.effects.forget()
        gc.collect()
        with contextlib.suppress(Exception):
            ctypes.CDLL("libc.so.6").malloc_trim(0)
        self.releases += 1

    def unavailable_reason(self) -> str | None:
        """Why no speech engine can run at all (None when at least one can)."""
        if self.engines.primary is None and self.engines.fallback is None:
            return "no text-to-speech engine is installed (install the Debian package espeak-ng)"
        return None

    async def warm_effects(self) -> None:
        await self._blocking(self.effects.warm)

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
        on_member_disconnect: Callable[[], None] | None = None,
        time_scale: float | None = None,
        leave_at_end: bool = True,
        offline_only: bool = False,
    ) -> IntercomPlayer:
        """One flight's intercom; `offline_only` speaks with espeak-ng alone (the server's choice)."""
        return IntercomPlayer(
            self,
            sink,
            clock=clock,
            sleep=sleep,
            on_problem=on_problem,
            on_line=on_line,
            on_member_disconnect=on_member_disconnect,
            time_scale=self.config.time_scale if time_scale is None else time_scale,
            leave_at_end=leave_at_end,
            offline_only=offline_only,
        )


class IntercomPlayer:
    """The intercom of one flight in one guild: start (at once), finish or abort, report."""

    def __init__(
        self,
        service: VoiceService,
        sink: VoiceSink | None,
        *,
        clock: Clock = time.monotonic,
        sleep: Sleeper = asyncio.sleep,
        on_problem: Callable[[str], None] | None = None,
        on_line: Callable[[Line, LineRecord], None] | None = None,
        on_member_disconnect: Callable[[], None] | None = None,
        time_scale: float = 1.0,
        leave_at_end: bool = True,
        offline_only: bool = False,
    ) -> None:
        self.service = service
        self.offline_only = offline_only  # espeak-ng only: the server chose it over gTTS
        self.sink = sink
        self.time_scale = time_scale
        self.leave_at_end = leave_at_end
        self._clock = clock
        self._sleep = sleep
        self._on_problem = on_problem
        self._on_line = on_line
        self._on_member_disconnect = on_member_disconnect
        self._told: str | None = None
        self.lines: list[Line] = []
        self.prepared: PrepareResult | None = None
        self.stats = RenderStats()
        self.first_line_ready_s: float | None = None
        self._scheduler: PlaybackScheduler | None = None
        self._task: asyncio.Task[VoiceReport] | None = None
        self._render_task: asyncio.Task[None] | None = None
        self._report = VoiceReport()
        self._fillers: dict[str, Clip] = {}

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
        """Render every line now (cache first, in schedule order, bounded parallelism).

        Optional: `start` renders in the background by itself.  The bench and warm-ups use this to
        fill the cache ahead of a flight.
        """
        t = time.perf_counter()
        stats = RenderStats()
        futures, task = self._render(cues, None, stats)
        await task
        lines = [f.result() for f in futures]
        self.lines = [ln for ln in lines if ln is not None]
        self.prepared = PrepareResult(len(self.lines), time.perf_counter() - t, stats, list(stats.errors))
        self._report.problems = list(stats.errors)
        return self.prepared

    def _render(
        self, cues: Sequence[CueLike], t0: float | None, stats: RenderStats
    ) -> tuple[list[asyncio.Future[Line | None]], asyncio.Task[None]]:
        """Start rendering in schedule order; one future per cue, resolved as soon as it is ready.

        The first line renders alone (if the online engine is down, the breaker trips once
        instead of every parallel request waiting for its budget), the rest `concurrency` at a
        time, earliest deadline first.  A line due soon gives the online engine only the time
        that is left before its moment.
        """
        service = self.service
        ordered = in_schedule_order(cues)
        loop = asyncio.get_running_loop()
        futures: list[asyncio.Future[Line | None]] = [loop.create_future() for _ in ordered]
        no_engine = service.unavailable_reason()
        spoken = [c for c in ordered if c.text.strip()] if no_engine is None else []
        items = list(dict.fromkeys((c.text, c.lang) for c in spoken))
        first_due = {}
        for c in reversed(spoken):
            first_due[(c.text, c.lang)] = c.at_s

        def budget(i: int) -> float | None:
            """A line due soon gives the online engine only the time left before its moment."""
            if t0 is None:
                return None
            due = t0 + first_due[items[i]] / self.time_scale
            return max(service.config.online_min_budget_s, due - self._clock() - 0.2)

        async def compose(i: int, cue: CueLike, clip: asyncio.Future[Clip | None] | None) -> None:
            try:
                speech = await clip if clip is not None else None
                # in a worker: an effect not cached yet is synthesized there, not on the loop
                line, problems = await service._blocking(compose_line, i, cue, speech, service.effects)
            except Exception as exc:
                line, problems = None, [f"{type(exc).__name__}: {exc}"]
            stats.errors.extend(problems)
            if i == 0 and t0 is not None:
                self.first_line_ready_s = self._clock() - t0
            futures[i].set_result(line)

        async def run() -> None:
            if no_engine is not None:
                self._tell(no_engine)
            clips, speaking = service.renderer.render_in_order(
                items, stats, budget=budget, offline_only=self.offline_only
            )

            async def warm() -> None:
                """The other effects after the first line, so they do not compete with it."""
                if futures:
                    await asyncio.wait([futures[0]])
                await service.warm_effects()
                self._fillers[STATIC] = service.effects.clip(STATIC)

            lines = (compose(i, c, clips.get((c.text, c.lang))) for i, c in enumerate(ordered))
            await asyncio.gather(*lines, speaking, warm())

        task = asyncio.create_task(run(), name="intercom-render")
        return futures, task

    def start(
        self, t0: float, cues: Sequence[CueLike] | None = None, *, resumed: bool = False
    ) -> asyncio.Task[VoiceReport]:
        """Start now and return at once; `t0` is the flight's start instant on this player's clock.

        With `cues`, lines render in the background (in schedule order); without, the lines of an
        earlier `prepare` are used.  `resumed` (a restart) lets lines long past their moment be
        skipped; a fresh flight plays every line, late if it must.
        """
        if self._task is not None:
            raise RuntimeError("this intercom is already running")
        if cues is None and self.prepared is None:
            raise RuntimeError("give start() the cues, or call prepare(cues) first")
        if self.sink is None:
            self._tell(self._told or "voice is not connected")
        if cues is None:
            self._fillers[STATIC] = self.service.effects.clip(STATIC)
        background = self.service.effects.clip(RED_ALERT) if self.service.config.red_alert_loop else None
        self._scheduler = PlaybackScheduler(
            self.sink if self.sink is not None else _NoVoice(self._told or "voice is not connected"),
            fillers=self._fillers,
            background=background,
            time_scale=self.time_scale,
            clock=self._clock,
            sleep=self._sleep,
            on_problem=self._tell,
            on_line=self._on_line,
            on_member_disconnect=self._on_member_disconnect,
            leave_at_end=self.leave_at_end,
        )
        self._scheduler.report = self._report
        if self._told is not None:
            self._report.voice_lost = self._told
        source: Sequence[Line | asyncio.Future[Line | None]]
        if cues is None:
            source = self.lines
        else:
            futures, self._render_task = self._render(cues, t0, self.stats)
            source = futures
        self.service._flight_started(self)
        self._task = asyncio.create_task(self._run(t0, source, resumed), name="intercom")
        return self._task

    async def _run(self, t0: float, source: Sequence[Line | asyncio.Future[Line | None]], resumed: bool) -> VoiceReport:
        assert self._scheduler is not None
        try:
            return await self._scheduler.run(t0, source, resumed=resumed)
        finally:
            self._report.problems = list(self.stats.errors) or self._report.problems
            if self._render_task is not None and not self._render_task.done():
                self._render_task.cancel()
            self.service._flight_ended(self)

    @property
    def mixer(self) -> FrameMixer | None:
        return self._scheduler.mixer if self._scheduler is not None else None

    @property
    def report(self) -> VoiceReport:
        """Live report (lines played so far, lateness, reconnects)."""
        return self._report

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def finish(self) -> None:
        """Natural end: the remaining lines still play (bounded), then the intercom leaves."""
        if self._scheduler is not None:
            self._scheduler.finish()

    def abort(self) -> None:
        """Abort: silence at once, then leave."""
        if self._scheduler is not None:
            self._scheduler.abort()
        if self._render_task is not None and not self._render_task.done():
            self._render_task.cancel()

    async def rejoin(self) -> str | None:
        """Bring voice back after a member disconnected the bot on purpose; None on success."""
        if self._scheduler is None or not self.running:
            return "the intercom is not running"
        return await self._scheduler.rejoin()

    async def wait(self) -> VoiceReport:
        if self._task is None:
            return self._report
        return await self._task

    async def stop(self) -> VoiceReport:
        """Abort and wait until the channel is left; returns the report."""
        self.abort()
        if self._task is not None and not self._task.done():
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

    member_disconnected = False

    def __init__(self, reason: str) -> None:
        self.reason = reason

    def is_connected(self) -> bool:
        return False

    def is_playing(self) -> bool:
        return False

    def attach(self, mixer: object) -> None:
        raise RuntimeError(self.reason)

    async def reconnect(self) -> str | None:
        return self.reason

    async def close(self) -> None:
        return None
