"""Audio primitives, synthesized effects and the on-disk clip cache."""

from __future__ import annotations

import asyncio
import os

import pytest

from tests.voice.fakes import FakeEngine, sine_wav, tone_clip
from voice.audio import (
    FRAME_BYTES,
    Clip,
    decode_opus,
    decode_to_pcm,
    encode_opus,
    opus_available,
    pcm_duration_s,
    peak,
    silence,
    split_frames,
    trim_silence,
)
from voice.cache import AudioCache, cache_key, decode_clip, encode_clip
from voice.effects import ALERT, BEEP, RED_ALERT, STATIC, EffectBank, beep_pcm, static_pcm
from voice.render import Renderer, RenderStats
from voice.tts import CircuitBreaker, SpeechEngines

pytestmark = pytest.mark.skipif(not opus_available(), reason="libopus0 is not installed")


def test_decode_wav_to_48k_stereo_and_trim():
    pcm = decode_to_pcm(silence_wav(0.3) + b"")  # a valid silent WAV decodes to silence
    assert peak(pcm) == 0
    pcm = decode_to_pcm(sine_wav(1.0))  # 22,050 Hz mono in, 48 kHz stereo s16 out
    assert pcm_duration_s(pcm) == pytest.approx(1.0, abs=0.01)
    assert peak(pcm) > 10000
    padded = silence(0.5) + pcm + silence(0.7)
    trimmed = trim_silence(padded)
    assert pcm_duration_s(trimmed) == pytest.approx(1.0, abs=0.1)
    assert trim_silence(silence(1.0)) == b""


def test_frames_are_20_ms_and_opus_round_trips():
    pcm = decode_to_pcm(sine_wav(0.5))
    frames = split_frames(pcm)
    assert all(len(f) == FRAME_BYTES == 3840 for f in frames)
    packets = encode_opus(pcm)
    assert len(packets) == len(frames) == 25
    assert all(0 < len(p) < 1000 for p in packets)  # compressed
    back = decode_opus(packets)
    assert len(back) == len(frames) * FRAME_BYTES and peak(back) > 5000


def test_clip_concat_loop_and_duration():
    a, b = tone_clip(1.0, 1), tone_clip(0.5, 2)
    c = a + b
    assert c.duration_s == pytest.approx(1.5) and c.frames[:50] == a.frames
    assert Clip.concat([a, b]).frames == c.frames
    looped = b.looped(1.6)
    assert len(looped.frames) == 80 and looped.frames[25] == b.frames[0]


def test_effects_are_audible_and_deterministic():
    bank = EffectBank()
    for name, (lo, hi) in {ALERT: (0.8, 1.5), BEEP: (0.2, 0.6), STATIC: (0.9, 1.1), RED_ALERT: (1.0, 1.5)}.items():
        clip = bank.clip(name)
        assert lo <= clip.duration_s <= hi, name
        assert peak(decode_opus(clip.frames)) > 1000, name
        assert bank.clip(name) is clip  # synthesized and encoded once
    assert static_pcm() == static_pcm()  # seeded noise
    beep = beep_pcm()
    assert peak(beep[: FRAME_BYTES // 4]) > 3000  # the beep is loud from its first millisecond
    quiet = EffectBank(red_alert_gain=0.02).pcm(RED_ALERT)
    assert peak(quiet) < peak(bank.pcm(RED_ALERT)) < 0.15 * 32768  # the klaxon stays low
    with pytest.raises(ValueError):
        bank.clip("applause")


def test_cache_round_trip_keys_and_clear(tmp_path):
    cache = AudioCache(tmp_path)
    clip = Clip(tuple(encode_opus(decode_to_pcm(sine_wav(0.4)))), "espeak")
    assert decode_clip(encode_clip(clip)) == clip
    k = cache_key("espeak", "en-gb", "en", "Incoming  data.")
    assert k == cache_key("espeak", "en-gb", "en", " Incoming data. ")  # whitespace-normalised
    others = {
        cache_key("gtts", "en-gb", "en", "Incoming data."),
        cache_key("espeak", "en-us", "en", "Incoming data."),
        cache_key("espeak", "en-gb", "cs", "Incoming data."),
        cache_key("espeak", "en-gb", "en", "Incoming data!"),
    }
    assert k not in others and len(others) == 4  # backend, voice, language and text all count
    assert cache.get(k) is None
    cache.put(k, clip)
    assert cache.get_memory(k) == clip
    fresh = AudioCache(tmp_path)  # a new process: from disk
    assert fresh.get(k) == clip and fresh.stats.disk_hits == 1
    assert fresh.get(k) == clip and fresh.stats.memory_hits == 1
    assert fresh.size_bytes() > 0
    assert fresh.clear() == 1 and fresh.get(k) is None and fresh.size_bytes() == 0


def test_cache_corrupt_entry_is_a_miss(tmp_path):
    cache = AudioCache(tmp_path)
    k = cache_key("espeak", "v", "en", "x")
    path = cache.path_for(k)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"garbage")
    assert cache.get(k) is None and not path.exists()


def test_cache_size_cap_evicts_least_recently_used(tmp_path):
    clip = tone_clip(2.0, 7)  # 100 frames of 6 bytes: ~0.8 kB per entry
    size = len(encode_clip(clip))
    cache = AudioCache(tmp_path, max_bytes=size * 5 + 10)
    keys = [cache_key("espeak", "v", "en", f"line {i}") for i in range(5)]
    for i, k in enumerate(keys):
        cache.put(k, clip)
        os.utime(cache.path_for(k), (1000 + i, 1000 + i))
    cache.forget_memory()
    assert cache.get(keys[0]) == clip  # touching it makes it the most recently used
    cache.put(cache_key("espeak", "v", "en", "line 5"), clip)  # over the cap
    assert cache.size_bytes() <= cache.max_bytes
    assert cache.path_for(keys[0]).exists()  # survived: recently used
    assert not cache.path_for(keys[1]).exists()  # evicted: the oldest
    assert cache.stats.evicted_files >= 1


async def test_prerender_is_parallel_bounded_and_hits_cost_nothing(tmp_path):
    engine = FakeEngine("espeak")
    active = 0
    high = 0
    slow = engine.synthesize

    async def counting(text, lang):
        nonlocal active, high
        active += 1
        high = max(high, active)
        await asyncio.sleep(0.01)
        try:
            return await slow(text, lang)
        finally:
            active -= 1

    engine.synthesize = counting
    renderer = Renderer(SpeechEngines(None, engine, CircuitBreaker()), AudioCache(tmp_path), concurrency=3)
    items = [(f"line {i}", "en") for i in range(12)] + [("line 0", "en")]  # a duplicate
    stats = RenderStats()
    out = await renderer.render_many(items, stats)
    assert len(out) == 12 and len(engine.calls) == 12  # the duplicate rendered once
    assert high == 3  # bounded
    stats2 = RenderStats()
    again = await renderer.render_many(items, stats2)
    assert again == out and len(engine.calls) == 12 and stats2.cache_hits == 12


def silence_wav(seconds: float) -> bytes:
    import io
    import wave

    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(22050)
        w.writeframes(bytes(int(22050 * seconds) * 2))
    return buf.getvalue()


def test_effects_are_cached_on_disk_for_the_next_process(tmp_path, monkeypatch):
    cache = AudioCache(tmp_path)
    first = EffectBank(cache=cache).clip(STATIC)
    import voice.effects as fx

    def boom(*a, **k):
        raise AssertionError("synthesized again")

    monkeypatch.setitem(fx._SYNTHS, STATIC, boom)
    again = EffectBank(cache=AudioCache(tmp_path)).clip(STATIC)
    assert again == first


def test_speech_is_trimmed_so_the_first_audible_sample_starts_frame_one():
    import array

    from voice.audio import trim_to_onset

    pcm = decode_to_pcm(sine_wav(0.5))
    for lead_in_s in (0.5, 0.013, 0.0):  # long silence, less than a frame, none at all
        trimmed = trim_to_onset(silence(lead_in_s) + pcm + silence(0.3))
        samples = array.array("h", trimmed)
        # one frame of lead-in below the audibility threshold (zero-padded when the engine gave less)
        assert peak(trimmed[:FRAME_BYTES]) <= 300
        # frame 1 opens on the first audible sample: the voice is heard on the frame's instant
        assert abs(samples[FRAME_BYTES // 2]) > 300 or abs(samples[FRAME_BYTES // 2 + 1]) > 300
        assert len(trimmed) < len(pcm) + 4 * FRAME_BYTES  # the trailing silence went too
