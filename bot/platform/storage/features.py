"""The storage interface's part for the platform's features (issues 14 and 16): server settings
and schedules.

A game keeps its own tables' statements, over the SQL core (`Storage.fetch`, and
`Transaction.rows/run` in a unit of work): ELITE in bot/games/elite/storage.py, the flight school
and custom missions in bot/games/space_alert/storage.py, the campaigns in
bot/games/space_alert/campaign/storage.py, the flights, their records, the what-if comparisons
and the careers' reads elsewhere in bot/games/space_alert (mission/storage.py, comparisons.py,
stats/storage.py).
Only protocols: `Storage` and `Transaction` (base.py) extend them; the SQL lives in platform.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from bot.platform.storage.platform import ScheduleRecord


class FeatureTransaction(Protocol):
    """The feature writes inside a unit of work (`async with storage.transaction() as tx`)."""

    async def add_schedule(self, record: ScheduleRecord) -> int: ...

    async def mark_schedule(
        self,
        schedule_id: int,
        *,
        reminded: bool,
        done: bool,
        was_reminded: bool | None = None,
        owed: str | None = None,
        owed_at: float | None = None,
    ) -> bool: ...

    async def note_schedule_post(self, schedule_id: int, message_id: int) -> None: ...

    async def settle_schedule(self, schedule_id: int, owed: str) -> bool: ...


class FeatureStorage(Protocol):
    """The feature reads, and each feature write as a unit of work of its own."""

    # -- server settings --------------------------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """Every stored setting of a server (key -> JSON value) in one read."""
        ...

    # -- schedules --------------------------------------------------------------------------------------
    async def pending_schedules(self, guild_id: int | None = None) -> list[ScheduleRecord]: ...

    async def owed_schedules(self) -> list[ScheduleRecord]:
        """Claimed rows whose post or opening is not confirmed done (issue 25)."""
        ...

    async def add_schedule(self, record: ScheduleRecord) -> int: ...

    async def mark_schedule(
        self,
        schedule_id: int,
        *,
        reminded: bool,
        done: bool,
        was_reminded: bool | None = None,
        owed: str | None = None,
        owed_at: float | None = None,
    ) -> bool: ...

    async def note_schedule_post(self, schedule_id: int, message_id: int) -> None: ...

    async def settle_schedule(self, schedule_id: int, owed: str) -> bool: ...
