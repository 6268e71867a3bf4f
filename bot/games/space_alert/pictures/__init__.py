"""Pictures of a resolved flight: any turn's board, and an overview for the result post.

Pure: a `Replay` (game, result, per-turn snapshots) in, PNG bytes out; no Discord, no I/O besides
reading the platform's bundled DejaVu fonts (bot/platform/fonts, shipped with their licence so a
picture is identical on every machine).  Rendering takes tens of milliseconds, so the bot calls these
functions through `asyncio.to_thread`.

    replay = resolve_with_states(game)          # engine.resolve with an observer
    render_turn(replay, 5, "en") -> bytes       # the board after turn 5 (0 = start, last = end)
    render_overview(replay, "en") -> bytes      # final board + the damage story by turn
"""

from __future__ import annotations

from bot.games.space_alert.pictures.draw import Painter, W, png
from bot.games.space_alert.pictures.overview import render_overview
from bot.games.space_alert.pictures.states import CrewView, Replay, ThreatView, TurnState, resolve_with_states

__all__ = [
    "CrewView",
    "Replay",
    "ThreatView",
    "TurnState",
    "W",
    "render_overview",
    "render_state",
    "render_turn",
    "resolve_with_states",
]


def render_state(replay: Replay, index: int, lang: str = "en") -> Painter:
    """The painted board of snapshot `index` (for callers that add to the picture)."""
    painter = Painter(replay.states[index], lang, replay.track_columns, turns=replay.turns)
    painter.paint()
    return painter


def render_turn(replay: Replay, index: int, lang: str = "en") -> bytes:
    """PNG of the board in snapshot `index`: 0 = before turn 1, then one per turn, last = the end."""
    if not 0 <= index < len(replay.states):
        raise IndexError(f"no snapshot {index} (0..{len(replay.states) - 1})")
    return png(render_state(replay, index, lang).img)
