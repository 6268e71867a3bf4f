"""What the platform's other features keep (issues 14 and 16): campaign sessions and scheduled
flights; and the unit-of-work loop every game's document goes through.  (Games keep their own
tables: ELITE's in bot/games/elite/storage.py, the flight school's in
bot/games/space_alert/storage.py, the careers' reads in bot/games/space_alert/stats/storage.py.)

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

from bot.platform.storage.base import ChannelBusy, LogbookEntry, StaleWrite, Undo
from bot.platform.storage.rows import now


@dataclass
class CampaignRecord:
    """One row of `campaigns`: while running, `state` is the cog's session document; once over,
    the status says how it ended and `total` (finished only) feeds the campaign leaderboard."""

    id: str
    guild_id: int
    channel_id: int
    state: dict[str, Any]
    status: str = "running"  # running | finished | lost | abandoned
    missions: int = 0
    total: int | None = None
    destroyed_by: str | None = None
    crew: list[tuple[int | None, str]] = field(default_factory=list)  # (user id, name), in seat order
    started_at: str = ""
    finished_at: str | None = None
    version: int = 0  # 0: not stored yet; a save of a stored one checks it (StaleWrite)


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


_CAMPAIGN_COLUMNS = (
    "id, guild_id, channel_id, status, state, missions, total, destroyed_by, started_at, finished_at, version"
)
_SCHEDULE_COLUMNS = "id, guild_id, channel_id, host_id, at, mission, campaign, reminded, done, options"


def _doc(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


def _campaign_of(row: Sequence[Any], crew: list[tuple[int | None, str]]) -> CampaignRecord:
    return CampaignRecord(
        id=row[0],
        guild_id=int(row[1]),
        channel_id=int(row[2]),
        status=row[3],
        state=_doc(row[4]),
        missions=int(row[5]),
        total=row[6],
        destroyed_by=row[7],
        started_at=str(row[8]),
        finished_at=row[9],
        version=int(row[10]),
        crew=crew,
    )


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
    )


def for_update(tx: object) -> str:
    """` FOR UPDATE` on PostgreSQL (SQLite's BEGIN IMMEDIATE already holds the write lock): what a
    game's repository appends to the read that decides its write."""
    return str(getattr(getattr(tx, "dialect", None), "for_update", ""))


_for_update = for_update  # the name storage/sessions.py imports


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

    async def add_logbook_entry(self, entry: LogbookEntry) -> int:
        raise NotImplementedError

    # -- campaigns ------------------------------------------------------------------------------
    async def save_campaign(self, record: CampaignRecord) -> CampaignRecord:
        """Store the campaign: a new one (version 0) is inserted (ChannelBusy when another campaign
        already runs in the channel, or this one was stored already); a stored one is written
        only if its version is still current (else StaleWrite).  Its crew rows are rewritten when
        `record.crew` is given."""
        record.started_at = record.started_at or now()
        if record.status != "running" and record.finished_at is None:
            record.finished_at = now()
        state = json.dumps(record.state, ensure_ascii=False)
        busy: tuple[type[BaseException], ...] = getattr(getattr(self, "dialect", None), "unique_violation", ())
        expected = record.version
        try:
            if expected == 0:
                await self.run(
                    f"INSERT INTO campaigns ({_CAMPAIGN_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        record.id,
                        record.guild_id,
                        record.channel_id,
                        record.status,
                        state,
                        record.missions,
                        record.total,
                        record.destroyed_by,
                        record.started_at,
                        record.finished_at,
                        1,
                    ),
                )
            else:
                count = await self.run(
                    "UPDATE campaigns SET status = ?, state = ?, missions = ?, total = ?, destroyed_by = ?,"
                    " finished_at = ?, version = ? WHERE id = ? AND version = ?",
                    (
                        record.status,
                        state,
                        record.missions,
                        record.total,
                        record.destroyed_by,
                        record.finished_at,
                        expected + 1,
                        record.id,
                        expected,
                    ),
                )
                if count != 1:
                    raise StaleWrite(f"campaign {record.id} changed since it was read")
        except busy as exc:
            raise ChannelBusy("this channel already has a running campaign") from exc
        if record.crew:
            await self.run("DELETE FROM campaign_crew WHERE campaign_id = ?", (record.id,))
            await self.many(
                "INSERT INTO campaign_crew (campaign_id, position, user_id, name) VALUES (?, ?, ?, ?)",
                [(record.id, i, uid, name) for i, (uid, name) in enumerate(record.crew)],
            )
        self.undo.assign(record, version=expected + 1)  # put back if the transaction rolls back
        return record

    async def load_running_campaign(self, channel_id: int) -> CampaignRecord | None:
        """The channel's running campaign as this unit of work sees it (locked for its writes)."""
        found = await self.rows(
            f"SELECT {_CAMPAIGN_COLUMNS} FROM campaigns WHERE channel_id = ? AND status = 'running'{for_update(self)}",
            (channel_id,),
        )
        if not found:
            return None
        crew = await self.rows(
            "SELECT user_id, name FROM campaign_crew WHERE campaign_id = ? ORDER BY position", (found[0][0],)
        )
        return _campaign_of(found[0], [(int(u) if u is not None else None, str(n)) for u, n in crew])

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
        self, schedule_id: int, *, reminded: bool, done: bool, was_reminded: bool | None = None
    ) -> bool:
        """Record that the reminder went out / the lobby opened (or the row was dropped).  With
        `was_reminded` it is a claim: only a row still open and in that state changes, so of
        several processes acting on one row exactly one gets True."""
        sql = "UPDATE schedules SET reminded = ?, done = ? WHERE id = ?"
        params: tuple[Any, ...] = (int(reminded), int(done), schedule_id)
        if was_reminded is not None:
            sql += " AND done = 0 AND reminded = ?"
            params += (int(was_reminded),)
        count = await self.run(sql, params)
        return count > 0


class PlatformReads:
    """The reads, and each write above as a unit of work of its own (for `SqlStorage`)."""

    async def _fetch(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        raise NotImplementedError

    def transaction(self) -> AbstractAsyncContextManager[Any]:
        raise NotImplementedError

    # -- campaigns ------------------------------------------------------------------------------
    async def _campaigns(self, where: str, params: Iterable[Any]) -> list[CampaignRecord]:
        found = await self._fetch(
            f"SELECT {_CAMPAIGN_COLUMNS} FROM campaigns WHERE {where} ORDER BY started_at", params
        )
        if not found:
            return []
        ids = [r[0] for r in found]
        crews: dict[str, list[tuple[int | None, str]]] = {i: [] for i in ids}
        marks = ", ".join("?" * len(ids))
        for cid, uid, name in await self._fetch(
            f"SELECT campaign_id, user_id, name FROM campaign_crew WHERE campaign_id IN ({marks})"
            " ORDER BY campaign_id, position",
            ids,
        ):
            crews[cid].append((int(uid) if uid is not None else None, name))
        return [_campaign_of(r, crews[r[0]]) for r in found]

    async def campaign(self, campaign_id: str) -> CampaignRecord | None:
        found = await self._campaigns("id = ?", (campaign_id,))
        return found[0] if found else None

    async def running_campaign(self, channel_id: int) -> CampaignRecord | None:
        found = await self._campaigns("channel_id = ? AND status = 'running'", (channel_id,))
        return found[0] if found else None

    async def latest_campaign(self, channel_id: int) -> CampaignRecord | None:
        """The channel's running campaign, else the one that ended last (for /campaign status)."""
        found = await self._campaigns("channel_id = ?", (channel_id,))
        running = [c for c in found if c.status == "running"]
        chosen = running or found
        return chosen[-1] if chosen else None

    async def running_campaigns(self) -> list[CampaignRecord]:
        return await self._campaigns("status = 'running'", ())

    async def change_campaign(
        self, channel_id: int, change: Callable[[CampaignRecord], bool], *, attempts: int = 5
    ) -> CampaignRecord | None:
        """The channel's running campaign through one unit of work: load it, apply `change` (pure:
        it may run again; True when it changed the record), save it with a version check, and on
        StaleWrite do it all again on a fresh load.  None when no campaign runs there."""

        async def load(tx: Any) -> CampaignRecord | None:
            found: CampaignRecord | None = await tx.load_running_campaign(channel_id)
            return found

        async def save(tx: Any, record: CampaignRecord) -> None:
            await tx.save_campaign(record)

        return await unit_of_work(self, load, change, save, attempts=attempts, what=f"campaign in {channel_id}")

    async def save_campaign(self, record: CampaignRecord) -> CampaignRecord:
        async with self.transaction() as tx:
            result: CampaignRecord = await tx.save_campaign(record)
            return result

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

    async def add_schedule(self, record: ScheduleRecord) -> int:
        async with self.transaction() as tx:
            schedule_id: int = await tx.add_schedule(record)
            return schedule_id

    async def mark_schedule(
        self, schedule_id: int, *, reminded: bool, done: bool, was_reminded: bool | None = None
    ) -> bool:
        async with self.transaction() as tx:
            changed: bool = await tx.mark_schedule(schedule_id, reminded=reminded, done=done, was_reminded=was_reminded)
            return changed
