"""Versioned snapshots: refusals come as SnapshotError, the migration chain is followed."""

from __future__ import annotations

import pytest

from engine.escape import snapshot
from engine.escape.snapshot import SCHEMA_VERSION, SnapshotError, from_dict, migrate, to_dict
from tests.escape.helpers import digital, referee


def test_a_snapshot_is_stamped_and_json_plain() -> None:
    import json

    data = to_dict(referee())
    assert data["schema_version"] == SCHEMA_VERSION
    assert json.loads(json.dumps(data)) == data
    assert to_dict(from_dict(data)) == data


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.pop("schema_version"),
        lambda d: d.update(schema_version=SCHEMA_VERSION + 1),
        lambda d: d.update(schema_version="1"),
        lambda d: d.pop("players"),
        lambda d: d.update(pack={"format": 9}),
        lambda d: d["players"][0].update(items=[{"nope": 1}]),
    ],
)
def test_broken_snapshots_are_refused_with_snapshot_error(mutate) -> None:  # type: ignore[no-untyped-def]
    data = to_dict(digital())
    mutate(data)
    with pytest.raises(SnapshotError):
        from_dict(data)


def test_migrations_run_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    data = to_dict(digital())
    data["schema_version"] = 1
    monkeypatch.setattr(snapshot, "SCHEMA_VERSION", 2)
    monkeypatch.setitem(snapshot.MIGRATIONS, 1, lambda d: {**d, "marker": True})
    assert migrate(data)["marker"] is True and migrate(data)["schema_version"] == 2
    monkeypatch.delitem(snapshot.MIGRATIONS, 1)
    with pytest.raises(SnapshotError):
        migrate(data)


@pytest.mark.parametrize("name", ["v1_digital.json", "v1_referee.json", "v2_digital_trade.json"])
def test_stored_samples_of_every_version_still_load(name: str) -> None:
    """A game stored by an older build must load: one sample per schema version, kept forever."""
    import json
    from pathlib import Path

    from engine.escape.rules import Applied, apply, legal_commands

    data = json.loads((Path(__file__).parent / "snapshots" / name).read_text("utf-8"))
    state = from_dict(data)
    assert state.players and not state.over
    from engine.escape.policy import actor

    command = legal_commands(state, actor(state))[0]
    assert isinstance(apply(state, command), Applied)
