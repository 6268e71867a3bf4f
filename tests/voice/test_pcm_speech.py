"""Speech as PCM through the intercom's voice service: cache, engines, the server's tts setting."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.voice.fakes import FakeEngine
from voice.audio import FRAME_BYTES, LEAD_FRAMES, SAMPLES_PER_FRAME, opus_available, peak
from voice.cache import AudioCache
from voice.config import VoiceConfig
from voice.pcm_speech import clip_to_pcm, speech_for
from voice.player import VoiceService
from voice.tts import CircuitBreaker, SpeechEngines, TTSError

pytestmark = pytest.mark.skipif(not opus_available(), reason="libopus is needed to render clips")


def service(root: Path, gtts: FakeEngine, espeak: FakeEngine) -> VoiceService:
    engines = SpeechEngines(gtts, espeak, CircuitBreaker())
    return VoiceService(VoiceConfig(cache_dir=root), engines=engines, cache=AudioCache(root))


def first_loud_sample(pcm: bytes, threshold: int = 300) -> int:
    """Index (per channel) of the first sample above the threshold."""
    for start in range(0, len(pcm), FRAME_BYTES):
        if peak(pcm[start : start + FRAME_BYTES]) > threshold:
            for i in range(start, start + FRAME_BYTES, 2):
                if abs(int.from_bytes(pcm[i : i + 2], "little", signed=True)) > threshold:
                    return i // 4
    raise AssertionError("silent")


async def test_a_russian_line_uses_gtts_and_a_restart_reads_it_from_the_cache(tmp_path: Path) -> None:
    gtts, espeak = FakeEngine("gtts"), FakeEngine("espeak")
    speech = speech_for(service(tmp_path, gtts, espeak), "gtts")
    pcm = await speech.pcm("Одна минута.", "ru")
    assert pcm and speech.sources == {"gtts": 1} and gtts.calls == [("Одна минута.", "ru")]
    # the first audible sample is exactly LEAD_FRAMES frames in: a planned call lands on its instant
    assert first_loud_sample(pcm) == LEAD_FRAMES * SAMPLES_PER_FRAME
    assert speech.ready("Одна минута.", "ru") == pcm and await speech.pcm("Одна минута.", "ru") == pcm

    gtts2, espeak2 = FakeEngine("gtts"), FakeEngine("espeak")  # a new process, the same cache directory
    again = speech_for(service(tmp_path, gtts2, espeak2), "gtts")
    assert speech.ready("Одна минута.", "ru") is not None and again.ready("Одна минута.", "ru") is None
    restored = await again.pcm("Одна минута.", "ru")
    assert restored is not None and abs(len(restored) - len(pcm)) <= FRAME_BYTES
    assert gtts2.calls == [] and espeak2.calls == []  # nothing synthesised again


async def test_the_servers_espeak_setting_never_asks_gtts(tmp_path: Path) -> None:
    gtts, espeak = FakeEngine("gtts"), FakeEngine("espeak")
    speech = speech_for(service(tmp_path, gtts, espeak), "espeak")
    assert await speech.pcm("Thirty seconds.", "en")
    assert gtts.calls == [] and espeak.calls == [("Thirty seconds.", "en")] and speech.sources == {"espeak": 1}


async def test_gtts_down_falls_back_to_espeak_and_no_engine_means_text(tmp_path: Path) -> None:
    gtts, espeak = FakeEngine("gtts", fail=TTSError("429", backend="gtts")), FakeEngine("espeak")
    svc = service(tmp_path, gtts, espeak)
    speech = speech_for(svc)
    assert await speech.pcm("Time's up!", "en") and speech.sources == {"espeak": 1}
    assert svc.engines.breaker.state == "open"  # the next lines skip gTTS at once
    mute = speech_for(service(tmp_path / "b", FakeEngine("gtts", langs=()), FakeEngine("espeak", langs=())))
    assert await mute.pcm("Time's up!", "en") is None


def test_a_silent_clip_is_no_speech() -> None:
    from voice.audio import silence_clip

    assert clip_to_pcm(silence_clip(0.2)) == b""


async def test_a_line_asked_for_twice_at_once_is_rendered_once(tmp_path: Path) -> None:
    import asyncio

    gtts, espeak = FakeEngine("gtts"), FakeEngine("espeak")
    speech = speech_for(service(tmp_path, gtts, espeak), "espeak")
    first, second = await asyncio.gather(speech.pcm("Ten", "en"), speech.pcm("Ten", "en"))
    assert first is not None and first == second and espeak.calls == [("Ten", "en")]
