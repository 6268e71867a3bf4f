"""Mutation fuzz: thousands of seeded mutants of valid games and timelines through the
CLI entry functions and the bot handlers.  The property: a valid result, or exactly one clean
error line (exit 2 / a private one-line answer); never an exception, never "thinking…" forever.

Bounded by mutant counts, not by a clock (a few seconds on this machine; pytest-timeout catches a
hang).  A failure names the seed and index; `mutants(random.Random(SEED), ...)[index]` replays it.
"""

from __future__ import annotations

import io
import json
import random
import types
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main as engine_main
from engine.flight.timeline import load_official
from engine.flight.timeline_cli import main as timeline_main
from tests.bot.helpers import make_attachment
from tests.fuzz.mutants import mutants

SEED = 20261123

VALID_GAMES: list[dict[str, Any]] = [
    {
        "tracks": {"red": "T1", "white": "T2", "blue": "T3", "internal": "T4"},
        "players": [{"name": "Ann", "actions": "a-bb<^aa-c-a"}, {"name": "Bob", "actions": ">a-a--cc-aba"}],
        "threats": [{"id": "E1-01", "turn": 1, "zone": "red"}, {"id": "I1-01", "turn": 3}],
    },
    {
        "tracks": {"red": "T5", "white": "T3", "blue": "T1", "internal": "T4"},
        "players": [
            {"name": f"P{i}", "actions": ["c", "a", "b", "a", "c", "a", "b", "a", "c", "b", "a", "b"]} for i in range(5)
        ],
        "threats": [
            {"id": "E1-07", "turn": 2, "zone": "blue"},
            {"id": "E1-02", "turn": 4, "zone": "white"},
            {"id": "I1-02", "turn": 4},
            {"id": "E2-01", "turn": 6, "zone": "red"},
        ],
        "seed": 99,
        "damage_tokens": {"red": ["shield"], "white": [], "blue": ["lift", "reactor"]},
    },
]
# official tracks under custom ids (an official id is refused as an upload's id)
VALID_TIMELINES = [load_official(m).to_json_dict() | {"id": f"FUZZ-{m}"} for m in ("S1-1", "S2-1", "S2-6")]


def _stdin(monkeypatch: pytest.MonkeyPatch, raw: bytes) -> None:
    monkeypatch.setattr("sys.stdin", types.SimpleNamespace(buffer=io.BytesIO(raw)))


def test_resolve_cli_on_thousands_of_mutant_games(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    outcomes = {0: 0, 2: 0}
    for i, raw in enumerate(mutants(random.Random(SEED), VALID_GAMES, 2000)):
        _stdin(monkeypatch, raw)
        try:
            code = engine_main(["resolve", "-"])
        except BaseException as exc:
            pytest.fail(f"mutant {i} raised {exc!r}: {raw[:200]!r}")
        out, err = capsys.readouterr()
        if code == 0:
            assert json.loads(out)["outcome"] in ("survived", "destroyed") and err == "", (i, err)
        else:
            assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("invalid game: "), (i, err)
        outcomes[code] += 1
    # the mix is real: controls and harmless mutants resolve, the rest are refused
    assert outcomes[0] >= 200 and outcomes[2] >= 1200, outcomes


def test_timeline_cli_on_thousands_of_mutant_timelines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outcomes = {0: 0, 2: 0}
    path = tmp_path / "mission.json"
    for i, raw in enumerate(mutants(random.Random(SEED + 1), VALID_TIMELINES, 2000)):
        path.write_bytes(raw)
        try:
            code = timeline_main(["--file", str(path)])
        except BaseException as exc:
            pytest.fail(f"mutant {i} raised {exc!r}: {raw[:200]!r}")
        out, err = capsys.readouterr()
        if code == 0:
            assert json.loads(out)["events"] is not None and err == "", (i, err)
        else:
            assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("timeline: error: "), (i, err)
        outcomes[code] += 1
    assert outcomes[0] >= 200 and outcomes[2] >= 1200, outcomes


def _one_answer(inter: Any) -> Any:
    """The interaction got its answer: the defer (if any) and exactly one message after it."""
    answers = [s for s in inter.log if s.kind != "defer"]
    assert answers, inter.log
    return answers[-1]


async def test_resolve_handler_on_mutant_games(bot: Any, world: Any) -> None:
    cog = bot.get_cog("Records")
    ann = world.member("Ann")
    public = 0
    for i, raw in enumerate(mutants(random.Random(SEED + 2), VALID_GAMES, 300)):
        inter = world.interaction(ann)
        if i % 2:
            await cog.resolve.callback(cog, inter, game=make_attachment(raw, "game.json"))
        else:
            await cog.resolve.callback(cog, inter, json_text=raw.decode("utf-8", "replace"))
        answer = _one_answer(inter)
        if answer.embed is not None:
            assert answer.kind == "followup" and answer.kwargs.get("ephemeral") is False
            public += 1
        else:
            assert answer.ephemeral, (i, answer)
            assert "\n" not in answer.content and "Invalid game: invalid game" not in answer.content, answer.content
    assert public >= 30


async def test_custom_add_handler_on_mutant_timelines(bot: Any, world: Any) -> None:
    cog = bot.get_cog("Mission")
    ada = world.member("Ada")
    saved = 0
    for i, raw in enumerate(mutants(random.Random(SEED + 3), VALID_TIMELINES, 300)):
        inter = world.interaction(ada, manage_guild=True)
        await cog.custom_add.callback(cog, inter, make_attachment(raw))
        answer = _one_answer(inter)
        assert answer.ephemeral and "\n" not in answer.content, (i, answer)
        saved += "saved" in answer.content
    assert saved >= 1
