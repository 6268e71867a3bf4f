"""Versioned JSON snapshots of an Escape game, and the upgrades between versions.

Why: a digital game is asynchronous and lives for days in the database; when the state's shape
changes, stored games must still load.  Every change of shape bumps `SCHEMA_VERSION` and
registers one pure step in `MIGRATIONS` (version N to N+1), as `engine/flight/snapshot.py` does.
A snapshot that cannot be restored raises `SnapshotError` (the adapter ends that game politely).
The snapshot carries its pack (the raw JSON), so a game keeps the cards it started with.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from engine.escape.content import Character, GearCard, Mission
from engine.escape.pack import PackRefusal, load_pack
from engine.escape.state import Fight, Item, Offer, Player, State

Snapshot = dict[str, Any]
SCHEMA_VERSION = 2


def _v1_to_v2(data: Snapshot) -> Snapshot:
    """Version 2 adds the pending trade offer (rules doc D26); a version 1 game has none."""
    return {**data, "offer": None}


MIGRATIONS: dict[int, Callable[[Snapshot], Snapshot]] = {1: _v1_to_v2}  # MIGRATIONS[n]: version n to n+1


class SnapshotError(ValueError):
    """A stored game this code cannot restore."""


def _cells(cells: set[tuple[int, int]]) -> list[list[int]]:
    return [list(c) for c in sorted(cells)]


def to_dict(state: State) -> Snapshot:
    """The JSON-ready snapshot of `state` (plain dicts, lists, ints, strings, bools)."""
    players = []
    for p in state.players:
        players.append(
            {
                "character": p.character,
                "mission": {"id": p.mission.id, "goals": list(p.mission.goals)},
                "health": p.health,
                "items": [asdict(i) for i in p.items],
                "ap": p.ap,
                "aggression": p.aggression,
                "fought_this_round": p.fought_this_round,
                "knocked_out_hour": p.knocked_out_hour,
                "ap_penalty": p.ap_penalty,
                "cell": list(p.cell),
                "looted_here": p.looted_here,
                "seen": _cells(p.seen),
                "shut_reactor": p.shut_reactor,
                "won_center": p.won_center,
                "hold_left": p.hold_left,
                "held_center": p.held_center,
                "escaped": p.escaped,
                "drone": p.drone,
            }
        )
    return {
        "schema_version": SCHEMA_VERSION,
        "mode": state.mode,
        "difficulty": state.difficulty,
        "seed": state.seed,
        "pack": copy.deepcopy(state.pack.raw),
        "players": players,
        "draws": state.draws,
        "hour": state.hour,
        "limit": state.limit,
        "turn": state.turn,
        "turns_taken": state.turns_taken,
        "grid": [list(row) for row in state.grid],
        "opened": _cells(state.opened),
        "portals_unlocked": _cells(state.portals_unlocked),
        "flags": {
            k: getattr(state, k)
            for k in (
                "gravity_off",
                "alarm",
                "docks_unlocked",
                "docks_depressurised",
                "cargo_taken",
                "disk_taken",
                "next_plays_enemy",
            )
        },
        "decks": {k: list(v) for k, v in state.decks.items()},
        "fight": asdict(state.fight) if state.fight else None,
        "overweight": state.overweight,
        "spoils": list(state.spoils) if state.spoils else None,
        "hold_due": state.hold_due,
        "offer": asdict(state.offer) if state.offer else None,
        "cards": {k: asdict(v) for k, v in state.cards.items()},
        "chars": {k: asdict(v) for k, v in state.chars.items()},
        "winner": state.winner,
        "timed_out": state.timed_out,
    }


def migrate(snapshot: Snapshot) -> Snapshot:
    """Bring a snapshot up to `SCHEMA_VERSION` through the registered steps (input untouched)."""
    version = snapshot.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise SnapshotError("no valid schema_version")
    if version > SCHEMA_VERSION:
        raise SnapshotError("snapshot newer than this code")
    data = copy.deepcopy(snapshot)
    while version < SCHEMA_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise SnapshotError(f"no migration from version {version}")
        data = step(data)
        version += 1
        data["schema_version"] = version
    return data


def from_dict(snapshot: Snapshot) -> State:
    """The game a snapshot holds; `SnapshotError` when it cannot be restored."""
    data = migrate(snapshot)
    try:
        pack = load_pack(data["pack"])
        if isinstance(pack, PackRefusal):
            raise SnapshotError(f"stored pack refused: {pack.code}")
        players = []
        for d in data["players"]:
            fields = dict(d)
            fields["mission"] = Mission(d["mission"]["id"], tuple(d["mission"]["goals"]))
            fields["items"] = [Item(**i) for i in d["items"]]
            fields["cell"] = tuple(d["cell"])
            fields["seen"] = {tuple(c) for c in d["seen"]}
            players.append(Player(**fields))
        state = State(data["mode"], data["difficulty"], data["seed"], pack, players)
        for key in ("draws", "hour", "limit", "turn", "turns_taken", "overweight", "hold_due", "winner", "timed_out"):
            setattr(state, key, data[key])
        for key, value in data["flags"].items():
            setattr(state, key, bool(value))
        state.grid = [list(row) for row in data["grid"]]
        state.opened = {(c[0], c[1]) for c in data["opened"]}
        state.portals_unlocked = {(c[0], c[1]) for c in data["portals_unlocked"]}
        state.decks = {k: list(v) for k, v in data["decks"].items()}
        state.fight = Fight(**data["fight"]) if data["fight"] else None
        state.offer = Offer(**data["offer"]) if data["offer"] else None
        state.spoils = (data["spoils"][0], data["spoils"][1]) if data["spoils"] else None
        state.cards = {k: GearCard(**v) for k, v in data["cards"].items()}
        state.chars = {k: Character(**v) for k, v in data["chars"].items()}
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise SnapshotError(f"malformed snapshot: {error}") from error
    return state
