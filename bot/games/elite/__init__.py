"""`/elite`: the Project: ELITE director (setup wizard, round driver, timer in voice, hidden tokens)."""

from __future__ import annotations

from typing import Any

from bot.platform.permissions import Who, declare
from bot.platform.records import register_server_lines

# Who may do what (bot/platform/permissions.py checks it before the handler runs).  The
# director's controls are the host's (or Manage Server's): nobody else stops or steers the game.
PERMISSIONS = declare(
    "elite",
    {
        "start": Who.STARTER,  # /elite start: the server's starters role, in its channels
        "roll": Who.HOST,
        "pack": Who.MANAGER,  # /elite-admin pack
        "schema": Who.ANYONE,
        "board": Who.ANYONE,
        "next": Who.HOST,  # the status message's buttons
        "timer": Who.HOST,  # the Start button (the Action Phase timer)
        "pause": Who.HOST,
        "minus": Who.HOST,
        "plus": Who.HOST,
        "peek": Who.ANYONE,  # a hero's player looks at a hidden token; only they see what it is
        "reveal": Who.HOST,
        "victory": Who.HOST,
        "defeat": Who.HOST,
        "stop": Who.HOST,
        "voice": Who.HOST,  # Rejoin voice
    },
)


async def setup(bot: Any) -> None:
    from bot.games.elite._cog import EliteCog

    await bot.add_cog(EliteCog(bot))


async def _server_lines(storage: Any, guild_id: int, limit: int, lang: str) -> list[tuple[str, dict[str, Any]]]:
    from bot.games.elite.records import server_lines

    return await server_lines(storage, guild_id, limit, lang)


# Its finished games join a server's list of latest games of every kind (the web's server page).
register_server_lines("elite", _server_lines)
