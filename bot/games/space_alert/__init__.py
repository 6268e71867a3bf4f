"""Space Alert: the flight, its campaign and school, replays, hindsight, records and pictures.

Importing the game registers what the platform asks of it (the platform never imports a game):
the names of its command choices in the players' languages, and its flights' lines in a server's
list of latest games of every kind.  Every extension of the game imports this package first, so
both are in place before a command is synced or a page is built.
"""

from __future__ import annotations

from typing import Any

from bot.platform.command_locale import register_choice_names
from bot.platform.records import register_server_lines

GAME = "space_alert"


def _choice_name(lang: str, value: str) -> str | None:
    from bot.games.space_alert.choices import choice_name

    return choice_name(lang, value)


async def _server_lines(storage: Any, guild_id: int, limit: int, lang: str) -> list[tuple[str, dict[str, Any]]]:
    from bot.games.space_alert.records.lines import server_lines

    return await server_lines(storage, guild_id, limit, lang)


register_choice_names(GAME, _choice_name)
register_server_lines(GAME, _server_lines)
