"""Space Alert's own tables outside the flight: the flight school's progress and each server's
custom missions, read and written by the game over the platform's SQL core (both backends).

Why here: the platform's storage interface no longer names every feature; it supplies the
transaction (`storage.transaction()`), its reads (`storage.fetch`) and the `unit_of_work` loop,
and each game keeps its tables' statements.  (Careers: stats/storage.py.)  Tables:
`school_progress` (migrations sqlite/0005-0007, postgres/0003-0005): one versioned document per
player, changed only through `School.change`; `custom_missions` (0001): a server's uploaded
timelines, added through `CustomMissions.add`, which checks the server's limits in the same unit of
work as the write.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.platform.storage.base import StaleWrite
from bot.platform.storage.platform import for_update, unique_violation, unit_of_work
from bot.platform.storage.rows import now


@dataclass
class SchoolRecord:
    """One player's flight-school progress (engine.school's document) and its version."""

    user_id: int
    progress: dict[str, Any]
    version: int = 0  # 0: not stored yet


def _doc(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


async def load_school_record(tx: Any, user_id: int) -> SchoolRecord:
    """The player's progress as this unit of work sees it (an empty one, version 0, if none)."""
    found = await tx.rows(
        f"SELECT progress, version FROM school_progress WHERE user_id = ?{for_update(tx)}", (user_id,)
    )
    if not found:
        return SchoolRecord(user_id, {})
    return SchoolRecord(user_id, _doc(found[0][0]) or {}, int(found[0][1]))


async def save_school_record(tx: Any, record: SchoolRecord) -> None:
    """Insert (version 0) or update if the version is current; else StaleWrite."""
    doc = json.dumps(record.progress)
    if record.version == 0:
        try:
            await tx.run(
                "INSERT INTO school_progress (user_id, progress, updated_at, version) VALUES (?, ?, ?, 1)",
                (record.user_id, doc, now()),
            )
        except unique_violation(tx) as exc:  # another writer stored the first progress meanwhile
            raise StaleWrite(f"school progress of {record.user_id} was stored meanwhile") from exc
    else:
        count = await tx.run(
            "UPDATE school_progress SET progress = ?, updated_at = ?, version = ? WHERE user_id = ? AND version = ?",
            (doc, now(), record.version + 1, record.user_id, record.version),
        )
        if count != 1:
            raise StaleWrite(f"school progress of {record.user_id} changed since it was read")
    tx.undo.assign(record, version=record.version + 1)  # put back if the transaction rolls back


# (how many other custom missions the server has) -> the refusal to answer, or None to store it
Refusal = Callable[[int], str | None]


class CustomMissions:
    """A server's custom missions (uploaded timelines), over a platform storage."""

    def __init__(self, storage: Any) -> None:
        self.storage = storage

    async def missions(self, guild_id: int) -> dict[str, dict[str, Any]]:
        """mission id -> {"name", "timeline"}, by id."""
        found = await self.storage.fetch(
            "SELECT mission_id, name, timeline FROM custom_missions WHERE guild_id = ? ORDER BY mission_id",
            (guild_id,),
        )
        return {str(mid): {"name": name, "timeline": _doc(tl)} for mid, name, tl in found}

    async def add(
        self,
        guild_id: int,
        mission_id: str,
        name: str,
        timeline: dict[str, Any],
        created_by: int,
        refuse: Refusal = lambda _existing: None,
    ) -> str | None:
        """Store (or replace) a mission unless `refuse`, given how many *other* missions the server
        has, answers a refusal; the count and the write are one unit of work, so two uploads at
        once cannot both slip under a limit (SQLite holds the write lock; PostgreSQL locks the
        server's rows first, which leaves only a server with no mission yet unguarded).
        Returns the refusal, None when stored."""
        async with self.storage.transaction() as tx:
            found = await tx.rows(
                f"SELECT mission_id FROM custom_missions WHERE guild_id = ?{for_update(tx)}", (guild_id,)
            )
            others = sum(1 for (mid,) in found if mid != mission_id)
            refusal = refuse(others)
            if refusal is not None:
                return refusal
            await tx.run(
                "INSERT INTO custom_missions (guild_id, mission_id, name, timeline, created_by, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, mission_id) DO UPDATE SET"
                " name = excluded.name, timeline = excluded.timeline, created_by = excluded.created_by,"
                " created_at = excluded.created_at",
                (guild_id, mission_id, name, json.dumps(timeline), created_by, now()),
            )
        return None

    async def remove(self, guild_id: int, mission_id: str) -> bool:
        """Delete one custom mission; False when the server had none by that id."""
        async with self.storage.transaction() as tx:
            count: int = await tx.run(
                "DELETE FROM custom_missions WHERE guild_id = ? AND mission_id = ?", (guild_id, mission_id)
            )
        return count > 0


class School:
    """The flight school's progress per player, over a platform storage."""

    def __init__(self, storage: Any) -> None:
        self.storage = storage

    async def progress(self, user_id: int) -> dict[str, Any] | None:
        found = await self.storage.fetch("SELECT progress FROM school_progress WHERE user_id = ?", (user_id,))
        return _doc(found[0][0]) if found else None

    async def change(self, user_id: int, change: Callable[[SchoolRecord], bool], *, attempts: int = 5) -> SchoolRecord:
        """A player's progress through one unit of work (load, pure change, save with a version
        check, retry on StaleWrite)."""

        async def load(tx: Any) -> SchoolRecord:
            return await load_school_record(tx, user_id)

        async def save(tx: Any, record: SchoolRecord) -> None:
            await save_school_record(tx, record)

        changed = await unit_of_work(self.storage, load, change, save, attempts=attempts, what=f"school of {user_id}")
        assert changed is not None  # load never answers None
        return changed

    async def replace(self, user_id: int, progress: dict[str, Any]) -> SchoolRecord:
        """The whole progress document, as one unit of work (setting up a player, in tests)."""

        def put(record: SchoolRecord) -> bool:
            record.progress = dict(progress)
            return True

        return await self.change(user_id, put)
