"""The Action Phase timer on a manual clock: calls at their instants, pause, ±15 s, stale calls."""

from __future__ import annotations

import pytest

from engine.common.clock import ManualClock
from engine.elite.timer import ALL_CALLS, ActionTimer, TimerCall, TimerError


def run(timer: ActionTimer, clock: ManualClock, until: float) -> list[tuple[float, TimerCall]]:
    """Sleep until `next_due()` and poll, as the adapter does; (instant, call) heard."""
    heard = []
    while (due := timer.next_due()) is not None and due <= until:
        clock.advance(due - clock())
        heard.extend((clock(), c) for c in timer.poll())
    return heard


def test_polling_every_frame_hears_each_call_within_a_frame() -> None:
    clock = ManualClock()
    timer = ActionTimer(clock)
    timer.start()
    heard: list[tuple[float, TimerCall]] = []
    while timer.state == "running":
        clock.advance(0.02)
        heard.extend((clock(), c) for c in timer.poll())
    assert [c for _, c in heard] == list(ALL_CALLS)
    for t, c in heard:
        assert 0 <= t - (120 - c.seconds) < 0.021


def test_a_plain_two_minutes_speaks_every_call_on_time() -> None:
    clock = ManualClock(100.0)
    timer = ActionTimer(clock)
    timer.start()
    heard = run(timer, clock, 221.0)
    assert [c for _, c in heard] == list(ALL_CALLS)
    at = {c: t for t, c in heard}
    assert at[TimerCall("mark", 90)] == pytest.approx(130.0)
    assert at[TimerCall("mark", 60)] == pytest.approx(160.0)
    assert at[TimerCall("mark", 30)] == pytest.approx(190.0)
    assert at[TimerCall("count", 10)] == pytest.approx(210.0)
    assert at[TimerCall("times_up", 0)] == pytest.approx(220.0)
    assert timer.state == "times_up" and timer.remaining() == 0


def test_next_due_is_the_instant_of_the_next_call() -> None:
    clock = ManualClock()
    timer = ActionTimer(clock)
    assert timer.next_due() is None
    timer.start()
    assert timer.next_due() == pytest.approx(30.0)
    clock.advance(30.0)
    assert timer.poll() == [TimerCall("mark", 90)]
    assert timer.next_due() == pytest.approx(60.0)


def test_pause_stops_time_and_resume_continues() -> None:
    clock = ManualClock()
    timer = ActionTimer(clock)
    timer.start()
    clock.advance(50)
    timer.pause()
    assert timer.next_due() is None
    clock.advance(300)  # a die rolled under the sofa
    assert timer.poll() == [] and timer.remaining() == pytest.approx(70)
    timer.resume()
    clock.advance(10)
    assert timer.poll() == [TimerCall("mark", 60)]
    assert timer.pauses == 1


def test_plus_fifteen_rearms_a_passed_mark_and_minus_fifteen_skips_ahead() -> None:
    clock = ManualClock()
    timer = ActionTimer(clock)
    timer.start()
    clock.advance(65)  # 55 left: the 1:00 mark was due
    assert TimerCall("mark", 60) in timer.poll()
    assert timer.adjust(+15) == pytest.approx(70)
    clock.advance(10)
    assert timer.poll() == [TimerCall("mark", 60)]  # heard again, it is true again
    assert timer.adjust(-15) == pytest.approx(45)
    assert timer.poll() == []  # nothing old is spoken after a jump
    clock.advance(15)
    assert timer.poll() == [TimerCall("mark", 30)]


def test_removing_more_than_is_left_ends_the_phase() -> None:
    clock = ManualClock()
    timer = ActionTimer(clock)
    timer.start()
    clock.advance(110)
    timer.poll()
    timer.adjust(-15)
    assert timer.poll() == [TimerCall("times_up", 0)]
    assert timer.state == "times_up"
    with pytest.raises(TimerError):
        timer.adjust(15)


def test_a_late_poll_skips_stale_countdown_numbers() -> None:
    clock = ManualClock()
    timer = ActionTimer(clock)
    timer.start()
    clock.advance(115.5)  # 4.5 s left, first poll since the start
    assert timer.poll() == [TimerCall("count", 5)]


def test_adjusting_before_the_start_changes_the_length_and_skips_marks_not_reached() -> None:
    clock = ManualClock()
    timer = ActionTimer(clock)
    timer.adjust(-30)
    timer.start()
    heard = [c for _, c in run(timer, clock, 91)]
    assert TimerCall("mark", 90) not in heard
    assert heard[0] == TimerCall("mark", 60) and heard[-1] == TimerCall("times_up", 0)


def test_illegal_transitions_are_refused() -> None:
    timer = ActionTimer(ManualClock())
    with pytest.raises(TimerError):
        timer.pause()
    with pytest.raises(TimerError):
        timer.resume()
    timer.start()
    with pytest.raises(TimerError):
        timer.start()
    with pytest.raises(TimerError):
        ActionTimer(ManualClock(), 0)


def test_schedule_lists_what_is_still_to_come() -> None:
    clock = ManualClock()
    timer = ActionTimer(clock)
    timer.start()
    clock.advance(95)
    timer.poll()
    offsets = dict((c, dt) for dt, c in timer.schedule())
    assert TimerCall("mark", 30) not in offsets
    assert offsets[TimerCall("count", 10)] == pytest.approx(15)
    assert offsets[TimerCall("times_up", 0)] == pytest.approx(25)


def test_manual_clock_never_goes_back() -> None:
    with pytest.raises(ValueError):
        ManualClock().advance(-1)
