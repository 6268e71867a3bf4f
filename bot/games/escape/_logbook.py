"""The logbook row of a finished Escape game (issue 27 "Records").

Why the shared logbook table with `game = "escape"`: the logbook is the platform's record of
every game a server played; Escape's own figures (mode, difficulty, hours used, the winner's seat
and mission, or the storm) go in the row's `result` JSON, so a board can be counted from it
later without a table of its own.  Outcome: "survived" when someone escaped with their mission,
"destroyed" when the Federation stormed the station (everybody lost).
"""

from __future__ import annotations

from typing import Any

from bot.platform.storage.base import LogbookEntry
from bot.platform.storage.rows import now
from engine.escape.state import State


def result_row(doc: dict[str, Any], state: State) -> dict[str, Any]:
    """What the logbook keeps: figures only, member ids (names are rendered when shown)."""
    winner = state.winner
    return {
        "game": "escape",
        "mode": doc["mode"],
        "difficulty": doc["difficulty"],
        "players": len(doc["seats"]),
        "hours": state.hour,
        "limit": state.limit,
        "winner_seat": winner,
        "winner_id": int(doc["seats"][winner]) if winner >= 0 else None,
        "mission": state.players[winner].mission.id if winner >= 0 else None,
        "result": "won" if winner >= 0 else "stormed",
        "seed": int(doc["seed"]),
    }


def logbook_entry(session: Any, state: State) -> LogbookEntry:
    doc = session.state
    row = result_row(doc, state)
    return LogbookEntry(
        guild_id=session.guild_id,
        channel_id=session.channel_id,
        flown_at=now(),
        mission_id=str(row["mission"] or "stormed"),
        normal_difficulty=str(doc["difficulty"]),
        serious_difficulty=str(doc["difficulty"]),
        language=str(doc["lang"]),
        outcome="survived" if row["winner_seat"] >= 0 else "destroyed",
        crew=[],
        result=row,
        flight_id=f"escape-{session.id}",
        seed=int(doc["seed"]),
        destroyed_by=None if row["winner_seat"] >= 0 else "stormed",
        game="escape",
    )
