"""What each player may see (digital mode's fog of war) and what the public post may show.

Why a view function and not filtering in the adapter: the rule "no hidden tile and no rival's
mission ever reaches a player" belongs with the rules and is tested here once; the Discord panel
and the station picture then draw only from these dicts.
"""

from __future__ import annotations

from typing import Any

from engine.escape.state import State


def _public_players(state: State) -> list[dict[str, Any]]:
    """Pawns, characters and Health are on the table for all; missions and items are not."""
    return [
        {"seat": i, "character": p.character, "cell": list(p.cell), "health": p.health, "aggression": p.aggression}
        for i, p in enumerate(state.players)
    ]


def _board(state: State, visible: set[tuple[int, int]]) -> list[list[str | None]]:
    return [[state.grid[r][c] if (r, c) in visible else None for c in range(5)] for r in range(5)] if state.grid else []


def _clock(state: State) -> dict[str, Any]:
    return {
        "hour": state.hour,
        "limit": state.limit,
        "turn": state.turn,
        "gravity_off": state.gravity_off,
        "alarm": state.alarm,
        "docks_unlocked": state.docks_unlocked,
        "winner": state.winner,
        "timed_out": state.timed_out,
    }


def _offer(state: State, seat: int | None) -> dict[str, Any] | None:
    """A pending trade (D26): who offers whom, for all; the cards only for its two parties, who
    show them to each other at the table (the public post names no gear)."""
    offer = state.offer
    if offer is None:
        return None
    out: dict[str, Any] = {"by": offer.by, "to": offer.to}
    if seat in (offer.by, offer.to):
        out["give"] = state.players[offer.by].items[offer.give].gear if offer.give >= 0 else None
        out["ask"] = state.players[offer.to].items[offer.ask].gear if offer.ask >= 0 else None
    return out


def player_view(state: State, seat: int) -> dict[str, Any]:
    """A seat's private panel: its own mission and gear, and only the tiles it has seen (D18)."""
    p = state.players[seat]
    return {
        "seat": seat,
        "mission": {"id": p.mission.id, "goals": list(p.mission.goals)},
        "health": p.health,
        "ap": p.ap,
        "aggression": p.aggression,
        "items": [{"gear": i.gear, "charges": i.charges, "armour": i.armour} for i in p.items],
        "board": _board(state, p.seen),
        "players": _public_players(state),
        "clock": _clock(state),
        "offer": _offer(state, seat),
    }


def public_view(state: State) -> dict[str, Any]:
    """The public post: tiles every player has seen (D18), pawns, the clock; no mission."""
    seen = set.intersection(*(p.seen for p in state.players)) if state.players else set()
    return {
        "board": _board(state, seen),
        "players": _public_players(state),
        "clock": _clock(state),
        "offer": _offer(state, None),
    }
