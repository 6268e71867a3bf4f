"""ELITE's own tables through its repository (bot/games/elite/storage.py) over the platform's SQL
core, once per backend (tests/bot/storage_backends.py): SQLite always, PostgreSQL when a server
answers.  Games in progress, finished games (game_results and elite_results), and data packs."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from bot.games.elite.storage import FINISHED, PACK, EliteStore
from bot.games.space_alert.logbook import Logbook
from bot.platform.storage import ChannelBusy, Storage
from bot.platform.storage.migrate import statements
from tests.bot.storage_backends import open_storage, storage
from tests.hosting.test_feature_storage import ANN, BOB, ELITE_ROW, flight

__all__ = ["open_storage", "storage"]  # fixtures used by the tests below

ROOT = Path(__file__).resolve().parents[2]


async def test_elite_rows_know_their_game_and_stay_off_space_alert_boards(storage: Storage) -> None:
    await Logbook(storage).add(flight(1, total=12))
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
    assert [e.game for e in await Logbook(storage).entries(1)] == ["space_alert"]  # /logbook shows flights
    assert [r.mission_id for r in await Logbook(storage).leaderboard(1)] == ["S2-1"]
    with pytest.raises(ValueError):
        await elite.record(1, {**ELITE_ROW, "game": "space_alert"})


async def test_elite_game_in_progress_resumes_and_ends_with_its_row(open_storage: Any) -> None:
    storage = EliteStore(await open_storage())
    pack = {"swarm_spawn": [], "name": "ours"}
    started = await storage.start(1, 9, {"actions": []}, pack, host_id=77)
    assert started.game == "elite" and started.host_id == 77 and started.status == "lobby"
    assert await storage.change(9, lambda r: r.state["actions"].append([0.0, "next"]) is None)
    assert await storage.change(10, lambda r: True) is None  # no game there
    again = EliteStore(await open_storage())  # a restart
    (game,) = await again.games()
    assert (game.guild_id, game.channel_id, game.status) == (1, 9, "running")  # its first step started it
    assert game.state == {"actions": [[0.0, "next"]], PACK: pack}
    with pytest.raises(ChannelBusy):  # one game per channel, held by the session store's unique index
        await again.start(1, 9, {"actions": []}, None)
    assert [g.state[PACK] for g in await again.games()] == [pack]
    await again.start(1, 11, {"actions": []}, None)
    await again.drop(11)  # an unreadable game: abandoned, the channel is free again
    assert [g.channel_id for g in await again.games()] == [9]
    await again.start(1, 11, {"actions": []}, None)


async def test_a_finishing_change_logs_the_game_and_ends_it_in_one_unit_of_work(storage: Any) -> None:
    elite = EliteStore(storage)
    started = await elite.start(1, 9, {"lang": "ru", "actions": []}, None)

    def finish(record: Any) -> bool:
        record.state[FINISHED] = ELITE_ROW
        return True

    assert await elite.change(9, finish) is not None
    assert await elite.games() == [] and await elite.rows(1) == [ELITE_ROW]
    assert await storage.fetch("SELECT id FROM logbook") == []  # the logbook is Space Alert's flights
    ended = await storage.load_session(started.id)
    assert ended is not None and ended.status == "finished" and FINISHED not in ended.state
    (result,) = await storage.session_results(game="elite", guild_id=1)
    assert result.outcome == "victory" and result.details == ELITE_ROW
    assert await elite.change(9, finish) is None  # over: nothing more changes it


async def test_a_failing_finish_leaves_the_game_running_and_unlogged(storage: Any) -> None:
    elite = EliteStore(storage)
    await elite.start(1, 9, {"actions": []}, None)

    def finish(record: Any) -> bool:
        record.state[FINISHED] = {**ELITE_ROW, "game": "space_alert"}  # refused by record_game
        return True

    with pytest.raises(ValueError):
        await elite.change(9, finish)
    assert [g.channel_id for g in await elite.games()] == [9] and await elite.rows(1) == []


async def test_elite_steps_are_a_versioned_unit_of_work(open_storage: Any) -> None:
    """Five steps changing the same game at once: each is applied to the stored document as it
    is then (a stale save is retried on a fresh load), so none of them is lost."""
    storage = EliteStore(await open_storage())
    started = await storage.start(1, 9, {"actions": []}, None, host_id=77)

    def append(n: int) -> Any:
        def change(record: Any) -> bool:
            record.state["actions"].append([float(n), "adjust", 15])
            return True

        return change

    await asyncio.gather(*(storage.change(9, append(n)) for n in range(5)))
    game = await storage.game(9)
    assert game is not None and game.host_id == 77 and game.id == started.id
    assert sorted(a[0] for a in game.state["actions"]) == [0.0, 1.0, 2.0, 3.0, 4.0]
    assert game.version == 6
    assert await storage.change(10, append(9)) is None  # no game there


async def test_elite_packs_per_server(storage: Storage) -> None:
    elite = EliteStore(storage)
    assert await elite.pack(1) is None
    await elite.save_pack(1, {"v": 1}, ANN)
    await elite.save_pack(1, {"v": 2, "name": "Ёлка"}, BOB)
    assert await elite.pack(1) == {"v": 2, "name": "Ёлка"}
    assert await elite.pack(2) is None


async def test_games_kept_in_elite_games_are_carried_onto_sessions(storage: Any) -> None:
    """Migration sqlite/0010 (postgres/0009), run again on a recreated `elite_games`: each stored
    game becomes an ELITE session with its id, host, version and data pack; a channel that already
    has another game in progress keeps that one."""
    backend = "postgres" if hasattr(storage, "pool") else "sqlite"
    source = next((ROOT / "migrations" / backend).glob("*_elite_sessions.sql")).read_text(encoding="utf-8")
    doc = "JSONB" if backend == "postgres" else "TEXT"
    await storage.open_session("legion", 1, 12, 5, {"seats": []})  # channel 12 is taken
    async with storage.transaction() as tx:
        await tx.run(
            f"CREATE TABLE elite_games (id TEXT PRIMARY KEY, channel_id BIGINT NOT NULL, guild_id BIGINT NOT NULL,"
            f" host_id BIGINT NOT NULL DEFAULT 0, state {doc} NOT NULL, pack {doc}, version INTEGER NOT NULL DEFAULT 1,"
            " updated_at TEXT NOT NULL)"
        )
        rows = [
            ("g-9", 9, 77, '{"version": 2, "actions": [[1.0, "next"]]}', '{"name": "ours"}', 4),
            ("g-11", 11, 78, '{"version": 2, "actions": []}', None, 1),
            ("g-12", 12, 79, '{"version": 2, "actions": []}', None, 1),
        ]
        for game_id, channel, host, state, pack, version in rows:
            await tx.run(
                "INSERT INTO elite_games (id, channel_id, guild_id, host_id, state, pack, version, updated_at)"
                " VALUES (?, ?, 1, ?, ?, ?, ?, '2026-11-26 20:00:00')",
                (game_id, channel, host, state, pack, version),
            )
        for statement in statements(source):
            await tx.run(statement)
    games = {g.channel_id: g for g in await EliteStore(storage).games()}
    assert sorted(games) == [9, 11]
    carried = games[9]
    assert (carried.id, carried.host_id, carried.version, carried.status) == ("g-9", 77, 4, "running")
    assert carried.state == {"version": 2, "actions": [[1.0, "next"]], PACK: {"name": "ours"}}
    assert PACK not in games[11].state
    assert (await storage.session_in_channel(12)).game == "legion"  # type: ignore[union-attr]
    assert not await storage.fetch(
        "SELECT 1 FROM game_sessions WHERE game = 'elite' AND channel_id = 12"
    )  # the ELITE game there could not be carried (one game per channel)


CARRYING = ("CREATE TABLE elite_carried", "CREATE TEMPORARY TABLE elite_carried", "INSERT", "DROP", "DELETE")


def _code(statement: str) -> str:
    """The statement without its comment lines."""
    return "\n".join(line for line in statement.splitlines() if not line.lstrip().startswith("--")).strip()


async def test_games_the_logbook_kept_are_carried_onto_game_results(storage: Any) -> None:
    """Migration sqlite/0011 (postgres/0010), its carrying part run again on a recreated
    `logbook_elite`: an older game and an abandoned one (logbook only) get a session and a result of
    their own, dated when they were logged; a game that already has its session's result keeps
    that one; each lands in elite_results once, in the order logged, and leaves the logbook.  The
    server's count on the web pages still counts them, and a new game adds one."""
    backend = "postgres" if hasattr(storage, "pool") else "sqlite"
    source = next((ROOT / "migrations" / backend).glob("*_elite_results.sql")).read_text(encoding="utf-8")
    carrying = [s for s in map(_code, statements(source)) if s.startswith(CARRYING)]
    elite = EliteStore(storage)
    await Logbook(storage).add(flight(1, total=12))
    kept = await elite.record(1, {**ELITE_ROW, "seed": 3}, channel_id=9)  # finished since sessions
    doc = "JSONB" if backend == "postgres" else "TEXT"
    older = {**ELITE_ROW, "seed": 1, "rounds": 8}
    abandoned = {**ELITE_ROW, "seed": 2, "result": "abandoned", "cause": "stopped"}
    async with storage.transaction() as tx:
        await tx.run("DELETE FROM elite_results")  # as before 0011: only the logbook knew these games
        await tx.run(
            "CREATE TABLE logbook_elite (logbook_id BIGINT PRIMARY KEY, guild_id BIGINT NOT NULL, map TEXT NOT NULL,"
            " mission TEXT NOT NULL, difficulty TEXT NOT NULL, players INTEGER NOT NULL, heroes"
            f" {doc} NOT NULL, rounds INTEGER NOT NULL, result TEXT NOT NULL, cause TEXT, bosses_killed INTEGER"
            " NOT NULL DEFAULT 0, seed BIGINT NOT NULL)"
        )
        for n, (row, channel) in enumerate(((older, 8), ({**ELITE_ROW, "seed": 3}, 9), (abandoned, 9))):
            found = await tx.rows(
                "INSERT INTO logbook (guild_id, channel_id, flown_at, mission_id, normal_difficulty,"
                " serious_difficulty, language, outcome, destroyed_by, result, game, seed)"
                " VALUES (1, ?, ?, ?, ?, ?, 'ru', ?, ?, ?, 'elite', ?) RETURNING id",
                (
                    channel,
                    f"2026-11-0{n + 1}T20:00:00+00:00",
                    row["mission"],
                    row["difficulty"],
                    row["difficulty"],
                    "survived" if row["result"] == "victory" else "destroyed",
                    row["cause"],
                    json.dumps(row),
                    row["seed"],
                ),
            )
            await tx.run(
                "INSERT INTO logbook_elite (logbook_id, guild_id, map, mission, difficulty, players, heroes, rounds,"
                " result, cause, bosses_killed, seed) VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    int(found[0][0]),
                    *(row[c] for c in ("map", "mission", "difficulty", "players")),
                    json.dumps(row["heroes"]),
                    *(row[c] for c in ("rounds", "result", "cause", "bosses_killed", "seed")),
                ),
            )
        for statement in carrying:
            await tx.run(statement)
    assert await elite.rows(1) == [abandoned, {**ELITE_ROW, "seed": 3}, older]  # newest first
    results = {r.details["seed"]: r for r in await storage.session_results(game="elite", guild_id=1)}
    assert sorted(results) == [1, 2, 3] and results[3].session_id == kept
    assert results[1].finished_at == "2026-11-01T20:00:00+00:00" and results[2].outcome == "abandoned"
    assert (await storage.load_session(results[2].session_id)).status == "abandoned"  # type: ignore[union-attr]
    assert [tuple(r) for r in await storage.fetch("SELECT game FROM logbook")] == [("space_alert",)]
    board = await elite.board(1)
    assert board.games == 3 and board.wins == {"normal": 2} and board.fewest_rounds == {"exploration": 6}
    (server_flights,) = await storage.fetch("SELECT flights FROM guild_totals WHERE guild_id = 1")
    await elite.record(1, ELITE_ROW)
    assert [tuple(r) for r in await storage.fetch("SELECT flights FROM guild_totals WHERE guild_id = 1")] == [
        (int(server_flights[0]) + 1,)
    ]


async def test_a_database_migrated_with_elite_games_in_its_logbook(tmp_path: Path) -> None:
    """The whole of migration sqlite/0011 on a database migrated up to the one before it, with an
    ELITE game in the logbook beside a flight: the game is in game_results and elite_results, the
    logbook keeps the flight, and the server's count on the web pages is what it was."""
    from bot.platform.storage import SqliteStorage

    source = ROOT / "migrations" / "sqlite"
    older = tmp_path / "older"
    older.mkdir()
    for path in sorted(source.glob("[0-9][0-9][0-9][0-9]_*.sql")):
        if "elite_results" in path.name:  # every migration before this one (its number may change)
            break
        (older / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    db = tmp_path / "sa.sqlite3"
    before = SqliteStorage(db, migrations_dir=older)
    await before.open()
    await Logbook(before).add(flight(1, total=12))
    async with before.transaction() as tx:
        found = await tx.rows(
            "INSERT INTO logbook (guild_id, channel_id, flown_at, mission_id, normal_difficulty, serious_difficulty,"
            " language, outcome, result, game, seed) VALUES (1, 9, '2026-11-03T20:00:00+00:00', 'exploration',"
            " 'normal', 'normal', 'en', 'survived', ?, 'elite', 7) RETURNING id",
            (json.dumps({**ELITE_ROW, "seed": 7}),),
        )
        await tx.run(
            "INSERT INTO logbook_elite (logbook_id, guild_id, map, mission, difficulty, players, heroes, rounds,"
            " result, cause, bosses_killed, seed) VALUES (?, 1, 'a', 'exploration', 'normal', 3, ?, 6, 'victory',"
            " NULL, 2, 7)",
            (int(found[0][0]), json.dumps(ELITE_ROW["heroes"])),
        )
    (counted,) = await before.fetch("SELECT flights, last_flown FROM guild_totals WHERE guild_id = 1")
    await before.close()

    after = SqliteStorage(db)
    await after.open()
    try:
        assert await EliteStore(after).rows(1) == [{**ELITE_ROW, "seed": 7}]
        (result,) = await after.session_results(game="elite", guild_id=1)
        assert (result.finished_at, result.outcome, result.channel_id) == ("2026-11-03T20:00:00+00:00", "victory", 9)
        assert [tuple(r) for r in await after.fetch("SELECT game FROM logbook")] == [("space_alert",)]
        assert [tuple(r) for r in await after.fetch("SELECT flights, last_flown FROM guild_totals")] == [tuple(counted)]
        assert not await after.fetch("SELECT name FROM sqlite_master WHERE name IN ('logbook_elite', 'elite_carried')")
    finally:
        await after.close()
