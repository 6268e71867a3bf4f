"""Test doubles for voice: a virtual clock, a recording voice sink, cues, tone clips, fake TTS engines.

The fake sink mimics discord.py's VoiceClient where it matters: one clip at a time ("Already
playing audio"), `after`/on_done called once when a clip ends or is stopped, nothing plays while
disconnected.  It records every play with its start and end instants, and can list the frames
that were sent with their timestamps.
"""

from __future__ import annotations

import heapq
import io
import itertools
import math
import struct
import wave
from collections.abc import Callable
from dataclasses import dataclass, field

from voice.audio import FRAME_S, Clip


class FakeClock:
    """Virtual monotonic time; `sleep` jumps forward, firing timers due on the way, in order."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self._timers: list[tuple[float, int, Callable[[], None]]] = []
        self._seq = itertools.count()
        self.sleeps = 0

    def __call__(self) -> float:
        return self.now

    def call_at(self, when: float, fn: Callable[[], None]) -> None:
        heapq.heappush(self._timers, (when, next(self._seq), fn))

    def advance(self, dt: float) -> None:
        target = self.now + max(0.0, dt)
        while self._timers and self._timers[0][0] <= target:
            when, _, fn = heapq.heappop(self._timers)
            self.now = max(self.now, when)
            fn()
        self.now = target

    async def sleep(self, dt: float) -> None:
        """Advance to now + dt.  After each timer fires, yield a few loop turns so tasks woken by
        it (an on_done event) can react, and cancel this sleep, at the timer's instant."""
        import asyncio

        self.sleeps += 1
        target = self.now + max(0.0, dt)
        while self._timers and self._timers[0][0] <= target:
            when, _, fn = heapq.heappop(self._timers)
            self.now = max(self.now, when)
            fn()
            for _ in range(6):
                await asyncio.sleep(0)
        self.now = max(self.now, target)
        await asyncio.sleep(0)


class VirtualClock:
    """Virtual monotonic time for whole flights: every sleeper waits on a timer, and `run` moves
    time to the next timer only when the event loop has nothing else to do.

    `tickers` are told about every step of time (a fake voice player reads its frames there, each
    at its own 20 ms instant), so frames cost no timers.
    """

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self._timers: list[tuple[float, int, Callable[[], None]]] = []
        self._seq = itertools.count()
        self.tickers: list[Callable[[float], None]] = []

    def __call__(self) -> float:
        return self.now

    def call_at(self, when: float, fn: Callable[[], None]) -> None:
        heapq.heappush(self._timers, (when, next(self._seq), fn))

    async def sleep(self, dt: float) -> None:
        import asyncio

        fut = asyncio.get_running_loop().create_future()
        self.call_at(self.now + max(0.0, dt), lambda: fut.done() or fut.set_result(None))
        await fut

    def _advance(self, target: float) -> None:
        for tick in list(self.tickers):
            tick(target)
        self.now = max(self.now, target)

    async def run(self, awaitable, *, limit_s: float = 7200.0):
        """Drive virtual time until `awaitable` is done; returns its result."""
        import asyncio

        task = asyncio.ensure_future(awaitable)
        end = self.now + limit_s
        while not task.done():
            for _ in range(30):
                await asyncio.sleep(0)
                if task.done():
                    break
            if task.done():
                break
            if not self._timers:
                await asyncio.sleep(0.001)  # real work (a thread) still going
                continue
            when, _, fn = heapq.heappop(self._timers)
            if when > end:
                task.cancel()
                raise AssertionError("virtual time limit reached")
            self._advance(when)
            fn()
        return task.result()


class FakeVoice:
    """A VoiceSink on a VirtualClock that reads the mixer every 20 ms, like discord.py's player.

    Records every frame with its instant.  `drop()` cuts the connection (reading stops, as the real
    player waits for a reconnect), `member_disconnect()` is a moderator's Disconnect.
    """

    def __init__(self, clock: VirtualClock, *, connected: bool = True, join_delay_s: float = 0.0,
                 reconnect_ok: bool = True) -> None:  # fmt: skip
        self.clock = clock
        self.connected = connected
        self.join_delay_s = join_delay_s
        self.reconnect_ok = reconnect_ok
        self.member_disconnected = False
        self.closed = False
        self.reconnects = 0
        self.attaches = 0
        self.frames: list[tuple[float, bytes]] = []
        self._mixer = None
        self._next: float | None = None
        clock.tickers.append(self._tick)

    def is_connected(self) -> bool:
        return self.connected and not self.closed

    def is_playing(self) -> bool:
        return self._mixer is not None and self.is_connected()

    def attach(self, mixer) -> None:
        if not self.is_connected():
            raise RuntimeError("Not connected to voice.")
        if self.is_playing():
            return
        self.attaches += 1
        self._mixer = mixer
        self._next = self.clock.now  # discord.py reads the first frame at once

    def _tick(self, target: float) -> None:
        while self._mixer is not None and self._next is not None and self._next <= target + 1e-9:
            if not self.is_connected():
                return
            saved = self.clock.now
            self.clock.now = self._next
            frame = self._mixer.read()
            self.clock.now = max(saved, self._next)
            if not frame:
                self._mixer = None
                return
            self.frames.append((self._next, frame))
            self._next += FRAME_S

    async def reconnect(self) -> str | None:
        self.reconnects += 1
        await self.clock.sleep(self.join_delay_s)
        if not self.reconnect_ok:
            return "simulated: voice server unreachable"
        self.connected, self.closed = True, False
        return None

    async def close(self) -> None:
        self._mixer = None
        self.closed = True

    # test controls
    def drop(self) -> None:
        self.connected = False
        self._mixer = None  # the player gave up waiting

    def member_disconnect(self) -> None:
        self.drop()
        self.member_disconnected = True

    def frames_of(self, clip: Clip) -> list[float]:
        """Instants at which frames of `clip` went out (by identity of the packet bytes)."""
        mine = set(clip.frames)
        return [t for t, f in self.frames if f in mine]


@dataclass(frozen=True)
class FakeCue:
    """Minimal cue satisfying voice.lines.CueLike."""

    at_s: float
    kind: str
    text: str
    lang: str = "en"
    effect: str | None = None
    duration_s: float | None = None
    params: dict = field(default_factory=dict, compare=False, hash=False)


def tone_clip(seconds: float, tag: int = 0) -> Clip:
    """A clip of the given length whose frames are unique per tag (no encoder needed)."""
    n = round(seconds / FRAME_S)
    return Clip(tuple(struct.pack(">HI", tag, i) for i in range(n)), "fake")


def sine_wav(seconds: float = 0.6, freq: float = 440.0, rate: int = 22050, amplitude: float = 0.5) -> bytes:
    """A mono WAV (like espeak-ng's output) for fake engines."""
    n = int(seconds * rate)
    frames = b"".join(
        struct.pack("<h", int(amplitude * 32767 * math.sin(2 * math.pi * freq * i / rate))) for i in range(n)
    )
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(frames)
    return buf.getvalue()


class FakeEngine:
    """A TTS backend that returns a sine WAV whose length grows with the text, and counts calls."""

    def __init__(self, name: str = "espeak", *, fail: BaseException | None = None, langs=("en", "ru", "cs", "sk")):
        self.name = name
        self.fail = fail
        self.langs = set(langs)
        self.calls: list[tuple[str, str]] = []

    def supports(self, lang: str) -> bool:
        return lang in self.langs

    def voice(self, lang: str) -> str:
        return f"fake-{lang}"

    async def synthesize(self, text: str, lang: str) -> bytes:
        self.calls.append((text, lang))
        if self.fail is not None:
            raise self.fail
        return sine_wav(min(3.0, 0.2 + 0.05 * len(text)))
