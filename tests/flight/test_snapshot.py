"""Versioned flight snapshots: stored samples of every schema version still load.

`snapshots/flight_vN.json` is a real `Flight.to_dict()` of schema N, committed when N was current
(v1: S1-1, three crew, 130 s in, one card placed).  Samples are never regenerated: they are what
flights in progress look like in somebody's database.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.flight.machine import Flight, FlightError, UnrestorableSnapshot
from engine.flight.snapshot import MIGRATIONS, SCHEMA_VERSION, SnapshotError, SnapshotTooNew, migrate

SAMPLES = Path(__file__).parent / "snapshots"


def sample(version: int) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SAMPLES / f"flight_v{version}.json").read_text(encoding="utf-8"))
    return data


def test_every_version_from_1_has_a_sample_and_a_step() -> None:
    assert sorted(MIGRATIONS) == list(range(1, SCHEMA_VERSION)), "one step per version below the current one"
    for version in range(1, SCHEMA_VERSION + 1):
        assert sample(version)["schema_version"] == version


@pytest.mark.parametrize("version", range(1, SCHEMA_VERSION + 1))
def test_stored_sample_restores_and_plays_on(version: int) -> None:
    stored = sample(version)
    frozen = json.dumps(stored, sort_keys=True)
    flight = Flight.from_dict(stored)
    assert json.dumps(stored, sort_keys=True) == frozen  # loading never alters the stored document
    assert flight.to_dict()["schema_version"] == SCHEMA_VERSION
    assert flight.now_s == 130.0 and [m.name for m in flight.members if not m.android] == ["Ann", "Bob", "Cy"]
    assert any(slot for slot in flight.to_dict()["members"][1]["board"]), "Bob's placed card survived"
    flight.advance_to(flight.now_s + 60)  # and it carries on from where it was
    assert flight.now_s == 190.0


def test_current_sample_round_trips_exactly() -> None:
    stored = sample(SCHEMA_VERSION)
    assert Flight.from_dict(stored).to_dict() == stored


def test_steps_run_in_order_on_a_copy() -> None:
    def one_to_two(d: dict[str, Any]) -> dict[str, Any]:
        d["crew_names"] = [m["name"] for m in d.pop("members")]
        return d

    def two_to_three(d: dict[str, Any]) -> dict[str, Any]:
        d["crew_size"] = len(d["crew_names"])
        return d

    stored = sample(1)
    upgraded = migrate(stored, registry={1: one_to_two, 2: two_to_three}, target=3)
    assert upgraded["schema_version"] == 3 and upgraded["crew_size"] == len(stored["members"])
    assert "members" in stored and stored["schema_version"] == 1  # the input is untouched


def test_what_cannot_be_upgraded_raises_snapshot_error() -> None:
    stored = sample(1)
    with pytest.raises(SnapshotTooNew, match="newer than this bot"):
        migrate({**stored, "schema_version": SCHEMA_VERSION + 1})
    with pytest.raises(SnapshotError, match="no upgrade from flight snapshot schema 1 to 2"):
        migrate(stored, registry={}, target=2)
    with pytest.raises(SnapshotError, match="1 -> 2 failed"):
        migrate(stored, registry={1: lambda d: d["no such key"]}, target=2)
    for bad in (None, "1", 0, True):
        with pytest.raises(SnapshotError, match="schema_version"):
            migrate({**stored, "schema_version": bad})


def test_the_machine_raises_one_catchable_error() -> None:
    # the bot catches SnapshotError; older code catching FlightError keeps working
    with pytest.raises(UnrestorableSnapshot) as caught:
        Flight.from_dict({**sample(1), "schema_version": 99})
    assert isinstance(caught.value, SnapshotError) and isinstance(caught.value, FlightError)
