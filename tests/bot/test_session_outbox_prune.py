"""The session outbox forgets what it no longer needs: sent rows of ended games, after a while.

A running game's sent rows stay (its named post's message is read from them, and a look-up after
a crash must not claim a message twice); unsent rows always stay.  Once per backend."""

from __future__ import annotations

import time
from typing import Any

from bot.platform.session_posts import post
from bot.platform.sessions import GameSession
from tests.bot.storage_backends import open_storage

__all__ = ["open_storage"]  # the fixture used below

ANN = 10_000_000_000_000_001


def staging(*payloads: dict[str, Any], status: str | None = None) -> Any:
    def change(s: GameSession) -> bool:
        s.stage(*payloads)
        if status is not None:
            s.status = status
        return True

    return change


async def test_sent_rows_of_ended_games_are_pruned_and_nothing_else(open_storage: Any) -> None:
    storage = await open_storage()
    ended = await storage.open_session("legion", 1, 101, ANN, {})
    running = await storage.open_session("escape", 1, 102, ANN, {})
    done = await storage.change_session(ended.id, staging(post(101, "a"), post(101, "b"), status="finished"))
    live = await storage.change_session(running.id, staging(post(102, "c", slot="station"), status="running"))
    assert done is not None and live is not None
    first, second = done.staged
    await storage.mark_session_post(first, 555)  # sent
    await storage.mark_session_post(live.staged[0], 777)  # sent: the running game's named post
    # second stays unsent

    assert await storage.prune_session_posts(time.time() - 3600) == 0  # sent just now: kept
    assert await storage.prune_session_posts(time.time() + 1) == 1  # only the ended game's sent row

    assert [r.id for r in await storage.unsent_session_posts()] == [second]
    assert await storage.session_slot_message(running.id, "station") == 777
    assert await storage.session_post_messages(ended.id) == set()
