"""Voice benchmark: pre-render cost, CPU per speaking flight, line-start lateness under load.

    .venv/bin/python bench/voice.py [--lang en] [--flights 20] [--window 165 240] [--time-scale 1]

Never touches the network: speech comes from espeak-ng (the offline engine every install has).
Playback goes through discord.py's real `AudioPlayer` thread (the same pacing loop the bot uses)
with a fake voice client, so what is measured is our scheduler + source + discord.py's player;
packet encryption (PyNaCl/DAVE) and the UDP send are the same for both audio paths and not included.

Figures:
  * prerender_cold_s: every line of the mission synthesized, decoded, trimmed, Opus-encoded, cached;
  * prerender_warm_s: the same with the cache on disk but a fresh process-like service (no memory);
  * cpu_pct_per_flight: % of one core one speaking flight costs, measured over the N concurrent
    flights playing a dense stretch of the mission (whole process CPU / wall / N: scheduler, player
    threads, pre-encoded Opus reads).  `cpu_pct_while_speaking` is the discord.py player thread
    alone during uninterrupted speech, pre-encoded Opus (the PCM-encode path is printed next to it);
  * lateness_p50_ms / lateness_p99_ms: for every line start in N concurrent flights (real asyncio
    time), how long after the instant it could start (its scheduled time, or the end of the line
    before it when that one was still playing) it actually started.  The schedule lateness that
    includes such queueing is printed separately.
The last line of output is one JSON object with those five figures (and the two extra ones).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import discord
from discord.player import AudioPlayer

from engine.flight.script import intercom_script
from engine.flight.timeline import load_official
from voice.audio import SAMPLES_PER_FRAME, Clip, decode_opus, make_encoder
from voice.config import VoiceConfig
from voice.discord_sink import OpusFrameSource, PCMFrameSource
from voice.player import VoiceService
from voice.sink import percentile


class FakeVoiceClient:
    """Just enough of discord.VoiceClient for discord.player.AudioPlayer to run its real loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.client = SimpleNamespace(loop=loop)
        self.ws = SimpleNamespace(speak=self._speak)
        self.timeout = 5.0
        self.encoder = make_encoder(128)  # discord.py's default bitrate for PCM sources
        self.packets = 0

    async def _speak(self, state: object) -> None:
        return None

    def is_connected(self) -> bool:
        return True

    def wait_until_connected(self, timeout: float | None = None) -> bool:
        return True

    def send_audio_packet(self, data: bytes, *, encode: bool = True) -> None:
        if encode:
            data = self.encoder.encode(data, SAMPLES_PER_FRAME)
        self.packets += 1


class PlayerSink:
    """A VoiceSink that plays through discord.py's AudioPlayer thread into a fake client."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.vc = FakeVoiceClient(loop)
        self.player: AudioPlayer | None = None

    def is_connected(self) -> bool:
        return True

    def play(self, clip: Clip, on_done, *, loop: bool = False) -> None:
        self.stop()
        self.player = AudioPlayer(OpusFrameSource(clip.frames, loop=loop), self.vc, after=on_done)  # type: ignore[arg-type]
        self.player.start()

    def stop(self) -> None:
        if self.player is not None:
            self.player.stop()
            self.player = None

    async def reconnect(self) -> str | None:
        return None

    async def close(self) -> None:
        self.stop()


async def bench_prerender(cache_dir: Path, cues) -> tuple[float, float, float, VoiceService]:
    cfg = VoiceConfig(tts_backend="espeak", cache_dir=cache_dir, render_concurrency=4)
    cold_service = VoiceService(cfg)
    t = time.perf_counter()
    prepared = await cold_service.player(None).prepare(cues)
    cold = time.perf_counter() - t
    assert prepared.ok, prepared.problems
    warm_service = VoiceService(cfg)  # fresh memory, same disk: what a restarted bot sees
    t = time.perf_counter()
    await warm_service.player(None).prepare(cues)
    warm_disk = time.perf_counter() - t
    t = time.perf_counter()
    await warm_service.player(None).prepare(cues)
    warm_mem = time.perf_counter() - t
    return cold, warm_disk, warm_mem, warm_service


class ThreadCPU(discord.AudioSource):
    """Wraps a source and reads the player thread's own CPU clock at its first and last read."""

    def __init__(self, inner) -> None:
        self.inner = inner
        self.t0: float | None = None
        self.t1: float | None = None

    def read(self) -> bytes:
        if self.t0 is None:
            self.t0 = time.thread_time()
        data = self.inner.read()
        if not data:
            self.t1 = time.thread_time()
        return data

    def is_opus(self) -> bool:
        return self.inner.is_opus()

    def cleanup(self) -> None:
        self.inner.cleanup()


def cpu_while_speaking(clip: Clip, source_kind: str, loop: asyncio.AbstractEventLoop) -> float:
    """% of one core the player thread uses while one flight speaks `clip` (discord.py's loop included)."""
    vc = FakeVoiceClient(loop)
    inner = OpusFrameSource(clip.frames) if source_kind == "opus" else PCMFrameSource(decode_opus(clip.frames))
    source = ThreadCPU(inner)
    done = threading.Event()
    player = AudioPlayer(source, vc, after=lambda e: done.set())  # type: ignore[arg-type]
    wall0 = time.perf_counter()
    player.start()
    done.wait()
    wall = time.perf_counter() - wall0
    assert source.t0 is not None and source.t1 is not None
    return 100.0 * (source.t1 - source.t0) / wall


async def bench_cpu(service: VoiceService, cues, seconds: float) -> tuple[float, float]:
    loop = asyncio.get_running_loop()
    player = service.player(None)
    await player.prepare(cues)
    frames: list[bytes] = []
    for line in player.lines:
        frames.extend(line.clip.frames)
        if len(frames) * 0.02 >= seconds:
            break
    clip = Clip(tuple(frames), "bench")
    opus = [await asyncio.to_thread(cpu_while_speaking, clip, "opus", loop) for _ in range(3)]
    pcm = [await asyncio.to_thread(cpu_while_speaking, clip, "pcm", loop) for _ in range(3)]
    return sorted(opus)[1], sorted(pcm)[1]  # medians of three: the machine is shared


async def bench_lateness(service: VoiceService, cues, flights: int, window: tuple[float, float], scale: float):
    lo, hi = window
    excerpt = [c for c in cues if lo <= c.at_s < hi]
    shifted = [SimpleNamespace(**{**c.to_dict(), "at_s": c.at_s - lo}) for c in excerpt]
    loop = asyncio.get_running_loop()
    players = []
    for _ in range(flights):
        p = service.player(PlayerSink(loop), time_scale=scale)
        await p.prepare(shifted)
        players.append(p)
    rng = random.Random(1)
    base = time.monotonic() + 1.0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    tasks = [p.start(base + rng.uniform(0, 1.0)) for p in players]
    reports = await asyncio.gather(*tasks)
    wall = time.perf_counter() - wall0
    cpu = time.process_time() - cpu0
    jitter = [j for r in reports for j in r.jitter_ms()]
    late = [x for r in reports for x in r.lateness_ms()]
    queued = sum(r.summary()["queued"] for r in reports)
    statuses = {s for r in reports for s in (ln.status for ln in r.lines)}
    return jitter, late, queued, len(excerpt), wall, cpu, statuses


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mission", default="S2-1")
    ap.add_argument("--lang", default="en")
    ap.add_argument("--flights", type=int, default=20)
    ap.add_argument(
        "--window",
        type=float,
        nargs=2,
        default=(165.0, 240.0),
        metavar=("FROM_S", "TO_S"),
        help="mission seconds played by every flight in the lateness run (default: a dense 75 s)",
    )
    ap.add_argument("--time-scale", type=float, default=1.0)
    ap.add_argument("--cpu-seconds", type=float, default=8.0, help="audio played for the CPU measurement")
    args = ap.parse_args()

    cues = intercom_script(load_official(args.mission), args.lang)
    spoken = [c for c in cues if c.text]
    tmp = Path(tempfile.mkdtemp(prefix="voice-bench-"))
    try:
        cold, warm_disk, warm_mem, service = await bench_prerender(tmp, cues)
        print(f"mission {args.mission} ({args.lang}): {len(spoken)} lines, "
              f"{len({c.text for c in spoken})} distinct, espeak-ng")  # fmt: skip
        print(f"pre-render cold              {cold:7.3f} s  (synthesize + decode + Opus-encode + cache)")
        print(f"pre-render warm, disk cache  {warm_disk:7.3f} s  (fresh service: what a restarted bot sees)")
        print(f"pre-render warm, memory      {warm_mem:7.3f} s")

        opus_pct, pcm_pct = await bench_cpu(service, cues, args.cpu_seconds)
        print(f"CPU while speaking, pre-encoded Opus   {opus_pct:6.3f} % of a core (discord.py player thread)")
        print(f"CPU while speaking, PCM encoded live   {pcm_pct:6.3f} % of a core (what FFmpeg/PCM sources cost)")

        jitter, late, queued, n_lines, wall, cpu, statuses = await bench_lateness(
            service, cues, args.flights, tuple(args.window), args.time_scale
        )
        print(f"{args.flights} concurrent flights x {n_lines} lines (mission {args.window[0]:g}-{args.window[1]:g} s,"
              f" TIME_SCALE {args.time_scale:g}): {wall:.1f} s wall, {100 * cpu / wall:.1f} % of a core in total,"
              f" {100 * cpu / wall / args.flights:.2f} % per flight")  # fmt: skip
        print(
            f"line-start delay vs when it could start: p50 {percentile(jitter, 50):.2f} ms, "
            f"p99 {percentile(jitter, 99):.2f} ms, max {max(jitter):.2f} ms  (statuses: {sorted(statuses)})"
        )
        print(
            f"lateness vs the schedule incl. queueing: p50 {percentile(late, 50):.2f} ms, "
            f"p99 {percentile(late, 99):.2f} ms; {queued} of {len(late)} line starts queued behind a longer line"
        )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    print(json.dumps({
        "prerender_cold_s": round(cold, 3),
        "prerender_warm_s": round(warm_disk, 3),
        "cpu_pct_per_flight": round(100 * cpu / wall / args.flights, 3),
        "lateness_p50_ms": round(percentile(jitter, 50), 2),
        "lateness_p99_ms": round(percentile(jitter, 99), 2),
        "cpu_pct_while_speaking": round(opus_pct, 3),
        "lateness_vs_schedule_p99_ms": round(percentile(late, 99), 2),
    }))  # fmt: skip


if __name__ == "__main__":
    asyncio.run(main())
