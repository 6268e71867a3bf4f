"""The storage interface the bot talks to, and the plain records that cross it.

Why an interface: SQLite is right for one process on one machine, but a bot that outgrows that
(several shards on several hosts) needs PostgreSQL.  Everything the adapter persists goes through
the groups below (flights, settings, posts, the cluster's leases), so a second backend is one new class, not a
hunt through the cogs.  Records are dataclasses of JSON-able values; no discord or engine objects.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.platform.sessions import SessionStore
from bot.platform.storage.features import FeatureStorage, FeatureTransaction

# What an update function returns: the event to append to the flight's log (or None).
FlightChange = Callable[["FlightRecord"], "dict[str, Any] | Awaitable[dict[str, Any] | None] | None"]

ACTIVE_STATUSES: tuple[str, ...] = ("lobby", "flying")


class StorageError(Exception):
    """Base class for storage failures the bot reports to users instead of crashing."""


class DatabaseUnavailable(StorageError):
    """The database cannot be opened or written at start-up (not a database, read-only, full...).

    The message is one line for the operator; `python -m bot` prints it and exits with code 3.
    """


class MigrationError(StorageError):
    """A migration file failed (or none were found); the bot must not start half-migrated."""


class SchemaTooNew(MigrationError):
    """The database was migrated by a newer bot: running an older one on it would corrupt it."""


class StaleWrite(StorageError):
    """The row changed since it was read (another writer); the caller should reload and retry."""


class ChannelBusy(StorageError):
    """The channel already has an active (lobby or flying) flight."""


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


class Transaction(FeatureTransaction, Protocol):
    """The writes (and the reads that decide them) of one unit of work, on one backend transaction.

    Obtained from `Storage.transaction()`; everything done through it commits together when the
    `async with` block ends, or not at all if the block raises.  Records passed in are updated
    (version, ids) only when the transaction commits: a failed unit of work leaves them as they
    were.  Never talk to Discord inside a transaction: it holds the database's write lock.
    """

    # -- the SQL core, for a game's repository over its own tables (`?` placeholders) -----------
    async def rows(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        """Run one statement in this unit of work; its rows."""
        ...

    async def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        """Run one statement in this unit of work; the number of rows it changed."""
        ...

    async def load_flight(self, flight_id: str) -> FlightRecord | None:
        """The flight as this transaction sees it (locked against other writers until commit)."""

    async def create_flight(self, record: FlightRecord) -> FlightRecord:
        """Insert a new flight; raises ChannelBusy when the channel already has an active one."""

    async def save_flight(self, record: FlightRecord, event: dict[str, Any] | None = None) -> FlightRecord:
        """Write the record if its version is still current (else StaleWrite); append `event`."""

    async def update_muted(self, flight_id: str, *, add: Iterable[int] = (), remove: Iterable[int] = ()) -> list[int]:
        """Change who the flight has muted (bumps the flight's version); returns the new list."""

    async def set_setting(self, guild_id: int, key: str, value: Any) -> None: ...

    async def store_posts(self, flight_id: str, payloads: list[dict[str, Any]]) -> None: ...

    async def update_post(self, post_id: int, payload: dict[str, Any]) -> None: ...

    async def delete_post(self, post_id: int) -> None: ...

    async def stage_post(self, flight_id: str, payload: dict[str, Any]) -> int:
        """One outbox row, in the caller's unit of work when it is in one (so the posts a change
        makes due commit with it); its id."""
        ...


class Storage(FeatureStorage, SessionStore, Protocol):
    """The one persistence interface of the bot.

    Every write method is its own atomic unit of work (commits whole or leaves nothing, and never
    undoes another caller's write).  Several writes that belong together go in one
    `async with storage.transaction() as tx:`; a read that decides a write goes through
    `update_flight`, which loads, applies and saves in one transaction and retries on StaleWrite.
    """

    async def open(self) -> None:
        """Connect and apply pending migrations (raises DatabaseUnavailable, MigrationError)."""

    async def close(self) -> None: ...

    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        """One unit of work.  Nested use in the same task joins the outer transaction."""
        ...

    async def fetch(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        """The SQL core's read, for a game's repository over its own tables: one statement in
        `?` placeholders, the same text on both backends; committed data, or the caller's own
        transaction when it is in one."""
        ...

    # -- flights ---------------------------------------------------------------------------
    async def create_flight(self, record: FlightRecord) -> FlightRecord:
        """Insert a new flight; raises ChannelBusy when the channel already has an active one."""

    async def load_flight(self, flight_id: str) -> FlightRecord | None: ...

    async def save_flight(self, record: FlightRecord, event: dict[str, Any] | None = None) -> FlightRecord:
        """Write the record if its version is still current (else StaleWrite); append `event`.
        On any failure the record is left exactly as it was passed in."""

    async def update_flight(self, flight_id: str, change: FlightChange, *, attempts: int = 5) -> FlightRecord | None:
        """Load, apply `change`, save, in one transaction; on StaleWrite reload and re-apply, at
        most `attempts` times.  `change` mutates the record and returns the event to log (or None);
        nothing is written when it returns None and left the record unchanged, and nothing at all
        when it raises.  Returns the stored record, or None when there is no such flight."""

    async def active_flight_in_channel(self, channel_id: int) -> FlightRecord | None: ...

    async def active_flights(self) -> list[FlightRecord]: ...

    async def ended_flights_with_muted_members(self) -> list[FlightRecord]:
        """Flights no longer active that still have members the bot server-muted: the bot
        stopped before their unmute went out, and nobody else will ever unmute them."""
        ...

    async def muted_members(self, flight_id: str) -> list[int]:
        """User ids the flight has muted (or is about to), in the order they were muted."""
        ...

    async def update_muted(self, flight_id: str, *, add: Iterable[int] = (), remove: Iterable[int] = ()) -> list[int]:
        """Add and remove muted members in one unit of work; returns the new list."""
        ...

    async def flight_events(self, flight_id: str) -> list[dict[str, Any]]: ...

    # -- settings (custom missions are Space Alert's: bot/games/space_alert/storage.py) ----------
    async def get_setting(self, guild_id: int, key: str) -> Any | None: ...

    async def set_setting(self, guild_id: int, key: str, value: Any) -> None: ...

    # -- posts left unsent at shutdown ---------------------------------------------------------
    async def store_posts(self, flight_id: str, payloads: list[dict[str, Any]]) -> None:
        """Append unsent posts of a flight, in sending order."""

    async def update_post(self, post_id: int, payload: dict[str, Any]) -> None:
        """Replace what is left of a stored post (a result half sent before a second shutdown)."""

    async def pending_posts(self) -> list[tuple[int, str, dict[str, Any]]]:
        """(post id, flight id, payload) of every stored post, in sending order."""
        ...

    async def delete_post(self, post_id: int) -> None:
        """Forget a stored post once it has been sent (or given up)."""

    async def stage_post(self, flight_id: str, payload: dict[str, Any]) -> int:
        """One outbox row written in the caller's unit of work (the posts a committed change made
        due, sent after the commit and deleted once sent); its id."""
        ...

    # -- several processes over one database (bot/platform/cluster.py) ----------------------------------------
    async def acquire_lease(self, name: str, holder: str, *, now: float, ttl: float) -> bool:
        """Take the lease `name` for `holder` until `now + ttl`, or renew it if `holder` has it.
        False when another holder's lease has not expired yet (nothing is changed then)."""
        ...

    async def renew_leases(self, names: Iterable[str], holder: str, *, now: float, ttl: float) -> set[str]:
        """Renew the leases `holder` still has among `names`, in one go; the names it still has."""
        ...

    async def release_lease(self, name: str, holder: str) -> bool:
        """Give the lease up (only its holder can); True when it was held."""
        ...

    async def release_leases(self, holder: str) -> int:
        """Give up every lease of `holder` (a clean shutdown); how many there were."""
        ...

    async def lease_holder(self, name: str, *, now: float) -> str | None:
        """Who holds `name` at `now` (None when free or expired)."""
        ...

    async def reserve_identify(self, bucket: int, *, now: float, spacing: float) -> float:
        """Book the next IDENTIFY slot of a rate-limit bucket, at least `spacing` s after the one
        booked before it (by any process); the seconds to wait until that slot."""
        ...

    async def get_cluster_value(self, key: str) -> str | None: ...

    async def set_cluster_value(self, key: str, value: str) -> None: ...


class UnitsOfWork:
    """The backend-neutral half of `Storage`: every one-shot write as a transaction of its own,
    and `update_flight`'s retry loop.  A backend supplies `transaction()` and the
    reads; this mixin makes sure no write ever runs outside a transaction."""

    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        raise NotImplementedError

    async def create_flight(self, record: FlightRecord) -> FlightRecord:
        async with self.transaction() as tx:
            return await tx.create_flight(record)

    async def save_flight(self, record: FlightRecord, event: dict[str, Any] | None = None) -> FlightRecord:
        async with self.transaction() as tx:
            return await tx.save_flight(record, event)

    async def update_flight(self, flight_id: str, change: FlightChange, *, attempts: int = 5) -> FlightRecord | None:
        for _attempt in range(max(1, attempts)):
            try:
                async with self.transaction() as tx:
                    record = await tx.load_flight(flight_id)
                    if record is None:
                        return None
                    before = fingerprint(record)
                    event = change(record)
                    if inspect.isawaitable(event):
                        event = await event
                    if event is None and fingerprint(record) == before:
                        return record
                    return await tx.save_flight(record, event)
            except StaleWrite:
                continue  # another writer got there first: reload and re-apply
        raise StaleWrite(f"flight {flight_id} kept changing; gave up after {attempts} attempts")

    async def update_muted(self, flight_id: str, *, add: Iterable[int] = (), remove: Iterable[int] = ()) -> list[int]:
        async with self.transaction() as tx:
            return await tx.update_muted(flight_id, add=add, remove=remove)

    async def set_setting(self, guild_id: int, key: str, value: Any) -> None:
        async with self.transaction() as tx:
            await tx.set_setting(guild_id, key, value)

    async def store_posts(self, flight_id: str, payloads: list[dict[str, Any]]) -> None:
        async with self.transaction() as tx:
            await tx.store_posts(flight_id, payloads)

    async def update_post(self, post_id: int, payload: dict[str, Any]) -> None:
        async with self.transaction() as tx:
            await tx.update_post(post_id, payload)

    async def delete_post(self, post_id: int) -> None:
        async with self.transaction() as tx:
            await tx.delete_post(post_id)

    async def stage_post(self, flight_id: str, payload: dict[str, Any]) -> int:
        async with self.transaction() as tx:
            post_id: int = await tx.stage_post(flight_id, payload)
            return post_id


def fingerprint(record: FlightRecord) -> str:
    """Everything a save would write, as one string: tells `update_flight` whether `change` changed
    anything (version and timestamps excluded, they change on every save).  JSON rather than
    `asdict`, which deep-copies the whole engine state twice per click."""
    fields = {k: v for k, v in vars(record).items() if k not in ("version", "updated_at")}
    return json.dumps(fields, sort_keys=True, default=_plain)


def _plain(value: object) -> Any:
    return vars(value) if hasattr(value, "__dict__") else str(value)


class Undo:
    """What a transaction changed on the caller's objects, put back if it rolls back."""

    def __init__(self) -> None:
        self._steps: list[Callable[[], None]] = []

    def assign(self, obj: object, **values: Any) -> None:
        """Set attributes on `obj`, remembering the old values for `run`."""
        saved = {name: getattr(obj, name) for name in values}
        for name, value in values.items():
            setattr(obj, name, value)

        def restore() -> None:
            for name, value in saved.items():
                setattr(obj, name, value)

        self._steps.append(restore)

    def run(self) -> None:
        for step in reversed(self._steps):
            step()
        self._steps.clear()

    def forget(self) -> None:
        self._steps.clear()
