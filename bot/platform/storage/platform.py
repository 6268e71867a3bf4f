"""What the platform's other features keep (issues 14 and 16): server settings and scheduled
flights; and the unit-of-work loop every game's document goes through.  (Games keep their own
tables: ELITE's in bot/games/elite/storage.py, the flight school's in
bot/games/space_alert/storage.py, the campaigns' in bot/games/space_alert/campaign/storage.py,
the careers' reads in bot/games/space_alert/stats/storage.py.)

A section of its own, mixed into the shared SQL (`PlatformWrites` into `SqlTransaction`,
`PlatformReads` into `SqlStorage`), so both backends get it from one SQL text and the flight
tables stay untouched.  Records are plain dataclasses of JSON-able values, like the rest of the
interface; the cogs turn them into engine objects.  Tables: migrations sqlite/0005-0006,
postgres/0003-0004.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.platform.storage.base import StaleWrite, Undo


@dataclass
class ScheduleRecord:
    """One row of `schedules` (/mission schedule)."""

    guild_id: int
    channel_id: int
    host_id: int
    at: float  # unix time the lobby opens
    mission: str
    campaign: bool = False
    reminded: bool = False
    done: bool = False
    options: dict[str, Any] = field(default_factory=dict)
    id: int | None = None
    # what the claimed row still owes its channel (issue 25): "remind" / "drop" / "open", None:
    # nothing; since when (unix time of the claim); the message its post became, once known
    owed: str | None = None
    owed_at: float | None = None
    posted_message_id: int | None = None
    # not stored: this process is finishing a row an earlier attempt (maybe a dead process) began,
    # so a game's opening may find its lobby or vote already open and then says nothing
    retry: bool = False


_SCHEDULE_COLUMNS = (
    "id, guild_id, channel_id, host_id, at, mission, campaign, reminded, done, options,"
    " owed, owed_at, posted_message_id"
)


def _doc(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


def _schedule_of(row: Sequence[Any]) -> ScheduleRecord:
    return ScheduleRecord(
        id=int(row[0]),
        guild_id=int(row[1]),
        channel_id=int(row[2]),
        host_id=int(row[3]),
        at=float(row[4]),
        mission=row[5],
        campaign=bool(row[6]),
        reminded=bool(row[7]),
        done=bool(row[8]),
        options=_doc(row[9]) or {},
        owed=None if row[10] is None else str(row[10]),
        owed_at=None if row[11] is None else float(row[11]),
        posted_message_id=None if row[12] is None else int(row[12]),
    )


def for_update(tx: object) -> str:
    """` FOR UPDATE` on PostgreSQL (SQLite's BEGIN IMMEDIATE already holds the write lock): what a
    game's repository appends to the read that decides its write."""
    return str(getattr(getattr(tx, "dialect", None), "for_update", ""))


_for_update = for_update  # the name storage/sessions.py imports


def backend(on: object) -> str:
    """Which SQL backend a storage (or one of its transactions) runs on: "sqlite" or "postgres".
    A game's repository picks its few backend-specific statements by it."""
    return str(getattr(getattr(on, "dialect", None), "name", "sqlite"))


def unique_violation(tx: object) -> tuple[type[BaseException], ...]:
    """The backend's exception for a violated UNIQUE constraint (a game's repository turns it into
    ChannelBusy, StaleWrite, ...)."""
    found: tuple[type[BaseException], ...] = getattr(getattr(tx, "dialect", None), "unique_violation", ())
    return found


R = TypeVar("R")


async def unit_of_work(
    storage: Any,
    load: Callable[[Any], Awaitable[R | None]],
    change: Callable[[R], bool],
    save: Callable[[Any, R], Awaitable[None]],
    *,
    attempts: int = 5,
    what: str = "document",
) -> R | None:
    """Load a game's document, apply a pure `change`, save it with a version check, in one
    transaction; on StaleWrite (another writer got there first) all of it again on a fresh load.
    `change` returns False when it changed nothing (then nothing is written).  The record after
    it, None when there is none; StaleWrite only when every attempt met a newer version."""
    for _attempt in range(max(1, attempts)):
        try:
            async with storage.transaction() as tx:
                record = await load(tx)
                if record is None:
                    return None
                if change(record):
                    await save(tx, record)
                return record
        except StaleWrite:
            continue
    raise StaleWrite(f"{what} kept changing; gave up after {attempts} attempts")


class PlatformWrites:
    """The writes, run inside a unit of work (`SqlTransaction` provides the statements)."""

    undo: Undo

    async def rows(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        raise NotImplementedError

    async def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        raise NotImplementedError

    async def many(self, sql: str, params: list[tuple[Any, ...]]) -> None:
        raise NotImplementedError

    # -- schedules ----------------------------------------------------------------------------------
    async def add_schedule(self, record: ScheduleRecord) -> int:
        found = await self.rows(
            "INSERT INTO schedules (guild_id, channel_id, host_id, at, mission, campaign, reminded, done, options)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (
                record.guild_id,
                record.channel_id,
                record.host_id,
                float(record.at),
                record.mission,
                int(record.campaign),
                int(record.reminded),
                int(record.done),
                json.dumps(record.options),
            ),
        )
        record.id = int(found[0][0])
        return record.id

    async def mark_schedule(
        self,
        schedule_id: int,
        *,
        reminded: bool,
        done: bool,
        was_reminded: bool | None = None,
        owed: str | None = None,
        owed_at: float | None = None,
    ) -> bool:
        """Record that the reminder went out / the lobby opened (or the row was dropped).  With
        `was_reminded` it is a claim: only a row still open and in that state changes, so of
        several processes acting on one row exactly one gets True.  With `owed` the same statement
        records what the claim now owes the channel (sent after the commit, `settle_schedule`)."""
        sql = "UPDATE schedules SET reminded = ?, done = ?"
        params: tuple[Any, ...] = (int(reminded), int(done))
        if owed is not None:
            sql += ", owed = ?, owed_at = ?, posted_message_id = NULL"
            params += (owed, None if owed_at is None else float(owed_at))
        sql += " WHERE id = ?"
        params += (schedule_id,)
        if was_reminded is not None:
            sql += " AND done = 0 AND reminded = ?"
            params += (int(was_reminded),)
        count = await self.run(sql, params)
        return count > 0

    async def note_schedule_post(self, schedule_id: int, message_id: int) -> None:
        """The message an owed post became (sent, or found in the channel): never sent again."""
        await self.run("UPDATE schedules SET posted_message_id = ? WHERE id = ?", (int(message_id), schedule_id))

    async def settle_schedule(self, schedule_id: int, owed: str) -> bool:
        """The row owes nothing any more (its post is out, its opening done, or given up); only
        when it still owes `owed` (a newer claim's debt is not cleared by an older one's end)."""
        count = await self.run("UPDATE schedules SET owed = NULL WHERE id = ? AND owed = ?", (schedule_id, owed))
        return count > 0


class PlatformReads:
    """The reads, and each write above as a unit of work of its own (for `SqlStorage`)."""

    async def _fetch(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        raise NotImplementedError

    def transaction(self) -> AbstractAsyncContextManager[Any]:
        raise NotImplementedError

    # -- server settings ---------------------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """Every stored setting of a server in one read (the flight start reads them all)."""
        found = await self._fetch("SELECT key, value FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return {str(k): _doc(v) for k, v in found}

    # -- schedules ----------------------------------------------------------------------------------
    async def pending_schedules(self, guild_id: int | None = None) -> list[ScheduleRecord]:
        """Schedules not yet done (index schedules_due), soonest first; one server's or all."""
        where, params = ("done = 0", []) if guild_id is None else ("done = 0 AND guild_id = ?", [guild_id])
        found = await self._fetch(f"SELECT {_SCHEDULE_COLUMNS} FROM schedules WHERE {where} ORDER BY at, id", params)
        return [_schedule_of(r) for r in found]

    async def owed_schedules(self) -> list[ScheduleRecord]:
        """Rows claimed whose post or opening is not confirmed done (index schedules_owed), by id."""
        found = await self._fetch(f"SELECT {_SCHEDULE_COLUMNS} FROM schedules WHERE owed IS NOT NULL ORDER BY id")
        return [_schedule_of(r) for r in found]

    async def add_schedule(self, record: ScheduleRecord) -> int:
        async with self.transaction() as tx:
            schedule_id: int = await tx.add_schedule(record)
            return schedule_id

    async def mark_schedule(
        self,
        schedule_id: int,
        *,
        reminded: bool,
        done: bool,
        was_reminded: bool | None = None,
        owed: str | None = None,
        owed_at: float | None = None,
    ) -> bool:
        async with self.transaction() as tx:
            changed: bool = await tx.mark_schedule(
                schedule_id, reminded=reminded, done=done, was_reminded=was_reminded, owed=owed, owed_at=owed_at
            )
            return changed

    async def note_schedule_post(self, schedule_id: int, message_id: int) -> None:
        async with self.transaction() as tx:
            await tx.note_schedule_post(schedule_id, message_id)

    async def settle_schedule(self, schedule_id: int, owed: str) -> bool:
        async with self.transaction() as tx:
            settled: bool = await tx.settle_schedule(schedule_id, owed)
            return settled
