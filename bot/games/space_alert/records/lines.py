"""A logged flight as one line of the web pages' lists (a server's latest games, a career's
flights, the flight page's head): codes, numbers, names and links, the loss cause worded in the
page's language.  Registered with the platform (bot/platform/records.py) so a server's list of
latest games of every kind has the flights in it.
"""

from __future__ import annotations

from typing import Any

from bot.games.space_alert.logbook import LogbookEntry
from bot.games.space_alert.mission._log_i18n import cause_text


def flight_url(flight_id: str | None) -> str | None:
    return f"/f/{flight_id}" if flight_id else None


def player_url(user_id: int | None) -> str | None:
    return f"/p/{user_id}" if user_id is not None else None


def crew_doc(entry: LogbookEntry) -> list[dict[str, Any]]:
    return [
        {
            "name": c.name,
            "player_id": str(c.user_id) if c.user_id is not None else None,
            "roles": list(c.roles),
            "url": player_url(c.user_id),
        }
        for c in entry.crew
    ]


def line_doc(entry: LogbookEntry, lang: str) -> dict[str, Any]:
    """One logbook line as the lists show it (any game)."""
    return {
        "flight_id": entry.flight_id,
        "url": flight_url(entry.flight_id) if entry.game == "space_alert" else None,
        "game": entry.game,
        "server_id": str(entry.guild_id),
        "flown_at": entry.flown_at,
        "mission": entry.mission_id,
        "seed": entry.seed if entry.mission_id == "random" else None,
        "normal": entry.normal_difficulty,
        "serious": entry.serious_difficulty,
        "outcome": entry.outcome,
        "destroyed_by": entry.destroyed_by,
        "destroyed_by_text": _cause(lang, entry),
        "total": entry.total,
        "campaign_id": entry.campaign_id,
        "crew": crew_doc(entry),
    }


def _cause(lang: str, entry: LogbookEntry) -> str | None:
    if not entry.destroyed_by:
        return None
    if entry.game != "space_alert":
        return entry.destroyed_by
    return cause_text(lang, entry.destroyed_by)


async def server_lines(storage: Any, guild_id: int, limit: int, lang: str) -> list[tuple[str, dict[str, Any]]]:
    """A server's latest flights, newest first, as lines (index logbook_by_guild)."""
    from bot.games.space_alert.records.public import PublicLogbook

    return [(e.flown_at, line_doc(e, lang)) for e in await PublicLogbook(storage).latest_entries(guild_id, limit=limit)]
