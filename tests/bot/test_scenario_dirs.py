"""SCENARIO_DIRS at start-up: a broken or hostile file is skipped with one log line and
never keeps the good files, or the official missions, from loading."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from bot.games.space_alert.mission.storage import Flights
from engine.flight.timeline import load_official
from tests.bot.helpers import FakeClock, new_bot, open_lobby, stop_bot


def _write_folder(folder: Path) -> None:
    folder.mkdir()
    good = load_official("S2-3").to_json_dict() | {"id": "GOOD-1", "name": "Good one"}
    (folder / "a_good.json").write_text(json.dumps(good), encoding="utf-8")
    (folder / "b_deep.json").write_bytes(b"[" * 200_000 + b"]" * 200_000)
    (folder / "c_binary.json").write_bytes(b"\xff\xfe\x00garbage")
    (folder / "d_centuries.json").write_text(
        json.dumps(good | {"id": "LONG-1", "phase_end_s": [225, 450, 300_000_000_000]}), encoding="utf-8"
    )
    (folder / "e_official_id.json").write_text(json.dumps(good | {"id": "S2-1"}), encoding="utf-8")
    (folder / "f_same_id.json").write_text(json.dumps(good), encoding="utf-8")
    (folder / "g_huge_int.json").write_text('{"id": "X", "phases": ' + "9" * 10_000 + "}", encoding="utf-8")


async def test_bad_scenario_files_are_skipped_at_start_up(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    folder = tmp_path / "missions"
    _write_folder(folder)
    caplog.set_level(logging.WARNING, logger="bot.games.space_alert.mission._missions")
    bot = await new_bot(tmp_path / "sa.sqlite3", FakeClock(), scenario_dirs=[folder])
    try:
        skipped = [r.getMessage() for r in caplog.records if "skipping mission file" in r.getMessage()]
        # validated at start-up, before anyone asks: one line per bad file, none for the good one
        assert len(skipped) == 6, skipped
        assert all("\n" not in line for line in skipped)
        assert not any(line.startswith(f"skipping mission file {folder / 'a_good.json'}") for line in skipped)
        catalog = bot.get_cog("Mission").catalog
        assert list(catalog.file_missions()) == ["GOOD-1"]
        values = [value for value, _label in await catalog.choices(None)]
        assert values[:16] == [f"S1-{i}" for i in range(1, 9)] + [f"S2-{i}" for i in range(1, 9)]
        assert "GOOD-1" in values
    finally:
        await stop_bot(bot)


async def test_official_and_file_missions_start_despite_a_bad_file(tmp_path: Path) -> None:
    from tests.bot.helpers import World

    folder = tmp_path / "missions"
    _write_folder(folder)
    bot = await new_bot(tmp_path / "sa.sqlite3", FakeClock(), scenario_dirs=[folder])
    try:
        world: Any = World(bot)
        for mission in ("S2-1", "GOOD-1"):
            fid, _lobby = await open_lobby(bot, world, world.member(f"Host {mission}"), mission=mission)
            assert (await Flights(bot.storage).load_flight(fid)).options["mission"] == mission
            world = World(bot)  # one lobby per channel: a fresh guild and channel for the next
    finally:
        await stop_bot(bot)
