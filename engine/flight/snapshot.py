"""Versioned flight snapshots: the schema number `Flight.to_dict` stamps, and the upgrades.

Why: a flight in progress lives in the database as `Flight.to_dict()` for up to half an hour,
across restarts and deploys.  When the state's shape changes, the flights stored in the old shape
must still load, so every change of shape bumps `SCHEMA_VERSION` and registers one small pure
function that turns a version-N snapshot into version N+1 (`MIGRATIONS[N]`).  Loading runs the
chain.  Each step gets a stored sample of its input version under tests/flight/snapshots/, and a
test refuses a registered step without one.

A snapshot that cannot be brought up to date (newer than this code, no step registered, a step
failing on it) raises `SnapshotError`, which the bot catches to end that one flight politely.

Pure and deterministic: no I/O, the input is never mutated.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping
from typing import Any

Snapshot = dict[str, Any]
Step = Callable[[Snapshot], Snapshot]

# The shape Flight.to_dict writes today.  Bump it together with a step in MIGRATIONS.
SCHEMA_VERSION = 3


def _v1_untimed(data: Snapshot) -> Snapshot:
    """v2 adds untimed flights: the config's `untimed`, the schedule's `delay_s` (time phase ends
    were held for Finish presses) and each member's `finished_last`.  A v1 flight ran on the clock."""
    data["config"]["untimed"] = False
    data["delay_s"] = 0.0
    for member in data["members"]:
        member["finished_last"] = False
    return data


def _v2_pause(data: Snapshot) -> Snapshot:
    """v3 adds pausing: who paused the flight (`paused_by`) and the time spent paused so far
    (`paused_s`).  A v2 flight was never paused."""
    data["paused_by"] = None
    data["paused_s"] = 0.0
    return data


# MIGRATIONS[n] turns a schema-n snapshot into schema n+1 (it may mutate its argument, a copy).
MIGRATIONS: dict[int, Step] = {1: _v1_untimed, 2: _v2_pause}


class SnapshotError(ValueError):
    """A stored flight state this code cannot restore; the flight has to be ended, not resumed."""


class SnapshotTooNew(SnapshotError):
    """Written by a newer version of the bot (a downgrade while flights were in progress)."""


def version_of(snapshot: Mapping[str, Any]) -> int:
    version = snapshot.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise SnapshotError(f"flight snapshot has no valid schema_version (found {version!r})")
    return version


def migrate(
    snapshot: Mapping[str, Any],
    *,
    registry: Mapping[int, Step] | None = None,
    target: int = SCHEMA_VERSION,
) -> Snapshot:
    """A copy of `snapshot` brought up to schema `target`, one registered step at a time."""
    steps = MIGRATIONS if registry is None else registry
    version = version_of(snapshot)
    if version > target:
        raise SnapshotTooNew(f"flight snapshot schema {version} is newer than this bot ({target})")
    if version == target:
        return dict(snapshot)  # the common case: nothing to upgrade, no deep copy on every click
    data: Snapshot = copy.deepcopy(dict(snapshot))
    while version < target:
        step = steps.get(version)
        if step is None:
            raise SnapshotError(f"no upgrade from flight snapshot schema {version} to {version + 1}")
        try:
            data = step(data)
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise SnapshotError(f"flight snapshot schema {version} -> {version + 1} failed: {exc!r}") from exc
        version += 1
        data["schema_version"] = version
    return data


def mission_clock(paused: bool, now_s: float, paused_s: float, elapsed_s: float) -> float:
    """Mission time after `elapsed_s` seconds on the caller's clock since the start: pauses do
    not count, while paused mission time stands still, and it never runs backwards.  The one rule
    `Flight.clock` and `clock_of` share."""
    if paused:
        return now_s
    return max(now_s, elapsed_s - paused_s)


def clock_of(snapshot: Mapping[str, Any], elapsed_s: float) -> float:
    """`Flight.clock` read off a stored snapshot without restoring the flight (the bot asks it on
    every tick of every flight, where a restore would cost far more than the answer)."""
    return mission_clock(
        snapshot.get("paused_by") is not None,
        float(snapshot.get("now_s", 0.0)),
        float(snapshot.get("paused_s", 0.0)),
        elapsed_s,
    )
