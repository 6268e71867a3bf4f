"""Every game's finished games where a server's pages list them together (the web's latest lines).

Why a hook: each game keeps its own records (Space Alert its logbook, ELITE and the other session
games `game_results` and tables of their own) and words its own lines, but a server's page lists
the latest games of every kind in one list, newest first.  The platform imports no game, so a game
registers here, when it is imported, how to read a server's latest finished games as lines of
that list; the page asks `server_lines` and never names a game.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

# (storage, guild id, how many, page language) -> (when it ended, the line's document), newest first
ServerLines = Callable[[Any, int, int, str], Awaitable[list[tuple[str, dict[str, Any]]]]]
_SERVER_LINES: dict[str, ServerLines] = {}


def register_server_lines(game: str, reader: ServerLines) -> None:
    """A game says how its finished games join a server's list of latest games (once, on import)."""
    _SERVER_LINES[game] = reader


def games_with_lines() -> tuple[str, ...]:
    return tuple(_SERVER_LINES)


async def server_lines(storage: Any, guild_id: int, *, limit: int, lang: str) -> list[dict[str, Any]]:
    """The server's `limit` latest finished games of every registered game, newest first (a game
    registered earlier goes first among games that ended in the same second)."""
    found: list[tuple[str, dict[str, Any]]] = []
    for reader in _SERVER_LINES.values():
        found.extend(await reader(storage, guild_id, limit, lang))
    found.sort(key=lambda item: item[0], reverse=True)  # stable: each game's own order is kept
    return [doc for _, doc in found[:limit]]
