"""The storage interface's part for the platform's features (issues 14 and 16): careers and
leaderboards, campaign sessions, flight school, schedules and the ELITE game.

Only protocols: `Storage` and `Transaction` (base.py) extend them, and the SQL lives in
careers.py and platform.py, so this section merges apart from the flight tables.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from bot.platform.storage.careers import BoardPage, CareerRows, LineRow
    from bot.platform.storage.comparisons import Comparison
    from bot.platform.storage.platform import (
        CampaignRecord,
        EliteGameRecord,
        EliteStanding,
        ScheduleRecord,
        SchoolRecord,
    )


class FeatureTransaction(Protocol):
    """The feature writes inside a unit of work (`async with storage.transaction() as tx`)."""

    async def add_threat_rows(self, logbook_id: int, result: Mapping[str, Any]) -> None: ...

    async def save_campaign(self, record: CampaignRecord) -> CampaignRecord:
        """Insert a new one (version 0) or write a stored one if its version is current."""
        ...

    async def load_running_campaign(self, channel_id: int) -> CampaignRecord | None: ...

    async def save_school_progress(self, user_id: int, progress: dict[str, Any]) -> None: ...

    async def load_school_record(self, user_id: int) -> SchoolRecord: ...

    async def save_school_record(self, record: SchoolRecord) -> None: ...

    async def add_schedule(self, record: ScheduleRecord) -> int: ...

    async def mark_schedule(
        self, schedule_id: int, *, reminded: bool, done: bool, was_reminded: bool | None = None
    ) -> bool: ...

    async def start_elite_game(
        self,
        guild_id: int,
        channel_id: int,
        state: dict[str, Any],
        pack: dict[str, Any] | None,
        *,
        game_id: str = "",
        host_id: int = 0,
    ) -> None:
        """Insert the channel's new game; ChannelBusy when it has one already."""
        ...

    async def load_elite_game(self, channel_id: int) -> EliteGameRecord | None: ...

    async def add_comparison(self, comparison: Comparison) -> bool:
        """Keep a what-if comparison of a logged flight (False: the same one was kept already)."""
        ...

    async def save_elite_game(self, record: EliteGameRecord) -> EliteGameRecord:
        """Write it if its version is still current, else StaleWrite."""
        ...

    async def update_elite_game(self, channel_id: int, state: dict[str, Any]) -> bool: ...

    async def drop_elite_game(self, channel_id: int) -> None: ...

    async def record_game(
        self, guild_id: int, row: dict[str, Any], *, channel_id: int = 0, language: str = "en"
    ) -> int: ...

    async def save_elite_pack(self, guild_id: int, pack: dict[str, Any], uploaded_by: int) -> None: ...


class FeatureStorage(Protocol):
    """The feature reads, and each feature write as a unit of work of its own."""

    # -- careers, leaderboards, logbook lines (careers.py) -------------------------------------------
    async def career_rows(self, user_id: int, guild_id: int | None = None) -> CareerRows:
        """A player's career rows; `guild_id` None is everywhere, else what that server may show."""
        ...

    async def leaderboard_page(
        self, mission_id: str, normal: str, serious: str, *, guild_id: int | None, page: int = 0, size: int = 10
    ) -> BoardPage: ...

    async def campaign_leaderboard_page(self, *, guild_id: int | None, page: int = 0, size: int = 10) -> BoardPage: ...

    async def player_logbook_lines(
        self, user_id: int, guild_id: int | None = None, *, page: int = 0, size: int = 10
    ) -> list[LineRow]: ...

    async def guild_logbook_lines(self, guild_id: int, *, page: int = 0, size: int = 10) -> list[LineRow]: ...

    # -- campaigns (platform.py) ----------------------------------------------------------------------
    async def campaign(self, campaign_id: str) -> CampaignRecord | None: ...

    async def running_campaign(self, channel_id: int) -> CampaignRecord | None: ...

    async def latest_campaign(self, channel_id: int) -> CampaignRecord | None:
        """The channel's running campaign, else the one that ended last."""
        ...

    async def running_campaigns(self) -> list[CampaignRecord]: ...

    async def save_campaign(self, record: CampaignRecord) -> CampaignRecord:
        """Insert a new one (ChannelBusy when another campaign already runs in the channel) or
        write a stored one if its version is still current (else StaleWrite)."""
        ...

    async def change_campaign(
        self, channel_id: int, change: Callable[[CampaignRecord], bool], *, attempts: int = 5
    ) -> CampaignRecord | None:
        """Load the running campaign, apply a pure change, save with a version check, retry."""
        ...

    # -- server settings --------------------------------------------------------------------------------
    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """Every stored setting of a server (key -> JSON value) in one read."""
        ...

    # -- flight school ----------------------------------------------------------------------------------
    async def school_progress(self, user_id: int) -> dict[str, Any] | None: ...

    async def save_school_progress(self, user_id: int, progress: dict[str, Any]) -> None: ...

    async def change_school_progress(
        self, user_id: int, change: Callable[[SchoolRecord], bool], *, attempts: int = 5
    ) -> SchoolRecord:
        """Load the player's progress, apply a pure change, save with a version check, retry."""
        ...

    # -- schedules --------------------------------------------------------------------------------------
    async def pending_schedules(self, guild_id: int | None = None) -> list[ScheduleRecord]: ...

    async def add_schedule(self, record: ScheduleRecord) -> int: ...

    async def mark_schedule(
        self, schedule_id: int, *, reminded: bool, done: bool, was_reminded: bool | None = None
    ) -> bool: ...

    # -- ELITE -------------------------------------------------------------------------------------------
    async def elite_games(self) -> list[EliteGameRecord]: ...

    async def elite_game(self, channel_id: int) -> EliteGameRecord | None: ...

    async def start_elite_game(
        self,
        guild_id: int,
        channel_id: int,
        state: dict[str, Any],
        pack: dict[str, Any] | None,
        *,
        game_id: str = "",
        host_id: int = 0,
    ) -> None:
        """Insert the channel's new game; ChannelBusy when it has one already."""
        ...

    async def change_elite_game(
        self, channel_id: int, change: Callable[[EliteGameRecord], bool], *, attempts: int = 5
    ) -> EliteGameRecord | None:
        """Load the channel's game, apply a pure change, save with a version check, retry."""
        ...

    async def update_elite_game(self, channel_id: int, state: dict[str, Any]) -> bool: ...

    async def drop_elite_game(self, channel_id: int) -> None: ...

    async def record_game(
        self, guild_id: int, row: dict[str, Any], *, channel_id: int = 0, language: str = "en"
    ) -> int:
        """A finished ELITE game's logbook row (game 'elite'); ends the channel's game in progress."""
        ...

    async def game_rows(self, guild_id: int, game: str = "elite", *, limit: int = 1000) -> list[dict[str, Any]]: ...

    async def elite_board(self, guild_id: int) -> EliteStanding: ...

    async def elite_pack(self, guild_id: int) -> dict[str, Any] | None: ...

    async def save_elite_pack(self, guild_id: int, pack: dict[str, Any], uploaded_by: int) -> None: ...

    # -- what-if comparisons of logged flights (comparisons.py) ---------------------------------------
    async def add_comparison(self, comparison: Comparison) -> bool: ...

    async def comparisons(self, flight_id: str, *, limit: int = 50) -> list[Comparison]: ...
