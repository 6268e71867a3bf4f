"""Links from Discord to the web logbook: only for a public server, only when WEB_BASE_URL is set.

Why both conditions: a private server's page is a 404, so a link to it would only confuse; and
without WEB_BASE_URL the bot cannot know the address players reach the pages at (it may be
behind a reverse proxy, on another host)."""

from __future__ import annotations

from typing import Any

from bot.platform.storage.careers import PUBLIC_SETTING


async def _base(storage: Any, settings: Any, guild_id: int | None) -> str | None:
    base = getattr(settings, "web_base_url", None)
    if not base or not guild_id:
        return None
    if await storage.get_setting(guild_id, PUBLIC_SETTING) != "public":
        return None
    return str(base).rstrip("/")


async def server_link(storage: Any, settings: Any, guild_id: int | None) -> str | None:
    """The server's page, or None when it has none."""
    base = await _base(storage, settings, guild_id)
    return f"{base}/s/{guild_id}" if base else None


async def flight_link(storage: Any, settings: Any, guild_id: int | None, flight_id: str | None) -> str | None:
    """The flight's page, or None when it has none."""
    base = await _base(storage, settings, guild_id)
    return f"{base}/f/{flight_id}" if base and flight_id else None
