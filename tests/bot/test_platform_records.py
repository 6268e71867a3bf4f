"""The platform keeps no game's records: the logbook, its boards and careers are Space Alert's
(bot/games/space_alert/logbook.py and records/), ELITE's finished games are its sessions' results
(bot/games/elite/storage.py), and a server's list of latest games of every kind is built from the
lines each game registers (bot/platform/records.py), so the platform never names a game's table."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import bot.games.elite
import bot.games.space_alert  # noqa: F401
from bot.platform import records
from bot.platform.storage import SqliteStorage
from bot.platform.storage.base import Storage, Transaction, UnitsOfWork
from bot.platform.storage.sql import SqlStorage, SqlTransaction

STORAGE = Path(__file__).resolve().parents[2] / "bot" / "platform" / "storage"


def test_the_platform_storage_names_no_logbook_and_no_leaderboard() -> None:
    files = sorted(STORAGE.glob("*.py"))
    assert len(files) > 5
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert not re.findall(r"logbook", text, re.IGNORECASE), path.name
        # the only one left: the stored key of the setting that makes a server's records public
        expected = ['"leaderboard"'] if path.name == "careers.py" else []
        assert re.findall(r'"?leaderboard"?', text, re.IGNORECASE) == expected, path.name


@pytest.mark.parametrize("kind", [Storage, Transaction, UnitsOfWork, SqlStorage, SqlTransaction, SqliteStorage])
def test_the_storage_interface_has_no_records_calls(kind: Any) -> None:
    names = [n for n in dir(kind) if re.search(r"logbook|leaderboard|finish_flight|threat_rows|entries|comparison", n)]
    assert names == []


async def test_a_server_lists_every_registered_game_newest_first(monkeypatch: pytest.MonkeyPatch) -> None:
    assert {"space_alert", "elite"} <= set(records.games_with_lines())

    def reader(stamps: list[str], game: str) -> Any:
        async def read(storage: Any, guild_id: int, limit: int, lang: str) -> list[tuple[str, dict[str, Any]]]:
            return [(s, {"game": game, "at": s, "guild": guild_id, "lang": lang}) for s in stamps[:limit]]

        return read

    monkeypatch.setattr(records, "_SERVER_LINES", {})
    records.register_server_lines("a", reader(["2026-11-03", "2026-11-01"], "a"))
    records.register_server_lines("b", reader(["2026-11-03", "2026-11-02"], "b"))
    found = await records.server_lines(None, 7, limit=3, lang="cs")
    assert [(d["game"], d["at"]) for d in found] == [("a", "2026-11-03"), ("b", "2026-11-03"), ("b", "2026-11-02")]
    assert {(d["guild"], d["lang"]) for d in found} == {(7, "cs")}
