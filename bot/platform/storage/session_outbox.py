"""The game sessions' outbox (issue 25): the posts a committed session change made due, one row
each, written in the change's unit of work and marked sent (with the message each became) by the
platform's dispatcher (bot/platform/session_posts.py).  One SQL text for SQLite and PostgreSQL;
table: migrations sqlite/0013, postgres/0012.  Mixed into `SqlTransaction` (`SessionOutboxWrites`)
and `SqlStorage` (`SessionOutboxReads`); `save_session` calls `stage_session_posts`."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any

from bot.platform.storage.platform import _doc


@dataclass
class OutboxRow:
    """One unsent row: its id (the sending order), its session and game, and what to send."""

    id: int
    session_id: str
    game: str
    guild_id: int
    slot: str | None
    payload: dict[str, Any]
    staged_at: float


async def stage_session_posts(tx: Any, session: Any) -> list[int]:
    """Write the posts `session.posts` holds into the outbox, in `tx` (the unit of work that saves
    the session); their row ids.  The list is emptied (put back if the unit of work rolls back), so
    a second save of the same object does not stage them twice."""
    posts: list[dict[str, Any]] = list(getattr(session, "posts", None) or [])
    if not posts:
        return []
    stamp = time.time()
    ids: list[int] = []
    for payload in posts:
        slot = payload.get("slot") if payload.get("op") == "send" else None
        found = await tx.rows(
            "INSERT INTO session_outbox (session_id, slot, payload, staged_at) VALUES (?, ?, ?, ?) RETURNING id",
            (session.id, slot, json.dumps(payload, ensure_ascii=False), stamp),
        )
        ids.append(int(found[0][0]))
    tx.undo.assign(session, posts=[], staged=[*getattr(session, "staged", []), *ids])
    return ids


_ROW = (
    "SELECT o.id, o.session_id, s.game, s.guild_id, o.slot, o.payload, o.staged_at"
    " FROM session_outbox o JOIN game_sessions s ON s.id = o.session_id WHERE o.sent_at IS NULL"
)


def _row_of(row: Sequence[Any]) -> OutboxRow:
    return OutboxRow(
        id=int(row[0]),
        session_id=str(row[1]),
        game=str(row[2]),
        guild_id=int(row[3]),
        slot=None if row[4] is None else str(row[4]),
        payload=_doc(row[5]) or {},
        staged_at=float(row[6]),
    )


class SessionOutboxWrites:
    """The outbox's statements inside a unit of work (`SqlTransaction` provides `rows`, `run`)."""

    async def rows(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        raise NotImplementedError

    async def run(self, sql: str, params: Iterable[Any] = ()) -> int:
        raise NotImplementedError

    async def mark_session_post(self, row_id: int, message_id: int | None) -> bool:
        """Record that row `row_id` went out as `message_id` (None: given up, or superseded by a
        newer edit of the same post).  True when this call confirmed it (it was still unsent)."""
        count = await self.run(
            "UPDATE session_outbox SET message_id = ?, sent_at = ? WHERE id = ? AND sent_at IS NULL",
            (message_id, time.time(), row_id),
        )
        return count == 1


class SessionOutboxReads:
    """The outbox's reads, and its marks as units of work of their own (for `SqlStorage`)."""

    async def _fetch(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        raise NotImplementedError

    def transaction(self) -> AbstractAsyncContextManager[Any]:
        raise NotImplementedError

    async def unsent_session_posts(
        self, *, session_id: str | None = None, game: str | None = None, upto: int | None = None
    ) -> list[OutboxRow]:
        """Rows committed but not confirmed sent, in sending order: one session's, one game's, or
        all; with `upto`, only those up to that row."""
        sql, params = _ROW, list[Any]()
        if upto is not None:
            sql += " AND o.id <= ?"
            params.append(upto)
        if session_id is not None:
            sql += " AND o.session_id = ?"
            params.append(session_id)
        if game is not None:
            sql += " AND s.game = ?"
            params.append(game)
        found = await self._fetch(sql + " ORDER BY o.id", params)
        return [_row_of(row) for row in found]

    async def session_slot_message(self, session_id: str, slot: str) -> int | None:
        """The message a session's named post became (the newest sent one), if it went out."""
        found = await self._fetch(
            "SELECT message_id FROM session_outbox WHERE session_id = ? AND slot = ? AND message_id IS NOT NULL"
            " ORDER BY id DESC LIMIT 1",
            (session_id, slot),
        )
        return int(found[0][0]) if found else None

    async def session_post_messages(self, session_id: str) -> set[int]:
        """The messages the session's rows are recorded as (a look-up never claims one twice)."""
        found = await self._fetch(
            "SELECT DISTINCT message_id FROM session_outbox WHERE session_id = ? AND message_id IS NOT NULL",
            (session_id,),
        )
        return {int(row[0]) for row in found}

    async def mark_session_post(self, row_id: int, message_id: int | None) -> bool:
        async with self.transaction() as tx:
            done: bool = await tx.mark_session_post(row_id, message_id)
            return done

    async def prune_session_posts(self, sent_before: float) -> int:
        """Forget rows sent before `sent_before` of sessions that have ended; how many.

        Why only ended sessions: a running session's sent rows are what its later edits target
        (a named post's message) and what a look-up after a crash must not claim twice; once the
        session has ended nothing is staged for it any more, so its sent rows only grow the table.
        An unsent row is never pruned."""
        async with self.transaction() as tx:
            pruned: int = await tx.run(
                "DELETE FROM session_outbox WHERE sent_at IS NOT NULL AND sent_at < ? AND session_id IN"
                " (SELECT id FROM game_sessions WHERE status NOT IN ('lobby', 'running'))",
                (sent_before,),
            )
            return pruned
