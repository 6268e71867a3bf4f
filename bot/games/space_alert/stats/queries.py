"""/stats, /leaderboard and /logbook as figures, read through the storage interface.

The SQL lives in bot/platform/storage/careers.py (both backends); this module turns its rows into the
career and logbook records of `career.py`.  Visibility: `Scope(None)` is "everywhere"
(the player looking at their own career privately); `Scope(guild_id)` is what that server may
show (its own flights and those of public servers).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.space_alert.stats.career import Career, LogbookLine, build_career
from bot.platform.storage.careers import HISTORY_POINTS, PAGE_SIZE, PUBLIC_SETTING, PUBLIC_VALUE, BoardPage, BoardRow
from bot.platform.storage.features import FeatureStorage

__all__ = [
    "HISTORY_POINTS",
    "PAGE_SIZE",
    "PUBLIC_SETTING",
    "PUBLIC_VALUE",
    "BoardPage",
    "BoardRow",
    "Scope",
    "campaign_leaderboard",
    "career",
    "guild_logbook",
    "leaderboard",
    "player_logbook",
]


@dataclass(frozen=True, slots=True)
class Scope:
    guild_id: int | None = None


async def career(storage: FeatureStorage, user_id: int, scope: Scope = Scope()) -> Career:
    """Every /stats figure of one player, as far as `scope` may show."""
    rows = await storage.career_rows(user_id, scope.guild_id)
    return build_career(rows.by_difficulty, rows.roles, rows.decks, rows.killer, rows.history)


async def leaderboard(
    storage: FeatureStorage,
    mission_id: str,
    normal: str,
    serious: str,
    *,
    guild_id: int | None,
    page: int = 0,
    size: int = PAGE_SIZE,
) -> BoardPage:
    """Surviving single flights of one mission and difficulty pair, best first; `guild_id` None
    is every public server."""
    return await storage.leaderboard_page(mission_id, normal, serious, guild_id=guild_id, page=page, size=size)


async def campaign_leaderboard(
    storage: FeatureStorage, *, guild_id: int | None, page: int = 0, size: int = PAGE_SIZE
) -> BoardPage:
    """Finished campaigns, best total first: a board of their own."""
    return await storage.campaign_leaderboard_page(guild_id=guild_id, page=page, size=size)


async def player_logbook(
    storage: FeatureStorage, user_id: int, scope: Scope = Scope(), *, page: int = 0, size: int = PAGE_SIZE
) -> list[LogbookLine]:
    """A player's flights, newest first (campaign lines included: group them with group_campaigns)."""
    return [LogbookLine(*r) for r in await storage.player_logbook_lines(user_id, scope.guild_id, page=page, size=size)]


async def guild_logbook(
    storage: FeatureStorage, guild_id: int, *, page: int = 0, size: int = PAGE_SIZE
) -> list[LogbookLine]:
    """A server's flights, newest first."""
    return [LogbookLine(*r) for r in await storage.guild_logbook_lines(guild_id, page=page, size=size)]
