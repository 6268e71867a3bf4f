"""Every read and write of a live flight's stored record, in one place.

A flight changes only as one unit of work: `update` hands a pure function to the repository's
`update_flight` (mission/storage.py, over the platform's storage), which loads the record, applies
the function and saves it (with a journal entry when the game moved) in one transaction, and
re-applies it to a fresh load when another writer got there first.  The function must not talk to
Discord (it may run more than once and holds the database's write lock); callers keep what it
found in closure variables and answer afterwards.  The flight's asyncio lock is kept around it so
clicks of one process queue instead of retrying.

Keeping those calls here, instead of spread over the flight's modules, means a change in how the
store works (another backend, ownership of flights by shards) touches one file, and the rest of
the mission code only sees `FlightRecord`s and engine `Flight`s.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.games.space_alert.logbook import LogbookEntry
from bot.games.space_alert.mission.storage import FlightChange, FlightRecord, Flights, fingerprint
from bot.platform.storage import StaleWrite
from engine.flight.commands import FlightEvent

if TYPE_CHECKING:
    from bot.platform.client import SpaceAlertBot

FINISH_ATTEMPTS = 5
# set while `read_or_update` tries a change outside a unit of work (see `FlightStore.reading`)
_READING: ContextVar[bool] = ContextVar("flight_read_pass", default=False)


def journal(actor: int | None, kind: str, events: list[FlightEvent], command: Any = None) -> dict[str, Any]:
    """The journal entry of one change: who, what kind, which events (and the command, if any)."""
    payload: dict[str, Any] = {"events": [e.kind for e in events]}
    if command is not None:
        payload["command"] = command
    return {"kind": kind, "actor_id": actor, "payload": payload}


def abandon(record: FlightRecord, error: Exception) -> dict[str, Any]:
    """A change that ends a flight whose stored state cannot be restored (a snapshot no upgrade
    leads from): aborted, with the reason kept in its notes and an `unrestorable` journal entry."""
    reason = str(error).splitlines()[0][:300] if str(error) else type(error).__name__
    record.status = "aborted"
    record.notes["unrestorable"] = reason
    return {"kind": "unrestorable", "actor_id": None, "payload": {"error": reason}}


@dataclass
class Ending:
    """How `conclude` ended a flight: the journal entry, and the logbook entry when it was flown
    to a result (None when it ended without one: an engine failure, an unrestorable state)."""

    event: dict[str, Any]
    entry: LogbookEntry | None = None


class FlightStore:
    def __init__(self, bot: SpaceAlertBot) -> None:
        self.bot = bot

    @property
    def flights(self) -> Flights:
        """The flights' repository (mission/storage.py) over the bot's storage of the moment."""
        return Flights(self.bot.storage)

    async def update(self, flight_id: str, change: FlightChange) -> FlightRecord | None:
        """Load, apply `change` (pure; returns the journal entry or None), save, in one unit of work
        retried on a stale version; the stored record after it, None if there is no such flight.
        Raises StaleWrite only when the flight kept changing under every attempt."""
        async with self.bot.locks.get(flight_id):
            return await self.flights.update_flight(flight_id, change)

    async def read_or_update(
        self, flight_id: str, change: FlightChange, current: FlightRecord | None = None
    ) -> FlightRecord | None:
        """`update` for a click that usually only reads (opening a station, choosing a card): the
        change runs first on the record as stored now, read without the write lock; when it wants
        to write nothing, that record is the answer, else the change runs again as a unit of work.
        `current`: the record just peeked, if the caller has it (it is changed in place).
        Either way the answer reflects a committed state, and a write only ever happens in `update`;
        the reads stop queueing behind every other flight's writes for the database's one writer."""
        record = current if current is not None else await self.peek(flight_id)
        if record is None:
            return None
        before = fingerprint(record)
        token = _READING.set(True)
        try:  # an async change (one that stages posts) is awaited: unawaited, it always "wanted" to write
            wanted = change(record)
            if inspect.isawaitable(wanted):
                wanted = await wanted
        finally:
            _READING.reset(token)
        if wanted is None and fingerprint(record) == before:
            return record
        return await self.update(flight_id, change)

    @staticmethod
    def reading() -> bool:
        """True while `read_or_update` tries a change on a record read without the lock: the change
        must write nothing itself (stage no post); if it wants to write, it runs again in `update`."""
        return _READING.get()

    async def finish(
        self,
        flight_id: str,
        conclude: Callable[[FlightRecord], Awaitable[Ending | None]],
        then: Callable[[FlightRecord, Ending], Awaitable[None]] | None = None,
    ) -> FlightRecord | None:
        """End a flying flight once: `conclude(record)` (no Discord calls; it resolves before the
        transaction, so the database is not held meanwhile) sets the final status and notes and says
        how it ended (None: leave it be).  The logbook entry and the final status are one
        transaction (`finish_flight`), so a crash in between leaves neither, and a second finish (a
        retried tick, a click racing the timer) finds the flight over and writes nothing.
        The record this call ended, or None when it did not end it.

        `then(record, ending)` runs in the same transaction once the flight is ended there: what
        the end makes due (the result's outbox row, the campaign's step and the school's
        progress with their posts) commits with it or not at all."""
        async with self.bot.locks.get(flight_id):
            for _attempt in range(FINISH_ATTEMPTS):
                record = await self.flights.load_flight(flight_id)
                if record is None or record.status != "flying":
                    return None
                ending = await conclude(record)
                if ending is None:
                    return None
                status = record.status
                try:
                    async with self.bot.storage.transaction():
                        if ending.entry is None:
                            await self.flights.save_flight(record, ending.event)
                        elif not await self.flights.finish_flight(record, ending.entry, ending.event):
                            return None
                        if then is not None:
                            await then(record, ending)
                    return record
                except StaleWrite:
                    record.status = status
                    continue  # a mute or a click landed since the load: resolve the fresh state
                except BaseException:
                    record.status = status  # rolled back: the record is as it was loaded
                    raise
        raise StaleWrite(f"flight {flight_id} kept changing; could not finish it")

    async def create(self, record: FlightRecord) -> None:
        """Store a new lobby; raises `ChannelBusy` when the channel already has an active flight."""
        await self.flights.create_flight(record)

    async def active_in_channel(self, channel_id: int) -> FlightRecord | None:
        return await self.flights.active_flight_in_channel(channel_id)

    async def peek(self, flight_id: str) -> FlightRecord | None:
        """The record as stored now, without the lock (for rendering and for reads before a change)."""
        return await self.flights.load_flight(flight_id)

    async def claim_note(self, flight_id: str, key: str) -> FlightRecord | None:
        """Set a once-per-flight flag; the record if this call set it, None if it was set already."""
        claimed = False

        def change(record: FlightRecord) -> dict[str, Any] | None:
            nonlocal claimed
            claimed = not record.notes.get(key)
            if claimed:
                record.notes[key] = True
            return None  # a flag, not a move of the game: nothing for the journal

        record = await self.update(flight_id, change)
        return record if claimed else None

    # -- members the flight server-muted ------------------------------------------------------------------
    async def muted(self, flight_id: str) -> list[int]:
        """Who the flight has muted (or is about to), in muting order."""
        return await self.flights.muted_members(flight_id)

    async def update_muted(
        self, flight_id: str, *, add: set[int] | None = None, remove: set[int] | None = None
    ) -> None:
        """Change who the flight has muted.  Under the flight's lock, because it bumps the flight's
        version: a stream of mute jobs must not make a finish (which resolves before its
        transaction) meet a stale version on every attempt."""
        async with self.bot.locks.get(flight_id):
            await self.flights.update_muted(flight_id, add=add or (), remove=remove or ())

    async def active_flights(self) -> list[FlightRecord]:
        return await self.flights.active_flights()

    async def ended_flights_with_muted_members(self) -> list[FlightRecord]:
        return await self.flights.ended_flights_with_muted_members()

    # -- posts left unsent at shutdown ------------------------------------------------------------------
    async def pending_posts(self) -> list[tuple[int, str, dict[str, Any]]]:
        return await self.bot.storage.pending_posts()

    async def store_posts(self, flight_id: str, payloads: list[dict[str, Any]]) -> None:
        await self.bot.storage.store_posts(flight_id, payloads)

    async def update_post(self, row_id: int, payload: dict[str, Any]) -> None:
        await self.bot.storage.update_post(row_id, payload)

    async def delete_post(self, row_id: int) -> None:
        await self.bot.storage.delete_post(row_id)
