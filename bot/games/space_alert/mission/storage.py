"""Space Alert's flights in the database: the records, their rows and every statement on the
`flights`, `flight_muted` and `flight_events` tables, over the platform's SQL core (both backends).

Why here: the platform's storage knows no game (issue 23).  It supplies the unit of work
(`storage.transaction()`, `tx.rows/run/many`, `tx.undo`), committed reads (`storage.fetch`) and
which backend it is; the flight's tables, their SQL and the one statement that differs between
SQLite and PostgreSQL (how the muted members come back as JSON) live with the game.

Two levels, as the platform's own storage had them:
- `FlightTransaction(tx)`: the flight statements inside a unit of work the caller already holds
  (load with the row locked, create, save with the version check, the muted members);
- `Flights(storage)`: each of those as a unit of work of its own, the committed reads, and the
  unit of work `update_flight` (load, pure change, save, retry on StaleWrite) and `finish_flight`
  (the logbook entry, written by logbook.py's `add_entry`, + status `finished` in one transaction,
  idempotent: the one way a flight finishes).
The bot reaches them through mission/_store.py (`FlightStore`); tables: migrations sqlite/0001,
postgres/0001 (flight_muted: sqlite/0003).
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.games.space_alert.logbook import LogbookEntry, add_entry
from bot.platform.storage.base import ChannelBusy, StaleWrite
from bot.platform.storage.platform import backend, for_update, unique_violation
from bot.platform.storage.rows import now

# What an update function returns: the event to append to the flight's log (or None).
FlightChange = Callable[["FlightRecord"], "dict[str, Any] | Awaitable[dict[str, Any] | None] | None"]

ACTIVE_STATUSES: tuple[str, ...] = ("lobby", "flying")


@dataclass
class CrewMember:
    """A human crew member as the lobby collected them; roles are 'captain', 'comms', 'security'."""

    user_id: int
    name: str
    roles: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "name": self.name, "roles": list(self.roles)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CrewMember:
        return cls(user_id=int(data["user_id"]), name=str(data["name"]), roles=list(data.get("roles", [])))


@dataclass
class FlightRecord:
    """One row of `flights`: the lobby options and crew, then the live engine state as JSON."""

    id: str
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    language: str
    voice: bool
    time_scale: float
    options: dict[str, Any]
    crew: list[CrewMember]
    state: dict[str, Any] | None = None
    started_at: float | None = None
    lobby_message_id: int | None = None
    deck_message_id: int | None = None
    # Adapter bookkeeping.  notes["muted"] mirrors the flight_muted table (filled on load, written
    # on save) until the bot uses `update_muted`; it is not stored in the notes column.
    notes: dict[str, Any] = field(default_factory=dict)
    version: int = 0
    created_at: str = ""
    updated_at: str = ""

    @property
    def active(self) -> bool:
        return self.status in ACTIVE_STATUSES

    def member(self, user_id: int) -> CrewMember | None:
        return next((m for m in self.crew if m.user_id == user_id), None)


def fingerprint(record: FlightRecord) -> str:
    """Everything a save would write, as one string: tells `update_flight` whether `change` changed
    anything (version and timestamps excluded, they change on every save).  JSON rather than
    `asdict`, which deep-copies the whole engine state twice per click."""
    fields = {k: v for k, v in vars(record).items() if k not in ("version", "updated_at")}
    return json.dumps(fields, sort_keys=True, default=_plain)


def _plain(value: object) -> Any:
    return vars(value) if hasattr(value, "__dict__") else str(value)


# -- rows ---------------------------------------------------------------------------------------------
FLIGHT_COLUMNS: tuple[str, ...] = (
    "id",
    "guild_id",
    "channel_id",
    "host_id",
    "status",
    "language",
    "voice",
    "time_scale",
    "options",
    "crew",
    "state",
    "started_at",
    "lobby_message_id",
    "deck_message_id",
    "notes",
    "version",
    "created_at",
    "updated_at",
)

# notes keys that live in tables of their own and are filled in on load
DERIVED_NOTES: tuple[str, ...] = ("muted",)

_COLS = ", ".join(FLIGHT_COLUMNS)
_ACTIVE = ", ".join(f"'{s}'" for s in ACTIVE_STATUSES)

# A correlated expression per backend: the muted ids of `flights.id` as JSON array text, in muting
# order (SQLite's json_group_array keeps the order of the ordered subquery it reads).
MUTED_JSON: dict[str, str] = {
    "sqlite": "(SELECT json_group_array(user_id) FROM"
    " (SELECT user_id FROM flight_muted m WHERE m.flight_id = flights.id ORDER BY seq))",
    "postgres": "(SELECT COALESCE(json_agg(m.user_id ORDER BY m.seq), '[]'::json)::text"
    " FROM flight_muted m WHERE m.flight_id = flights.id)",
}


def select_flight(on: object) -> str:
    """`SELECT <columns>, <muted> FROM flights` in the SQL of the backend behind `on` (a storage or
    one of its transactions)."""
    return f"SELECT {_COLS}, {MUTED_JSON[backend(on)]} FROM flights"


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


def flight_from_row(row: Sequence[Any], muted: list[int] | None = None) -> FlightRecord:
    data = dict(zip(FLIGHT_COLUMNS, row, strict=True))
    notes = _json(data["notes"]) or {}
    notes["muted"] = list(muted or [])
    state = data["state"]
    return FlightRecord(
        id=data["id"],
        guild_id=int(data["guild_id"]),
        channel_id=int(data["channel_id"]),
        host_id=int(data["host_id"]),
        status=data["status"],
        language=data["language"],
        voice=bool(data["voice"]),
        time_scale=float(data["time_scale"]),
        options=_json(data["options"]),
        crew=[CrewMember.from_dict(m) for m in _json(data["crew"])],
        state=_json(state) if state else None,
        started_at=data["started_at"],
        lobby_message_id=data["lobby_message_id"],
        deck_message_id=data["deck_message_id"],
        notes=notes,
        version=int(data["version"]),
        created_at=str(data["created_at"]),
        updated_at=str(data["updated_at"]),
    )


def flight_of_row(row: Sequence[Any]) -> FlightRecord:
    """A record from a `select_flight` row (the columns, then the muted ids as JSON text)."""
    *columns, muted = row
    return flight_from_row(columns, json.loads(muted) if muted else [])


def flight_params(r: FlightRecord, *, version: int, updated_at: str, created_at: str) -> tuple[Any, ...]:
    """The values of FLIGHT_COLUMNS for `r` (JSON as text), with the version and times to write."""
    notes = {k: v for k, v in r.notes.items() if k not in DERIVED_NOTES}
    return (
        r.id,
        r.guild_id,
        r.channel_id,
        r.host_id,
        r.status,
        r.language,
        bool(r.voice),
        r.time_scale,
        json.dumps(r.options),
        json.dumps([m.to_dict() for m in r.crew]),
        json.dumps(r.state) if r.state is not None else None,
        r.started_at,
        r.lobby_message_id,
        r.deck_message_id,
        json.dumps(notes),
        version,
        created_at,
        updated_at,
    )


def muted_of(record: FlightRecord) -> list[int] | None:
    """The muted ids the record carries in notes (None when it carries none: leave the table)."""
    muted = record.notes.get("muted")
    if muted is None:
        return None
    seen: list[int] = []
    for user_id in muted:
        if int(user_id) not in seen:
            seen.append(int(user_id))
    return seen


def event_from_row(seq: int, at: Any, actor_id: int | None, kind: str, payload: Any) -> dict[str, Any]:
    return {"seq": seq, "at": str(at), "actor_id": actor_id, "kind": kind, "payload": _json(payload)}


# -- inside a unit of work ----------------------------------------------------------------------------
class FlightTransaction:
    """The flight statements of one unit of work (`tx`, from `storage.transaction()`)."""

    def __init__(self, tx: Any) -> None:
        self.tx = tx
        # the muted ids of each flight as this unit of work read or wrote them: a save compares with
        # these instead of asking again (the flight's row lock keeps them current until the end)
        self._muted_seen: dict[str, list[int]] = tx.memo.setdefault("flight_muted", {})

    async def load_flight(self, flight_id: str) -> FlightRecord | None:
        """The flight as this transaction sees it (locked against other writers until commit)."""
        found = await self.tx.rows(f"{select_flight(self.tx)} WHERE id = ?{for_update(self.tx)}", (flight_id,))
        if not found:
            return None
        record = flight_of_row(found[0])
        self._muted_seen[flight_id] = list(record.notes["muted"])
        return record

    async def create_flight(self, record: FlightRecord) -> FlightRecord:
        """Insert a new flight; raises ChannelBusy when the channel already has an active one."""
        stamp = now()
        created = record.created_at or stamp
        try:
            await self.tx.run(
                f"INSERT INTO flights ({_COLS}) VALUES ({', '.join('?' * len(FLIGHT_COLUMNS))})",
                flight_params(record, version=1, updated_at=stamp, created_at=created),
            )
        except unique_violation(self.tx) as exc:
            raise ChannelBusy("this channel already has an active flight") from exc
        await self._sync_muted(record.id, muted_of(record))
        self.tx.undo.assign(record, version=1, created_at=created, updated_at=stamp)
        return record

    async def save_flight(self, record: FlightRecord, event: dict[str, Any] | None = None) -> FlightRecord:
        """Write the record if its version is still current (else StaleWrite); append `event`."""
        expected = record.version
        stamp = now()
        params = flight_params(record, version=expected + 1, updated_at=stamp, created_at=record.created_at)
        sets = ", ".join(f"{c} = ?" for c in FLIGHT_COLUMNS[1:])
        try:
            count = await self.tx.run(
                f"UPDATE flights SET {sets} WHERE id = ? AND version = ?", (*params[1:], record.id, expected)
            )
        except unique_violation(self.tx) as exc:
            raise ChannelBusy("this channel already has an active flight") from exc
        if count != 1:
            raise StaleWrite(f"flight {record.id} changed since it was read")
        await self._sync_muted(record.id, muted_of(record))
        if event is not None:
            await self.add_event(record.id, event)
        self.tx.undo.assign(record, version=expected + 1, updated_at=stamp)
        return record

    async def add_event(self, flight_id: str, event: dict[str, Any]) -> None:
        # seq is safe to compute here: the flight's row was just updated, so no other writer of
        # this flight gets past its own UPDATE until this transaction ends
        await self.tx.run(
            "INSERT INTO flight_events (flight_id, seq, at, actor_id, kind, payload)"
            " VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM flight_events WHERE flight_id = ?), ?, ?, ?, ?)",
            (
                flight_id,
                flight_id,
                now(),
                event.get("actor_id"),
                str(event.get("kind", "?")),
                json.dumps(event.get("payload", {})),
            ),
        )

    async def _muted(self, flight_id: str) -> list[int]:
        found = await self.tx.rows("SELECT user_id FROM flight_muted WHERE flight_id = ? ORDER BY seq", (flight_id,))
        return [int(r[0]) for r in found]

    async def _sync_muted(self, flight_id: str, wanted: list[int] | None) -> None:
        if wanted is None:
            return
        seen = self._muted_seen.get(flight_id)
        if (seen if seen is not None else await self._muted(flight_id)) == wanted:
            return
        self._muted_seen[flight_id] = list(wanted)
        await self.tx.run("DELETE FROM flight_muted WHERE flight_id = ?", (flight_id,))
        if wanted:
            await self.tx.many(
                "INSERT INTO flight_muted (flight_id, user_id, seq) VALUES (?, ?, ?)",
                [(flight_id, u, i) for i, u in enumerate(wanted)],
            )

    async def update_muted(self, flight_id: str, *, add: Iterable[int] = (), remove: Iterable[int] = ()) -> list[int]:
        """Change who the flight has muted (bumps the flight's version); returns the new list."""
        found = await self.tx.rows(f"SELECT version FROM flights WHERE id = ?{for_update(self.tx)}", (flight_id,))
        if not found:
            return []
        before = self._muted_seen[flight_id] = await self._muted(flight_id)
        gone = {int(u) for u in remove}
        after = [u for u in before if u not in gone] + sorted({int(u) for u in add} - set(before))
        if after != before:
            await self.tx.run(
                "UPDATE flights SET version = version + 1, updated_at = ? WHERE id = ?", (now(), flight_id)
            )
            await self._sync_muted(flight_id, after)
        return after


# -- the repository -----------------------------------------------------------------------------------
class Flights:
    """Space Alert's flights over a platform storage (SqliteStorage or PostgresStorage).

    Every write method is its own atomic unit of work, or joins the caller's when it is in one
    (`storage.transaction()` nests in the same task).  A read that decides a write goes through
    `update_flight`, which loads, applies and saves in one transaction and retries on StaleWrite.
    """

    def __init__(self, storage: Any) -> None:
        self.storage = storage

    # -- writes, each a unit of work ---------------------------------------------------------------
    async def create_flight(self, record: FlightRecord) -> FlightRecord:
        """Insert a new flight; raises ChannelBusy when the channel already has an active one."""
        async with self.storage.transaction() as tx:
            return await FlightTransaction(tx).create_flight(record)

    async def save_flight(self, record: FlightRecord, event: dict[str, Any] | None = None) -> FlightRecord:
        """Write the record if its version is still current (else StaleWrite); append `event`.
        On any failure the record is left exactly as it was passed in."""
        async with self.storage.transaction() as tx:
            return await FlightTransaction(tx).save_flight(record, event)

    async def update_flight(self, flight_id: str, change: FlightChange, *, attempts: int = 5) -> FlightRecord | None:
        """Load, apply `change`, save, in one transaction; on StaleWrite reload and re-apply, at
        most `attempts` times.  `change` mutates the record and returns the event to log (or None);
        nothing is written when it returns None and left the record unchanged, and nothing at all
        when it raises.  Returns the stored record, or None when there is no such flight."""
        for _attempt in range(max(1, attempts)):
            try:
                async with self.storage.transaction() as tx:
                    flights = FlightTransaction(tx)
                    record = await flights.load_flight(flight_id)
                    if record is None:
                        return None
                    before = fingerprint(record)
                    event = change(record)
                    if inspect.isawaitable(event):
                        event = await event
                    if event is None and fingerprint(record) == before:
                        return record
                    return await flights.save_flight(record, event)
            except StaleWrite:
                continue  # another writer got there first: reload and re-apply
        raise StaleWrite(f"flight {flight_id} kept changing; gave up after {attempts} attempts")

    async def finish_flight(
        self, record: FlightRecord, entry: LogbookEntry, event: dict[str, Any] | None = None
    ) -> bool:
        """Logbook entry (logbook.py's `add_entry`) + flight status `finished` (+ event) in one
        transaction.  Idempotent: a flight that is no longer active is left alone and no second
        entry is written.  True when this call finished the flight.  The one place a flight
        finishes: the logbook writes the entry, the flights' repository owns the row it locks."""
        previous = record.status
        try:
            async with self.storage.transaction() as tx:
                flights = FlightTransaction(tx)
                current = await flights.load_flight(record.id)
                if current is None or not current.active:
                    return False  # finished (or aborted) already: the first call's entry stands
                entry.flight_id = record.id
                await add_entry(tx, entry)
                record.status = "finished"
                await flights.save_flight(record, event)
                return True
        except BaseException:
            record.status = previous
            raise

    async def update_muted(self, flight_id: str, *, add: Iterable[int] = (), remove: Iterable[int] = ()) -> list[int]:
        """Add and remove muted members in one unit of work; returns the new list."""
        async with self.storage.transaction() as tx:
            return await FlightTransaction(tx).update_muted(flight_id, add=add, remove=remove)

    # -- reads (committed data, or the caller's own transaction) ----------------------------------
    async def load_flight(self, flight_id: str) -> FlightRecord | None:
        found = await self.storage.fetch(f"{select_flight(self.storage)} WHERE id = ?", (flight_id,))
        return flight_of_row(found[0]) if found else None

    async def active_flight_in_channel(self, channel_id: int) -> FlightRecord | None:
        found = await self.storage.fetch(
            f"{select_flight(self.storage)} WHERE channel_id = ? AND status IN ({_ACTIVE})", (channel_id,)
        )
        return flight_of_row(found[0]) if found else None

    async def active_flights(self) -> list[FlightRecord]:
        found = await self.storage.fetch(
            f"{select_flight(self.storage)} WHERE status IN ({_ACTIVE}) ORDER BY created_at"
        )
        return [flight_of_row(r) for r in found]

    async def ended_flights_with_muted_members(self) -> list[FlightRecord]:
        """Flights no longer active that still have members the bot server-muted: the bot
        stopped before their unmute went out, and nobody else will ever unmute them."""
        found = await self.storage.fetch(
            f"{select_flight(self.storage)} WHERE status NOT IN ({_ACTIVE})"
            " AND EXISTS (SELECT 1 FROM flight_muted m WHERE m.flight_id = flights.id) ORDER BY created_at"
        )
        return [flight_of_row(r) for r in found]

    async def muted_members(self, flight_id: str) -> list[int]:
        """User ids the flight has muted (or is about to), in the order they were muted."""
        found = await self.storage.fetch(
            "SELECT user_id FROM flight_muted WHERE flight_id = ? ORDER BY seq", (flight_id,)
        )
        return [int(r[0]) for r in found]

    async def flight_events(self, flight_id: str) -> list[dict[str, Any]]:
        found = await self.storage.fetch(
            "SELECT seq, at, actor_id, kind, payload FROM flight_events WHERE flight_id = ? ORDER BY seq",
            (flight_id,),
        )
        return [event_from_row(*r) for r in found]
