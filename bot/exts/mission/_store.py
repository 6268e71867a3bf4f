"""Every read and write of a live flight's stored record, in one place.

A flight is changed only under its lock: load the record, change it, save it (with a journal
entry when the game moved).  Keeping those calls here, instead of spread over the flight's
modules, means a change in how the store works (a unit of work, another backend) touches one
file, and the rest of the mission code only sees `FlightRecord`s and engine `Flight`s.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from bot.storage import FlightRecord, LogbookEntry
from engine.flight.machine import Flight, FlightEvent

if TYPE_CHECKING:
    from bot.client import SpaceAlertBot


def journal(actor: int | None, kind: str, events: list[FlightEvent], command: Any = None) -> dict[str, Any]:
    """The journal entry of one change: who, what kind, which events (and the command, if any)."""
    payload: dict[str, Any] = {"events": [e.kind for e in events]}
    if command is not None:
        payload["command"] = command
    return {"kind": kind, "actor_id": actor, "payload": payload}


class FlightStore:
    def __init__(self, bot: SpaceAlertBot) -> None:
        self.bot = bot

    @asynccontextmanager
    async def locked(self, flight_id: str) -> AsyncIterator[FlightRecord | None]:
        """The record under the flight's lock (None if there is no such flight)."""
        async with self.bot.locks.get(flight_id):
            yield await self.bot.storage.load_flight(flight_id)

    async def create(self, record: FlightRecord) -> None:
        """Store a new lobby; raises `ChannelBusy` when the channel already has an active flight."""
        await self.bot.storage.create_flight(record)

    async def active_in_channel(self, channel_id: int) -> FlightRecord | None:
        return await self.bot.storage.active_flight_in_channel(channel_id)

    async def peek(self, flight_id: str) -> FlightRecord | None:
        """The record as stored now, without the lock (for rendering only)."""
        return await self.bot.storage.load_flight(flight_id)

    async def save(self, record: FlightRecord, entry: dict[str, Any] | None = None) -> None:
        """Save a record loaded through `locked` (call inside that block)."""
        await self.bot.storage.save_flight(record, entry)

    async def save_flight_state(self, record: FlightRecord, flight: Flight, entry: dict[str, Any] | None) -> None:
        record.state = flight.to_dict()
        if entry is not None:
            await self.bot.storage.save_flight(record, entry)

    async def update(self, flight_id: str, change: Callable[[FlightRecord], bool]) -> FlightRecord | None:
        """Lock, load, apply `change` (True: it changed something), save; the record after it."""
        async with self.locked(flight_id) as record:
            if record is not None and change(record):
                await self.bot.storage.save_flight(record)
            return record

    async def set_note(self, flight_id: str, key: str, value: Any) -> None:
        def change(record: FlightRecord) -> bool:
            record.notes[key] = value
            return True

        await self.update(flight_id, change)

    async def claim_note(self, flight_id: str, key: str) -> FlightRecord | None:
        """Set a once-per-flight flag; the record if this call set it, None if it was set already."""
        claimed = False

        def change(record: FlightRecord) -> bool:
            nonlocal claimed
            if record.notes.get(key):
                return False
            record.notes[key] = claimed = True
            return True

        record = await self.update(flight_id, change)
        return record if claimed else None

    async def add_logbook_entry(self, entry: LogbookEntry) -> None:
        await self.bot.storage.add_logbook_entry(entry)

    async def active_flights(self) -> list[FlightRecord]:
        return await self.bot.storage.active_flights()

    async def ended_flights_with_muted_members(self) -> list[FlightRecord]:
        return await self.bot.storage.ended_flights_with_muted_members()

    # -- posts left unsent at shutdown ------------------------------------------------------------------
    async def pending_posts(self) -> list[tuple[int, str, dict[str, Any]]]:
        return await self.bot.storage.pending_posts()

    async def store_posts(self, flight_id: str, payloads: list[dict[str, Any]]) -> None:
        await self.bot.storage.store_posts(flight_id, payloads)

    async def update_post(self, row_id: int, payload: dict[str, Any]) -> None:
        await self.bot.storage.update_post(row_id, payload)

    async def delete_post(self, row_id: int) -> None:
        await self.bot.storage.delete_post(row_id)
