"""`python -m engine resolve`: the result JSON on stdout, and exit 2 with one stderr line naming
the field for every class of invalid input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

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
    assert any("Skirmishers" in e["text"] for e in log)  # in words, from the catalogue


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


# -- hostile and broken input, in process: engine.cli.main is the CLI's entry -----------
def cli(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int, str, str]:
    from engine.cli import main

    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def resolve_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str], raw: bytes) -> tuple[int, str]:
    path = tmp_path / "game.json"
    path.write_bytes(raw)
    code, out, err = cli(capsys, ["resolve", str(path)])
    if code == 0:
        json.loads(out)
        assert err == ""
    else:
        assert code == 2 and out == "" and err.count("\n") == 1, err
    return code, err


def _good() -> dict:
    return game("-" * 12, "c" * 12, threats=[ext("E1-07", 5, "red"), inn("I1-01", 4)])


LOOSE_TYPES = {
    "bool as turn": (("threats", 0, "turn"), True, "threats[0].turn"),
    "string as turn": (("threats", 0, "turn"), "5", "threats[0].turn"),
    "float as turn": (("threats", 0, "turn"), 5.0, "threats[0].turn"),
    "bool as seed": (("seed",), True, "seed"),
    "number as name": (("players", 0, "name"), 7, "players[0].name"),
    "negative seed": (("seed",), -1, "seed"),
    "extra key": (("players", 0, "hat"), "red", "players[0].hat"),
}


@pytest.mark.parametrize("case", sorted(LOOSE_TYPES))
def test_loose_types_are_refused_naming_the_field(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, value, field = LOOSE_TYPES[case]
    data = _good()
    node: Any = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    code, err = resolve_bytes(tmp_path, capsys, json.dumps(data).encode())
    assert code == 2 and err.startswith(f"invalid game: {field}:"), err


IMPOSSIBLE = {
    "same card twice": (
        {"threats": [ext("E1-07", 2, "red"), ext("E1-07", 5, "blue")]},
        "threats[1].id: card E1-07 is already placed",
    ),
    "two externals on one turn": (
        {"threats": [ext("E1-07", 2, "red"), ext("E1-01", 2, "blue")]},
        "threats[1].turn: a second external threat on T+2",
    ),
    "two internals on one turn": (
        {"threats": [inn("I1-01", 3), inn("I1-02", 3)]},
        "threats[1].turn: a second internal threat on T+3",
    ),
    "one trajectory for two zones": (
        {"tracks": {"red": "T1", "white": "T1", "blue": "T3", "internal": "T4"}},
        "tracks.white: trajectory T1 already lies beside red",
    ),
    "duplicate player names": (
        {"players": [{"name": "Ann", "actions": "-" * 12}, {"name": "ann ", "actions": "-" * 12}]},
        "players[1].name: the same name as players[0]",
    ),
    "blank player name": ({"players": [{"name": "   ", "actions": "-" * 12}]}, "players[0].name: must not be blank"),
    "no players": ({"players": []}, "players:"),
    "seventeen threats": ({"threats": [ext("E1-07", 1, "red")] * 17}, "threats:"),
}


@pytest.mark.parametrize("case", sorted(IMPOSSIBLE))
def test_physically_impossible_games_name_the_rule(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    changes, message = IMPOSSIBLE[case]
    code, err = resolve_bytes(tmp_path, capsys, json.dumps(_good() | changes).encode())
    assert code == 2 and message in err, err


def test_one_external_and_one_internal_may_share_a_turn(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _good() | {"threats": [ext("E1-07", 4, "red"), inn("I1-01", 4)]}
    assert resolve_bytes(tmp_path, capsys, json.dumps(data).encode())[0] == 0


BROKEN_BYTES = {
    "non-UTF-8": (b'{"seed": "\xff\xfe"}', "not UTF-8 text"),
    "empty": (b"", "empty document"),
    "blank": (b"  \n ", "empty document"),
    "deep nesting": (b"[" * 100_000 + b"]" * 100_000, "nested more than"),
    "deep unclosed nesting": (b'{"a":' * 50_000, "nested more than"),
    "huge integer": (b'{"seed": ' + b"9" * 5000 + b"}", "number too long"),
    "huge float": (b'{"seed": 1' + b"0" * 5000 + b".5}", "number too long"),
    "NaN": (b'{"seed": NaN}', "NaN"),
    "top-level array": (b"[1, 2]", "game: must be a JSON object"),
    "string literal": (b'"game"', "game: must be a JSON object"),
}


@pytest.mark.parametrize("case", sorted(BROKEN_BYTES))
def test_broken_documents_are_one_clean_line(case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw, message = BROKEN_BYTES[case]
    code, err = resolve_bytes(tmp_path, capsys, raw)
    assert code == 2 and message in err, err


def test_a_byte_order_mark_is_accepted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert resolve_bytes(tmp_path, capsys, b"\xef\xbb\xbf" + json.dumps(_good()).encode())[0] == 0


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    from engine.documents import nesting_depth

    assert nesting_depth('{"a": "[[[[\\"[[[[", "b": [[1]]}', 16) == 3
    assert nesting_depth('["\\\\", [[]]]', 16) == 3


def test_a_50_mb_file_is_refused_by_size_before_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    big = tmp_path / "huge.json"
    with open(big, "wb") as fh:  # sparse: 50 MB on paper, nothing on disk
        fh.truncate(50 * 1024 * 1024)
    reads: list[int] = []
    real_open = open

    def spy_open(path: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        fh = real_open(path, mode, *args, **kwargs)
        if str(path) == str(big):
            read = fh.read
            fh = _SpyFile(fh, lambda n=-1: reads.append(n) or read(n))
        return fh

    monkeypatch.setattr("builtins.open", spy_open)
    code, _out, err = cli(capsys, ["resolve", str(big)])
    assert code == 2 and "too large: 52428800 bytes" in err and err.count("\n") == 1
    assert reads == []  # refused on its size alone
    code, _out, err = cli(capsys, ["timeline", "--file", str(big)])
    assert code == 2 and "too large" in err and reads == []


class _SpyFile:
    def __init__(self, fh: Any, read: Any) -> None:
        self._fh, self.read = fh, read

    def __getattr__(self, name: str) -> Any:
        return getattr(self._fh, name)

    def __enter__(self) -> _SpyFile:
        return self

    def __exit__(self, *exc: object) -> None:
        self._fh.close()


def test_stdin_is_read_only_up_to_the_cap(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import types

    from engine.documents import MAX_GAME_BYTES

    stream = io.BytesIO(b" " * (MAX_GAME_BYTES * 4))
    monkeypatch.setattr("sys.stdin", types.SimpleNamespace(buffer=stream))
    code, _out, err = cli(capsys, ["resolve", "-"])
    assert code == 2 and "too large" in err
    assert stream.tell() == MAX_GAME_BYTES + 1
