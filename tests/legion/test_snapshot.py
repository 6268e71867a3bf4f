"""Versioned voyage snapshots: the migration chain and its refusals."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.legion import snapshot
from engine.legion.commands import Depart
from engine.legion.pack import Content
from engine.legion.rules import step
from engine.legion.snapshot import SCHEMA_VERSION, SnapshotError, from_snapshot, migrate, to_snapshot
from tests.legion.helpers import CONTENT, voyage


def test_snapshot_is_plain_json_with_a_version_and_the_pack_id() -> None:
    state = voyage()
    step(state, Depart(state.captain))
    data = to_snapshot(state)
    assert json.loads(json.dumps(data)) == data
    assert data["schema_version"] == SCHEMA_VERSION and data["pack"] == CONTENT.pack.id


def test_a_registered_step_upgrades_an_older_snapshot(monkeypatch: pytest.MonkeyPatch) -> None:
    data = to_snapshot(voyage())
    monkeypatch.setattr(snapshot, "SCHEMA_VERSION", SCHEMA_VERSION + 1)

    def upgrade(snap: dict[str, Any]) -> dict[str, Any]:
        snap["added_later"] = True
        return snap

    upgraded = migrate(data, registry={SCHEMA_VERSION: upgrade})
    assert upgraded["added_later"] is True and upgraded["schema_version"] == SCHEMA_VERSION + 1
    assert "added_later" not in data  # the input is never changed


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"schema_version": SCHEMA_VERSION + 1}, "too_new"),
        ({"schema_version": "1"}, "no_version"),
        ({"schema_version": True}, "no_version"),
        ({"pack": "someone_elses"}, "pack_mismatch"),
        ({"seats": [{"nonsense": 1}]}, "malformed"),
    ],
)
def test_unrestorable_snapshots_are_refused_with_a_code(change: dict[str, Any], code: str) -> None:
    data = dict(to_snapshot(voyage()), **change)
    with pytest.raises(SnapshotError) as err:
        from_snapshot(data, CONTENT)
    assert err.value.code == code


def test_a_missing_step_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    data = to_snapshot(voyage())
    monkeypatch.setattr(snapshot, "SCHEMA_VERSION", SCHEMA_VERSION + 1)
    with pytest.raises(SnapshotError) as err:
        migrate(data, registry={})
    assert err.value.code == "no_step"


def test_restored_voyage_shares_the_pack() -> None:
    restored = from_snapshot(to_snapshot(voyage()), CONTENT)
    assert isinstance(restored.content, Content) and restored.content is CONTENT
