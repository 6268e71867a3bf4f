"""ELITE director benchmark: music-bed cost, speech-over-music levels, timer call lateness.

    .venv/bin/python bench/elite.py [--seconds 12]

Figures (the last line is one JSON object with all of them):
  * bed_prepare_s: synthesising the five stage loops (once per process, before Start);
  * mix_ms_per_frame: `MixedSource.read()` for one 20 ms frame (bed only / bed + speech /
    during a crossfade); the budget is 20 ms, and the player thread calls it 50 times a second;
  * speech_over_bed_db: a speech-like signal over the loudest stage, ducked (the test asks >= 18);
  * call_lateness_ms p50/max: a real-time Action Phase of `--seconds` on `time.monotonic` and
    `asyncio.sleep`, driven by the cog's own loop (sleep to next call, at most TICK_S): how late
    each spoken call fires after its exact instant.
"""

from __future__ import annotations

import argparse
import array
import asyncio
import json
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.exts.elite._cog import TICK_S
from engine.elite.timer import ActionTimer
from tests.elite.signals import speech_like
from voice.audio import FRAME_BYTES, rms
from voice.music_bed import CROSSFADE_FRAMES, MixedSource, MusicBed


def per_frame_ms(source: MixedSource, frames: int) -> float:
    start = time.perf_counter()
    for _ in range(frames):
        source.read()
    return (time.perf_counter() - start) / frames * 1000


async def lateness(seconds: float) -> list[float]:
    timer = ActionTimer(time.monotonic, seconds)
    timer.start()
    started = time.monotonic()
    late: list[float] = []
    while timer.state == "running":
        due = timer.next_due()
        await asyncio.sleep(TICK_S if due is None else min(TICK_S, max(0.0, due - time.monotonic())))
        for call in timer.poll():
            exact = started + seconds - call.seconds
            late.append((time.monotonic() - exact) * 1000)
    return late


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=12.0)
    args = parser.parse_args()

    bed = MusicBed()
    t0 = time.perf_counter()
    bed.prepare()
    prepare_s = time.perf_counter() - t0

    left = [100.0]
    src = MixedSource(bed, lambda: left[0])
    bed_only = per_frame_ms(src, 500)
    speech = speech_like(4.0)
    src.say(speech)
    with_speech = per_frame_ms(src, 150)
    left[0] = 50.0
    crossfade = per_frame_ms(src, CROSSFADE_FRAMES)

    loud = MixedSource(bed, lambda: 5.0)
    for _ in range(CROSSFADE_FRAMES):
        loud.read()
    loud.say(speech)
    mixed = [loud.read() for _ in range(150)]
    chunks = [speech[i : i + FRAME_BYTES] for i in range(0, len(speech), FRAME_BYTES)][5:150]
    under = array.array("h")
    for m, s in zip(mixed[5:], chunks, strict=False):
        a, b = array.array("h", m), array.array("h", s)
        under.extend(x - y for x, y in zip(a, b, strict=True))
    snr = 20 * math.log10(rms(b"".join(chunks)) / rms(under.tobytes()))

    late = asyncio.run(lateness(args.seconds))
    figures = {
        "bed_prepare_s": round(prepare_s, 3),
        "mix_ms_per_frame_bed": round(bed_only, 3),
        "mix_ms_per_frame_speech": round(with_speech, 3),
        "mix_ms_per_frame_crossfade": round(crossfade, 3),
        "speech_over_bed_db": round(snr, 1),
        "calls": len(late),
        "call_lateness_ms_p50": round(statistics.median(late), 2),
        "call_lateness_ms_max": round(max(late), 2),
    }
    for key, value in figures.items():
        print(f"{key:>28}: {value}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
