"""The 2-minute Action Phase timer as a state machine on an injected clock.

States: ready -> running <-> paused -> times_up.  The Timekeeper may add or remove time (±15 s for
events and equipment) in any state before time's up; a paused timer does not run (the rule for a
die that fell off the table: no actions, no talking).

Spoken calls: 1:30, 1:00, 0:30, a 10-second countdown, then "time's up".  `poll()` returns the
calls whose instant has passed since the last poll; the adapter sleeps until `next_due()` and
plays the (pre-rendered) calls, so a call is late only by the adapter's own scheduling jitter.
A call is stale (skipped) when it is more than `STALE_S` behind, so a late poll never speaks a
burst of old countdown numbers.  Time added back above a mark re-arms that mark.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, get_args

from engine.common.clock import Clock
from engine.elite import tables
from engine.elite.errors import EliteError

TimerState = Literal["ready", "running", "paused", "times_up"]
TIMER_STATES: tuple[TimerState, ...] = get_args(TimerState)
CallKind = Literal["mark", "count", "times_up"]

CALL_MARKS: tuple[int, ...] = (90, 60, 30)
COUNTDOWN_FROM = 10
STALE_S = 1.0


@dataclass(frozen=True, slots=True)
class TimerCall:
    """One spoken call: a minute/half-minute mark, a countdown number, or time's up (seconds = 0)."""

    kind: CallKind
    seconds: int


def _all_calls() -> tuple[TimerCall, ...]:
    calls = [TimerCall("mark", s) for s in CALL_MARKS]
    calls += [TimerCall("count", s) for s in range(COUNTDOWN_FROM, 0, -1)]
    calls.append(TimerCall("times_up", 0))
    return tuple(sorted(calls, key=lambda c: -c.seconds))


ALL_CALLS = _all_calls()


class TimerError(EliteError, RuntimeError):
    """An action the timer's state does not allow (e.g. pausing a timer that is not running)."""


class ActionTimer:
    def __init__(self, clock: Clock, length_s: float = tables.ACTION_PHASE_S) -> None:
        if length_s <= 0:
            raise TimerError("timer_length")
        self._clock = clock
        self.length_s = float(length_s)
        self.state: TimerState = "ready"
        self._banked_s = 0.0  # running time before the current run
        self._run_from: float | None = None
        self._fired: set[int] = set()
        self.pauses = 0

    # -- the stored form ---------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The timer as JSON-able values.  `run_from` is an instant on the clock the timer reads,
        so a stored running timer is only meaningful to a process reading the same clock (the
        bot uses wall time, shared by every process the way its leases are)."""
        return {
            "length_s": self.length_s,
            "state": self.state,
            "banked_s": self._banked_s,
            "run_from": self._run_from,
            "fired": sorted(self._fired),
            "pauses": self.pauses,
        }

    @classmethod
    def restore(cls, clock: Clock, data: dict[str, Any]) -> ActionTimer:
        """The timer `snapshot` described, reading `clock` from now on."""
        state = next((s for s in TIMER_STATES if s == data["state"]), None)
        if state is None:
            raise ValueError(f"unknown timer state {data['state']!r}")
        timer = cls(clock, float(data["length_s"]))
        timer.state = state
        timer._banked_s = float(data["banked_s"])
        run_from = data.get("run_from")
        timer._run_from = None if run_from is None else float(run_from)
        timer._fired = {int(s) for s in data.get("fired", [])}
        timer.pauses = int(data.get("pauses", 0))
        return timer

    @staticmethod
    def paused_at(data: dict[str, Any], at: float) -> dict[str, Any]:
        """A stored running timer paused at the instant `at` (its last stored moment): what a
        restart does, so the bot's downtime never eats into the crew's Action Phase."""
        if data.get("state") != "running" or data.get("run_from") is None:
            return dict(data)
        ran = max(0.0, float(at) - float(data["run_from"]))
        return {
            **data,
            "state": "paused",
            "banked_s": float(data["banked_s"]) + ran,
            "run_from": None,
            "pauses": int(data.get("pauses", 0)) + 1,
        }

    # -- reading -----------------------------------------------------------------------------------
    def elapsed(self) -> float:
        run = 0.0 if self._run_from is None else self._clock() - self._run_from
        return self._banked_s + run

    def remaining(self) -> float:
        return max(0.0, self.length_s - self.elapsed())

    def next_due(self) -> float | None:
        """Clock instant of the next call, or None when the timer is not running."""
        if self.state != "running":
            return None
        left = self.remaining()
        for call in ALL_CALLS:
            if call.seconds not in self._fired:
                return self._clock() + max(0.0, left - call.seconds)
        return None

    def schedule(self) -> tuple[tuple[float, TimerCall], ...]:
        """(seconds from now of running time, call) for every call still to come: for pre-rendering."""
        left = self.remaining()
        return tuple((left - c.seconds, c) for c in ALL_CALLS if c.seconds not in self._fired and c.seconds <= left)

    # -- transitions -------------------------------------------------------------------------------
    def start(self) -> None:
        if self.state != "ready":
            raise TimerError("cannot_start", state=self.state)
        self.state = "running"
        self._run_from = self._clock()
        # Marks at or above the starting length are not news ("1:30 left" at the start of 1:30).
        self._fired = {c.seconds for c in ALL_CALLS if c.seconds >= self.length_s and c.kind == "mark"}

    def pause(self) -> None:
        if self.state != "running":
            raise TimerError("cannot_pause", state=self.state)
        self._bank()
        self.state = "paused"
        self.pauses += 1

    def resume(self) -> None:
        if self.state != "paused":
            raise TimerError("cannot_resume", state=self.state)
        self.state = "running"
        self._run_from = self._clock()

    def adjust(self, delta_s: float) -> float:
        """Add (or with a negative delta remove) time; returns the new remaining time.

        Removing more than is left ends at zero, and the next poll calls time's up.
        """
        if self.state == "times_up":
            raise TimerError("time_up")
        self.length_s = max(self.elapsed(), self.length_s + delta_s)
        if self.state == "ready":
            self.length_s = max(1.0, self.length_s)
        left = self.remaining()
        if self.state != "ready":
            # Calls below the new remaining time are (re-)armed; those above it are past.
            self._fired = {c.seconds for c in ALL_CALLS if c.seconds > left}
        return left

    def poll(self) -> list[TimerCall]:
        """The calls due since the last poll (stale ones skipped); moves to times_up at zero."""
        if self.state != "running":
            return []
        left = self.remaining()
        due = [c for c in ALL_CALLS if c.seconds not in self._fired and c.seconds >= left]
        if not due:
            return []
        self._fired.update(c.seconds for c in due)
        fresh = [c for c in due if c.seconds - left <= STALE_S]
        if not fresh:
            fresh = [due[-1]]
        if left <= 0:
            self._bank()
            self.state = "times_up"
        return fresh

    def _bank(self) -> None:
        if self._run_from is not None:
            self._banked_s += self._clock() - self._run_from
            self._run_from = None
