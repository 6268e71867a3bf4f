"""`python -m engine hindsight GAME.json [--max-changes 1|2] [--budget-s S]`: the JSON shape of
issue 29 on stdout; bad input exits 2 with one stderr line, as `resolve` does."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine import Game, resolve
from engine.hindsight import hindsight
from engine.random_game import random_game
from tests.engine.test_cli import run


def lost_and_saved_by_one_change() -> dict[str, Any]:
    """A random lost game that one change saves (found once, deterministically)."""
    rng = random.Random(1)
    while True:
        raw = random_game(rng, crew=4, threats=rng.randint(3, 6))
        game = Game.model_validate(raw)
        if resolve(game).outcome == "destroyed" and hindsight(game).changes:
            return raw


@pytest.fixture(scope="module")
def saved() -> dict[str, Any]:
    return lost_and_saved_by_one_change()


def test_prints_the_changes_the_plans_and_the_result(tmp_path: Path, saved: dict[str, Any]) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(saved))
    out = run(["hindsight", str(path)])
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert set(data) == {"changes", "plans", "result", "proven_minimal", "searched"}
    assert len(data["changes"]) == 1
    (change,) = data["changes"]
    assert set(change) == {"player", "kind", "card", "from_turn", "to_turn"}
    assert change["kind"] in ("take_back", "move")  # a GAME.json has no hands
    assert change["to_turn"] is None if change["kind"] == "take_back" else isinstance(change["to_turn"], int)
    assert list(data["plans"]) == [p["name"] for p in saved["players"]]
    assert all(len(plan) == 12 for plan in data["plans"].values())
    assert data["proven_minimal"] is True
    assert data["searched"] > 0
    # The result has resolve's shape and is what resolve says of the changed plans.
    for p in saved["players"]:
        p["actions"] = data["plans"][p["name"]]
    path.write_text(json.dumps(saved))
    again = run(["resolve", str(path)])
    assert json.loads(again.stdout) == data["result"]
    assert data["result"]["outcome"] == "survived"


def test_nothing_helps_gives_no_changes_and_the_played_result(tmp_path: Path) -> None:
    raw = {
        "tracks": {"red": "T1", "white": "T2", "blue": "T3", "internal": "T4"},
        "players": [{"name": "Ann", "actions": "------------"}],
        "threats": [],
        "seed": 1,
    }
    path = tmp_path / "game.json"
    path.write_text(json.dumps(raw))
    out = run(["hindsight", str(path), "--max-changes", "2", "--budget-s", "2"])
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["changes"] == []
    assert data["plans"] == {"Ann": "------------"}
    assert data["result"] == json.loads(run(["resolve", str(path)]).stdout)
    assert data["proven_minimal"] is True


@pytest.mark.parametrize(
    ("args", "stdin", "needle"),
    [
        (["hindsight", "-"], "{not json", "invalid game"),
        (["hindsight", "-"], '{"players": []}', "tracks"),
        (["hindsight", "/nonexistent/game.json"], None, "error:"),
        (["hindsight", "-", "--max-changes", "3"], "{}", "--max-changes"),
        (["hindsight", "-", "--budget-s", "soon"], "{}", "--budget-s"),
        (["hindsight", "-", "--budget-s", "0"], "{}", "--budget-s"),
    ],
)
def test_bad_input_exits_2_with_one_line(args: list[str], stdin: str | None, needle: str) -> None:
    out = run(args, stdin=stdin)
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0]
    assert "Traceback" not in out.stderr
