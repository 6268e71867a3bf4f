"""The logbook, the leaderboard and `/resolve` for crews playing the physical game."""

from __future__ import annotations

from typing import Any


async def setup(bot: Any) -> None:
    from bot.exts.records._cog import RecordsCog

    await bot.add_cog(RecordsCog(bot))
