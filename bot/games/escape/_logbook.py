"""The record of a finished Escape game (issue 27 "Records"), as the platform's `SessionResult`.

Why the session's result and not a logbook table of our own: the change that ends the game sets
`GameSession.result`, and the store writes its `game_results` row (and one row per player, for
careers) in the same unit of work, so a result is never lost or doubled by a crash between the
last move and the record.  Escape's figures (mode, difficulty, hours used, the winner's seat and
mission, or the storm) go in `details`; the outcome word is "escaped" when someone completed
their mission, "time_out" when the Federation stormed the station and everybody lost.
"""

from __future__ import annotations

from typing import Any

from bot.platform.sessions import SessionResult
from engine.escape.state import State


def result_row(doc: dict[str, Any], state: State) -> dict[str, Any]:
    """The figures kept of a game: member ids, never names (names are rendered when shown)."""
    winner = state.winner
    return {
        "mode": doc["mode"],
        "difficulty": doc["difficulty"],
        "language": doc["lang"],
        "players": len(doc["seats"]),
        "hours": state.hour,
        "limit": state.limit,
        "winner_seat": winner,
        "winner_id": int(doc["seats"][winner]) if winner >= 0 else None,
        "mission": state.players[winner].mission.id if winner >= 0 else None,
        "result": "won" if winner >= 0 else "stormed",
        "seed": int(doc["seed"]),
    }


def session_result(doc: dict[str, Any], state: State) -> SessionResult:
    """What the platform records: the outcome, each seat (won or not, its character kind as the
    role; a loser's mission stays unrecorded, it was secret), and the figures."""
    players = [
        {
            "user_id": int(member),
            "name": str(doc["names"].get(str(member), "")),
            "won": seat == state.winner,
            "role": state.character(seat).kind,
        }
        for seat, member in enumerate(doc["seats"])
    ]
    return SessionResult("escaped" if state.winner >= 0 else "time_out", players, result_row(doc, state))
