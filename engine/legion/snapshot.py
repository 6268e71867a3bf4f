"""Versioned voyage snapshots: `to_snapshot` writes plain JSON data, `from_snapshot` reads it back.

Why: a voyage lasts an evening and must survive a restart or a deploy, like a Space Alert flight
(engine/flight/snapshot.py).  Every change of the state's shape bumps `SCHEMA_VERSION` and
registers a pure step in `MIGRATIONS` (version N -> N+1); loading runs the chain.  The pack is not
stored, only its id: the adapter passes the same `Content` back (a pack change mid-voyage is
refused as `pack_mismatch`).  The dice's state is stored, so a restored voyage rolls the very
dice it would have rolled.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from collections.abc import Callable, Mapping
from typing import Any

from engine.legion.pack import Content
from engine.legion.state import Combat, Compartment, Seat, Ship, State, Tour, Visit

Snapshot = dict[str, Any]
Step = Callable[[Snapshot], Snapshot]

SCHEMA_VERSION = 1

# MIGRATIONS[n] turns a schema-n snapshot into schema n+1 (it may mutate its argument, a copy).
MIGRATIONS: dict[int, Step] = {}


class SnapshotError(ValueError):
    """A stored voyage this code cannot restore; `code` says why."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def to_snapshot(state: State) -> Snapshot:
    """The state as JSON-ready data (dicts, lists, ints, strings, booleans, None)."""
    data: Snapshot = {}
    for field in dataclasses.fields(state):
        if field.name in ("content", "rng"):
            continue
        data[field.name] = _plain(getattr(state, field.name))
    version, internal, gauss = state.rng.getstate()
    data["rng"] = {"version": version, "internal": list(internal), "gauss": gauss}
    data["pack"] = state.content.pack.id
    data["schema_version"] = SCHEMA_VERSION
    return data


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def migrate(snapshot: Mapping[str, Any], *, registry: Mapping[int, Step] | None = None) -> Snapshot:
    """A copy of `snapshot` brought up to `SCHEMA_VERSION`, one registered step at a time."""
    steps = MIGRATIONS if registry is None else registry
    version = snapshot.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise SnapshotError("no_version")
    if version > SCHEMA_VERSION:
        raise SnapshotError("too_new")
    data: Snapshot = copy.deepcopy(dict(snapshot))
    while version < SCHEMA_VERSION:
        upgrade = steps.get(version)
        if upgrade is None:
            raise SnapshotError("no_step")
        data = upgrade(data)
        version += 1
        data["schema_version"] = version
    return data


def from_snapshot(snapshot: Mapping[str, Any], content: Content) -> State:
    """The state a snapshot describes; raises `SnapshotError` when it cannot be restored."""
    data = migrate(snapshot)
    if data.get("pack") != content.pack.id:
        raise SnapshotError("pack_mismatch")
    try:
        return _build(data, content)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SnapshotError("malformed") from exc


def _build(data: Snapshot, content: Content) -> State:
    rng = random.Random()
    raw = data["rng"]
    rng.setstate((raw["version"], tuple(raw["internal"]), raw["gauss"]))
    ship = dict(data["ship"])
    ship["hold"] = [Compartment(**c) for c in ship["hold"]]
    tour = dict(data["tour"])
    for name in ("orders", "submitted", "drawn"):
        tour[name] = dict(tour[name])
    fields = {f.name for f in dataclasses.fields(State)} - {"content", "rng"}
    values = {name: data[name] for name in fields}
    values.update(
        seats=[Seat(**s) for s in data["seats"]],
        ship=Ship(**ship),
        tour=Tour(**tour),
        combat=Combat(**data["combat"]) if data["combat"] is not None else None,
        visit=Visit(**data["visit"]) if data["visit"] is not None else None,
        roles={int(seat): list(held) for seat, held in data["roles"].items()},
    )
    return State(content=content, rng=rng, **values)
