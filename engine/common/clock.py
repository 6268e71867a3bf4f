"""The injected clock: rules that run in real time read time through a callable, never the wall.

A real adapter passes `time.monotonic`; tests pass a `ManualClock` and move it by hand, so a whole
two-minute phase (with pauses and time changes) runs in microseconds and always the same way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

Clock: TypeAlias = Callable[[], float]


class ManualClock:
    """A clock that only moves when told to (seconds, monotonic)."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        """Move forward; a negative step is a bug in the caller, not a time machine."""
        if seconds < 0:
            raise ValueError("a monotonic clock cannot go back")
        self.now += seconds
        return self.now
