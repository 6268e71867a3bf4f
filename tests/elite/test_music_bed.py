"""The ELITE music bed and its mixer: 20 ms frames, intensity by time left, speech over ducked music."""

from __future__ import annotations

import array
import asyncio
import math

import pytest

from tests.elite.signals import speech_like
from voice.audio import FRAME_BYTES, decode_to_pcm, rms, trim_silence
from voice.music_bed import (
    CROSSFADE_FRAMES,
    DUCK_GAIN,
    STAGE_BPM,
    MixedSource,
    MusicBed,
    as_discord_source,
    stage_for,
)
from voice.tts import EspeakBackend

BED = MusicBed()


def music_of(source_out: bytes, speech: bytes) -> bytes:
    """The music part of a mixed frame (mixed minus speech), to measure it under the voice."""
    a, b = array.array("h"), array.array("h")
    a.frombytes(source_out)
    b.frombytes(speech)
    return array.array("h", (x - y for x, y in zip(a, b, strict=True))).tobytes()


def db(a: float, b: float) -> float:
    return 20 * math.log10(a / b)


def test_stages_follow_the_time_left() -> None:
    assert [stage_for(s) for s in (120, 91, 90, 61, 45, 30, 11, 10, 0)] == [0, 0, 1, 1, 2, 3, 3, 4, 4]


def test_the_bed_intensifies_louder_and_faster() -> None:
    levels = [rms(BED.bar(s).tobytes()) for s in range(5)]
    assert levels == sorted(levels) and levels[-1] > 1.4 * levels[0]
    lengths = [len(BED.bar(s)) for s in range(5)]
    assert lengths == sorted(lengths, reverse=True)  # shorter bars: a faster tempo
    assert list(STAGE_BPM) == sorted(STAGE_BPM)
    assert all(rms(BED.bar(s).tobytes()) < 0.1 * 32767 for s in range(5))  # a bed, under the voice


def test_every_frame_is_20_ms_of_stereo_and_the_bed_never_ends() -> None:
    src = MixedSource(BED, lambda: 100.0)
    frames = [src.read() for _ in range(300)]  # 6 s, more than any bar: the loop wraps
    assert {len(f) for f in frames} == {FRAME_BYTES}
    assert all(rms(f) > 100 for f in frames[::10])
    assert not src.is_opus()


def test_speech_is_audible_over_the_loudest_stage() -> None:
    speech = speech_like(2.0)
    src = MixedSource(BED, lambda: 5.0)  # final seconds: the loudest, busiest stage
    for _ in range(CROSSFADE_FRAMES):
        src.read()
    before = b"".join(src.read() for _ in range(25))
    seconds = src.say(speech)
    assert seconds == pytest.approx(2.0, abs=0.02) and src.speaking()
    mixed = [src.read() for _ in range(100)]
    chunks = [speech[i : i + FRAME_BYTES] for i in range(0, len(speech), FRAME_BYTES)]
    under = b"".join(music_of(m, s) for m, s in zip(mixed[5:], chunks[5:], strict=True))
    voice = b"".join(chunks[5:])
    assert db(rms(voice), rms(under)) >= 18  # the voice stands well clear of the ducked bed
    assert db(rms(before), rms(under)) == pytest.approx(db(1, DUCK_GAIN), abs=1.5)  # ducked by ~16.5 dB
    after = [src.read() for _ in range(40)]
    assert not src.speaking()
    assert rms(b"".join(after[-10:])) == pytest.approx(rms(before), rel=0.35)  # and back up after


@pytest.mark.skipif(not EspeakBackend().available(), reason="espeak-ng is not installed")
def test_real_speech_from_espeak_stands_over_the_bed() -> None:
    wav = asyncio.run(EspeakBackend().synthesize("Thirty seconds.", "en"))
    speech = trim_silence(decode_to_pcm(wav))
    src = MixedSource(BED, lambda: 25.0)
    for _ in range(CROSSFADE_FRAMES):
        src.read()
    src.say(speech)
    n = len(speech) // FRAME_BYTES
    mixed = [src.read() for _ in range(n)]
    chunks = [speech[i * FRAME_BYTES : (i + 1) * FRAME_BYTES] for i in range(n)]
    under = b"".join(music_of(m, s) for m, s in zip(mixed[3:], chunks[3:], strict=True))
    assert db(rms(b"".join(chunks[3:])), rms(under)) >= 15


def test_no_overflow_when_loud_speech_meets_the_bed() -> None:
    src = MixedSource(BED, lambda: 5.0)
    src.say(speech_like(0.5, level=0.9))  # peaks at ~full scale
    for _ in range(25):
        frame = array.array("h")
        frame.frombytes(src.read())
        assert max(frame) <= 32767 and min(frame) >= -32767


def test_a_stage_change_crossfades() -> None:
    left = [70.0]
    src = MixedSource(BED, lambda: left[0])
    for _ in range(10):
        src.read()
    left[0] = 50.0  # stage 1 -> 2
    at = src._position
    mid = array.array("h", [src.read() for _ in range(CROSSFADE_FRAMES)][CROSSFADE_FRAMES // 2])[0::2]
    mid_at = at + (CROSSFADE_FRAMES // 2) * 960
    assert mid != BED.mono_frame(1, mid_at) and mid != BED.mono_frame(2, mid_at)  # a blend of both
    settled_at = src._position
    assert array.array("h", src.read())[0::2] == BED.mono_frame(2, settled_at)  # then the new stage alone


def test_music_off_while_paused_leaves_only_speech() -> None:
    src = MixedSource(BED, lambda: 60.0)
    src.music_on = False
    assert src.read() == bytes(FRAME_BYTES)
    speech = speech_like(0.1)
    src.say(speech)
    assert src.read() == speech[:FRAME_BYTES]
    assert src.queued_s() == pytest.approx(0.08)
    src.cleanup()
    assert src.queued_s() == 0


def test_wraps_as_a_discord_audio_source() -> None:
    import discord

    wrapped = as_discord_source(MixedSource(BED, lambda: 100.0))
    assert isinstance(wrapped, discord.AudioSource)
    assert len(wrapped.read()) == FRAME_BYTES and not wrapped.is_opus()


def test_a_timer_call_interrupts_a_backlog_of_announcements() -> None:
    src = MixedSource(BED, lambda: 60.0)
    for _ in range(7):
        src.say(speech_like(1.0))  # seven quick "-15 s" presses
    assert src.queued_s() == pytest.approx(7.0, abs=0.1)
    call = speech_like(0.4)
    src.say(call, interrupt=True)
    assert src.queued_s() == pytest.approx(0.4, abs=0.03)
    src.music_on = False
    assert src.read() == call[:FRAME_BYTES]  # the call is heard at once
