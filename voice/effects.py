"""Synthesized sound effects: alert tone, data-transfer beep, static noise, red-alert klaxon loop.

Everything is generated from formulas (sines, a seeded noise generator, envelopes); no recordings
are shipped, so there is nothing to license.  Each effect is synthesized once per `EffectBank`,
encoded to Opus once, and then reused by every flight.
"""

from __future__ import annotations

import array
import math
import random
import threading
from collections.abc import Callable

from voice.audio import SAMPLE_RATE, Clip, encode_opus
from voice.cache import AudioCache, cache_key

#: Effect names a cue may carry (`Cue.effect`), plus the background loop.
ALERT = "alert"
BEEP = "beep"
STATIC_START = "static_start"
STATIC_END = "static_end"
STATIC = "static"
RED_ALERT = "red_alert"
EFFECT_NAMES = (ALERT, BEEP, STATIC, RED_ALERT)

_FULL = 32767


def _stereo(mono: array.array[int]) -> bytes:
    """Duplicate a mono s16 array into interleaved stereo bytes."""
    out = array.array("h", bytes(4 * len(mono)))
    out[0::2] = mono
    out[1::2] = mono
    return out.tobytes()


def _to_s16(values: list[float], gain: float) -> array.array[int]:
    scale = _FULL * gain
    return array.array("h", (max(-_FULL, min(_FULL, int(v * scale))) for v in values))


def _envelope(i: int, n: int, attack: int, release: int) -> float:
    if i < attack:
        return i / attack
    if i > n - release:
        return max(0.0, (n - i) / release)
    return 1.0


def _tone(freq: float, seconds: float, *, harmonics: tuple[float, ...] = (1.0,), fade_s: float = 0.01) -> list[float]:
    n = int(seconds * SAMPLE_RATE)
    fade = max(1, int(fade_s * SAMPLE_RATE))
    w = 2 * math.pi * freq / SAMPLE_RATE
    norm = sum(harmonics)
    out = []
    for i in range(n):
        v = sum(a * math.sin(w * (k + 1) * i) for k, a in enumerate(harmonics)) / norm
        out.append(v * _envelope(i, n, fade, fade))
    return out


def _gap(seconds: float) -> list[float]:
    return [0.0] * int(seconds * SAMPLE_RATE)


def alert_tone_pcm(gain: float = 0.55) -> bytes:
    """The alert before a threat: three rising two-tone pulses (~1.0 s), like a ship's alarm chime."""
    values: list[float] = []
    for _ in range(3):
        values += _tone(660.0, 0.13, harmonics=(1.0, 0.35, 0.15))
        values += _tone(880.0, 0.13, harmonics=(1.0, 0.35, 0.15))
        values += _gap(0.07)
    values += _gap(0.08)
    return _stereo(_to_s16(values, gain))


def beep_pcm(gain: float = 0.6, seconds: float = 0.35) -> bytes:
    """The data-transfer beep: a clean 1 kHz tone.  Its first sample is the moment the window closes."""
    return _stereo(_to_s16(_tone(1000.0, seconds, fade_s=0.004), gain))


def static_pcm(seconds: float = 1.0, gain: float = 0.22, seed: int = 7) -> bytes:
    """Radio static: low-passed white noise with random crackles, seeded so it is reproducible.

    The result is meant to be looped; one second is enough variety that the loop is not audible.
    """
    rng = random.Random(seed)
    n = int(seconds * SAMPLE_RATE)
    values: list[float] = []
    y = 0.0
    crackle = 0.0
    for _ in range(n):
        x = rng.uniform(-1.0, 1.0)
        y = 0.55 * y + 0.45 * x  # gentle low-pass: hiss rather than a harsh white noise
        if rng.random() < 0.0008:
            crackle = rng.choice((-1.0, 1.0)) * rng.uniform(0.6, 1.0)
        crackle *= 0.93
        values.append(0.8 * y + crackle)
    return _stereo(_to_s16(values, gain))


def red_alert_pcm(gain: float = 0.08) -> bytes:
    """One cycle (1.2 s) of the red-alert klaxon: a rising buzz then a pause.  Low level by default,
    because it plays under the crew's conversation between lines."""
    n = int(0.7 * SAMPLE_RATE)
    values: list[float] = []
    phase = 0.0
    for i in range(n):
        f = 420.0 + 260.0 * (i / n)
        phase += 2 * math.pi * f / SAMPLE_RATE
        # odd harmonics: a square-ish, brassy buzz
        v = math.sin(phase) + math.sin(3 * phase) / 3 + math.sin(5 * phase) / 5
        values.append(0.8 * v * _envelope(i, n, 480, 2400))
    values += _gap(0.5)
    return _stereo(_to_s16(values, gain))


_SYNTHS: dict[str, Callable[[], bytes]] = {
    ALERT: alert_tone_pcm,
    BEEP: beep_pcm,
    STATIC: static_pcm,
    RED_ALERT: red_alert_pcm,
}


#: Bump when an effect's formula changes, so cached renderings are not reused.
EFFECTS_VERSION = 1


class EffectBank:
    """Lazily synthesizes and Opus-encodes each effect once; thread-safe, shared by all flights.

    With a `cache`, the encoded effects are stored next to the speech, so a restarted bot does not
    spend the few hundred milliseconds of pure-Python synthesis again.
    """

    def __init__(self, *, red_alert_gain: float = 0.08, cache: AudioCache | None = None) -> None:
        self._red_alert_gain = red_alert_gain
        self._cache = cache
        self._clips: dict[str, Clip] = {}
        self._lock = threading.Lock()
        self._making: dict[str, threading.Lock] = {name: threading.Lock() for name in _SYNTHS}

    def _key(self, name: str) -> str:
        params = f"gain={self._red_alert_gain}" if name == RED_ALERT else ""
        return cache_key("effect", f"v{EFFECTS_VERSION};{params}", "", name)

    def pcm(self, name: str) -> bytes:
        if name == RED_ALERT:
            return red_alert_pcm(self._red_alert_gain)
        try:
            return _SYNTHS[name]()
        except KeyError:
            raise ValueError(f"unknown sound effect {name!r}; known: {', '.join(EFFECT_NAMES)}") from None

    def clip(self, name: str) -> Clip:
        with self._lock:
            cached = self._clips.get(name)
        if cached is not None:
            return cached
        if name not in _SYNTHS:
            raise ValueError(f"unknown sound effect {name!r}; known: {', '.join(EFFECT_NAMES)}")
        with self._making.setdefault(name, threading.Lock()):  # two threads never synthesize one effect twice
            with self._lock:
                cached = self._clips.get(name)
            if cached is not None:
                return cached
            clip = self._cache.get(self._key(name)) if self._cache is not None else None
            if clip is None:
                clip = Clip(tuple(encode_opus(self.pcm(name))), "effect")
                if self._cache is not None:
                    self._cache.put(self._key(name), clip)
            with self._lock:
                return self._clips.setdefault(name, clip)

    def forget(self) -> None:
        """Drop the encoded effects from memory (they come back from the disk cache when needed)."""
        with self._lock:
            self._clips.clear()

    def warm(self) -> None:
        """Synthesize everything now (call off the event loop), so no flight pays for it later."""
        for name in EFFECT_NAMES:
            self.clip(name)
