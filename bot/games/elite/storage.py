"""ELITE's tables and its games in progress, kept by the game over the platform (both backends).

A game in progress is a platform game session (bot/platform/sessions.py: one versioned document
per game, one game of any kind per channel held by the store, `game = "elite"`): the document is
bot/games/elite/_document.py's, with the data pack the game started with under `pack`.  Every
change goes through `EliteStore.change`: load the session (locked), apply a pure change, save it
with a version check, retry on StaleWrite.  A change that ends the game records it the way every
session game does: the session's result (`game_results`, written by `save_session`) and ELITE's
own figures (`elite_results`, what /elite board and the web page count) in the same unit of work,
so a finished game is never left running nor recorded twice.

The statements on `elite_results` and `elite_packs` (each server's data pack) are the game's own,
over the platform's SQL core (`storage.fetch`, `tx.rows/run`).  Migrations: sqlite/0005-0011,
postgres/0003-0010 (0010 carried the old `elite_games` rows onto sessions, 0011 the games the
Space Alert logbook kept onto `game_results`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.platform.sessions import GameSession, SessionResult, new_session_id
from bot.platform.storage.platform import unit_of_work
from bot.platform.storage.rows import now

ELITE = "elite"
FINISHED = "finished"  # the document key a finishing change puts the finished game's row under

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
PACK = "pack"  # the document key of the data pack the game started with
ENDED = {"victory": "finished", "defeat": "finished", "abandoned": "abandoned"}  # result -> session status

# An ELITE game in progress is a platform game session (its `state` is the game's document).
EliteGameRecord = GameSession


@dataclass
class EliteStanding:
    """A server's ELITE boards as counted by the database."""

    games: int
    wins: dict[str, int]  # difficulty -> victories
    fewest_rounds: dict[str, int]  # mission -> fewest rounds to a victory


def _doc(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


def elite_outcome(result: str) -> str:
    """The outcome word the logbook lines show for an ELITE result (its own result stays in the
    record): survived for a victory, destroyed for a defeat or an abandoned game."""
    return "survived" if result == "victory" else "destroyed"


def checked_row(row: dict[str, Any]) -> dict[str, Any]:
    """The finished game's row, refused (ValueError) when it is not ELITE's."""
    if row.get("game", ELITE) != ELITE:
        raise ValueError(f"not an ELITE row: {row.get('game')!r}")
    return dict(row)


# -- inside a unit of work (`tx` is the platform's transaction) -------------------------------------
async def record_game(tx: Any, session: GameSession, row: dict[str, Any]) -> None:
    """End the (locked) session with the finished game's `row`: its status, its `game_results`
    row (through `save_session`) and its figures in `elite_results`, all in this unit of work."""
    row = checked_row(row)
    session.status = ENDED.get(str(row.get("result")), "finished")
    session.result = SessionResult(outcome=str(row.get("result")), details=row)
    await tx.save_session(session)
    found = await tx.rows("SELECT finished_at FROM game_results WHERE session_id = ?", (session.id,))
    values = [row.get(c) for c in ELITE_COLUMNS]
    values[ELITE_COLUMNS.index("heroes")] = json.dumps(list(row.get("heroes", [])))
    await tx.run(
        f"INSERT INTO elite_results (session_id, guild_id, finished_at, {', '.join(ELITE_COLUMNS)})"
        f" VALUES (?, ?, ?, {', '.join('?' * len(ELITE_COLUMNS))}) ON CONFLICT (session_id) DO NOTHING",
        (session.id, session.guild_id, str(found[0][0]), *values),
    )


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

    async def games(self) -> list[GameSession]:
        """Every ELITE game in progress (for a restart), oldest first."""
        found: list[GameSession] = await self.storage.active_sessions(ELITE)
        return found

    async def game(self, channel_id: int) -> GameSession | None:
        """The channel's ELITE game in progress (None: none, or another game's session)."""
        found: GameSession | None = await self.storage.session_in_channel(channel_id)
        return found if found is not None and found.game == ELITE else None

    async def start(
        self, guild_id: int, channel_id: int, state: dict[str, Any], pack: dict[str, Any] | None, *, host_id: int = 0
    ) -> GameSession:
        """The channel's new game; ChannelBusy when the channel has a game of any kind in progress
        (the session store's unique index: a second /elite start never replaces a game)."""
        document = {**state, PACK: pack} if pack is not None else dict(state)
        opened: GameSession = await self.storage.open_session(ELITE, guild_id, channel_id, host_id, document)
        return opened

    async def change(
        self, channel_id: int, change: Callable[[GameSession], bool], *, attempts: int = 5
    ) -> GameSession | None:
        """The channel's game through one unit of work; None when the channel has none.  `change`
        must be pure (it may run again on a fresh load) and return False when it changed nothing.
        When it puts the finished game's row under FINISHED, the session ends (finished, or
        abandoned) with its result, and the game is recorded, in the same transaction."""
        found = await self.game(channel_id)
        if found is None:
            return None
        session_id = found.id

        async def load(tx: Any) -> GameSession | None:
            session: GameSession | None = await tx.lock_session(session_id)
            return session if session is not None and session.active else None

        async def save(tx: Any, session: GameSession) -> None:
            row = session.state.pop(FINISHED, None)
            if row is None:
                if session.status == "lobby":
                    session.status = "running"  # the first stored step: the game is under way
                await tx.save_session(session)
                return
            await record_game(tx, session, row)

        what = f"ELITE game in {channel_id}"
        return await unit_of_work(self.storage, load, change, save, attempts=attempts, what=what)

    async def drop(self, channel_id: int) -> None:
        """End a game that cannot be taken up again (its document is unreadable): abandoned."""

        def abandon(session: GameSession) -> bool:
            session.status = "abandoned"
            return True

        found = await self.game(channel_id)
        if found is not None:
            await self.storage.change_session(found.id, abandon)

    async def record(self, guild_id: int, row: dict[str, Any], *, channel_id: int = 0, language: str = "en") -> str:
        """A finished game recorded without having been played here (an import, a test's seed):
        a session stored already ended (it never holds its channel) and recorded with `row`, in one
        unit of work.  Its session id."""
        session = GameSession(
            id=new_session_id(),
            game=ELITE,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=0,
            status="finished",
            state={"lang": language},
        )
        checked_row(row)
        async with self.storage.transaction() as tx:
            await tx.insert_session(session)
            await record_game(tx, session, row)
        return session.id

    async def rows(self, guild_id: int, *, limit: int = 1000) -> list[dict[str, Any]]:
        """A server's finished games, newest first, as the engine's LogbookRow fields."""
        return [row for _, row in await self.finished(guild_id, limit=limit)]

    async def finished(self, guild_id: int, *, limit: int = 20) -> list[tuple[str, dict[str, Any]]]:
        """A server's finished games, newest first, with when each ended: what the web's list of
        a server's latest games shows beside its flights."""
        found = await self.storage.fetch(
            f"SELECT finished_at, {', '.join(ELITE_COLUMNS)} FROM elite_results WHERE guild_id = ?"
            " ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        )
        out = []
        for finished_at, *values in found:
            row = {"game": ELITE, **dict(zip(ELITE_COLUMNS, values, strict=True))}
            row["heroes"] = list(_doc(row["heroes"]))
            out.append((str(finished_at), row))
        return out

    async def board(self, guild_id: int) -> EliteStanding:
        """Wins per difficulty and the fewest rounds to a victory per mission (indexed)."""
        fetch = self.storage.fetch
        games = await fetch("SELECT COUNT(*) FROM elite_results WHERE guild_id = ?", (guild_id,))
        wins = await fetch(
            "SELECT difficulty, COUNT(*) FROM elite_results WHERE guild_id = ? AND result = 'victory'"
            " GROUP BY difficulty",
            (guild_id,),
        )
        fewest = await fetch(
            "SELECT mission, MIN(rounds) FROM elite_results WHERE guild_id = ? AND result = 'victory' GROUP BY mission",
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
