"""ELITE's finished games as lines of a server's list of latest games (the web's server page),
registered with the platform (bot/platform/records.py) when the game is imported.

A line has the same fields as a Space Alert flight's, so one list shows games of every kind: the
mission and difficulty (both difficulties are the game's one), survived for a victory and
destroyed otherwise, the cause as the game recorded it, no score, no crew and no page of its own.
"""

from __future__ import annotations

from typing import Any

from bot.games.elite.storage import ELITE, EliteStore, elite_outcome


def line_doc(guild_id: int, finished_at: str, row: dict[str, Any]) -> dict[str, Any]:
    mission = str(row.get("mission"))
    cause = row.get("cause")
    return {
        "flight_id": None,
        "url": None,
        "game": ELITE,
        "server_id": str(guild_id),
        "flown_at": finished_at,
        "mission": mission,
        "seed": int(row["seed"]) if mission == "random" and row.get("seed") is not None else None,
        "normal": str(row.get("difficulty")),
        "serious": str(row.get("difficulty")),
        "outcome": elite_outcome(str(row.get("result"))),
        "destroyed_by": cause,
        "destroyed_by_text": cause or None,
        "total": 0,
        "campaign_id": None,
        "crew": [],
    }


async def server_lines(storage: Any, guild_id: int, limit: int, lang: str) -> list[tuple[str, dict[str, Any]]]:
    """A server's latest finished ELITE games, newest first (index elite_results_rows)."""
    found = await EliteStore(storage).finished(guild_id, limit=limit)
    return [(finished_at, line_doc(guild_id, finished_at, row)) for finished_at, row in found]
