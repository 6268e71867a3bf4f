"""Careers, statistics and leaderboards: SQL in `queries`, pure figures in `career`, the score
chart in `chart`, the `/stats` command in `_cog`, the paginated board in `_board`."""

from __future__ import annotations

from typing import Any


async def setup(bot: Any) -> None:
    from bot.games.space_alert.stats._cog import StatsCog
    from bot.games.space_alert.stats.board import BoardButton

    bot.add_dynamic_items(BoardButton)
    await bot.add_cog(StatsCog(bot))
