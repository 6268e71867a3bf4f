"""The flight's playback scheduler: every line, in order, at its instant, with lateness recorded.

Rules, in the order they matter to the crew:

1. A line's first audible sample is due at `t0 + start_s / time_scale`, where `t0` is the flight's
   own start instant, given by the caller: voice that gets ready late plays the opening line late,
   it never decides that the opening line is already past.
2. Lines never overlap and are never dropped: a line due while the previous one still plays is
   queued behind it and played late.  Only when the caller says the flight is *resumed* (a
   restart, or voice brought back after a deliberate disconnect) are lines more than `stale_s`
   past due skipped, and never the last `final_lines` of the mission.
3. Timing is the `FrameMixer`'s business, on the voice player's thread: the scheduler hands each
   line over `lookahead_s` ahead of its moment (rendering may still be going on for later lines,
   in schedule order, by the caller) and the mixer starts it on the right frame.
4. A watchdog keeps the connection: it joins in the background, reconnects a dropped connection
   and re-attaches the mixer; after `max_reconnect_failures` it gives up, says why once
   (`on_problem`) and the flight goes on in text.  A deliberate disconnect by a member is not
   undone: the remaining lines go to text, `on_member_disconnect` is told once, and `rejoin()`
   (the host's choice) brings voice back.
5. `finish()` (natural end) lets the remaining lines play, bounded by the last line's end plus
   `grace_s`; `abort()` silences the flight at once.

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
from voice.mixer import FrameMixer, MixItem
from voice.sink import LineRecord, VoiceReport, VoiceSink

log = logging.getLogger(__name__)

Clock = Callable[[], float]
Sleeper = Callable[[float], Awaitable[None]]
LineSource = Line | Awaitable[Line | None]


class PlaybackScheduler:
    """Feeds a flight's lines to its `FrameMixer` and keeps the voice connection alive."""

    def __init__(
        self,
        sink: VoiceSink,
        *,
        fillers: dict[str, Clip] | None = None,
        background: Clip | None = None,
        time_scale: float = 1.0,
        clock: Clock = time.monotonic,
        sleep: Sleeper = asyncio.sleep,
        on_problem: Callable[[str], None] | None = None,
        on_line: Callable[[Line, LineRecord], None] | None = None,
        on_member_disconnect: Callable[[], None] | None = None,
        max_reconnect_failures: int = 3,
        lookahead_s: float = 1.0,
        stale_s: float = 4.0,
        final_lines: int = 2,
        grace_s: float = 3.0,
        watch_s: float = 0.2,
        settle_s: float = 0.5,
        leave_at_end: bool = True,
    ) -> None:
        if time_scale <= 0:
            raise ValueError("time_scale must be positive")
        self.sink = sink
        self.fillers = fillers if fillers is not None else {}  # the caller may fill it later
        self.time_scale = time_scale
        self._clock = clock
        self._sleep = sleep
        self._on_problem = on_problem
        self._on_line = on_line
        self._on_member_disconnect = on_member_disconnect
        self.max_reconnect_failures = max_reconnect_failures
        self.lookahead_s = lookahead_s
        self.stale_s = stale_s
        self.final_lines = final_lines
        self.grace_s = grace_s
        self.watch_s = watch_s
        self.settle_s = settle_s
        self.leave_at_end = leave_at_end
        self.mixer = FrameMixer(clock=clock, background=background)
        self.report = VoiceReport()
        self._reconnect_failures = 0
        self._joined = False  # connected at least once (a later connect is a reconnect)
        self._stopping = False
        self._finishing = False
        self._detached = False  # a member disconnected the bot on purpose
        self._skip_stale = False
        self._wake: asyncio.Event | None = None
        self._stopped: asyncio.Event | None = None
        self._in_mixer: dict[int, LineRecord] = {}
        self._last_end = -math.inf
        self._last_fed: LineRecord | None = None
        self._all_played: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    # -- time helpers ---------------------------------------------------------------------------

    def due(self, line: Line, t0: float) -> float:
        return t0 + line.start_s / self.time_scale

    async def _sleep_until(self, when: float) -> None:
        while not self._stopping:
            delay = when - self._clock()
            if delay <= 0:
                return
            await self._sleep(delay)

    async def _sleep_until_or(self, when: float, event: asyncio.Event) -> None:
        """Sleep until `when`, or less if `event` is set first."""
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

    def _poke(self) -> None:
        if self._wake is not None:
            self._wake.set()

    # -- the caller's controls ------------------------------------------------------------------

    def finish(self) -> None:
        """Natural end: hand over every remaining line now and end after the last one (+ grace)."""
        self._finishing = True
        self._poke()

    def abort(self) -> None:
        """Silence now: remaining lines are marked ``stopped``."""
        self._stopping = True
        self.mixer.stop()
        self._poke()
        if self._stopped is not None:
            self._stopped.set()

    async def rejoin(self) -> str | None:
        """Bring voice back after a deliberate disconnect (the host asked); None on success."""
        if self._stopping:
            return "the flight is over"
        try:
            reason = await self.sink.reconnect()
        except Exception as exc:
            reason = f"{type(exc).__name__}: {exc}"
        if reason is not None:
            return reason
        with contextlib.suppress(AttributeError):
            self.sink.member_disconnected = False
        self._detached = False
        self._skip_stale = True  # what was missed meanwhile stays in the text channel
        self.report.voice_lost = None
        self._reconnect_failures = 0
        self.report.reconnects += 1
        self._attach()
        self._poke()
        return None

    # -- voice state ----------------------------------------------------------------------------

    def _problem(self, reason: str) -> None:
        """Report why voice stopped, once per outage."""
        if self.report.voice_lost is not None:
            return
        self.report.voice_lost = reason
        log.warning("intercom voice lost: %s", reason)
        self._to_text(reason)
        _call(self._on_problem, reason)

    def _to_text(self, note: str) -> None:
        """Take back the lines not started yet: the text channel carries them."""
        for item in self.mixer.drop_queued():
            rec = self._in_mixer.pop(item.key, None)
            if rec is not None and rec.status == "pending":
                rec.status = "interrupted" if rec.started is not None else "no_voice"
                rec.note = note
        self._check_all_played()

    def _attach(self) -> None:
        try:
            self.sink.attach(self.mixer)
        except Exception as exc:
            log.info("cannot attach the intercom to voice: %s", exc)

    def _connected(self) -> bool:
        try:
            return bool(self.sink.is_connected())
        except Exception:
            return False

    async def _watch(self) -> None:
        """Join in the background, keep the connection, notice a deliberate disconnect."""
        self._joined = self._connected()
        while not self._stopping and not self.mixer.finished:
            if self.report.voice_lost is None and not self._detached:
                if self._member_disconnected():
                    await self._detach()
                elif not self._connected():
                    # Let a moderator's disconnect be told apart from a drop before re-joining.
                    if self._joined:
                        await self._sleep(self.settle_s)
                    if self._member_disconnected():
                        continue
                    await self._reconnect()
                elif not _playing(self.sink):
                    self._attach()
            await self._sleep(self.watch_s)

    def _member_disconnected(self) -> bool:
        return bool(getattr(self.sink, "member_disconnected", False))

    async def _detach(self) -> None:
        """A member took the bot out of voice on purpose: no rejoin; the text channel carries on."""
        self._detached = True
        self.report.member_disconnects += 1
        self._to_text("disconnected from voice by a member")
        log.info("intercom: disconnected on purpose; continuing in text")
        if self._connected():  # we had re-joined in a race with the event: leave again
            with contextlib.suppress(Exception):
                await self.sink.close()
        _call(self._on_member_disconnect)

    async def _reconnect(self) -> None:
        if self._joined and self._reconnect_failures == 0:
            self.report.disconnects += 1
        try:
            reason = await self.sink.reconnect()
        except Exception as exc:
            reason = f"{type(exc).__name__}: {exc}"
        if reason is None:
            if self._joined:
                self.report.reconnects += 1
            self._joined = True
            self._reconnect_failures = 0
            self._attach()
            return
        self._reconnect_failures += 1
        log.info("voice (re)connect failed (%s), attempt %d", reason, self._reconnect_failures)
        if self._reconnect_failures >= self.max_reconnect_failures:
            self._problem(reason)

    # -- main loop ------------------------------------------------------------------------------

    async def run(self, t0: float, lines: Sequence[LineSource], *, resumed: bool = False) -> VoiceReport:
        """Play every line; `t0` is the flight's start instant on this scheduler's clock.

        `lines` may hold awaitables (lines still rendering): they are awaited in order, so a line
        rendered late is played late, after the ones before it.
        """
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._stopped = asyncio.Event()
        if self._stopping:
            self._stopped.set()
        self._all_played = asyncio.Event()
        self._skip_stale = resumed
        watchdog = asyncio.create_task(self._watch(), name="intercom-watch")
        total = len(lines)
        try:
            for i, entry in enumerate(lines):
                line = await self._line(entry)
                if line is None:
                    continue
                rec = LineRecord(line.index, line.kind, line.text, line.start_s, line.duration_s, self.due(line, t0))
                self.report.lines.append(rec)
                if not self._finishing and rec.due - self.lookahead_s > self._clock():
                    self._wake.clear()
                    await self._sleep_until_or(rec.due - self.lookahead_s, self._wake)
                final = i >= total - self.final_lines
                if self._stopping:
                    rec.status = "stopped"
                elif self._skip_stale and not final and rec.due < self._clock() - self.stale_s:
                    rec.status, rec.note = "skipped", "its moment passed while voice was away"
                elif self.report.voice_lost is not None or self._detached:
                    rec.status, rec.note = "no_voice", self.report.voice_lost or "disconnected from voice by a member"
                else:
                    self._feed(line, rec, t0)
            await self._drain()
        except asyncio.CancelledError:
            self._stopping = True
            self.mixer.stop()
            raise
        finally:
            watchdog.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watchdog
            for rec in self.report.lines:
                if rec.status == "pending":
                    if self._stopping:
                        rec.status = "stopped"
                    elif rec.started is not None:
                        rec.status, rec.note = "interrupted", "cut at the end of the flight"
                    else:
                        rec.status = "no_voice"
                        rec.note = rec.note or self.report.voice_lost or "voice was not connected in time"
            self.mixer.stop()
            if self.leave_at_end:
                with contextlib.suppress(Exception):
                    await self.sink.close()
        return self.report

    async def _line(self, entry: LineSource) -> Line | None:
        """The next line, waiting for its rendering (but not past an abort)."""
        if isinstance(entry, Line):
            return entry
        assert self._stopped is not None
        fut = asyncio.ensure_future(entry)
        if not fut.done():
            waker = asyncio.ensure_future(self._stopped.wait())
            try:
                await asyncio.wait({fut, waker}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                # Also when this task is cancelled mid-wait (the bot shutting down): a waker left
                # pending is destroyed with the loop and logged as an error.
                waker.cancel()
                await asyncio.gather(waker, return_exceptions=True)
        if not fut.done() or fut.cancelled():
            return None
        return fut.result()

    async def _drain(self) -> None:
        """Every line handed over: let them play, up to the last one's end plus the grace period."""
        assert self._all_played is not None
        fed = self._last_fed
        if fed is None or self._stopping:
            return
        # The last line's end: on schedule, or later if lines are still queued ahead of it.
        queued_s = sum(r.duration_s for r in self._in_mixer.values())
        deadline = max(fed.due + fed.duration_s, self._clock() + queued_s) + self.grace_s
        self.mixer.drain(deadline)
        self._check_all_played()
        await self._sleep_until_or(deadline, self._all_played)

    def _check_all_played(self) -> None:
        if self._all_played is not None and not self._in_mixer:
            self._all_played.set()

    def _feed(self, line: Line, rec: LineRecord, t0: float) -> None:
        loop = self._loop
        assert loop is not None
        filler = self.fillers.get(line.filler) if line.filler is not None else None
        until = math.inf if line.filler_until_s is None else t0 + line.filler_until_s / self.time_scale

        ready = self._clock() + line.clip.lead_s  # handed over now: audible a lead-in later at the soonest

        def started(when: float) -> None:
            rec.earliest = max(rec.due, self._last_end + line.clip.lead_s, ready)
            rec.started = when
            _call(self._on_line, line, rec)

        def ended(when: float) -> None:
            rec.ended = when
            self._last_end = when
            if rec.status == "pending":
                rec.status = "played"
            self._in_mixer.pop(rec.index, None)
            self._check_all_played()

        self._in_mixer[rec.index] = rec
        self._last_fed = rec
        if self._all_played is not None:
            self._all_played.clear()
        self.mixer.add(
            MixItem(
                rec.index,
                line.clip,
                rec.due,
                on_start=lambda when: _soon(loop, started, when),
                on_end=lambda when: _soon(loop, ended, when),
                filler=filler,
                filler_until=until,
            )
        )


def _soon(loop: asyncio.AbstractEventLoop, fn: Callable[[float], None], when: float) -> None:
    """From the player thread back onto the event loop (a closed loop at shutdown is ignored)."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(fn, when)


def _playing(sink: VoiceSink) -> bool:
    try:
        return bool(sink.is_playing())
    except Exception:
        return False


def _call(callback: Callable[..., None] | None, *args: object) -> None:
    """Run a caller's callback; it belongs to the bot, so it can never kill the intercom."""
    if callback is None:
        return
    try:
        callback(*args)
    except Exception:
        log.exception("intercom callback failed")
