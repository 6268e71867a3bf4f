"""ELITE's tables, read and written by the game over the platform's SQL core (both backends).

Why here: a game's tables belong to the game, so the platform's storage interface does not name
every feature; the platform supplies the transaction (`storage.transaction()`, whose statements
run on SQLite or PostgreSQL from one SQL text), its reads (`storage.fetch`), the shared logbook
(`tx.add_logbook_entry`) and the `unit_of_work` loop.  Tables: `elite_games` (the games in
progress: one versioned document each, one per channel by a unique index), `logbook_elite` (the
finished games' figures beside their logbook row), `elite_packs` (each server's data pack);
migrations sqlite/0005-0007, postgres/0003-0005.

A game in progress changes only through `EliteStore.change` (load, pure change, save with a
version check, retry on StaleWrite).  A change that ends the game writes its logbook row and
removes the game in the same transaction, so a finished game is never left behind nor logged twice.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.platform.storage.base import ChannelBusy, LogbookEntry, StaleWrite
from bot.platform.storage.platform import for_update, unique_violation, unit_of_work
from bot.platform.storage.rows import now

ELITE = "elite"
FINISHED = "finished"  # the document key a finishing change puts the logbook row under

ELITE_COLUMNS = (
    "map",
    "mission",
    "difficulty",
    "players",
    "heroes",
    "rounds",
    "result",
    "cause",
    "bosses_killed",
    "seed",
)
_GAME_COLUMNS = "guild_id, channel_id, state, pack, id, host_id, version"


@dataclass
class EliteGameRecord:
    """An ELITE game in progress: its document (bot/games/elite/_document.py), the data pack it
    started with, its host (member id) and its version (a save checks it, so no step is lost)."""

    guild_id: int
    channel_id: int
    state: dict[str, Any]
    pack: dict[str, Any] | None = None
    id: str = ""
    host_id: int = 0
    version: int = 0


@dataclass
class EliteStanding:
    """A server's ELITE boards as counted by the database."""

    games: int
    wins: dict[str, int]  # difficulty -> victories
    fewest_rounds: dict[str, int]  # mission -> fewest rounds to a victory


def _doc(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


def _game_of(row: Sequence[Any]) -> EliteGameRecord:
    g, c, s, p, game_id, host, version = row
    pack = _doc(p) if p is not None else None
    return EliteGameRecord(int(g), int(c), _doc(s), pack, str(game_id), int(host), int(version))


def elite_outcome(result: str) -> str:
    """The logbook's outcome column for an ELITE result (its own result stays in logbook_elite)."""
    return "survived" if result == "victory" else "destroyed"


# -- inside a unit of work (`tx` is the platform's transaction) -------------------------------------
async def start_game(
    tx: Any,
    guild_id: int,
    channel_id: int,
    state: dict[str, Any],
    pack: dict[str, Any] | None,
    *,
    game_id: str = "",
    host_id: int = 0,
) -> None:
    """The channel's new game; ChannelBusy when the channel has one already (the unique index
    elite_games_one_per_channel refuses it: a second /elite start never replaces a game)."""
    try:
        await tx.run(
            "INSERT INTO elite_games (id, channel_id, guild_id, host_id, state, pack, version, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, 1, ?)",
            (
                game_id or f"elite-{channel_id}-{now()}",
                channel_id,
                guild_id,
                host_id,
                json.dumps(state, ensure_ascii=False),
                json.dumps(pack, ensure_ascii=False) if pack is not None else None,
                now(),
            ),
        )
    except unique_violation(tx) as exc:
        raise ChannelBusy("this channel already has an ELITE game") from exc


async def load_game(tx: Any, channel_id: int) -> EliteGameRecord | None:
    """The channel's game as this unit of work sees it (locked for its writes)."""
    found = await tx.rows(
        f"SELECT {_GAME_COLUMNS} FROM elite_games WHERE channel_id = ?{for_update(tx)}", (channel_id,)
    )
    return _game_of(found[0]) if found else None


async def save_game(tx: Any, record: EliteGameRecord) -> EliteGameRecord:
    """Write the game's document if its version is still current (else StaleWrite)."""
    count = await tx.run(
        "UPDATE elite_games SET state = ?, version = ?, updated_at = ? WHERE id = ? AND version = ?",
        (json.dumps(record.state, ensure_ascii=False), record.version + 1, now(), record.id, record.version),
    )
    if count != 1:
        raise StaleWrite(f"ELITE game {record.id} changed since it was read")
    tx.undo.assign(record, version=record.version + 1)  # put back if the transaction rolls back
    return record


async def record_game(tx: Any, guild_id: int, row: dict[str, Any], *, channel_id: int = 0, language: str = "en") -> int:
    """A finished game: its logbook row (game 'elite') and figures, and the end of the channel's
    game in progress, in this unit of work.  Returns the logbook id."""
    if row.get("game", ELITE) != ELITE:
        raise ValueError(f"not an ELITE row: {row.get('game')!r}")
    values = [row.get(c) for c in ELITE_COLUMNS]
    entry = LogbookEntry(
        guild_id=guild_id,
        channel_id=channel_id,
        flown_at=now(),
        mission_id=str(row["mission"]),
        normal_difficulty=str(row["difficulty"]),
        serious_difficulty=str(row["difficulty"]),
        language=language,
        outcome=elite_outcome(str(row["result"])),
        crew=[],
        result=dict(row),
        seed=int(row["seed"]),
        destroyed_by=row.get("cause"),
        game=ELITE,
    )
    logbook_id: int = await tx.add_logbook_entry(entry)
    values[ELITE_COLUMNS.index("heroes")] = json.dumps(list(row.get("heroes", [])))
    await tx.run(
        f"INSERT INTO logbook_elite (logbook_id, guild_id, {', '.join(ELITE_COLUMNS)})"
        f" VALUES (?, ?, {', '.join('?' * len(ELITE_COLUMNS))})",
        (logbook_id, guild_id, *values),
    )
    if channel_id:
        await tx.run("DELETE FROM elite_games WHERE channel_id = ?", (channel_id,))
    return logbook_id


async def save_pack(tx: Any, guild_id: int, pack: dict[str, Any], uploaded_by: int) -> None:
    await tx.run(
        "INSERT INTO elite_packs (guild_id, pack, uploaded_by, updated_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (guild_id) DO UPDATE SET pack = excluded.pack, uploaded_by = excluded.uploaded_by,"
        " updated_at = excluded.updated_at",
        (guild_id, json.dumps(pack, ensure_ascii=False), uploaded_by, now()),
    )


# -- the repository ---------------------------------------------------------------------------------
class EliteStore:
    """ELITE's reads, and each write as a unit of work of its own, over a platform storage."""

    def __init__(self, storage: Any) -> None:
        self.storage = storage

    async def games(self) -> list[EliteGameRecord]:
        """Every game in progress (for a restart), oldest change first."""
        found = await self.storage.fetch(f"SELECT {_GAME_COLUMNS} FROM elite_games ORDER BY updated_at")
        return [_game_of(r) for r in found]

    async def game(self, channel_id: int) -> EliteGameRecord | None:
        found = await self.storage.fetch(f"SELECT {_GAME_COLUMNS} FROM elite_games WHERE channel_id = ?", (channel_id,))
        return _game_of(found[0]) if found else None

    async def start(
        self,
        guild_id: int,
        channel_id: int,
        state: dict[str, Any],
        pack: dict[str, Any] | None,
        *,
        game_id: str = "",
        host_id: int = 0,
    ) -> None:
        async with self.storage.transaction() as tx:
            await start_game(tx, guild_id, channel_id, state, pack, game_id=game_id, host_id=host_id)

    async def change(
        self, channel_id: int, change: Callable[[EliteGameRecord], bool], *, attempts: int = 5
    ) -> EliteGameRecord | None:
        """The channel's game through one unit of work; None when the channel has none.  `change`
        must be pure (it may run again on a fresh load) and return False when it changed nothing;
        when it puts a logbook row under FINISHED, the game is logged and removed instead of saved."""

        async def load(tx: Any) -> EliteGameRecord | None:
            return await load_game(tx, channel_id)

        async def save(tx: Any, record: EliteGameRecord) -> None:
            row = record.state.get(FINISHED)
            if row is None:
                await save_game(tx, record)
                return
            language = str(record.state.get("lang", "en"))
            await record_game(tx, record.guild_id, row, channel_id=record.channel_id, language=language)

        what = f"ELITE game in {channel_id}"
        return await unit_of_work(self.storage, load, change, save, attempts=attempts, what=what)

    async def drop(self, channel_id: int) -> None:
        """Remove a game that cannot be taken up again (its document is unreadable)."""
        async with self.storage.transaction() as tx:
            await tx.run("DELETE FROM elite_games WHERE channel_id = ?", (channel_id,))

    async def record(self, guild_id: int, row: dict[str, Any], *, channel_id: int = 0, language: str = "en") -> int:
        async with self.storage.transaction() as tx:
            return await record_game(tx, guild_id, row, channel_id=channel_id, language=language)

    async def rows(self, guild_id: int, *, limit: int = 1000) -> list[dict[str, Any]]:
        """A server's finished games, newest first, as the engine's LogbookRow fields."""
        found = await self.storage.fetch(
            f"SELECT {', '.join(ELITE_COLUMNS)} FROM logbook_elite WHERE guild_id = ? ORDER BY logbook_id DESC LIMIT ?",
            (guild_id, limit),
        )
        rows = []
        for r in found:
            row = {"game": ELITE, **dict(zip(ELITE_COLUMNS, r, strict=True))}
            row["heroes"] = list(_doc(row["heroes"]))
            rows.append(row)
        return rows

    async def board(self, guild_id: int) -> EliteStanding:
        """Wins per difficulty and the fewest rounds to a victory per mission (indexed)."""
        fetch = self.storage.fetch
        games = await fetch("SELECT COUNT(*) FROM logbook_elite WHERE guild_id = ?", (guild_id,))
        wins = await fetch(
            "SELECT difficulty, COUNT(*) FROM logbook_elite WHERE guild_id = ? AND result = 'victory'"
            " GROUP BY difficulty",
            (guild_id,),
        )
        fewest = await fetch(
            "SELECT mission, MIN(rounds) FROM logbook_elite WHERE guild_id = ? AND result = 'victory' GROUP BY mission",
            (guild_id,),
        )
        return EliteStanding(
            games=int(games[0][0]),
            wins={str(d): int(n) for d, n in wins},
            fewest_rounds={str(m): int(n) for m, n in fewest},
        )

    async def pack(self, guild_id: int) -> dict[str, Any] | None:
        found = await self.storage.fetch("SELECT pack FROM elite_packs WHERE guild_id = ?", (guild_id,))
        return _doc(found[0][0]) if found else None

    async def save_pack(self, guild_id: int, pack: dict[str, Any], uploaded_by: int) -> None:
        async with self.storage.transaction() as tx:
            await save_pack(tx, guild_id, pack, uploaded_by)
