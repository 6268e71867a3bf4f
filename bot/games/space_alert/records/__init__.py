"""The logbook, the leaderboard and `/resolve` for crews playing the physical game."""

from __future__ import annotations

from typing import Any

from bot.platform.permissions import Who, declare

# Who may do what (bot/platform/permissions.py checks it before the handler runs).
PERMISSIONS = declare(
    "records",
    {
        "logbook": Who.ANYONE,
        "leaderboard": Who.ANYONE,
        "resolve": Who.ANYONE,
        "stats": Who.ANYONE,  # /stats (bot/games/space_alert/stats) and its board's page buttons
        "about": Who.ANYONE,  # /about (bot/platform/about)
    },
)


async def setup(bot: Any) -> None:
    from bot.games.space_alert.records._cog import RecordsCog

    await bot.add_cog(RecordsCog(bot))
