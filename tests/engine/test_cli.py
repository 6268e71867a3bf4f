"""`python -m engine resolve`: the result JSON on stdout, and exit 2 with one stderr line naming
the field for every class of invalid input (engine issue)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.engine.helpers import ext, game, inn

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], input=stdin, capture_output=True, text=True, cwd=ROOT, timeout=60
    )


def test_resolve_file_prints_the_result_json(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game("-" * 12, threats=[ext("E1-07", 5, "red")])))
    out = run(["resolve", str(path)])
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["outcome"] == "survived"
    assert data["damage"] == {"red": 5, "white": 0, "blue": 0}
    assert set(data) == {
        "outcome",
        "lost",
        "damage",
        "threats",
        "knocked_out",
        "disabled_battlebots",
        "observation",
        "score",
    }
    assert data["threats"] == [{"id": "E1-07", "turn": 5, "zone": "red", "fate": "survived", "points": 2}]
    assert data["score"] == {
        "threats": 2,
        "damage": -5,
        "worst_zone": -5,
        "knocked_out": 0,
        "battlebots": 0,
        "observation": 0,
        "total": -8,
    }


def test_resolve_stdin_with_log() -> None:
    payload = json.dumps(game("-^b^aaaaaa--", "<^c^-cxcxa--", threats=[ext("E1-07", 5, "red"), inn("I1-01", 4)]))
    out = run(["resolve", "-", "--log"], stdin=payload)
    assert out.returncode == 0, out.stderr
    log = json.loads(out.stdout)["log"]
    assert log and all({"turn", "step", "text"} <= set(e) for e in log)
    assert any("Skirmishers" in e["text"] for e in log)


def test_players_may_give_actions_as_a_list() -> None:
    data = game("-" * 12)
    data["players"][0]["actions"] = ["<", "^", "c", "^", "-", "c", "x", "c", "x", "a", "-", "-"]
    out = run(["resolve", "-"], stdin=json.dumps(data))
    assert out.returncode == 0, out.stderr


def _bad(**changes) -> dict:
    data = game("-" * 12, threats=[ext("E1-07", 5, "red")])
    for key, value in changes.items():
        data[key] = value
    return data


INVALID = {
    "unknown threat id": (_bad(threats=[{"id": "E9-99", "turn": 3, "zone": "red"}]), "threats[0]"),
    "bad action code": (_bad(players=[{"name": "A", "actions": "-----q------"}]), "players[0].actions"),
    "eleven actions": (_bad(players=[{"name": "A", "actions": "-" * 11}]), "players[0].actions"),
    "internal with zone": (_bad(threats=[{"id": "I1-01", "turn": 3, "zone": "red"}]), "threats[0]"),
    "external without zone": (_bad(threats=[{"id": "E1-01", "turn": 3}]), "threats[0]"),
    "unknown track": (_bad(tracks={"red": "T9", "white": "T3", "blue": "T1", "internal": "T4"}), "tracks.red"),
    "six crew": (_bad(players=[{"name": f"P{i}", "actions": "-" * 12} for i in range(6)]), "players"),
    "turn out of range": (_bad(threats=[{"id": "E1-01", "turn": 9, "zone": "red"}]), "threats[0].turn"),
}


@pytest.mark.parametrize("case", sorted(INVALID))
def test_invalid_input_exits_2_with_one_line_naming_the_field(case: str) -> None:
    data, field = INVALID[case]
    out = run(["resolve", "-"], stdin=json.dumps(data))
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    assert field in lines[0]
    assert "Traceback" not in out.stderr


def test_malformed_json_exits_2() -> None:
    out = run(["resolve", "-"], stdin='{"tracks": ')
    assert out.returncode == 2
    assert len(out.stderr.strip().splitlines()) == 1 and "malformed JSON" in out.stderr


def test_missing_file_and_bad_arguments_exit_2() -> None:
    out = run(["resolve", "/nonexistent/game.json"])
    assert out.returncode == 2 and len(out.stderr.strip().splitlines()) == 1
    out = run(["bogus"])
    assert out.returncode == 2 and "Traceback" not in out.stderr
