"""Untimed flights: a phase end waits for every human's Finish, the rest of the recording keeps its pace.

S1-1 (a two-phase test run) ends its phases at the times in its timeline; the tests read them
from there rather than hard-coding them, and play two humans (two androids fill the crew; they
never press Finish).
"""

from __future__ import annotations

import json
from typing import Any

from engine.flight.commands import Accepted, AgreeEnd, FinishPhase, FlightEvent, PlaceCard, Rejected
from engine.flight.machine import Flight, FlightConfig


def _flight(untimed: bool = True, crew: list[str] | None = None) -> Flight:
    return Flight.start(FlightConfig(crew=crew or ["Ann", "Bob"], mission="S1-1", seed=3, untimed=untimed))


def _kinds(events: list[FlightEvent]) -> list[str]:
    return [e.kind for e in events]


def _finish(flight: Flight, name: str) -> list[FlightEvent]:
    outcome = flight.apply(FinishPhase(player=name))
    assert isinstance(outcome, Accepted), outcome
    return outcome.events


def _phase_ends(events: list[FlightEvent]) -> list[int]:
    return [int(e.data["phase"]) for e in events if e.kind == "phase_ended"]


def test_the_phase_end_waits_for_every_human_and_comes_on_the_last_finish() -> None:
    flight = _flight()
    end1 = float(flight.timeline.phase_end_s[0])
    events = flight.advance_to(end1 + 600)  # ten minutes past the recording's phase end
    assert _phase_ends(events) == [] and flight.round_phase == 1
    assert flight.next_due_s() is None  # no time will move it on
    assert flight.waiting_for == ["Ann", "Bob"] and flight.deck().waiting_for == ("Ann", "Bob")
    # Ann finishes: she takes her phase-2 cards, the phase still waits for Bob
    assert "cards_dealt" in _kinds(_finish(flight, "Ann"))
    assert flight.round_phase == 1 and flight.waiting_for == ["Bob"]
    # Bob's Finish ends the phase for everyone, now
    events = _finish(flight, "Bob")
    assert _phase_ends(events) == [1] and flight.round_phase == 2
    assert events[-1].at_s == end1 + 600 and flight.delay_s == 600
    # the rest of the recording comes 600 s later than written: "phase has ended" 1 s after the end
    later = flight.advance_to(end1 + 601)
    assert [e.cue.kind for e in later if e.cue is not None] == ["phase_ended"]


def test_a_crew_done_early_ends_the_phase_at_once_whatever_the_recording_says() -> None:
    """Untimed means untimed: two players who both press Finish 3 s in do not wait minutes for
    the recording's phase end.  What the recording still had to say in the phase comes first,
    and the next phase runs at the recording's pace from now."""
    flight = _flight()
    end1 = float(flight.timeline.phase_end_s[0])
    timed = _flight(untimed=False)
    timed.advance_to(3)
    phase_one = [e.kind for e in timed.advance_to(end1 - 0.1) if e.kind not in ("intercom", "cards_dealt")]
    flight.advance_to(3)
    assert _phase_ends(_finish(flight, "Ann")) == [] and flight.waiting_for == ["Bob"]
    events = _finish(flight, "Bob")
    assert _phase_ends(events) == [1] and flight.round_phase == 2
    assert events[-1].at_s == 3 and flight.delay_s == 3 - end1
    # nothing of phase 1 is lost: its threats and data come (at once) before its end
    said = [e.kind for e in events if e.kind not in ("intercom", "cards_dealt", "phase_finished", "phase_ended")]
    assert phase_one and phase_one == said
    assert flight.next_due_s() is not None and flight.next_due_s() < end1  # phase 2 is not held back


def test_events_inside_a_phase_keep_the_recording_s_pace() -> None:
    timed, untimed = _flight(untimed=False), _flight()
    end1 = float(timed.timeline.phase_end_s[0])

    def inside(flight: Flight) -> list[tuple[float, str]]:
        events = flight.advance_to(end1 - 0.1)
        return [(e.at_s, e.kind) for e in events if e.kind != "intercom"]

    assert inside(untimed) == inside(timed)  # threats, incoming data, transfers at the same seconds
    # and no line counts down to a phase end that the clock does not bring
    spoken = {e.cue.kind for e in untimed.advance_to(end1 + 100) if e.cue is not None}
    assert spoken.isdisjoint({"one_minute_warning", "twenty_seconds_warning", "countdown"})


def test_androids_do_not_count_and_finish_is_refused_when_timed() -> None:
    flight = _flight(crew=["Ann"])  # solo: four androids, one human
    flight.advance_to(float(flight.timeline.phase_end_s[0]) + 5)
    assert flight.waiting_for == ["Ann"]
    assert _phase_ends(_finish(flight, "Ann")) == [1]
    timed = _flight(untimed=False)
    timed.advance_to(10)
    for _ in range(timed.timeline.phases - 1):
        _finish(timed, "Ann")
    refused = timed.apply(FinishPhase(player="Ann"))
    assert isinstance(refused, Rejected) and refused.reason == "no_next_phase"


def test_the_last_phase_s_finish_ends_the_operation_and_locks_the_board() -> None:
    flight = _flight()
    flight.advance_to(1)
    for _ in range(flight.timeline.phases - 1):  # every phase but the last, early
        _finish(flight, "Ann")
        _finish(flight, "Bob")
    last_end = float(flight.timeline.phase_end_s[-1])
    flight.advance_to(last_end + 30)
    assert flight.round_phase == flight.timeline.phases and flight.status == "running"
    assert not flight.deck().phase_ends_at_s and flight.deck().untimed
    _finish(flight, "Ann")
    assert flight.station("Ann").can_finish is False and flight.station("Bob").can_finish is True
    card_id = flight.member("Ann").hand[0]
    refused = flight.apply(PlaceCard(player="Ann", card=card_id, turn=flight.last_turn, half="action"))
    assert isinstance(refused, Rejected) and refused.reason == "phase_over"
    events = _finish(flight, "Bob")
    assert _kinds(events)[-2:] == ["phase_ended", "round_ended"] and flight.status == "ended"
    flight.advance_to(last_end + 60)  # "operation ended" is still said, 1 s after the held end
    assert flight.complete


def test_agreeing_to_end_still_ends_an_untimed_flight() -> None:
    flight = Flight.start(FlightConfig(crew=["Ann", "Bob"], mission="S2-1", seed=3, untimed=True))
    flight.advance_to(1)
    for _ in range(2):
        _finish(flight, "Ann")
        _finish(flight, "Bob")
    flight.advance_to(float(flight.timeline.phase_end_s[1]) + 1)
    flight.apply(AgreeEnd(player="Ann"))
    outcome = flight.apply(AgreeEnd(player="Bob"))
    assert isinstance(outcome, Accepted) and flight.status == "ended" and flight.ended_early


def test_snapshot_round_trip_and_restart_mid_phase() -> None:
    flight = _flight()
    end1 = float(flight.timeline.phase_end_s[0])
    flight.advance_to(end1 + 50)
    _finish(flight, "Ann")
    snap: dict[str, Any] = json.loads(json.dumps(flight.to_dict()))
    assert snap["config"]["untimed"] is True and snap["members"][0]["finished_last"] is False
    restored = Flight.from_dict(snap)
    assert restored.to_dict() == flight.to_dict()
    # the restarted bot catches up with the clock first: still held, nothing lost
    assert _phase_ends(restored.advance_to(end1 + 400)) == [] and restored.waiting_for == ["Bob"]
    events = _finish(restored, "Bob")
    assert _phase_ends(events) == [1] and restored.delay_s == 400
    again = Flight.from_dict(json.loads(json.dumps(restored.to_dict())))
    assert again.delay_s == 400 and again.next_due_s() == restored.next_due_s()
    assert [e.to_dict() for e in again.advance_to(end1 + 900)] == [e.to_dict() for e in restored.advance_to(end1 + 900)]


def test_an_old_snapshot_restores_as_timed() -> None:
    timed = _flight(untimed=False)
    timed.advance_to(30)
    old = timed.to_dict()
    old["schema_version"] = 1
    del old["config"]["untimed"], old["delay_s"]
    for member in old["members"]:
        del member["finished_last"]
    restored = Flight.from_dict(old)
    assert restored.config.untimed is False and restored.delay_s == 0
    end1 = float(restored.timeline.phase_end_s[0])
    assert _phase_ends(restored.advance_to(end1)) == [1]  # the clock ends the phase, as before
