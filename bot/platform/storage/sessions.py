"""The game-session store (bot/platform/sessions.py): statements in a unit of work
(`SessionWrites`, mixed into `SqlTransaction`) and the storage's own calls (`SessionReads`, mixed
into `SqlStorage`), one SQL text for SQLite and PostgreSQL.  Table: migrations sqlite/0008,
postgres/0007; a partial unique index keeps one lobby or running session per channel."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from bot.platform.sessions import ACTIVE, STATUSES, GameSession, StoredResult, new_session_id
from bot.platform.storage.base import ChannelBusy, StaleWrite, Undo
from bot.platform.storage.platform import _doc, _for_update, unit_of_work
from bot.platform.storage.rows import now
from bot.platform.storage.session_outbox import stage_session_posts

_COLUMNS = "id, game, guild_id, channel_id, host_id, status, state, version, created_at, updated_at"
_ACTIVE_SQL = "status IN (" + ", ".join(f"'{s}'" for s in ACTIVE) + ")"  # the partial index's own words


def _session_of(row: Sequence[Any]) -> GameSession:
    return GameSession(
        id=str(row[0]),
        game=str(row[1]),
        guild_id=int(row[2]),
        channel_id=int(row[3]),
        host_id=int(row[4]),
        status=str(row[5]),
        state=_doc(row[6]) or {},
        version=int(row[7]),
        created_at=str(row[8]),
        updated_at=str(row[9]),
    )


class SessionWrites:
    """The statements, run inside a unit of work (`SqlTransaction` provides `rows` and `run`)."""

    undo: Undo

    async def rows(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        raise NotImplementedError

    async def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        raise NotImplementedError

    async def insert_session(self, session: GameSession) -> GameSession:
        """Store a new session; ChannelBusy when its channel already has an active one (the
        partial unique index refuses it, so two simultaneous starts cannot both succeed)."""
        if session.status not in STATUSES:
            raise ValueError(f"unknown session status {session.status!r}")
        busy: tuple[type[BaseException], ...] = getattr(getattr(self, "dialect", None), "unique_violation", ())
        stamp = now()
        try:
            await self.run(
                f"INSERT INTO game_sessions ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?)",
                (
                    session.id,
                    session.game,
                    session.guild_id,
                    session.channel_id,
                    session.host_id,
                    session.status,
                    json.dumps(session.state, ensure_ascii=False),
                    stamp,
                    stamp,
                ),
            )
        except busy as exc:
            raise ChannelBusy("this channel already has a game in progress") from exc
        self.undo.assign(session, version=1, created_at=stamp, updated_at=stamp)
        return session

    async def lock_session(self, session_id: str) -> GameSession | None:
        """The session as this unit of work sees it (locked for its writes on PostgreSQL)."""
        found = await self.rows(f"SELECT {_COLUMNS} FROM game_sessions WHERE id = ?{_for_update(self)}", (session_id,))
        return _session_of(found[0]) if found else None

    async def save_session(self, session: GameSession) -> GameSession:
        """Write state, status and host if the version is still the one read (else StaleWrite)."""
        if session.status not in STATUSES:
            raise ValueError(f"unknown session status {session.status!r}")
        stamp = now()
        count = await self.run(
            "UPDATE game_sessions SET state = ?, status = ?, host_id = ?, version = ?, updated_at = ?"
            " WHERE id = ? AND version = ?",
            (
                json.dumps(session.state, ensure_ascii=False),
                session.status,
                session.host_id,
                session.version + 1,
                stamp,
                session.id,
                session.version,
            ),
        )
        if count != 1:
            raise StaleWrite(f"game session {session.id} changed since it was read")
        if session.result is not None and not session.active:  # finished, or abandoned with a result
            await self.run(
                "INSERT INTO game_results (session_id, game, guild_id, channel_id, finished_at, outcome, players,"
                " details) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (session_id) DO NOTHING",
                (
                    session.id,
                    session.game,
                    session.guild_id,
                    session.channel_id,
                    stamp,
                    session.result.outcome,
                    json.dumps(session.result.players, ensure_ascii=False),
                    json.dumps(session.result.details, ensure_ascii=False),
                ),
            )
            for player in session.result.players:
                if player.get("user_id"):
                    await self.run(
                        "INSERT INTO game_result_players (session_id, user_id, won) VALUES (?, ?, ?)"
                        " ON CONFLICT (session_id, user_id) DO NOTHING",
                        (session.id, int(player["user_id"]), bool(player.get("won"))),
                    )
        await stage_session_posts(self, session)  # the posts this change made due, in its unit of work
        self.undo.assign(session, version=session.version + 1, updated_at=stamp)
        return session


class SessionReads:
    """The storage's session calls, each its own unit of work (for `SqlStorage`)."""

    async def _fetch(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        raise NotImplementedError

    def transaction(self) -> AbstractAsyncContextManager[Any]:
        raise NotImplementedError

    async def open_session(
        self, game: str, guild_id: int, channel_id: int, host_id: int, state: dict[str, Any]
    ) -> GameSession:
        """A new session in the lobby; ChannelBusy when the channel has a game in progress."""
        session = GameSession(
            id=new_session_id(),
            game=game,
            guild_id=guild_id,
            channel_id=channel_id,
            host_id=host_id,
            status="lobby",
            state=state,
        )
        async with self.transaction() as tx:
            stored: GameSession = await tx.insert_session(session)
            return stored

    async def load_session(self, session_id: str) -> GameSession | None:
        found = await self._fetch(f"SELECT {_COLUMNS} FROM game_sessions WHERE id = ?", (session_id,))
        return _session_of(found[0]) if found else None

    async def session_in_channel(self, channel_id: int) -> GameSession | None:
        """The channel's session in the lobby or running, if any."""
        found = await self._fetch(
            f"SELECT {_COLUMNS} FROM game_sessions WHERE channel_id = ? AND {_ACTIVE_SQL}", (channel_id,)
        )
        return _session_of(found[0]) if found else None

    async def active_sessions(self, game: str) -> list[GameSession]:
        """Every session of `game` in the lobby or running, oldest first (what a restart resumes)."""
        found = await self._fetch(
            f"SELECT {_COLUMNS} FROM game_sessions WHERE game = ? AND {_ACTIVE_SQL} ORDER BY created_at, id",
            (game,),
        )
        return [_session_of(row) for row in found]

    async def change_session(
        self, session_id: str, change: Callable[[GameSession], bool], *, attempts: int = 5
    ) -> GameSession | None:
        """The session through one unit of work: load it, apply `change` (pure: it may run again on
        a fresh load; True when it changed the session), save it with a version check, and on
        StaleWrite all of it again.  None when there is no such session."""

        async def load(tx: Any) -> GameSession | None:
            found: GameSession | None = await tx.lock_session(session_id)
            return found

        async def save(tx: Any, session: GameSession) -> None:
            await tx.save_session(session)

        return await unit_of_work(self, load, change, save, attempts=attempts, what=f"game session {session_id}")

    async def session_results(
        self, *, game: str, guild_id: int | None = None, user_id: int | None = None, limit: int = 50
    ) -> list[StoredResult]:
        """Finished games of `game`, newest first: a server's (`guild_id`), a player's
        (`user_id`), or both."""
        where: list[str] = ["r.game = ?"]
        params: list[Any] = [game]
        if guild_id is not None:
            where.append("r.guild_id = ?")
            params.append(guild_id)
        if user_id is not None:
            where.append("r.session_id IN (SELECT session_id FROM game_result_players WHERE user_id = ?)")
            params.append(user_id)
        found = await self._fetch(
            "SELECT r.session_id, r.game, r.guild_id, r.channel_id, r.finished_at, r.outcome, r.players, r.details"
            f" FROM game_results r WHERE {' AND '.join(where)} ORDER BY r.finished_at DESC, r.session_id LIMIT ?",
            (*params, max(1, min(limit, 500))),
        )
        return [
            StoredResult(
                session_id=str(row[0]),
                game=str(row[1]),
                guild_id=int(row[2]),
                channel_id=int(row[3]),
                finished_at=str(row[4]),
                outcome=str(row[5]),
                players=_doc(row[6]) or [],
                details=_doc(row[7]) or {},
            )
            for row in found
        ]
