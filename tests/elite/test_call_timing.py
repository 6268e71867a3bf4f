"""Timer calls planned on the timer's clock start in the mixed source on their instant, to the sample.

The source is read frame by frame on a manual clock (as discord.py's player thread would, every
20 ms); a call's first audible sample is found by counting samples in the output.
"""

from __future__ import annotations

import array
import math

import pytest

from engine.common.clock import ManualClock
from voice.audio import FRAME_BYTES, FRAME_S, SAMPLE_RATE, SAMPLES_PER_FRAME
from voice.music_bed import CALL_STALE_S, MixedSource, MusicBed

BED = MusicBed()
LOUD = 29_000  # the test speech; the bed peaks at 0.25 of full scale (8,192) and is ducked under speech


def tone(seconds: float, level: int = LOUD, lead_frames: int = 1) -> bytes:
    """`lead_frames` of silence, then a cosine (loud from its first sample), 48 kHz s16 stereo."""
    n = round(seconds * SAMPLE_RATE)
    body = array.array("h", bytes(4 * n))
    for i in range(n):
        body[2 * i] = body[2 * i + 1] = int(level * math.cos(2 * math.pi * 300 * i / SAMPLE_RATE))
    return bytes(lead_frames * FRAME_BYTES) + body.tobytes()


def first_audible(source: MixedSource, clock: ManualClock, frames: int, threshold: int = 20_000) -> float | None:
    """Read `frames` frames, 20 ms apart; the instant of the first sample above the threshold."""
    for _ in range(frames):
        at = clock()
        out = array.array("h")
        out.frombytes(source.read())
        clock.advance(FRAME_S)
        for i in range(0, len(out), 2):
            if abs(out[i]) > threshold:
                return at + (i // 2) / SAMPLE_RATE
    return None


@pytest.mark.parametrize("music", [False, True])
@pytest.mark.parametrize("offset", [0.0, 0.004, 0.0099, 0.0101, 0.013, 0.0199])
def test_a_call_is_heard_on_its_instant_to_the_sample(music: bool, offset: float) -> None:
    clock = ManualClock(100.0)
    source = MixedSource(BED, lambda: 5.0, clock=clock)  # the loudest stage of the bed
    source.music_on = music
    due = 100.0 + 1.0 + offset  # not on a frame boundary
    source.at(due, tone(0.3), key="ten")
    heard = first_audible(source, clock, 100)
    assert heard is not None
    assert abs(heard - due) <= 0.5 / SAMPLE_RATE + 1e-9  # not a frame boundary: the very sample


def test_a_call_cuts_off_an_announcement_and_later_calls_queue_in_order() -> None:
    clock = ManualClock(0.0)
    source = MixedSource(BED, lambda: 60.0, clock=clock)
    source.music_on = False
    source.say(tone(3.0, level=5_000))  # a long announcement, quiet
    source.at(2.0, tone(0.3), key=2)
    source.at(1.0, tone(0.3), key=1)  # handed over out of order: played in order of instant
    assert [k for _, k in source.scheduled()] == [1, 2]
    heard = first_audible(source, clock, 200)
    assert heard == pytest.approx(1.0, abs=1 / SAMPLE_RATE)
    assert source.scheduled() == [(2.0, 2)]


def test_replanning_replaces_a_call_and_a_pause_takes_the_rest_back() -> None:
    clock = ManualClock(0.0)
    started: list[tuple[object, float, float]] = []
    source = MixedSource(BED, lambda: 60.0, clock=clock, on_call=lambda k, due, at: started.append((k, due, at)))
    source.music_on = False
    source.at(1.0, tone(0.2), key=30)
    source.at(1.5, tone(0.2), key=30)  # +15 s... or here, half a second later: one call, not two
    assert source.scheduled() == [(1.5, 30)]
    source.at(3.0, tone(0.2), key=10)
    assert source.drop_calls(after=2.0) == 1  # a pause at 2.0 s takes back what is still to come
    assert first_audible(source, clock, 200) == pytest.approx(1.5, abs=1 / SAMPLE_RATE)
    assert [k for k, _, _ in started] == [30] and started[0][2] == pytest.approx(1.5, abs=1 / SAMPLE_RATE)


def test_a_call_handed_over_too_late_is_dropped_not_played_late() -> None:
    clock = ManualClock(10.0)
    source = MixedSource(BED, lambda: 60.0, clock=clock)
    source.music_on = False
    source.at(10.0 - CALL_STALE_S - 0.1, tone(0.2), key="old")
    source.at(10.0 - 0.3, tone(0.2), key="recent")  # a little late (its words were still rendering)
    heard = first_audible(source, clock, 10)
    assert heard == pytest.approx(10.0, abs=1e-9)  # the recent one, at once; the old one never
    assert source.scheduled() == []


def test_speech_stays_on_top_of_the_loudest_music() -> None:
    clock = ManualClock(0.0)
    source = MixedSource(BED, lambda: 5.0, clock=clock)
    source.at(0.5, tone(0.5), key=1)
    levels = []
    for _ in range(60):
        out = array.array("h")
        out.frombytes(source.read())
        clock.advance(FRAME_S)
        levels.append(max(abs(min(out)), abs(max(out))))
    assert max(levels[:20]) < 0.3 * 32767 < LOUD * 0.95 <= max(levels[30:45])
    assert len(levels) * SAMPLES_PER_FRAME == 60 * 960
