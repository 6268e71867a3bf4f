"""/stats, /leaderboard and /logbook as figures, read through the storage interface.

The SQL lives in `storage.py` (the game's repository over the platform's SQL core, both backends);
this module turns its rows into the career and logbook records of `career.py`.
Visibility: `Scope(None)` is "everywhere"
(the player looking at their own career privately); `Scope(guild_id)` is what that server may
show (its own flights and those of public servers).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.space_alert.stats.career import Career, LogbookLine, build_career
from bot.games.space_alert.stats.storage import HISTORY_POINTS, PAGE_SIZE, BoardPage, BoardRow, Careers
from bot.platform.storage.base import Storage
from bot.platform.storage.careers import PUBLIC_SETTING, PUBLIC_VALUE

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


async def career(storage: Storage, user_id: int, scope: Scope = Scope()) -> Career:
    """Every /stats figure of one player, as far as `scope` may show."""
    rows = await Careers(storage).career_rows(user_id, scope.guild_id)
    return build_career(rows.by_difficulty, rows.roles, rows.decks, rows.killer, rows.history)


async def leaderboard(
    storage: Storage,
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
    return await Careers(storage).leaderboard_page(mission_id, normal, serious, guild_id=guild_id, page=page, size=size)


async def campaign_leaderboard(
    storage: Storage, *, guild_id: int | None, page: int = 0, size: int = PAGE_SIZE
) -> BoardPage:
    """Finished campaigns, best total first: a board of their own."""
    return await Careers(storage).campaign_leaderboard_page(guild_id=guild_id, page=page, size=size)


async def player_logbook(
    storage: Storage, user_id: int, scope: Scope = Scope(), *, page: int = 0, size: int = PAGE_SIZE
) -> list[LogbookLine]:
    """A player's flights, newest first (campaign lines included: group them with group_campaigns)."""
    return [
        LogbookLine(*r)
        for r in await Careers(storage).player_logbook_lines(user_id, scope.guild_id, page=page, size=size)
    ]


async def guild_logbook(storage: Storage, guild_id: int, *, page: int = 0, size: int = PAGE_SIZE) -> list[LogbookLine]:
    """A server's flights, newest first."""
    return [LogbookLine(*r) for r in await Careers(storage).guild_logbook_lines(guild_id, page=page, size=size)]
