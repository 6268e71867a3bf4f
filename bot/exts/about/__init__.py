"""`/about`: which process and which shards answer in this server."""

from __future__ import annotations

from typing import Any


async def setup(bot: Any) -> None:
    from bot.exts.about._cog import AboutCog

    await bot.add_cog(AboutCog(bot))
