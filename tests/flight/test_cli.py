"""`timeline` CLI: called in-process through main(argv) and as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.games.space_alert.intercom import say
from engine.flight.generator import generate
from engine.flight.timeline import load_official
from engine.flight.timeline_cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_official_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["S2-1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out)[:1] == ["id"] and out["id"] == "S2-1"
    assert out["phases"] == 3 and out["phase_end_s"] == [225, 450, 600]
    assert out["events"] == [e.to_json() for e in load_official("S2-1").events]
    assert out["events"][0] == {
        "t": 10,
        "time": "0:10",
        "event": "threat",
        "turn": 2,
        "zone": "white",
        "internal": False,
        "serious": True,
        "unconfirmed": False,
    }
    assert [e["t"] for e in out["events"]] == sorted(e["t"] for e in out["events"])


def test_spoken_script(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["S2-1", "--lang", "ru", "--text"], say) == 0
    out = capsys.readouterr().out
    assert out.startswith("0:00  [alert] Обнаружена вражеская активность.")
    assert "3:38  Завершение первой фазы через пять, четыре, три, два, один." in out
    assert main(["S1-2", "--text"], say) == 0
    assert "Begin second phase." in capsys.readouterr().out
    assert main(["S1-2", "--text"]) == 0  # the engine alone: the lines in codes
    assert "  phase_begins phase=2" in capsys.readouterr().out


def test_generate(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--generate", "--seed", "42"]) == 0
    assert json.loads(capsys.readouterr().out) == generate(42).to_json_dict()
    assert main(["--generate", "--seed", "42", "--preset", "test_run"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["phases"] == 2 and out == generate(42, "test_run").to_json_dict()
    assert main(["--generate", "--seed", "1", "--threat-level", "10", "--max-serious-threats", "4"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert sum(2 if e["serious"] else 1 for e in out["events"] if e["event"] == "threat") == 10


def test_custom_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "m.json"
    good.write_text(json.dumps(load_official("S2-4").to_json_dict()), encoding="utf-8")
    assert main(["--file", str(good)]) == 0
    assert json.loads(capsys.readouterr().out)["phase_end_s"] == [225, 440, 580]
    bad = tmp_path / "bad.json"
    data = load_official("S2-4").to_json_dict()
    data["phases"] = 2
    bad.write_text(json.dumps(data), encoding="utf-8")
    assert main(["--file", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err == "timeline: error: phase_end_s has 3 values but phases is 2\n"


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["S9-9"], "unknown mission 'S9-9'"),
        ([], "exactly one of"),
        (["S2-1", "--generate", "--seed", "1"], "exactly one of"),
        (["--generate"], "--generate needs --seed"),
        (["--generate", "--seed", "x"], "invalid int value"),
        (["--generate", "--seed", "1", "--preset", "easy"], "invalid choice"),
        (["S2-1", "--seed", "3"], "need --generate"),
        (["S2-1", "--lang", "de"], "invalid choice"),
        (["--generate", "--seed", "1", "--threat-level", "99"], "threat_level"),
        (["--bogus"], "unrecognized arguments"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith("timeline: error: ")
    assert fragment in captured.err


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "engine.flight.timeline_cli", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def test_subprocess() -> None:
    ok = _run("S1-1")
    assert ok.returncode == 0 and json.loads(ok.stdout)["phase_end_s"] == [250, 420]
    bad = _run("--generate")
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.splitlines() == ["timeline: error: --generate needs --seed"]
    assert "Traceback" not in bad.stderr
