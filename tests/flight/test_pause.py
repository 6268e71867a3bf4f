"""Pausing a flight (issue 24): the clock, the intercom and phase ends stop while paused, commands
are refused, and Resume carries on exactly where the flight stopped with every later moment
shifted by the pause; the pause survives a snapshot (a restart while paused stays paused)."""

from __future__ import annotations

from engine.flight.commands import Accepted, DrawCard, PlaceCard, Rejected
from engine.flight.machine import Flight, FlightConfig


def _flight(untimed: bool = False) -> Flight:
    return Flight.start(FlightConfig(crew=["Ann", "Bob", "Cy"], mission="S1-1", seed=4, untimed=untimed))


def _kinds(events: list) -> list[str]:  # type: ignore[type-arg]
    return [e.kind for e in events]


def test_a_paused_flight_stands_still_and_resume_shifts_what_is_left() -> None:
    flight = _flight()
    flight.advance_to(flight.clock(30.0))
    end_1 = flight.timeline.phase_end_s[0]
    paused = flight.pause("Host")
    assert isinstance(paused, Accepted) and _kinds(paused.events) == ["paused"]
    assert paused.events[0].data == {"by": "Host"}
    # ten minutes pass on the caller's clock: mission time stays at 30 s, nothing falls due
    assert flight.clock(630.0) == 30.0 and flight.advance_to(flight.clock(630.0)) == []
    assert flight.next_due_s() is None
    assert flight.deck().paused_by == "Host" and flight.station("Ann").paused_by == "Host"
    assert not flight.station("Ann").placements and not flight.station("Ann").can_finish  # no controls
    refused = flight.apply(PlaceCard(player="Ann", card=flight.member("Ann").hand[0], turn=1, half="action"))
    assert isinstance(refused, Rejected) and refused.reason == "paused" and refused.params == {"by": "Host"}
    resumed = flight.resume("Bob", 630.0)
    assert isinstance(resumed, Accepted) and resumed.events[0].kind == "resumed"
    assert resumed.events[0].data == {"by": "Bob", "paused_by": "Host", "pause_s": 600.0, "paused_s": 600.0}
    assert flight.now_s == 30.0 and flight.paused_s == 600.0 and flight.deck().paused_s == 600.0
    # the first phase now ends 600 s later on the caller's clock, exactly as far away as before
    assert "phase_ended" not in _kinds(flight.advance_to(flight.clock(600.0 + end_1 - 1)))
    assert "phase_ended" in _kinds(flight.advance_to(flight.clock(600.0 + end_1)))


def test_two_pauses_add_up() -> None:
    flight = _flight()
    flight.advance_to(flight.clock(10.0))
    flight.pause("Host")
    flight.resume("Host", 25.0)  # 15 s paused
    flight.advance_to(flight.clock(40.0))
    assert flight.now_s == 25.0
    flight.pause("Host")
    assert flight.resume("Host", 50.0).events[0].data["pause_s"] == 10.0  # type: ignore[union-attr]
    assert flight.paused_s == 25.0 and flight.clock(60.0) == 35.0


def test_pause_is_refused_before_the_start_after_the_end_and_twice() -> None:
    flight = _flight()
    assert isinstance(flight.pause("Host"), Rejected) and flight.pause("Host").reason == "not_started"  # type: ignore[union-attr]
    refused = flight.resume("Host", 0.0)
    assert isinstance(refused, Rejected) and refused.reason == "not_paused"
    flight.advance_to(1.0)
    flight.pause("Host")
    twice = flight.pause("Ann")
    assert isinstance(twice, Rejected) and twice.reason == "paused" and twice.params == {"by": "Host"}
    flight.resume("Host", 1.0)
    flight.advance_to(flight.timeline.end_s + 60)
    ended = flight.pause("Host")
    assert isinstance(ended, Rejected) and ended.reason == "round_over"


def test_a_restored_paused_flight_stays_paused() -> None:
    flight = _flight()
    flight.advance_to(flight.clock(95.0))
    flight.pause("Host")
    restored = Flight.from_dict(flight.to_dict())
    assert restored.paused_by == "Host" and restored.advance_to(restored.clock(500.0)) == []
    assert isinstance(restored.apply(DrawCard(player="Ann")), Rejected)
    restored.resume("Host", 500.0)
    assert restored.paused_s == 405.0 and restored.clock(505.0) == 100.0


def test_untimed_flight_pauses_too() -> None:
    flight = _flight(untimed=True)
    flight.advance_to(flight.clock(20.0))
    flight.pause("Host")
    assert flight.next_due_s() is None and flight.advance_to(flight.clock(200.0)) == []
    flight.resume("Host", 200.0)
    assert flight.next_due_s() is not None and flight.clock(200.0) == 20.0


def test_the_stored_snapshot_tells_the_same_clock_as_the_flight() -> None:
    """The bot reads mission time off the stored snapshot (`clock_of`) on every tick; it must be
    `Flight.clock` exactly: running, paused (standing still), and never running backwards."""
    from engine.flight.snapshot import clock_of

    flight = Flight.start({"crew": ["Ann", "Bob"], "mission": "S1-1", "seed": 3})
    flight.advance_to(0.0)
    flight.advance_to(40.0)
    for elapsed in (10.0, 40.0, 55.5):
        assert clock_of(flight.to_dict(), elapsed) == flight.clock(elapsed)
    flight.pause("Ann")
    assert clock_of(flight.to_dict(), 90.0) == flight.clock(90.0) == 40.0
