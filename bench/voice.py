"""Voice benchmark: a whole mission in N concurrent flights through discord.py's real AudioPlayer.

    .venv/bin/python bench/voice.py [--mission S2-1] [--lang en] [--flights 20] [--time-scale 1]

Never touches the network: speech comes from espeak-ng (the offline engine every install has), and
"the online TTS hanging" is a gTTS whose HTTP call never returns.  Each flight plays through
discord.py's own `AudioPlayer` thread (the same 20 ms pacing loop the bot uses) into a fake voice
client that timestamps every packet; packet encryption and the UDP send are not included.

Figures (the last line of output is one JSON object with all of them):
  * first_line_{warm,cold,hanging}_s: Start -> the opening line's first audible frame, with the clip
    cache warm, cold (empty cache, effects not yet synthesized), and cold with gTTS hanging;
  * lateness_p50/p99_ms: per line, its first audible frame (the lead-in frame is sent one frame
    earlier) minus its scheduled instant, over every line of N concurrent flights, for lines not
    queued (behind a longer line, or the opening line still rendering: that is `first_line_*`);
    `jitter_p99_ms` covers every line against the instant it could start (its moment, the end of
    the line before it, or when it was rendered);
  * dropped: lines not played (anything but "played"), over all flights;
  * cpu_pct_per_flight: whole-process CPU over the mission / wall time / N (player threads,
    mixers, scheduler and watchdog tasks);
  * rss_{before,during,after}_mib: resident memory before the flights, at mid-mission, and after
    the last flight ended (the service releases its clips then).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import shutil
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from discord.player import AudioPlayer

from engine.flight.script import intercom_script
from engine.flight.timeline import load_official
from voice.config import VoiceConfig
from voice.discord_sink import IntercomSource
from voice.mixer import FrameMixer
from voice.player import VoiceService
from voice.sink import VoiceReport, percentile
from voice.tts import CircuitBreaker, EspeakBackend, GTTSBackend, SpeechEngines


def rss_mib() -> float:
    with open("/proc/self/statm") as f:
        pages = int(f.read().split()[1])
    return pages * 4096 / 2**20


class FakeVoiceClient:
    """Just enough of discord.VoiceClient for discord.player.AudioPlayer to run its real loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.client = SimpleNamespace(loop=loop)
        self.ws = SimpleNamespace(speak=self._speak)
        self.timeout = 5.0
        self.packets = 0
        self.silence = 0

    async def _speak(self, state: object) -> None:
        return None

    def is_connected(self) -> bool:
        return True

    def wait_until_connected(self, timeout: float | None = None) -> bool:
        return True

    def send_audio_packet(self, data: bytes, *, encode: bool = True) -> None:
        self.packets += 1


class PlayerSink:
    """A VoiceSink that plays the flight's mixer through one discord.py AudioPlayer thread."""

    member_disconnected = False

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.vc = FakeVoiceClient(loop)
        self.player: AudioPlayer | None = None
        self.starts = 0

    def is_connected(self) -> bool:
        return True

    def is_playing(self) -> bool:
        return self.player is not None and self.player.is_alive()

    def attach(self, mixer: FrameMixer) -> None:
        if self.is_playing():
            return
        self.starts += 1
        self.player = AudioPlayer(IntercomSource(mixer), self.vc, after=lambda e: None)  # type: ignore[arg-type]
        self.player.start()

    async def reconnect(self) -> str | None:
        return None

    async def close(self) -> None:
        if self.player is not None:
            self.player.stop()
            await asyncio.to_thread(self.player.join, 2)


class HangingGoogle:
    """A gTTS object whose HTTP call never returns (until the bench ends)."""

    release = threading.Event()

    def __init__(self, **kwargs: Any) -> None:
        pass

    def write_to_fp(self, fp: Any) -> None:
        self.release.wait(60)


def service_for(cache_dir: Path, *, hanging_gtts: bool = False) -> VoiceService:
    config = VoiceConfig(tts_backend="espeak", cache_dir=cache_dir)
    primary = GTTSBackend(gtts_factory=HangingGoogle, timeout_s=10.0) if hanging_gtts else None
    engines = SpeechEngines(primary, EspeakBackend(), CircuitBreaker())
    return VoiceService(config, engines=engines)


async def first_line_s(service: VoiceService, cues: list[Any]) -> float:
    """Start -> the opening line's first audible frame, for one flight (then aborted)."""
    loop = asyncio.get_running_loop()
    sink = PlayerSink(loop)
    player = service.player(sink)
    t0 = time.monotonic()
    player.start(t0, cues)
    while not player.report.lines or player.report.lines[0].started is None:
        await asyncio.sleep(0.002)
        if time.monotonic() - t0 > 30:
            raise RuntimeError("the first line never played")
    started = player.report.lines[0].started
    await player.stop()
    return started - t0


async def mission(
    service: VoiceService, cues: list[Any], flights: int, scale: float
) -> tuple[list[VoiceReport], float, float, float, list[PlayerSink]]:
    loop = asyncio.get_running_loop()
    sinks = [PlayerSink(loop) for _ in range(flights)]
    players = [service.player(s, time_scale=scale) for s in sinks]
    rng = random.Random(1)
    end_s = max(c.at_s for c in cues) / scale
    rss_during = 0.0

    async def sample_rss() -> None:
        nonlocal rss_during
        await asyncio.sleep(end_s / 2)
        rss_during = rss_mib()

    sampler = asyncio.create_task(sample_rss())
    cpu0, wall0 = time.process_time(), time.perf_counter()
    tasks = []
    for p in players:
        tasks.append(p.start(time.monotonic(), cues))
        await asyncio.sleep(rng.uniform(0, 0.05))  # Starts clicked at slightly different moments
    reports = await asyncio.gather(*tasks)
    wall = time.perf_counter() - wall0
    cpu = time.process_time() - cpu0
    await sampler
    return list(reports), wall, cpu, rss_during, sinks


async def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--mission", default="S2-1")
    ap.add_argument("--lang", default="en")
    ap.add_argument("--flights", type=int, default=20)
    ap.add_argument("--time-scale", type=float, default=1.0, help="> 1 compresses the schedule (quick runs)")
    args = ap.parse_args()

    cues = list(intercom_script(load_official(args.mission), args.lang))
    tmp = Path(tempfile.mkdtemp(prefix="voice-bench-"))
    try:
        gc.collect()
        rss_start = rss_mib()
        cold = await first_line_s(service_for(tmp / "cold"), cues)
        hanging = await first_line_s(service_for(tmp / "hanging", hanging_gtts=True), cues)
        service = service_for(tmp / "cold")  # a fresh process on yesterday's cache
        warm = await first_line_s(service, cues)
        print(f"mission {args.mission} ({args.lang}): {len(cues)} cues, espeak-ng")
        print(f"Start -> first line: warm {warm:.3f} s, cold {cold:.3f} s, gTTS hanging {hanging:.3f} s")

        await service.player(None).prepare(cues)  # the mission's clips in the cache
        service.release_memory()
        gc.collect()
        rss_before = rss_mib()
        reports, wall, cpu, rss_during, sinks = await mission(service, cues, args.flights, args.time_scale)
        gc.collect()
        rss_after = rss_mib()
    finally:
        HangingGoogle.release.set()
        shutil.rmtree(tmp, ignore_errors=True)

    records = [r for rep in reports for r in rep.lines]
    late = [1000 * r.lateness_s for r in records if r.lateness_s is not None and not r.queued]
    queued_late = [1000 * r.lateness_s for r in records if r.lateness_s is not None and r.queued]
    jitter = [j for rep in reports for j in rep.jitter_ms()]
    dropped = sum(1 for r in records if r.status != "played")
    per_flight = 100 * cpu / wall / args.flights
    restarts = sum(s.starts for s in sinks) - len(sinks)
    print(f"{args.flights} concurrent flights x {len(reports[0].lines)} lines, TIME_SCALE {args.time_scale:g}: "
          f"{wall:.1f} s wall, {100 * cpu / wall:.2f} % of a core in total, {per_flight:.3f} % per flight")  # fmt: skip
    print(f"lateness to the audible frame (not queued, {len(late)} lines): p50 {percentile(late, 50):.2f} ms, "
          f"p99 {percentile(late, 99):.2f} ms, max {max(late):.2f} ms")  # fmt: skip
    if queued_late:
        jit = percentile(jitter, 99)
        print(f"{len(queued_late)} lines queued behind a longer line or their rendering (late by design): "
              f"max {max(queued_late):.0f} ms; jitter vs when they could start p99 {jit:.2f} ms")  # fmt: skip
    print(f"dropped lines: {dropped}; player restarts: {restarts}; statuses {sorted({r.status for r in records})}")
    print(f"RSS: start {rss_start:.1f} MiB, before flights {rss_before:.1f} MiB, during {rss_during:.1f} MiB, "
          f"after {rss_after:.1f} MiB")  # fmt: skip
    print(json.dumps({
        "first_line_warm_s": round(warm, 3),
        "first_line_cold_s": round(cold, 3),
        "first_line_hanging_s": round(hanging, 3),
        "lateness_p50_ms": round(percentile(late, 50), 2),
        "lateness_p99_ms": round(percentile(late, 99), 2),
        "jitter_p99_ms": round(percentile(jitter, 99), 2),
        "queued_lines": len(queued_late),
        "dropped": dropped,
        "player_restarts": restarts,
        "cpu_pct_per_flight": round(per_flight, 3),
        "rss_before_mib": round(rss_before, 1),
        "rss_during_mib": round(rss_during, 1),
        "rss_after_mib": round(rss_after, 1),
    }))  # fmt: skip


if __name__ == "__main__":
    asyncio.run(main())
