"""The per-guild playback scheduler: every line at its instant, one at a time, lateness recorded.

Rules, in the order they matter to the crew:

1. A line starts at `mission_start + start_s / time_scale` on the monotonic clock.
2. Lines never overlap.  If the previous line is still playing, the next one waits for it and
   starts the moment it ends (it is *queued*, never dropped); its lateness is recorded.
3. A disconnect interrupts the current line; the scheduler reconnects (or follows the host to
   another channel, which is the sink's business) and continues with the next line.  If voice
   cannot be recovered, every remaining line is recorded as ``no_voice`` and `on_problem` is told
   the reason exactly once, so the bot can say it in text while the flight goes on.
4. Between lines, a filler may loop: static during a communications failure, or the low red-alert
   klaxon if enabled.  Fillers stop before the next line starts.

The clock and the sleeper are injected: tests drive a whole ten-minute mission in virtual time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable, Sequence

from voice.audio import Clip
from voice.lines import Line
from voice.sink import LineRecord, VoiceReport, VoiceSink

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleeper = Callable[[float], Awaitable[None]]


class PlaybackScheduler:
    """Plays a prepared list of lines through a `VoiceSink` on a monotonic clock."""

    def __init__(
        self,
        lines: Sequence[Line],
        sink: VoiceSink,
        *,
        fillers: dict[str, Clip] | None = None,
        background: Clip | None = None,
        time_scale: float = 1.0,
        clock: Clock = time.monotonic,
        sleep: Sleeper = asyncio.sleep,
        on_problem: Callable[[str], None] | None = None,
        on_line: Callable[[Line, LineRecord], None] | None = None,
        max_reconnect_failures: int = 2,
        done_grace_s: float = 2.0,
        min_filler_s: float = 0.5,
        leave_at_end: bool = True,
        reconnect_lead_s: float = 3.0,
    ) -> None:
        if time_scale <= 0:
            raise ValueError("time_scale must be positive")
        self.lines = list(lines)
        self.sink = sink
        self.fillers = dict(fillers or {})
        self.background = background
        self.time_scale = time_scale
        self._clock = clock
        self._sleep = sleep
        self._on_problem = on_problem
        self._on_line = on_line
        self.max_reconnect_failures = max_reconnect_failures
        self.done_grace_s = done_grace_s
        self.min_filler_s = min_filler_s
        self.leave_at_end = leave_at_end
        self.reconnect_lead_s = reconnect_lead_s
        self.report = VoiceReport()
        self._reconnect_failures = 0
        self._stopping = False
        self._filler_playing = False

    # -- time helpers ---------------------------------------------------------------------------

    def due(self, line: Line, mission_start: float) -> float:
        return mission_start + line.start_s / self.time_scale

    async def _sleep_until(self, when: float) -> None:
        while not self._stopping:
            delay = when - self._clock()
            if delay <= 0:
                return
            await self._sleep(delay)

    async def _sleep_until_or(self, when: float, event: asyncio.Event) -> None:
        """Sleep until `when`, or less if `event` is set first (a clip that ended early: a drop)."""
        if event.is_set():
            return
        sleeper = asyncio.ensure_future(self._sleep_until(when))
        waiter = asyncio.ensure_future(event.wait())
        try:
            await asyncio.wait({sleeper, waiter}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (sleeper, waiter):
                if not task.done():
                    task.cancel()
            await asyncio.gather(sleeper, waiter, return_exceptions=True)

    # -- voice state ----------------------------------------------------------------------------

    def _problem(self, reason: str) -> None:
        """Report why voice stopped, once per flight."""
        if self.report.voice_lost is not None:
            return
        self.report.voice_lost = reason
        log.warning("intercom voice lost: %s", reason)
        if self._on_problem is not None:
            try:
                self._on_problem(reason)
            except Exception:  # the callback is the bot's; never let it kill the flight
                log.exception("on_problem callback failed")

    async def _ensure_connected(self) -> bool:
        if self.report.voice_lost is not None:
            return False
        if self._connected():
            return True
        self.report.disconnects += 1
        try:
            reason = await self.sink.reconnect()
        except Exception as exc:
            reason = f"{type(exc).__name__}: {exc}"
        if reason is None:
            self.report.reconnects += 1
            self._reconnect_failures = 0
            return True
        self._reconnect_failures += 1
        log.info("voice reconnect failed (%s), attempt %d", reason, self._reconnect_failures)
        if self._reconnect_failures >= self.max_reconnect_failures:
            self._problem(reason)
        return False

    # -- fillers --------------------------------------------------------------------------------

    async def _idle(self, until: float, static_until: float | None) -> None:
        """Wait until `until`, looping static (up to `static_until`) and/or the klaxon meanwhile."""
        segments: list[tuple[Clip, float]] = []
        now = self._clock()
        if static_until is not None and "static" in self.fillers and static_until > now:
            segments.append((self.fillers["static"], min(until, static_until)))
        if self.background is not None:
            segments.append((self.background, until))
        for clip, end in segments:
            now = self._clock()
            if end - now < self.min_filler_s or self._stopping or self.report.voice_lost is not None:
                continue
            if not await self._ensure_connected():
                break
            try:
                self.sink.play(clip, _ignore, loop=True)
                self._filler_playing = True
            except Exception as exc:
                log.debug("filler could not start: %s", exc)
                continue
            await self._sleep_until(end)
            self._stop_filler()
        # Check the connection a little ahead of the line, so a reconnect happens in the gap rather
        # than making the line late.
        check_at = until - self.reconnect_lead_s
        if check_at > self._clock() and not self._stopping:
            await self._sleep_until(check_at)
            if self.report.voice_lost is None and not self._connected():
                await self._ensure_connected()
        await self._sleep_until(until)

    def _connected(self) -> bool:
        try:
            return bool(self.sink.is_connected())
        except Exception:
            return False

    def _stop_filler(self) -> None:
        if self._filler_playing:
            self._filler_playing = False
            with contextlib.suppress(Exception):
                self.sink.stop()

    # -- main loop ------------------------------------------------------------------------------

    async def run(self, mission_start: float) -> VoiceReport:
        """Play every line; returns the report (also available live as `self.report`)."""
        loop = asyncio.get_running_loop()
        records = [
            LineRecord(ln.index, ln.kind, ln.text, ln.start_s, ln.duration_s, self.due(ln, mission_start))
            for ln in self.lines
        ]
        self.report.lines = records
        prev_end = -math.inf
        static_until: float | None = None
        try:
            for line, rec in zip(self.lines, records, strict=True):
                if self._stopping:
                    rec.status = "stopped"
                    continue
                rec.earliest = max(rec.due, prev_end)
                await self._idle(rec.earliest, static_until)
                static_until = None
                if self._stopping:
                    rec.status = "stopped"
                    continue
                if not await self._ensure_connected():
                    rec.status = "no_voice"
                    rec.note = self.report.voice_lost or "voice not connected"
                    continue
                prev_end = await self._play_line(line, rec, loop)
                if rec.status == "interrupted":
                    # Reconnect right away: the next line should find the voice ready.
                    await self._ensure_connected()
                if line.filler is not None:
                    static_until = (
                        math.inf
                        if line.filler_until_s is None
                        else mission_start + line.filler_until_s / self.time_scale
                    )
        except asyncio.CancelledError:
            for rec in records:
                if rec.status == "pending":
                    rec.status = "stopped"
            raise
        finally:
            self._stop_filler()
            if self.leave_at_end:
                with contextlib.suppress(Exception):
                    await self.sink.close()
        return self.report

    async def _play_line(self, line: Line, rec: LineRecord, loop: asyncio.AbstractEventLoop) -> float:
        """Start one line, wait for its end; returns when the next line may start."""
        done = asyncio.Event()
        outcome: list[BaseException | None] = []

        def on_done(error: BaseException | None) -> None:
            # May run on discord.py's player thread: hop back onto the loop.
            def finish() -> None:
                if not done.is_set():
                    outcome.append(error)
                    done.set()

            with contextlib.suppress(RuntimeError):  # loop closed during shutdown
                loop.call_soon_threadsafe(finish)

        started = self._clock()
        try:
            self.sink.play(line.clip, on_done)
        except Exception as exc:
            # The connection died between the check and the call: one reconnect, one retry.
            log.info("play failed (%s); reconnecting", exc)
            if not await self._ensure_connected():
                rec.status = "no_voice"
                rec.note = f"play failed: {exc}"
                return self._clock()
            started = self._clock()
            try:
                self.sink.play(line.clip, on_done)
            except Exception as exc2:
                rec.status = "no_voice"
                rec.note = f"play failed: {exc2}"
                return self._clock()
        rec.started = started
        if self._on_line is not None:
            try:
                self._on_line(line, rec)
            except Exception:
                log.exception("on_line callback failed")
        await self._sleep_until_or(started + line.duration_s, done)
        if not done.is_set() and not self._stopping:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), self.done_grace_s)
        end = self._clock()
        rec.ended = end
        error = outcome[0] if outcome else None
        if self._stopping:
            rec.status = "stopped"
        elif error is not None:
            rec.status = "interrupted"
            rec.note = f"{type(error).__name__}: {error}"
        elif not done.is_set():
            # The player never finished (stuck waiting for a voice server): cut it, move on.
            rec.status = "interrupted"
            rec.note = "playback did not finish in time"
            with contextlib.suppress(Exception):
                self.sink.stop()
        else:
            rec.status = "played"
        return end

    def stop(self) -> None:
        """Stop after the current instant: silence now, remaining lines marked ``stopped``."""
        self._stopping = True
        with contextlib.suppress(Exception):
            self.sink.stop()


def _ignore(_: BaseException | None) -> None:
    return None
