"""One long-lived frame source per flight: speech, effects, static and the klaxon, switched per frame.

discord.py's `AudioPlayer` thread calls `read()` every 20 ms for the whole flight.  Each call
decides, from the clock, which single Opus frame goes out:

1. the line being spoken (lines are queued in schedule order and never overlap: a line whose
   moment comes while the previous one still plays starts on the frame after it ends, late but
   whole);
2. else the next line, if its first *audible* frame is due within half a frame (a clip with
   `lead_frames` of lead-in starts that many frames early, so its voice lands on the instant);
3. else static, while a communications failure lasts (it stops on the very frame the next line
   starts: no gap, no overlap);
4. else the optional red-alert klaxon loop, else Opus silence.

Nothing here restarts a player or sends the closing silence a stopped player sends, so static to
speech is one frame boundary.  The decision is taken on the player thread from `clock()`, so the
event loop's own jitter never reaches the audio.  Callbacks (`on_start`, `on_end`) run on that
thread with the instant of the frame; callers hop back to their event loop themselves.

Pure Python with an injected clock: tests drive `read()` on a fake clock, frame by frame.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from voice.audio import FRAME_S, OPUS_SILENCE, Clip

Clock = Callable[[], float]
Moment = Callable[[float], None]


@dataclass
class MixItem:
    """A line handed to the mixer.  `due` is when its first audible sample should be heard.

    `filler`/`filler_until` start a looping background (static) when the line ends, until that
    instant or until the next line starts, whichever is first.
    """

    key: int
    clip: Clip
    due: float
    on_start: Moment | None = None
    on_end: Moment | None = None
    filler: Clip | None = None
    filler_until: float = float("inf")


class FrameMixer:
    """Thread-safe frame-by-frame switch between the flight's sounds (see the module docstring)."""

    def __init__(self, *, clock: Clock = time.monotonic, background: Clip | None = None) -> None:
        self._clock = clock
        self._lock = threading.Lock()
        self._queue: deque[MixItem] = deque()
        self._current: MixItem | None = None
        self._pos = 0
        self._filler: Clip | None = None
        self._filler_until = 0.0
        self._filler_pos = 0
        self._background = background if background is not None and background.frames else None
        self._background_pos = 0
        self._stopped = False
        self._drain_by: float | None = None
        self.frames_read = 0

    # -- control (event loop side) ---------------------------------------------------------------

    def add(self, item: MixItem) -> None:
        """Queue a line; lines must be added in schedule order."""
        with self._lock:
            self._queue.append(item)

    def pending(self) -> int:
        """Lines queued or playing."""
        with self._lock:
            return len(self._queue) + (self._current is not None)

    def drop_queued(self) -> list[MixItem]:
        """Take back every line not finished yet, the one playing first (voice lost or disconnected
        on purpose: the rest of it would otherwise resume mid-word when voice comes back)."""
        with self._lock:
            items = ([self._current] if self._current is not None else []) + list(self._queue)
            self._current = None
            self._queue.clear()
            self._filler = None
            return items

    def drain(self, deadline: float) -> None:
        """Graceful end: play what is queued, then end the stream (`read` returns b"") by `deadline`."""
        with self._lock:
            self._drain_by = deadline
            self._background = None

    def stop(self) -> None:
        """End the stream at the next frame (abort)."""
        with self._lock:
            self._stopped = True
            self._queue.clear()
            self._current = None
            self._filler = None

    @property
    def finished(self) -> bool:
        """True once the stream has ended (stopped, or drained)."""
        with self._lock:
            return self._stopped

    # -- the player thread -----------------------------------------------------------------------

    def read(self) -> bytes:
        """The next 20 ms Opus frame, or b"" when the stream is over."""
        fired: list[tuple[Moment, float]] = []
        with self._lock:
            frame = self._next(self._clock(), fired)
        for callback, when in fired:
            callback(when)
        return frame

    def _next(self, now: float, fired: list[tuple[Moment, float]]) -> bytes:
        if self._stopped:
            return b""
        if self._drain_by is not None and now >= self._drain_by:
            self._stopped = True
            return b""
        self.frames_read += 1
        item = self._current
        while item is None and self._queue:
            head = self._queue[0]
            if now < head.due - head.clip.lead_s - FRAME_S / 2:
                break
            item = self._queue.popleft()
            self._pos = 0
            self._filler = None  # speech takes over from static on this very frame
            if not item.clip.frames:  # a marker with nothing to say (static only): done at once
                fired.extend((cb, now) for cb in (item.on_start, item.on_end) if cb is not None)
                self._start_filler(item)
                item = None
            self._current = item
        if item is not None:
            frames = item.clip.frames
            if self._pos == min(item.clip.lead_frames, len(frames) - 1) and item.on_start is not None:
                fired.append((item.on_start, now))
            frame = frames[self._pos]
            self._pos += 1
            if self._pos >= len(frames):
                self._current = None
                if item.on_end is not None:
                    fired.append((item.on_end, now + FRAME_S))
                self._start_filler(item)
            return frame
        if self._drain_by is not None and not self._queue:
            self._stopped = True
            return b""
        filler = self._filler
        if filler is not None:
            if now < self._filler_until - FRAME_S / 2:
                frame = filler.frames[self._filler_pos % len(filler.frames)]
                self._filler_pos += 1
                return frame
            self._filler = None
        background = self._background
        if background is not None:
            frame = background.frames[self._background_pos % len(background.frames)]
            self._background_pos += 1
            return frame
        return OPUS_SILENCE

    def _start_filler(self, item: MixItem) -> None:
        if item.filler is not None and item.filler.frames:
            self._filler, self._filler_until, self._filler_pos = item.filler, item.filler_until, 0
