"""`/elite`: the Project: ELITE director (setup wizard, round driver, timer in voice, hidden tokens)."""

from __future__ import annotations

from typing import Any


async def setup(bot: Any) -> None:
    from bot.exts.elite._cog import EliteCog

    await bot.add_cog(EliteCog(bot))
