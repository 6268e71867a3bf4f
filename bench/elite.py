"""ELITE director benchmark: music-bed cost, speech-over-music levels, timer call lateness.

    .venv/bin/python bench/elite.py [--seconds 12]

Figures (the last line is one JSON object with all of them):
  * bed_prepare_s: synthesising the five stage loops (once per process, before Start);
  * mix_ms_per_frame: `MixedSource.read()` for one 20 ms frame (bed only / bed + speech /
    during a crossfade); the budget is 20 ms, and the player thread calls it 50 times a second;
  * speech_over_bed_db: a speech-like signal over the loudest stage, ducked (the test asks >= 18);
  * call_lateness_ms p50/max (|first audible sample - instant|): a real-time Action Phase of
    `--seconds` whose calls are planned in the mixed source on `time.monotonic` (as the director
    does), played by discord.py's own `AudioPlayer` thread (20 ms pacing) into a fake voice
    client, with the music under them; a frame counts as heard from the instant it is read;
  * read_jitter_ms p50/max: how far from its own 20 ms grid the player thread read each frame,
    which the figure above cannot see (a listener hears the grid): the real error of a call is
    at most this;
  * poll_lateness_ms p50/max: for comparison, how late the cog's timer task (sleep to the next
    call, at most TICK_S) polls each call: what a call spoken from the event loop would be late by.
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

from discord.player import AudioPlayer

from bench.voice import FakeVoiceClient
from bot.games.elite._cog import TICK_S
from engine.elite.timer import ActionTimer
from tests.elite.signals import speech_like
from voice.audio import FRAME_BYTES, rms
from voice.music_bed import CROSSFADE_FRAMES, MixedSource, MusicBed, as_discord_source


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


async def audible_lateness(bed: MusicBed, seconds: float, jitter: list[float]) -> list[float]:
    """Calls planned in the mixed source, played by discord.py's AudioPlayer thread: |audible - due| in ms."""
    loop = asyncio.get_running_loop()
    timer = ActionTimer(time.monotonic, seconds)
    late: list[float] = []
    source = MixedSource(
        bed, timer.remaining, clock=time.monotonic, on_call=lambda _key, due, at: late.append(abs(at - due) * 1000)
    )
    reads: list[float] = []
    wrapped = as_discord_source(source)
    plain_read = wrapped.read

    def read() -> bytes:
        reads.append(time.monotonic())
        return bytes(plain_read())

    wrapped.read = read
    player = AudioPlayer(wrapped, FakeVoiceClient(loop), after=lambda _e: None)  # type: ignore[arg-type]
    player.start()
    await asyncio.sleep(0.2)  # the player's pacing loop is running
    timer.start()
    now = time.monotonic()
    call = bytes(FRAME_BYTES) + speech_like(0.4, 0.8)  # one lead-in frame, as rendered lines have
    for offset, c in timer.schedule():
        source.at(now + offset, call, key=c.seconds)
    await asyncio.sleep(seconds + 0.5)
    player.stop()
    await asyncio.to_thread(player.join, 2)
    steady = reads[1:]  # discord.py waits two frames after its first read, then keeps its grid
    origin = statistics.median(t - 0.02 * n for n, t in enumerate(steady))
    jitter.extend(abs(t - 0.02 * n - origin) * 1000 for n, t in enumerate(steady))
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

    polled = asyncio.run(lateness(args.seconds))
    jitter: list[float] = []
    late = asyncio.run(audible_lateness(bed, args.seconds, jitter))
    figures = {
        "bed_prepare_s": round(prepare_s, 3),
        "mix_ms_per_frame_bed": round(bed_only, 3),
        "mix_ms_per_frame_speech": round(with_speech, 3),
        "mix_ms_per_frame_crossfade": round(crossfade, 3),
        "speech_over_bed_db": round(snr, 1),
        "calls": len(late),
        "call_lateness_ms_p50": round(statistics.median(late), 2),
        "call_lateness_ms_max": round(max(late), 2),
        "read_jitter_ms_p50": round(statistics.median(jitter), 2),
        "read_jitter_ms_max": round(max(jitter), 2),
        "poll_lateness_ms_p50": round(statistics.median(polled), 2),
        "poll_lateness_ms_max": round(max(polled), 2),
    }
    for key, value in figures.items():
        print(f"{key:>28}: {value}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
