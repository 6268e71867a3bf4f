"""Test signals for the mixer: speech-like audio with known levels (shared by tests and bench/elite.py)."""

from __future__ import annotations

import array
import math


def speech_like(seconds: float, level: float = 0.25) -> bytes:
    """A vowel-like signal: a 140 Hz buzz with formants, syllable-modulated at 4 Hz; 48 kHz s16 stereo.

    Peaks near `level` × 1.1 of full scale, so keep `level` <= 0.9.
    """
    n = int(seconds * 48_000)
    out = array.array("h", bytes(4 * n))
    for i in range(n):
        t = i / 48_000
        syll = 0.5 - 0.5 * math.cos(2 * math.pi * 4 * t)
        v = sum(a * math.sin(2 * math.pi * f * t) for f, a in ((140, 0.5), (700, 0.3), (1200, 0.2), (2500, 0.1)))
        out[2 * i] = out[2 * i + 1] = int(32767 * level * syll * v)
    return out.tobytes()
