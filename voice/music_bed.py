"""A music bed for the ELITE Action Phase that intensifies as time runs out, mixed with the speech.

The official companion plays a soundtrack that reacts to the time left.  We cannot ship anyone's
recordings, so the bed is synthesised here from formulas (a drone, a pulse, ticks, an arpeggio and
a tension tone) in five stages chosen by the seconds left:

    stage 0  > 90 s   drone and a slow pulse
    stage 1  > 60 s   + ticks on the eighths
    stage 2  > 30 s   + arpeggio, faster
    stage 3  > 10 s   + sixteenth ticks, faster still
    stage 4  <= 10 s  + a high tension tone, fastest

Each stage is one bar, rendered once per process (pure Python, a few hundred milliseconds in all,
done in `prepare()` before the Start button so `read()` never synthesises) and looped; a stage change
crossfades over `CROSSFADE_FRAMES` so nothing clicks.

`MixedSource` is the one PCM source the voice client plays (discord.py plays one source at a time):
every 20 ms it returns a 3,840-byte frame (48 kHz s16 stereo, as `voice.audio`) of the bed plus
any queued speech.  While speech plays the bed is ducked (fast attack, slow release), so the calls
stay intelligible over the music.

Timer calls are not queued when the event loop gets round to them: they are handed over ahead of
time with their instant (`at`), and `read()`, on the player thread, starts a call in the frame
that contains its instant, shifted inside that frame to the sample, so its first audible sample
is heard on the instant (the intercom's Opus mixer can only start on a frame boundary, within
half a frame; this source is PCM, so it can do better), cutting off any announcement still
playing.  So the event loop's jitter never reaches a call; a pause or a time change takes back
the calls not started yet (`drop_calls`).
"""

from __future__ import annotations

import array
import bisect
import math
import random
import threading
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from voice.audio import FRAME_BYTES, FRAME_S, SAMPLE_RATE, SAMPLES_PER_FRAME

STAGE_FLOORS_S: tuple[float, ...] = (90.0, 60.0, 30.0, 10.0)  # stage n while seconds left > floor[n]
STAGE_BPM: tuple[int, ...] = (84, 96, 112, 128, 150)
STAGES = len(STAGE_BPM)
CROSSFADE_FRAMES = 25  # 0.5 s
STAGE_PEAK: tuple[float, ...] = (0.13, 0.16, 0.19, 0.22, 0.25)  # of full scale: a bed, not a song
DUCK_GAIN = 0.15  # about -16.5 dB under speech
DUCK_ATTACK_FRAMES = 2  # 40 ms down
DUCK_RELEASE_FRAMES = 20  # 400 ms back up
_PAIR = FRAME_BYTES // SAMPLES_PER_FRAME  # bytes per stereo sample
CALL_STALE_S = 1.0  # a call that could not start within this of its instant is dropped, not played late
_FULL = 32767

_MINOR = (0, 3, 7, 10, 12, 10, 7, 3)  # an A-minor arpeggio, in semitones
_ROOT_HZ = 220.0


def stage_for(seconds_left: float) -> int:
    """The intensity stage for the time left (0 calm .. 4 final seconds)."""
    for stage, floor in enumerate(STAGE_FLOORS_S):
        if seconds_left > floor:
            return stage
    return STAGES - 1


def _thump(t: float) -> float:
    return 0.9 * math.exp(-t * 28) * math.sin(2 * math.pi * (48 + 90 * math.exp(-t * 40)) * t)


def _tick(noise: tuple[float, ...], amp: float, t: float) -> float:
    return amp * noise[min(len(noise) - 1, int(t * SAMPLE_RATE))] * math.exp(-t * 120)


def _pluck(freq: float, t: float) -> float:
    w = 2 * math.pi * freq * t
    return 0.28 * math.exp(-t * 9) * (math.sin(w) + 0.3 * math.sin(2 * w))


def _bar(stage: int, seed: int) -> array.array[int]:
    """One bar (4 beats) of the bed at a stage, mono s16, normalised to the stage's peak level."""
    rng = random.Random(seed * 31 + stage)
    beat = 60.0 / STAGE_BPM[stage]
    n = round(4 * beat * SAMPLE_RATE)
    out = [0.0] * n
    two_pi = 2 * math.pi
    bar_s = n / SAMPLE_RATE

    def looped(hz: float) -> float:
        """The nearest frequency with a whole number of cycles per bar, so the loop seam is silent."""
        return max(1, round(hz * bar_s)) / bar_s

    drone, octave, swell_hz = looped(55.0), looped(110.0), looped(0.0)
    # Drone: A1 with its octave, slowly swelling over the bar.
    for i in range(n):
        t = i / SAMPLE_RATE
        swell = 0.75 + 0.25 * math.sin(two_pi * swell_hz * t)
        out[i] = 0.35 * swell * (math.sin(two_pi * drone * t) + 0.4 * math.sin(two_pi * octave * t))

    def add(start_s: float, length_s: float, voice: Callable[[float], float]) -> None:
        """Mix one note in, with a 3 ms release so a note cut at its end (or the seam) never clicks."""
        first = round(start_s * SAMPLE_RATE)
        length = min(round(length_s * SAMPLE_RATE), n - first)
        release = min(length, 144)
        for j in range(length):
            fade = min(1.0, (length - j) / release)
            out[first + j] += fade * voice(j / SAMPLE_RATE)

    # Pulse: a thump on every beat (a sine whose pitch drops, decaying fast).
    for b in range(4):
        add(b * beat, 0.16, _thump)
    # Ticks: short noise bursts on eighths (stage 1+) or sixteenths (stage 3+).
    if stage >= 1:
        per_beat = 4 if stage >= 3 else 2
        for k in range(4 * per_beat):
            noise = tuple(rng.uniform(-1, 1) for _ in range(int(0.03 * SAMPLE_RATE)))
            add(k * beat / per_beat, 0.03, partial(_tick, noise, 0.22 if k % per_beat == 0 else 0.14))
    # Arpeggio: plucked notes on the eighths (stage 2+), sixteenths in the final stage.
    if stage >= 2:
        per_beat = 4 if stage >= 4 else 2
        step = beat / per_beat
        for k in range(4 * per_beat):
            add(k * step, step, partial(_pluck, _ROOT_HZ * 2 ** (_MINOR[k % len(_MINOR)] / 12)))
    # Tension: a high tone with a fast tremolo, in the last seconds.
    if stage >= 4:
        tone, tremolo = looped(880.0), looped(8.0)
        for i in range(n):
            t = i / SAMPLE_RATE
            out[i] += 0.12 * (0.5 + 0.5 * math.sin(two_pi * tremolo * t)) * math.sin(two_pi * tone * t)
    peak = max(abs(v) for v in out) or 1.0
    scale = STAGE_PEAK[stage] * _FULL / peak
    return array.array("h", (int(v * scale) for v in out))


class MusicBed:
    """The five stage loops, rendered once (thread-safe) and read frame by frame."""

    def __init__(self, seed: int = 4) -> None:
        self.seed = seed
        self._bars: list[array.array[int] | None] = [None] * STAGES
        self._lock = threading.Lock()

    def prepare(self) -> None:
        """Render every stage now (call off the event loop, before the phase starts)."""
        for stage in range(STAGES):
            self.bar(stage)

    def bar(self, stage: int) -> array.array[int]:
        with self._lock:
            bar = self._bars[stage]
            if bar is None:
                bar = self._bars[stage] = _bar(stage, self.seed)
            return bar

    def mono_frame(self, stage: int, position: int) -> array.array[int]:
        """`SAMPLES_PER_FRAME` mono samples of a stage's loop, from sample `position` (wrapping)."""
        bar = self.bar(stage)
        start = position % len(bar)
        chunk = bar[start : start + SAMPLES_PER_FRAME]
        while len(chunk) < SAMPLES_PER_FRAME:
            chunk += bar[: SAMPLES_PER_FRAME - len(chunk)]
        return chunk


@dataclass(order=True)
class ScheduledCall:
    """Speech due at `due` (clock seconds): its first audible sample is `lead_frames` frames in."""

    due: float
    pcm: bytes = field(compare=False)
    key: Hashable = field(default=None, compare=False)
    lead_frames: int = field(default=1, compare=False)

    @property
    def start(self) -> float:
        """The instant its first frame should go out."""
        return self.due - self.lead_frames * FRAME_S


def _split(pcm: bytes) -> list[bytes]:
    if len(pcm) % FRAME_BYTES:
        pcm += bytes(FRAME_BYTES - len(pcm) % FRAME_BYTES)
    return [pcm[i : i + FRAME_BYTES] for i in range(0, len(pcm), FRAME_BYTES)]


def _clamp(v: float) -> int:
    return -_FULL if v < -_FULL else _FULL if v > _FULL else int(v)


class MixedSource:
    """One PCM source: the bed at the stage the time left asks for, plus queued speech, ducked.

    `seconds_left` is read once per frame (the timer's `remaining`); `music_on` is turned off while
    the timer is paused or once time is up.  `read()` is called from the voice client's thread,
    `say()` and `at()` from the event loop; a lock keeps the queues consistent.  `clock` (the
    timer's clock) is what scheduled calls are timed on; `on_call(key, due, started)` is told on
    the player thread when one starts (the bench measures lateness with it).
    """

    def __init__(
        self,
        bed: MusicBed,
        seconds_left: Callable[[], float],
        *,
        clock: Callable[[], float] | None = None,
        on_call: Callable[[Hashable, float, float], None] | None = None,
    ) -> None:
        self.bed = bed
        self.seconds_left = seconds_left
        self.clock = clock
        self.on_call = on_call
        self.music_on = True
        self._speech: deque[bytes] = deque()
        self._calls: list[ScheduledCall] = []  # sorted by instant
        self._lock = threading.Lock()
        self._position = 0
        self._stage = stage_for(seconds_left())
        self._fading_from: int | None = None
        self._fade_left = 0
        self._gain = 1.0
        self.frames_read = 0

    # -- the voice client's side -------------------------------------------------------------------
    def is_opus(self) -> bool:
        return False

    def cleanup(self) -> None:
        with self._lock:
            self._speech.clear()
            self._calls.clear()

    def read(self) -> bytes:
        """The next 20 ms: 3,840 bytes of 48 kHz s16 stereo, never shorter (the bed never ends)."""
        self.frames_read += 1
        started: tuple[ScheduledCall, float] | None = None
        with self._lock:
            if self._calls and self.clock is not None:
                started = self._start_due(self.clock())
            speech = self._speech.popleft() if self._speech else None
        if started is not None and self.on_call is not None:
            call, heard = started
            self.on_call(call.key, call.due, heard)
        target = DUCK_GAIN if speech is not None else 1.0
        g0 = self._gain
        if target < g0:
            g1 = max(target, g0 - (1 - DUCK_GAIN) / DUCK_ATTACK_FRAMES)
        else:
            g1 = min(target, g0 + (1 - DUCK_GAIN) / DUCK_RELEASE_FRAMES)
        self._gain = g1
        music = self._music() if self.music_on else None
        out = array.array("h", bytes(FRAME_BYTES))
        n = SAMPLES_PER_FRAME
        if music is not None:
            slope = (g1 - g0) / n
            mixed = [int(m * (g0 + slope * i)) for i, m in enumerate(music)]
            out[0::2] = array.array("h", mixed)
            out[1::2] = array.array("h", mixed)
        if speech is not None:
            voice = array.array("h")
            voice.frombytes(speech)
            out = array.array("h", map(_clamp, map(sum, zip(out, voice, strict=True))))
        return out.tobytes()

    def _music(self) -> array.array[int]:
        stage = stage_for(self.seconds_left())
        if stage != self._stage:
            self._fading_from, self._fade_left, self._stage = self._stage, CROSSFADE_FRAMES, stage
        frame = self.bed.mono_frame(self._stage, self._position)
        if self._fading_from is not None and self._fade_left > 0:
            old = self.bed.mono_frame(self._fading_from, self._position)
            w0 = 1 - self._fade_left / CROSSFADE_FRAMES
            w1 = 1 - (self._fade_left - 1) / CROSSFADE_FRAMES
            slope = (w1 - w0) / SAMPLES_PER_FRAME
            frame = array.array(
                "h",
                (
                    int(a * (w0 + slope * i) + b * (1 - w0 - slope * i))
                    for i, (a, b) in enumerate(zip(frame, old, strict=True))
                ),
            )
            self._fade_left -= 1
            if self._fade_left == 0:
                self._fading_from = None
        self._position += SAMPLES_PER_FRAME
        return frame

    def _start_due(self, now: float) -> tuple[ScheduledCall, float] | None:
        """The call that starts in the frame going out now, put in place of any speech queued
        (under the lock); with the instant its first audible sample will be heard.

        The frame read at `now` is heard from `now` for 20 ms; a call whose start falls inside it
        is shifted by whole samples so its onset lands on its instant.  A late one (handed over
        after its start) loses the lead-in it has no time for, never its words; one too stale
        to be news is dropped.
        """
        started = None
        while self._calls and self._calls[0].start - now < FRAME_S:
            call = self._calls.pop(0)
            if now - call.start > CALL_STALE_S:
                continue
            lead = call.lead_frames * SAMPLES_PER_FRAME
            shift = max(-lead, round((call.start - now) * SAMPLE_RATE))  # samples of this frame before it
            pcm = bytes(_PAIR * shift) + call.pcm if shift >= 0 else call.pcm[-_PAIR * shift :]
            self._speech.clear()
            self._speech.extend(_split(pcm))
            started = (call, now + (shift + lead) / SAMPLE_RATE)
        return started

    # -- the event loop's side ---------------------------------------------------------------------
    def at(self, due: float, pcm: bytes, *, key: Hashable = None, lead_frames: int = 1) -> None:
        """Speak `pcm` so that its first audible sample (after `lead_frames` frames) is heard at `due`.

        A call already waiting with the same `key` is replaced (a re-planned timer).  Needs `clock`.
        """
        if self.clock is None:
            raise RuntimeError("scheduled speech needs the source's clock")
        call = ScheduledCall(due, bytes(pcm), key, lead_frames)
        with self._lock:
            if key is not None:
                self._calls = [c for c in self._calls if c.key != key]
            bisect.insort(self._calls, call)

    def drop_calls(self, *, after: float | None = None) -> int:
        """Take back the scheduled calls not started yet (only those due after `after`, if given)."""
        with self._lock:
            keep = [] if after is None else [c for c in self._calls if c.due <= after]
            dropped = len(self._calls) - len(keep)
            self._calls = keep
        return dropped

    def scheduled(self) -> list[tuple[float, Hashable]]:
        """(instant, key) of every call waiting, earliest first."""
        with self._lock:
            return [(c.due, c.key) for c in self._calls]

    def say(self, pcm: bytes, *, interrupt: bool = False) -> float:
        """Queue speech (48 kHz s16 stereo PCM); returns its length in seconds.  Lines queue, never overlap.

        `interrupt` drops whatever is still queued first: a timer call must be heard on time, and
        a backlog of announcements (seven quick "-15 s" presses) must not push it late.
        """
        pcm = bytes(pcm)
        if len(pcm) % FRAME_BYTES:
            pcm += bytes(FRAME_BYTES - len(pcm) % FRAME_BYTES)
        frames = [pcm[i : i + FRAME_BYTES] for i in range(0, len(pcm), FRAME_BYTES)]
        with self._lock:
            if interrupt:
                self._speech.clear()
            self._speech.extend(frames)
        return len(frames) * SAMPLES_PER_FRAME / SAMPLE_RATE

    def speaking(self) -> bool:
        with self._lock:
            return bool(self._speech)

    def queued_s(self) -> float:
        """Speech still queued, in seconds (the adapter waits this long before the next call)."""
        with self._lock:
            return len(self._speech) * SAMPLES_PER_FRAME / SAMPLE_RATE


def as_discord_source(source: MixedSource) -> Any:  # a discord.AudioSource
    """Wrap for `VoiceClient.play`, which only accepts `discord.AudioSource` instances."""
    import discord

    class _Source(discord.AudioSource):
        def read(self) -> bytes:
            return source.read()

        def is_opus(self) -> bool:
            return False

        def cleanup(self) -> None:
            source.cleanup()

    return _Source()
