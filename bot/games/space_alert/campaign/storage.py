"""The campaigns' tables (`campaigns`, `campaign_crew`), read and written by the game over the
platform's SQL core on both backends (migrations sqlite/0005-0006, postgres/0003-0004).

Why here: the platform's storage protocols no longer name a game's tables (issue 23); they supply
the transaction (`storage.transaction()` with `rows`/`run`/`many`), the reads (`storage.fetch`)
and the `unit_of_work` loop, and the campaign keeps its statements, as the flight school does in
../storage.py.  While a campaign runs its row's `state` is the cog's session document; it is only
changed through `Campaigns.change` (load locked, pure change, save with a version check, retry).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.platform.storage.base import ChannelBusy, StaleWrite
from bot.platform.storage.platform import for_update, unique_violation, unit_of_work
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


_COLUMNS = "id, guild_id, channel_id, status, state, missions, total, destroyed_by, started_at, finished_at, version"
_CREW = (
    "SELECT campaign_id, user_id, name FROM campaign_crew WHERE campaign_id IN ({marks}) ORDER BY campaign_id, position"
)


def _doc(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


def _record(row: Sequence[Any], crew: list[tuple[int | None, str]]) -> CampaignRecord:
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


async def load_running_campaign(tx: Any, channel_id: int) -> CampaignRecord | None:
    """The channel's running campaign as this unit of work sees it (locked for its writes)."""
    found = await tx.rows(
        f"SELECT {_COLUMNS} FROM campaigns WHERE channel_id = ? AND status = 'running'{for_update(tx)}",
        (channel_id,),
    )
    if not found:
        return None
    crew = await tx.rows(
        "SELECT user_id, name FROM campaign_crew WHERE campaign_id = ? ORDER BY position", (found[0][0],)
    )
    return _record(found[0], [(int(u) if u is not None else None, str(n)) for u, n in crew])


async def save_campaign(tx: Any, record: CampaignRecord) -> CampaignRecord:
    """Store the campaign inside the unit of work `tx`: a new one (version 0) is inserted
    (ChannelBusy when another campaign already runs in the channel, or this one was stored
    already); a stored one is written only if its version is still current (else StaleWrite).
    Its crew rows are rewritten when `record.crew` is given."""
    record.started_at = record.started_at or now()
    if record.status != "running" and record.finished_at is None:
        record.finished_at = now()
    state = json.dumps(record.state, ensure_ascii=False)
    expected = record.version
    try:
        if expected == 0:
            await tx.run(
                f"INSERT INTO campaigns ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
            count = await tx.run(
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
    except unique_violation(tx) as exc:
        raise ChannelBusy("this channel already has a running campaign") from exc
    if record.crew:
        await tx.run("DELETE FROM campaign_crew WHERE campaign_id = ?", (record.id,))
        await tx.many(
            "INSERT INTO campaign_crew (campaign_id, position, user_id, name) VALUES (?, ?, ?, ?)",
            [(record.id, i, uid, name) for i, (uid, name) in enumerate(record.crew)],
        )
    tx.undo.assign(record, version=expected + 1)  # put back if the transaction rolls back
    return record


class Campaigns:
    """The campaigns, over a platform storage (the bot's, or the web's read-only `WebStore`)."""

    def __init__(self, storage: Any) -> None:
        self.storage = storage

    async def _with_crews(self, found: list[Sequence[Any]]) -> list[CampaignRecord]:
        ids = [r[0] for r in found]
        crews: dict[str, list[tuple[int | None, str]]] = {i: [] for i in ids}
        if ids:
            marks = ", ".join("?" * len(ids))
            for cid, uid, name in await self.storage.fetch(_CREW.format(marks=marks), ids):
                crews[cid].append((int(uid) if uid is not None else None, str(name)))
        return [_record(r, crews[r[0]]) for r in found]

    async def _where(self, where: str, params: Sequence[Any]) -> list[CampaignRecord]:
        found = await self.storage.fetch(f"SELECT {_COLUMNS} FROM campaigns WHERE {where} ORDER BY started_at", params)
        return await self._with_crews(found)

    async def campaign(self, campaign_id: str) -> CampaignRecord | None:
        found = await self._where("id = ?", (campaign_id,))
        return found[0] if found else None

    async def running(self, channel_id: int) -> CampaignRecord | None:
        """The channel's running campaign (a plain read: decide nothing from it; use `change`)."""
        found = await self._where("channel_id = ? AND status = 'running'", (channel_id,))
        return found[0] if found else None

    async def latest(self, channel_id: int) -> CampaignRecord | None:
        """The channel's running campaign, else the one that ended last (for /campaign status)."""
        found = await self._where("channel_id = ?", (channel_id,))
        running = [c for c in found if c.status == "running"]
        chosen = running or found
        return chosen[-1] if chosen else None

    async def all_running(self) -> list[CampaignRecord]:
        """Every running campaign (the cog's resume after a restart)."""
        return await self._where("status = 'running'", ())

    async def ended_on_server(self, guild_id: int, *, limit: int = 10) -> list[CampaignRecord]:
        """A server's campaigns that are over, best finished first, then the newest ended (the
        web's server page; it has checked the server is public; `state` is left out)."""
        found = await self.storage.fetch(
            "SELECT id, guild_id, channel_id, status, '{}', missions, total, destroyed_by, started_at, finished_at,"
            " version FROM campaigns WHERE guild_id = ? AND status != 'running'"
            " ORDER BY total IS NULL, total DESC, started_at DESC, id LIMIT ?",
            [guild_id, limit],
        )
        return await self._with_crews(found)

    async def save(self, record: CampaignRecord) -> CampaignRecord:
        """`save_campaign` as a unit of work of its own (starting a campaign)."""
        async with self.storage.transaction() as tx:
            return await save_campaign(tx, record)

    async def change(
        self, channel_id: int, change: Callable[[CampaignRecord], bool], *, attempts: int = 5
    ) -> CampaignRecord | None:
        """The channel's running campaign through one unit of work: load it, apply `change` (pure:
        it may run again; True when it changed the record), save it with a version check, and on
        StaleWrite do it all again on a fresh load.  None when no campaign runs there."""

        async def load(tx: Any) -> CampaignRecord | None:
            return await load_running_campaign(tx, channel_id)

        async def save(tx: Any, record: CampaignRecord) -> None:
            await save_campaign(tx, record)

        return await unit_of_work(self.storage, load, change, save, attempts=attempts, what=f"campaign in {channel_id}")
