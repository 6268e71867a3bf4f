"""The playback scheduler on a virtual clock with a recording sink (no Discord, no real time)."""

from __future__ import annotations

import asyncio
import itertools

import pytest

from engine.flight.script import intercom_script
from engine.flight.timeline import load_official
from tests.voice.fakes import FakeClock, FakeCue, FakeSink, tone_clip
from voice.effects import EffectBank
from voice.lines import Line, build_lines
from voice.scheduler import PlaybackScheduler

EPS = 1e-6

# Plausible spoken lengths per cue kind (seconds), short enough to fit the script's gaps.
FIT = {
    "mission_start": 4.0, "threat": 9.5, "incoming_data": 3.0, "data_transfer": 1.3, "transfer_countdown": 0.9,
    "count": 0.5, "transfer_complete": 1.6, "comm_down": 2.0, "comm_restored": 1.7, "one_minute_warning": 2.5,
    "twenty_seconds_warning": 2.5, "countdown": 1.5, "phase_ended": 1.5, "phase_begins": 1.4, "operation_ended": 3.0,
}  # fmt: skip


@pytest.fixture(scope="module")
def effects() -> EffectBank:
    bank = EffectBank()
    bank.warm()
    return bank


def fake_speech(cues, lengths=FIT):
    return {(c.text, c.lang): tone_clip(lengths[c.kind], tag=i) for i, c in enumerate(cues) if c.text}


def check_no_overlap(sink: FakeSink) -> None:
    """No two recorded plays (lines or fillers) are ever audible at the same time."""
    plays = sorted(sink.plays, key=lambda p: p.start)
    for a, b in itertools.pairwise(plays):
        assert a.end is not None
        assert a.end <= b.start + EPS, (a.start, a.end, b.start)


def run(scheduler: PlaybackScheduler, start: float):
    return asyncio.get_running_loop().create_task(scheduler.run(start))


async def test_every_line_of_s2_1_starts_at_its_time(effects):
    cues = intercom_script(load_official("S2-1"), "en")
    lines, problems = build_lines(cues, fake_speech(cues), effects)
    assert not problems
    clock = FakeClock()
    sink = FakeSink(clock)
    start = clock() + 5.0
    sched = PlaybackScheduler(lines, sink, fillers={"static": effects.clip("static")}, clock=clock, sleep=clock.sleep)
    report = await sched.run(start)

    assert len(report.lines) == len(lines) == len([c for c in cues if c.text or c.effect in ("alert", "beep")])
    assert all(r.status == "played" for r in report.lines)
    line_plays = sink.line_plays()
    assert len(line_plays) == len(lines)
    for line, rec, play in zip(lines, report.lines, line_plays, strict=True):
        assert play.clip is line.clip
        assert rec.started == pytest.approx(start + line.start_s, abs=EPS), line.kind
        assert play.start == pytest.approx(start + line.start_s, abs=EPS)
        assert rec.lateness_s == pytest.approx(0.0, abs=EPS)
        assert len(play.frames()) == len(line.clip.frames)  # the whole line was sent
    check_no_overlap(sink)
    # "one" of each phase countdown lands exactly on the phase end; the beep on the window close.
    phase_ends = load_official("S2-1").phase_end_s
    for end in phase_ends:
        assert any(abs(r.started - (start + end)) < EPS and r.kind == "count" for r in report.lines)
    # static fills every communications failure up to "communications restored"
    statics = sink.filler_plays()
    downs = [ln for ln in lines if ln.kind == "comm_down"]
    assert len(statics) == len(downs) == 4
    for down, static in zip(downs, statics, strict=True):
        assert static.start == pytest.approx(start + down.start_s + down.duration_s, abs=EPS)
        assert static.end == pytest.approx(start + down.filler_until_s, abs=EPS)
    assert sink.closed  # left the channel at the end


async def test_late_line_is_queued_never_dropped(effects):
    cues = [
        FakeCue(0.0, "threat", "long line", effect="alert"),
        FakeCue(2.0, "incoming_data", "second"),
        FakeCue(3.0, "count", "third"),
        FakeCue(30.0, "count", "fourth"),
    ]
    speech = {("long line", "en"): tone_clip(6.0, 1), ("second", "en"): tone_clip(1.0, 2),
              ("third", "en"): tone_clip(1.0, 3), ("fourth", "en"): tone_clip(1.0, 4)}  # fmt: skip
    lines, _ = build_lines(cues, speech, effects)
    clock = FakeClock()
    sink = FakeSink(clock)
    t0 = clock()
    report = await PlaybackScheduler(lines, sink, clock=clock, sleep=clock.sleep).run(t0)

    first_len = lines[0].duration_s  # alert + 6 s of speech
    r = report.lines
    assert [x.status for x in r] == ["played"] * 4
    assert r[1].started == pytest.approx(t0 + first_len, abs=EPS)  # right after the long line
    assert r[1].lateness_s == pytest.approx(first_len - 2.0, abs=EPS)
    assert r[1].queued and r[1].jitter_s == pytest.approx(0.0, abs=EPS)
    assert r[2].started == pytest.approx(r[1].started + 1.0, abs=EPS)
    assert r[3].started == pytest.approx(t0 + 30.0, abs=EPS) and r[3].lateness_s == pytest.approx(0, abs=EPS)
    check_no_overlap(sink)
    sent = [f for _, f in sink.frames()]
    assert sent == [f for ln in lines for f in ln.clip.frames]  # every frame, in order, none lost
    summary = report.summary()
    assert summary["queued"] == 2 and summary["played"] == 4


async def test_recovers_after_a_disconnect_and_continues_with_the_next_line(effects):
    cues = [FakeCue(float(t), "count", f"line {t}") for t in (0, 5, 10, 15, 20)]
    speech = {(c.text, "en"): tone_clip(2.0, i) for i, c in enumerate(cues)}
    lines, _ = build_lines(cues, speech, effects)
    clock = FakeClock()
    sink = FakeSink(clock, reconnect_delay_s=1.5)
    t0 = clock()
    clock.call_at(t0 + 6.0, sink.disconnect)  # one second into "line 5"
    problems: list[str] = []
    report = await PlaybackScheduler(lines, sink, clock=clock, sleep=clock.sleep, on_problem=problems.append).run(t0)

    st = [r.status for r in report.lines]
    assert st == ["played", "interrupted", "played", "played", "played"]
    assert report.disconnects == 1 and report.reconnects == 1 and sink.reconnect_calls == 1
    assert report.voice_lost is None and problems == []
    # the line after the disconnect starts on time: the reconnect happened in the gap
    assert report.lines[2].started == pytest.approx(t0 + 10.0, abs=EPS)
    assert report.lines[1].ended == pytest.approx(t0 + 6.0, abs=EPS)
    check_no_overlap(sink)
    assert len(sink.line_plays()[1].frames()) == 50  # one second of "line 5" went out before the drop


async def test_reconnect_during_a_queued_line_makes_it_late_not_lost(effects):
    cues = [FakeCue(0.0, "count", "a"), FakeCue(2.0, "count", "b"), FakeCue(3.0, "count", "c")]
    speech = {("a", "en"): tone_clip(1.9, 1), ("b", "en"): tone_clip(0.5, 2), ("c", "en"): tone_clip(0.5, 3)}
    lines, _ = build_lines(cues, speech, effects)
    clock = FakeClock()
    sink = FakeSink(clock, reconnect_delay_s=2.5)
    t0 = clock()
    clock.call_at(t0 + 1.95, sink.disconnect)  # between "a" and "b"
    report = await PlaybackScheduler(lines, sink, clock=clock, sleep=clock.sleep).run(t0)
    assert [r.status for r in report.lines] == ["played", "played", "played"]
    assert report.lines[1].lateness_s == pytest.approx(2.5, abs=EPS)  # noticed when due, then reconnected
    assert report.lines[2].started == pytest.approx(report.lines[1].started + 0.5, abs=EPS)
    check_no_overlap(sink)


async def test_voice_lost_for_good_reports_once_and_flight_goes_on(effects):
    cues = [FakeCue(float(t), "count", f"line {t}") for t in (0, 5, 10, 15)]
    speech = {(c.text, "en"): tone_clip(1.0, i) for i, c in enumerate(cues)}
    lines, _ = build_lines(cues, speech, effects)
    clock = FakeClock()
    sink = FakeSink(clock, reconnect_ok=False)
    t0 = clock()
    clock.call_at(t0 + 2.0, sink.disconnect)
    problems: list[str] = []
    report = await PlaybackScheduler(
        lines, sink, clock=clock, sleep=clock.sleep, on_problem=problems.append, max_reconnect_failures=2
    ).run(t0)
    assert [r.status for r in report.lines] == ["played", "no_voice", "no_voice", "no_voice"]
    assert problems == ["simulated: voice server unreachable"]  # said once
    assert report.voice_lost == problems[0]
    assert sink.reconnect_calls == 2  # then it stops trying


async def test_time_scale_compresses_the_schedule_not_the_audio(effects):
    cues = [FakeCue(0.0, "count", "a"), FakeCue(20.0, "count", "b"), FakeCue(40.0, "count", "c")]
    speech = {(t, "en"): tone_clip(1.5, i) for i, t in enumerate("abc")}
    lines, _ = build_lines(cues, speech, effects)
    clock = FakeClock()
    sink = FakeSink(clock)
    t0 = clock()
    report = await PlaybackScheduler(lines, sink, time_scale=10.0, clock=clock, sleep=clock.sleep).run(t0)
    assert [r.started - t0 for r in report.lines] == pytest.approx([0.0, 2.0, 4.0])
    assert [p.end - p.start for p in sink.line_plays()] == pytest.approx([1.5, 1.5, 1.5])  # audio untouched


async def test_compressed_flight_queues_lines_that_no_longer_fit(effects):
    cues = [FakeCue(float(t), "count", f"n{t}") for t in range(5)]  # one per second, like a countdown
    speech = {(c.text, "en"): tone_clip(0.6, i) for i, c in enumerate(cues)}
    lines, _ = build_lines(cues, speech, effects)
    clock = FakeClock()
    sink = FakeSink(clock)
    t0 = clock()
    report = await PlaybackScheduler(lines, sink, time_scale=4.0, clock=clock, sleep=clock.sleep).run(t0)
    assert [r.status for r in report.lines] == ["played"] * 5
    assert [r.started - t0 for r in report.lines] == pytest.approx([0.0, 0.6, 1.2, 1.8, 2.4])
    check_no_overlap(sink)


async def test_red_alert_background_plays_between_lines_only_when_enabled(effects):
    cues = [FakeCue(0.0, "count", "a"), FakeCue(10.0, "count", "b"), FakeCue(10.2, "count", "c")]
    speech = {(t, "en"): tone_clip(1.0, i) for i, t in enumerate("abc")}
    lines, _ = build_lines(cues, speech, effects)

    clock = FakeClock()
    sink = FakeSink(clock)
    await PlaybackScheduler(lines, sink, clock=clock, sleep=clock.sleep).run(clock())
    assert sink.filler_plays() == []

    clock = FakeClock()
    sink = FakeSink(clock)
    t0 = clock()
    bg = effects.clip("red_alert")
    await PlaybackScheduler(lines, sink, background=bg, clock=clock, sleep=clock.sleep).run(t0)
    fillers = sink.filler_plays()
    assert len(fillers) == 1  # the 0.2 s gap before "c" is too short for it
    assert fillers[0].clip is bg
    assert fillers[0].start == pytest.approx(t0 + 1.0) and fillers[0].end == pytest.approx(t0 + 10.0)
    check_no_overlap(sink)


async def test_static_fills_a_communications_failure(effects):
    cues = [
        FakeCue(0.0, "comm_down", "down", effect="static_start", duration_s=10.0),
        FakeCue(10.0, "comm_restored", "restored", effect="static_end"),
        FakeCue(30.0, "count", "later"),
    ]
    speech = {
        ("down", "en"): tone_clip(1.2, 1),
        ("restored", "en"): tone_clip(1.0, 2),
        ("later", "en"): tone_clip(1, 3),
    }
    lines, _ = build_lines(cues, speech, effects)
    clock = FakeClock()
    sink = FakeSink(clock)
    t0 = clock()
    await PlaybackScheduler(
        lines, sink, fillers={"static": effects.clip("static")}, clock=clock, sleep=clock.sleep
    ).run(t0)
    (static,) = sink.filler_plays()
    assert static.start == pytest.approx(t0 + 1.2) and static.end == pytest.approx(t0 + 10.0)
    assert len(static.frames()) == round(8.8 / 0.02)  # looped for the whole span
    check_no_overlap(sink)


async def test_stop_cancels_remaining_lines_and_leaves(effects):
    cues = [FakeCue(float(t), "count", f"x{t}") for t in (0, 100, 200)]
    speech = {(c.text, "en"): tone_clip(1.0, i) for i, c in enumerate(cues)}
    lines, _ = build_lines(cues, speech, effects)
    clock = FakeClock()
    sink = FakeSink(clock)
    sched = PlaybackScheduler(lines, sink, clock=clock, sleep=asyncio.sleep)  # real sleeps: we cancel it
    task = asyncio.create_task(sched.run(clock()))
    await asyncio.sleep(0.01)
    sched.stop()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert sched.report.lines[0].started is not None  # it was speaking when stopped
    assert [r.status for r in sched.report.lines] == ["stopped", "stopped", "stopped"]
    assert sink.closed


async def test_real_clock_smoke(effects):
    """Real asyncio timing, compressed: order and lateness are recorded (no timing assertions)."""
    cues = [FakeCue(t, "count", f"r{t}") for t in (0.0, 0.1, 0.2)]
    speech = {(c.text, "en"): tone_clip(0.04, i) for i, c in enumerate(cues)}
    lines: list[Line]
    lines, _ = build_lines(cues, speech, effects)

    import time

    class RealSink:
        def __init__(self):
            self.started: list[float] = []

        def is_connected(self):
            return True

        def play(self, clip, on_done, *, loop=False):
            self.started.append(time.monotonic())
            asyncio.get_running_loop().call_later(clip.duration_s, on_done, None)

        def stop(self):
            pass

        async def reconnect(self):
            return None

        async def close(self):
            pass

    sink = RealSink()
    report = await PlaybackScheduler(lines, sink).run(time.monotonic() + 0.02)
    assert [r.status for r in report.lines] == ["played"] * 3
    assert len(sink.started) == 3 and sink.started == sorted(sink.started)
    assert all(r.lateness_s is not None and r.lateness_s >= 0 for r in report.lines)
