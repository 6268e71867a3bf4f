"""ELITE's own tables through its repository (bot/games/elite/storage.py) over the platform's SQL
core, once per backend (tests/bot/storage_backends.py): SQLite always, PostgreSQL when a server
answers.  Games in progress, finished games beside the logbook, and data packs."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.games.elite.storage import FINISHED, EliteStore, save_game
from bot.platform.storage import ChannelBusy, StaleWrite, Storage
from tests.bot.storage_backends import open_storage, storage
from tests.hosting.test_feature_storage import ANN, BOB, ELITE_ROW, flight

__all__ = ["open_storage", "storage"]  # fixtures used by the tests below


async def test_elite_rows_know_their_game_and_stay_off_space_alert_boards(storage: Storage) -> None:
    await storage.add_logbook_entry(flight(1, total=12))
    elite = EliteStore(storage)
    await elite.record(1, ELITE_ROW, channel_id=9)
    await elite.record(1, {**ELITE_ROW, "rounds": 4, "mission": "rescue", "difficulty": "hard"})
    await elite.record(1, {**ELITE_ROW, "result": "defeat", "cause": "hero_died", "rounds": 2})
    await elite.record(2, ELITE_ROW)
    rows = await elite.rows(1)
    assert len(rows) == 3 and rows[0]["cause"] == "hero_died" and rows[2] == ELITE_ROW
    board = await elite.board(1)
    assert board.games == 3
    assert board.wins == {"normal": 1, "hard": 1}
    assert board.fewest_rounds == {"exploration": 6, "rescue": 4}
    assert [e.game for e in await storage.logbook(1)] == ["space_alert"]  # /logbook shows flights
    assert [r.mission_id for r in await storage.leaderboard(1)] == ["S2-1"]
    with pytest.raises(ValueError):
        await elite.record(1, {**ELITE_ROW, "game": "space_alert"})


async def test_elite_game_in_progress_resumes_and_ends_with_its_row(open_storage: Any) -> None:
    storage = EliteStore(await open_storage())
    pack = {"swarm_spawn": [], "name": "ours"}
    await storage.start(1, 9, {"actions": []}, pack)
    assert await storage.change(9, lambda r: r.state["actions"].append([0.0, "next"]) is None)
    assert await storage.change(10, lambda r: True) is None  # no game there
    again = EliteStore(await open_storage())  # a restart
    games = await again.games()
    assert [(g.guild_id, g.channel_id, g.state, g.pack) for g in games] == [(1, 9, {"actions": [[0.0, "next"]]}, pack)]
    with pytest.raises(ChannelBusy):  # one game per channel, held by the store's unique index
        await again.start(1, 9, {"actions": []}, None)
    assert [g.pack for g in await again.games()] == [pack]
    await again.record(1, ELITE_ROW, channel_id=9)
    assert await again.games() == []
    await again.start(1, 11, {"actions": []}, None)
    await again.drop(11)
    assert await again.games() == []


async def test_a_finishing_change_logs_the_game_and_removes_it_in_one_unit_of_work(storage: Any) -> None:
    elite = EliteStore(storage)
    await elite.start(1, 9, {"lang": "ru", "actions": []}, None)

    def finish(record: Any) -> bool:
        record.state[FINISHED] = ELITE_ROW
        return True

    assert await elite.change(9, finish) is not None
    assert await elite.games() == [] and await elite.rows(1) == [ELITE_ROW]
    assert [tuple(r) for r in await storage.fetch("SELECT game, language FROM logbook")] == [("elite", "ru")]
    assert await storage.logbook(1) == []  # Space Alert's /logbook shows flights only


async def test_elite_steps_are_a_versioned_unit_of_work(open_storage: Any) -> None:
    """Five steps changing the same game at once: each is applied to the stored document as it
    is then (a stale save is retried on a fresh load), so none of them is lost."""
    raw = await open_storage()
    storage = EliteStore(raw)
    await storage.start(1, 9, {"actions": []}, None, game_id="g1", host_id=77)

    def append(n: int) -> Any:
        def change(record: Any) -> bool:
            record.state["actions"].append([float(n), "adjust", 15])
            return True

        return change

    await asyncio.gather(*(storage.change(9, append(n)) for n in range(5)))
    game = await storage.game(9)
    assert game is not None and game.host_id == 77 and game.id == "g1"
    assert sorted(a[0] for a in game.state["actions"]) == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert game.version == 6
    stale = await storage.game(9)
    assert stale is not None
    async with raw.transaction() as tx:
        await save_game(tx, stale)  # the current version: written
    with pytest.raises(StaleWrite):
        async with raw.transaction() as tx:
            stale.version -= 1
            await save_game(tx, stale)
    assert await storage.change(10, append(9)) is None  # no game there


async def test_elite_packs_per_server(storage: Storage) -> None:
    elite = EliteStore(storage)
    assert await elite.pack(1) is None
    await elite.save_pack(1, {"v": 1}, ANN)
    await elite.save_pack(1, {"v": 2, "name": "Ёлка"}, BOB)
    assert await elite.pack(1) == {"v": 2, "name": "Ёлка"}
    assert await elite.pack(2) is None
