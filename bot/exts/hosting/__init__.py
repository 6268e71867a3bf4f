"""Server hosting: `/settings` (Manage Server) over the storage interface's per-server settings."""

from __future__ import annotations

from typing import Any


async def setup(bot: Any) -> None:
    from bot.exts.hosting._cog import HostingCog

    await bot.add_cog(HostingCog(bot))
