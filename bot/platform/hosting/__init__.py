"""Server hosting: `/settings` (Manage Server) over the storage interface's per-server settings."""

from __future__ import annotations

from typing import Any

from bot.platform.permissions import Who, declare

# Who may do what (bot/platform/permissions.py checks it before the handler runs).
PERMISSIONS = declare("hosting", {"settings_show": Who.MANAGER, "settings_set": Who.MANAGER})


async def setup(bot: Any) -> None:
    from bot.platform.hosting._cog import HostingCog

    await bot.add_cog(HostingCog(bot))
