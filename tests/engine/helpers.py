"""Small builders for engine tests: a game dict from short arguments, and turn-by-turn stepping."""

from __future__ import annotations

from typing import Any

from engine.model import Game
from engine.resolution.mission import build_mission, play_one_turn
from engine.state import Mission


def game(
    *plans: str,
    threats: list[dict[str, Any]] | None = None,
    tracks: tuple[str, str, str, str] = ("T5", "T3", "T1", "T4"),
    tokens: dict[str, list[str]] | None = None,
    seed: int = 0,
) -> dict[str, Any]:
    red, white, blue, internal = tracks
    data: dict[str, Any] = {
        "tracks": {"red": red, "white": white, "blue": blue, "internal": internal},
        "players": [{"name": f"P{i}", "actions": plan} for i, plan in enumerate(plans)],
        "threats": threats or [],
        "seed": seed,
    }
    if tokens is not None:
        data["damage_tokens"] = tokens
    return data


def start(data: dict[str, Any]) -> Mission:
    """A mission ready for turn 1, recording its event log."""
    return build_mission(Game.model_validate(data), log=True)


def play(m: Mission, to_turn: int) -> Mission:
    """Play the turns after the last one played, up to and including `to_turn`."""
    for turn in range(m.turn + 1, to_turn + 1):
        play_one_turn(m, turn)
    return m


def mission_after(data: dict[str, Any], turns: int) -> Mission:
    """The mission state after `turns` full turns (no turn 13)."""
    return play(start(data), turns)


def kinds(m: Mission, kind: str) -> list[dict[str, Any]]:
    return [e for e in m.events if e["kind"] == kind]


def ext(tid: str, turn: int, zone: str) -> dict[str, Any]:
    return {"id": tid, "turn": turn, "zone": zone}


def inn(tid: str, turn: int) -> dict[str, Any]:
    return {"id": tid, "turn": turn}
