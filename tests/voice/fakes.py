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


@dataclass
class PlayRecord:
    clip: Clip
    start: float
    loop: bool
    end: float | None = None
    error: BaseException | None = None
    on_done: Callable[[BaseException | None], None] | None = None
    token: int = 0

    def frames(self) -> list[tuple[float, bytes]]:
        """(timestamp, opus packet) of every frame actually sent."""
        end = self.end if self.end is not None else self.start + self.clip.duration_s
        n = max(0, round((end - self.start) / FRAME_S))
        if not self.loop:
            n = min(n, len(self.clip.frames))
        fr = self.clip.frames
        return [(self.start + i * FRAME_S, fr[i % len(fr)]) for i in range(n)] if fr else []


class FakeSink:
    """A VoiceSink that records plays on a FakeClock."""

    def __init__(self, clock: FakeClock, *, reconnect_delay_s: float = 1.5, reconnect_ok: bool = True) -> None:
        self.clock = clock
        self.connected = True
        self.reconnect_delay_s = reconnect_delay_s
        self.reconnect_ok = reconnect_ok
        self.reconnect_calls = 0
        self.closed = False
        self.plays: list[PlayRecord] = []
        self.current: PlayRecord | None = None
        self._tokens = itertools.count(1)

    # VoiceSink protocol
    def is_connected(self) -> bool:
        return self.connected and not self.closed

    def play(self, clip: Clip, on_done, *, loop: bool = False) -> None:
        if not self.is_connected():
            raise RuntimeError("Not connected to voice.")
        if self.current is not None:
            raise RuntimeError("Already playing audio.")
        rec = PlayRecord(clip, self.clock(), loop, on_done=on_done, token=next(self._tokens))
        self.plays.append(rec)
        self.current = rec
        if not loop:
            token = rec.token
            self.clock.call_at(rec.start + clip.duration_s, lambda: self._finish(token, None))

    def _finish(self, token: int, error: BaseException | None) -> None:
        rec = self.current
        if rec is None or rec.token != token:
            return
        rec.end = self.clock()
        rec.error = error
        self.current = None
        if rec.on_done is not None:
            rec.on_done(error)

    def stop(self) -> None:
        if self.current is not None:
            self._finish(self.current.token, None)

    async def reconnect(self) -> str | None:
        self.reconnect_calls += 1
        await self.clock.sleep(self.reconnect_delay_s)
        if not self.reconnect_ok:
            return "simulated: voice server unreachable"
        self.connected = True
        return None

    async def close(self) -> None:
        self.stop()
        self.closed = True

    # test controls
    def disconnect(self) -> None:
        """Drop the connection now; the clip in progress ends with an error."""
        self.connected = False
        if self.current is not None:
            self._finish(self.current.token, ConnectionResetError("voice websocket closed (simulated)"))

    def line_plays(self) -> list[PlayRecord]:
        return [p for p in self.plays if not p.loop]

    def filler_plays(self) -> list[PlayRecord]:
        return [p for p in self.plays if p.loop]

    def frames(self) -> list[tuple[float, bytes]]:
        out: list[tuple[float, bytes]] = []
        for p in self.plays:
            out.extend(p.frames())
        return sorted(out, key=lambda f: f[0])


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
