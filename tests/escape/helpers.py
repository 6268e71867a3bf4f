"""Shared builders for the Escape engine tests: games in a known shape and rigged dice."""

from __future__ import annotations

import random

from engine.escape.content import Character, Mission
from engine.escape.pack import default_pack
from engine.escape.rules import Applied, Command, Event, apply
from engine.escape.setup import new_digital_game, new_referee_game
from engine.escape.state import Item, State

PACK = default_pack()
MISSIONS = {m.id: m for m in PACK.missions}


def rig(state: State, *faces: int) -> None:
    """Move the draw counter so the next dice show `faces` (the dice stay seeded, only skipped)."""
    for start in range(state.draws, state.draws + 200_000):
        if all(
            random.Random(state.seed * 1_000_003 + start + k + 1).randint(1, 6) == face for k, face in enumerate(faces)
        ):
            state.draws = start
            return
    raise AssertionError("no such dice sequence nearby")


def ok(state: State, command: Command) -> tuple[State, tuple[Event, ...]]:
    """Apply a command that must be accepted."""
    result = apply(state, command)
    assert isinstance(result, Applied), result
    return result.state, result.events


def codes(events: tuple[Event, ...]) -> list[str]:
    return [e.code for e in events]


def referee(players: int = 3, missions: tuple[str, ...] = ("smuggler", "saboteur", "usurper")) -> State:
    chars = [
        Character("h", "human", 7, 2, 10, 10),
        Character("m", "mutant", 5, 4, 14, 12),
        Character("c", "cyborg", 6, 3, 12, 10),
        Character("h2", "human", 6, 2, 10, 9),
    ][:players]
    return new_referee_game(11, "hard", chars, [MISSIONS[m] for m in missions[:players]], 0, PACK)


def digital(players: int = 2, seed: int = 5) -> State:
    """A digital game with a blank station (corridors), so a test places the tiles it needs."""
    state = new_digital_game(PACK, seed, "medium", players)
    state.grid = [["corridor"] * 5 for _ in range(5)]
    state.grid[2][2] = "control_center"
    state.decks["local1"] = ["o_quiet0"] * 50  # quiet corridors unless a test stacks a deck
    state.decks["local2"] = ["i_quiet0"] * 50
    for p in state.players:
        p.items = []
        p.aggression = 0
    return state


def give(state: State, seat: int, gear_id: str) -> int:
    card = state.gear(gear_id)
    state.players[seat].items.append(Item(card.id, card.charges, card.armour))
    return len(state.players[seat].items) - 1


def place(state: State, seat: int, cell: tuple[int, int], kind: str | None = None) -> None:
    if kind is not None:
        state.grid[cell[0]][cell[1]] = kind
    state.players[seat].cell = cell
    state.players[seat].seen.add(cell)
    state.opened.add(cell)


def mission(state: State, seat: int, mission_id: str) -> None:
    state.players[seat].mission = MISSIONS[mission_id]


def custom(goals: tuple[str, ...]) -> Mission:
    return Mission("custom", goals)  # type: ignore[arg-type]
