"""The storage interface the bot talks to, and the plain records that cross it.

Why an interface: SQLite is right for one process on one machine, but a bot that outgrows that
(several shards on several hosts) needs PostgreSQL.  Everything the platform persists goes through
it (settings, outbox, leases, sessions and their results), so a second backend is one new class,
not a hunt through the cogs.  It names no game: each game's repository keeps its own tables'
statements over the SQL core below (`transaction()`, `tx.rows/run`, `fetch`); Space Alert's
flights and finished flights are under bot/games/space_alert.  Records are dataclasses of
JSON-able values; no discord or engine objects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol

from bot.platform.sessions import SessionStore
from bot.platform.storage.features import FeatureStorage, FeatureTransaction


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
    """The channel already has an active game (a lobby or a game in progress)."""


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

    async def set_setting(self, guild_id: int, key: str, value: Any) -> None: ...

    async def store_posts(self, key: str, payloads: list[dict[str, Any]]) -> None: ...

    async def update_post(self, post_id: int, payload: dict[str, Any]) -> None: ...

    async def delete_post(self, post_id: int) -> None: ...

    async def stage_post(self, key: str, payload: dict[str, Any]) -> int:
        """One outbox row, in the caller's unit of work when it is in one (so the posts a change
        makes due commit with it); its id."""
        ...


class Storage(FeatureStorage, SessionStore, Protocol):
    """The one persistence interface of the bot.

    Every write method is its own atomic unit of work (commits whole or leaves nothing, and never
    undoes another caller's write).  Several writes that belong together go in one
    `async with storage.transaction() as tx:`; a read that decides a write goes through a game's
    unit of work (`platform.unit_of_work`, or Space Alert's `Flights.update_flight`), which loads,
    applies and saves in one transaction and retries on StaleWrite.
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

    # -- settings (custom missions are Space Alert's: bot/games/space_alert/storage.py) ----------
    async def get_setting(self, guild_id: int, key: str) -> Any | None: ...

    async def set_setting(self, guild_id: int, key: str, value: Any) -> None: ...

    # -- posts left unsent at shutdown (the outbox; `key` is whose posts they are, e.g. a flight id) --
    async def store_posts(self, key: str, payloads: list[dict[str, Any]]) -> None:
        """Append unsent posts of one key, in sending order."""

    async def update_post(self, post_id: int, payload: dict[str, Any]) -> None:
        """Replace what is left of a stored post (a result half sent before a second shutdown)."""

    async def pending_posts(self) -> list[tuple[int, str, dict[str, Any]]]:
        """(post id, key, payload) of every stored post, in sending order."""
        ...

    async def delete_post(self, post_id: int) -> None:
        """Forget a stored post once it has been sent (or given up)."""

    async def stage_post(self, key: str, payload: dict[str, Any]) -> int:
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
    """The backend-neutral half of `Storage`: every one-shot write as a transaction of its own.  A
    backend supplies `transaction()` and the reads; this mixin makes sure no write ever runs
    outside a transaction."""

    def transaction(self) -> AbstractAsyncContextManager[Transaction]:
        raise NotImplementedError

    async def set_setting(self, guild_id: int, key: str, value: Any) -> None:
        async with self.transaction() as tx:
            await tx.set_setting(guild_id, key, value)

    async def store_posts(self, key: str, payloads: list[dict[str, Any]]) -> None:
        async with self.transaction() as tx:
            await tx.store_posts(key, payloads)

    async def update_post(self, post_id: int, payload: dict[str, Any]) -> None:
        async with self.transaction() as tx:
            await tx.update_post(post_id, payload)

    async def delete_post(self, post_id: int) -> None:
        async with self.transaction() as tx:
            await tx.delete_post(post_id)

    async def stage_post(self, key: str, payload: dict[str, Any]) -> int:
        async with self.transaction() as tx:
            post_id: int = await tx.stage_post(key, payload)
            return post_id


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
