"""The playback scheduler and its frame mixer on a virtual clock (no Discord, no real time).

A fake voice player reads the mixer every 20 ms, like discord.py's, so every assertion is about the
frame stream the crew would hear: when each line's first audible frame went out, what came
between lines, and whether anything was cut, doubled or lost.
"""

from __future__ import annotations

import pytest

from bot.games.space_alert.intercom import worded
from engine.flight.script import intercom_script
from engine.flight.timeline import load_official
from tests.voice.fakes import FakeCue, FakeVoice, VirtualClock, tone_clip
from voice.audio import FRAME_S, OPUS_SILENCE, Clip
from voice.effects import EffectBank
from voice.lines import build_lines
from voice.mixer import FrameMixer, MixItem
from voice.scheduler import PlaybackScheduler

HALF = FRAME_S / 2 + 1e-9

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


def s2_1(effects):
    cues = worded(intercom_script(load_official("S2-1"), "en"))
    lines, problems = build_lines(cues, fake_speech(cues), effects)
    assert not problems
    return lines


def scheduler(sink, clock, effects, **kw) -> PlaybackScheduler:
    return PlaybackScheduler(sink, fillers={"static": effects.clip("static")}, clock=clock, sleep=clock.sleep, **kw)


def assert_whole_and_alone(sink: FakeVoice, lines, records) -> None:
    """Every played line's frames went out once each, back to back, from its first frame on."""
    sent = sink.frames
    for line, rec in zip(lines, records, strict=True):
        if rec.status != "played" or not line.clip.frames:
            continue
        first = rec.started - line.clip.lead_s
        i = next(k for k, (t, _) in enumerate(sent) if abs(t - first) < 1e-6)
        assert [f for _, f in sent[i : i + len(line.clip.frames)]] == list(line.clip.frames), line.kind


async def test_every_line_of_s2_1_is_heard_at_its_instant(effects):
    lines = s2_1(effects)
    clock = VirtualClock()
    sink = FakeVoice(clock)
    t0 = clock() + 5.0
    report = await clock.run(scheduler(sink, clock, effects).run(t0, lines))

    assert len(report.lines) == len(lines) == 78
    assert all(r.status == "played" for r in report.lines), report.summary()
    for line, rec in zip(lines, report.lines, strict=True):
        assert rec.started == pytest.approx(t0 + line.start_s, abs=HALF), line.kind
        assert abs(rec.lateness_s) <= HALF
    assert_whole_and_alone(sink, lines, report.lines)
    # "one" of each phase countdown lands on the phase end (to the frame)
    for end in load_official("S2-1").phase_end_s:
        assert any(abs(r.started - (t0 + end)) <= HALF and r.kind == "count" for r in report.lines)
    assert report.summary()["dropped"] == 0 and sink.closed


async def test_fresh_start_plays_the_opening_line_even_when_voice_joins_late(effects):
    """The 0 s line is due at the flight's own t0; voice that is ready later plays it late, never drops it."""
    lines = s2_1(effects)[:3]
    clock = VirtualClock()
    sink = FakeVoice(clock, connected=False, join_delay_s=0.8)  # joins in the background
    t0 = clock()
    report = await clock.run(scheduler(sink, clock, effects).run(t0, lines))
    first = report.lines[0]
    assert first.kind == "mission_start" and first.status == "played"
    assert first.lateness_s == pytest.approx(0.8, abs=HALF)  # late by the join, not skipped
    assert [r.status for r in report.lines] == ["played"] * 3
    assert report.reconnects == 0  # the first join is not a reconnect


async def test_restart_skips_only_stale_lines_and_never_the_last_two(effects):
    lines = s2_1(effects)
    clock = VirtualClock()
    sink = FakeVoice(clock)
    # resumed 3.5 s after the 225 s line: lines more than 4 s past are skipped, that one is played late
    t0 = clock() - 228.5
    report = await clock.run(scheduler(sink, clock, effects).run(t0, lines, resumed=True))
    by_status = {r.start_s: r.status for r in report.lines}
    for r in report.lines:
        if r.start_s < 228.5 - 4.0:
            assert r.status == "skipped", r.start_s
        else:
            assert r.status == "played", r.start_s
    assert by_status[225.0] == "played"

    # resumed long after the end: only the mission's final lines are still said
    clock2 = VirtualClock()
    sink2 = FakeVoice(clock2)
    report2 = await clock2.run(scheduler(sink2, clock2, effects).run(clock2() - 700.0, lines, resumed=True))
    played = [r for r in report2.lines if r.status == "played"]
    assert [r.text for r in played] == ["one.", "Mission complete. Entering hyperspace."]
    assert played[0].ended <= played[1].started + 1e-9  # in order, not on top of each other

    # a fresh start that is late anyway skips nothing
    clock3 = VirtualClock()
    report3 = await clock3.run(scheduler(FakeVoice(clock3), clock3, effects).run(clock3() - 30.0, lines[:8]))
    assert all(r.status == "played" for r in report3.lines)


async def test_the_end_lets_the_last_two_lines_play_and_abort_stops_at_once(effects):
    lines = s2_1(effects)
    clock = VirtualClock()
    sink = FakeVoice(clock)
    t0 = clock() - 590.0
    sched = scheduler(sink, clock, effects)
    clock.call_at(t0 + 600.0, sched.finish)  # the flight ends as "one." is due
    report = await clock.run(sched.run(t0, lines, resumed=True))
    last_two = report.lines[-2:]
    assert [r.text for r in last_two] == ["one.", "Mission complete. Entering hyperspace."]
    assert all(r.status == "played" for r in last_two)
    assert_whole_and_alone(sink, lines[-2:], report.lines[-2:])
    assert sink.closed and clock() <= t0 + 601.0 + FIT["operation_ended"] + sched.grace_s + 0.5

    clock2 = VirtualClock()
    sink2 = FakeVoice(clock2)
    t0 = clock2() - 590.0
    sched2 = scheduler(sink2, clock2, effects)
    clock2.call_at(t0 + 600.0, sched2.abort)
    report2 = await clock2.run(sched2.run(t0, lines, resumed=True))
    assert [r.status for r in report2.lines[-2:]] == ["stopped", "stopped"]
    assert max(t for t, _ in sink2.frames) <= t0 + 600.0 and sink2.closed


async def test_static_to_speech_has_no_gap_and_no_overlap(effects):
    cues = [
        FakeCue(0.0, "comm_down", "down", effect="static_start", duration_s=5.0),
        FakeCue(5.0, "comm_restored", "restored", effect="static_end"),
    ]
    lines, _ = build_lines(cues, {("down", "en"): tone_clip(1.0, 1), ("restored", "en"): tone_clip(1.0, 2)}, effects)
    clock = VirtualClock()
    sink = FakeVoice(clock)
    t0 = clock()
    await clock.run(scheduler(sink, clock, effects).run(t0, lines))
    names = {**{f: "down" for f in lines[0].clip.frames}, **{f: "restored" for f in lines[1].clip.frames}}
    names.update({f: "static" for f in effects.clip("static").frames})
    kinds = [(round((t - t0) / FRAME_S), names.get(f, "other")) for t, f in sink.frames]
    stream = [k for _, k in kinds]
    # one frame every 20 ms, none missing or doubled
    assert [i for i, _ in kinds] == list(range(len(kinds)))
    runs = [k for i, k in enumerate(stream) if i == 0 or stream[i - 1] != k]
    assert runs == ["down", "static", "restored"]  # and the stream ends with the last line
    first_restored = next(i for i, k in kinds if k == "restored")
    last_static = max(i for i, k in kinds if k == "static")
    assert first_restored == last_static + 1 == round(5.0 / FRAME_S)  # switched on the frame boundary
    assert not any(k == "other" for i, k in kinds if i < first_restored)  # no silence in between


async def test_late_line_is_queued_never_dropped(effects):
    cues = [FakeCue(0.0, "threat", "long", effect="alert"), FakeCue(2.0, "count", "b"), FakeCue(3.0, "count", "c"),
            FakeCue(30.0, "count", "d")]  # fmt: skip
    speech = {("long", "en"): tone_clip(6.0, 1), ("b", "en"): tone_clip(1.0, 2), ("c", "en"): tone_clip(1.0, 3),
              ("d", "en"): tone_clip(1.0, 4)}  # fmt: skip
    lines, _ = build_lines(cues, speech, effects)
    clock = VirtualClock()
    sink = FakeVoice(clock)
    t0 = clock()
    report = await clock.run(scheduler(sink, clock, effects).run(t0, lines))
    r = report.lines
    assert [x.status for x in r] == ["played"] * 4
    assert r[1].started == pytest.approx(t0 + lines[0].duration_s, abs=1e-6)  # right after the long line
    assert r[1].queued and r[1].jitter_s == pytest.approx(0.0, abs=1e-6)
    assert r[2].started == pytest.approx(r[1].started + 1.0, abs=1e-6)
    assert r[3].lateness_s == pytest.approx(0.0, abs=HALF)
    assert [f for _, f in sink.frames if f != OPUS_SILENCE] == [f for ln in lines for f in ln.clip.frames]


async def test_a_dropped_connection_is_reestablished(effects):
    cues = [FakeCue(float(t), "count", f"line {t}") for t in (0, 5, 10, 15)]
    lines, _ = build_lines(cues, {(c.text, "en"): tone_clip(2.0, i) for i, c in enumerate(cues)}, effects)
    clock = VirtualClock()
    sink = FakeVoice(clock, join_delay_s=1.0)
    t0 = clock()
    clock.call_at(t0 + 2.5, sink.drop)  # between lines
    report = await clock.run(scheduler(sink, clock, effects).run(t0, lines))
    assert [r.status for r in report.lines] == ["played"] * 4
    assert report.reconnects == 1 and report.disconnects == 1 and sink.reconnects == 1
    assert report.lines[1].lateness_s == pytest.approx(0.0, abs=HALF)  # back well before 5 s


async def test_a_members_disconnect_ends_voice_until_the_host_rejoins(effects):
    cues = [FakeCue(float(t), "count", f"line {t}") for t in (0, 5, 10, 15, 20)]
    lines, _ = build_lines(cues, {(c.text, "en"): tone_clip(1.0, i) for i, c in enumerate(cues)}, effects)
    clock = VirtualClock()
    sink = FakeVoice(clock)
    told: list[str] = []
    sched = scheduler(sink, clock, effects, on_member_disconnect=lambda: told.append("gone"))
    t0 = clock()
    clock.call_at(t0 + 3.0, sink.member_disconnect)
    rejoined: list[str | None] = []

    async def host_rejoins():
        rejoined.append(await sched.rejoin())

    import asyncio

    clock.call_at(t0 + 12.0, lambda: asyncio.ensure_future(host_rejoins()))
    report = await clock.run(sched.run(t0, lines))
    assert told == ["gone"] and rejoined == [None]
    assert sink.reconnects == 1  # only the host's rejoin: no silent rejoin after the disconnect
    assert [r.status for r in report.lines] == ["played", "no_voice", "no_voice", "played", "played"]
    assert report.member_disconnects == 1


async def test_voice_lost_for_good_is_said_once_and_lines_go_to_text(effects):
    cues = [FakeCue(float(t), "count", f"line {t}") for t in (0, 5, 10)]
    lines, _ = build_lines(cues, {(c.text, "en"): tone_clip(1.0, i) for i, c in enumerate(cues)}, effects)
    clock = VirtualClock()
    sink = FakeVoice(clock, join_delay_s=0.5, reconnect_ok=False)
    problems: list[str] = []
    t0 = clock()
    clock.call_at(t0 + 2.0, sink.drop)
    report = await clock.run(scheduler(sink, clock, effects, on_problem=problems.append).run(t0, lines))
    assert problems == ["simulated: voice server unreachable"]
    assert [r.status for r in report.lines] == ["played", "no_voice", "no_voice"]


async def test_time_scale_compresses_the_schedule_not_the_audio(effects):
    cues = [FakeCue(0.0, "count", "a"), FakeCue(10.0, "count", "b")]
    lines, _ = build_lines(cues, {("a", "en"): tone_clip(1.0, 1), ("b", "en"): tone_clip(1.0, 2)}, effects)
    clock = VirtualClock()
    sink = FakeVoice(clock)
    t0 = clock()
    report = await clock.run(scheduler(sink, clock, effects, time_scale=4.0).run(t0, lines))
    assert report.lines[1].started == pytest.approx(t0 + 2.5, abs=HALF)
    assert len(sink.frames_of(lines[1].clip)) == 50  # the audio is not sped up


def test_mixer_starts_a_clip_by_its_lead_in_so_the_voice_lands_on_time():
    now = [100.0]
    mixer = FrameMixer(clock=lambda: now[0])
    clip = Clip(tuple(bytes([i]) * 3 for i in range(10)), "speech", lead_frames=1)
    heard: list[float] = []
    mixer.add(MixItem(1, clip, due=100.2, on_start=heard.append))
    out = []
    for _ in range(20):
        out.append((round(now[0], 3), mixer.read()))
        now[0] += FRAME_S
    starts = [t for t, f in out if f == clip.frames[0]]
    assert starts == [100.18]  # one frame early: the lead-in frame
    assert heard == [pytest.approx(100.2)]  # the first audible frame, on the instant
    mixer.drain(now[0])
    assert mixer.read() == b"" and mixer.finished
