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


def board_text(lang: str, results: list[Any], member_id: int | None = None) -> str:
    """`/escape board`: the server's games (escapes, storms, wins per mission and difficulty), or
    one member's career (games played, won); counted from the stored results' figures."""
    from bot.games.escape._render import mission_name
    from bot.platform.i18n import t

    if not results:
        return t(lang, "escape.ui.board_empty")
    won = [r for r in results if r.outcome == "escaped"]
    lines = [f"**{t(lang, 'escape.ui.board_title')}**"]
    lines.append(t(lang, "escape.ui.board_games", games=len(results), won=len(won), stormed=len(results) - len(won)))
    missions: dict[str, int] = {}
    for r in won:
        mission = str(r.details.get("mission") or "?")
        missions[mission] = missions.get(mission, 0) + 1
    if missions:
        shown = ", ".join(f"{mission_name(lang, m)} {n}" for m, n in sorted(missions.items()))
        lines.append(t(lang, "escape.ui.board_missions", missions=shown))
    for difficulty in ("easy", "medium", "hard"):
        played = [r for r in results if r.details.get("difficulty") == difficulty]
        if played:
            hours = [int(r.details.get("hours", 0)) for r in played]
            lines.append(
                t(
                    lang,
                    "escape.ui.board_difficulty",
                    difficulty=t(lang, f"escape.difficulty.{difficulty}"),
                    games=len(played),
                    won=sum(r.outcome == "escaped" for r in played),
                    hours=round(sum(hours) / len(hours), 1),
                )
            )
    if member_id is not None:
        wins = sum(any(p.get("user_id") == member_id and p.get("won") for p in r.players) for r in results)
        lines.append(t(lang, "escape.ui.board_career", mention=f"<@{member_id}>", games=len(results), wins=wins))
    return "\n".join(lines)
