"""Flights: `/mission start|status|abort`, the lobby, the flight deck and the private hands."""

from __future__ import annotations

from typing import Any


async def setup(bot: Any) -> None:
    from bot.exts.mission._cog import MissionCog

    await bot.add_cog(MissionCog(bot))
