"""Per-flight asyncio locks, so load -> apply -> save never interleaves for one flight.

Two crew members clicking in the same second, and the timeline runner advancing the clock, all
touch the same stored flight.  Serialising them per flight (not globally) keeps flights
independent.  The registry is weak, so a flight nobody is touching holds no lock object.
"""

from __future__ import annotations

import asyncio
from weakref import WeakValueDictionary


class FlightLocks:
    """Hands out one `asyncio.Lock` per flight id; owned by the bot instance, not module-global."""

    def __init__(self) -> None:
        self._locks: WeakValueDictionary[str, asyncio.Lock] = WeakValueDictionary()

    def get(self, flight_id: str) -> asyncio.Lock:
        lock = self._locks.get(flight_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[flight_id] = lock
        return lock
