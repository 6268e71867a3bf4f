"""The platform's game-session store (bot/platform/sessions.py), once per backend: one game in
progress per channel, every change a versioned unit of work (no lost update under concurrent
writers), restart finds the active sessions, and the last change writes the result in the same
transaction."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.platform.sessions import GameSession, SessionResult
from bot.platform.storage import ChannelBusy, StaleWrite
from tests.bot.storage_backends import open_storage

__all__ = ["open_storage"]  # the fixture used below

ANN, BOB, CID = 10_000_000_000_000_001, 10_000_000_000_000_002, 10_000_000_000_000_777


async def test_one_game_in_progress_per_channel_and_a_finished_one_frees_it(open_storage: Any) -> None:
    storage = await open_storage()
    first = await storage.open_session("legion", 1, CID, ANN, {"seats": [ANN]})
    assert (first.status, first.version, first.host_id) == ("lobby", 1, ANN)
    assert len(first.id) >= 12 and first.id.isascii()
    with pytest.raises(ChannelBusy):
        await storage.open_session("escape", 1, CID, BOB, {})

    def end(session: GameSession) -> bool:
        session.status = "abandoned"
        return True

    await storage.change_session(first.id, end)
    assert await storage.session_in_channel(CID) is None
    second = await storage.open_session("escape", 1, CID, BOB, {})
    assert second.id != first.id and (await storage.session_in_channel(CID)) == second


async def test_concurrent_changes_all_land(open_storage: Any) -> None:
    """Twenty writers over two connections add one seat each: every one is kept (the unit of work
    retries a stale write on a fresh load instead of overwriting)."""
    one, two = await open_storage(), await open_storage()
    session = await one.open_session("legion", 1, CID, ANN, {"seats": []})

    async def join(storage: Any, member: int) -> None:
        def add(s: GameSession) -> bool:
            s.state["seats"].append(member)
            return True

        await storage.change_session(session.id, add, attempts=50)

    await asyncio.gather(*(join(one if i % 2 else two, i) for i in range(20)))
    stored = await one.load_session(session.id)
    assert stored is not None and sorted(stored.state["seats"]) == list(range(20))
    assert stored.version == 21


async def test_a_change_that_changes_nothing_writes_nothing(open_storage: Any) -> None:
    storage = await open_storage()
    session = await storage.open_session("legion", 1, CID, ANN, {"n": 1})
    after = await storage.change_session(session.id, lambda s: False)
    assert after is not None and after.version == 1
    assert await storage.change_session("no-such-session", lambda s: True) is None


async def test_a_stale_save_is_refused(open_storage: Any) -> None:
    storage = await open_storage()
    session = await storage.open_session("legion", 1, CID, ANN, {})
    async with storage.transaction() as tx:
        await tx.save_session(session)
    session.version = 1  # as a writer that read before the save above would have it
    with pytest.raises(StaleWrite):
        async with storage.transaction() as tx:
            await tx.save_session(session)


async def test_restart_finds_active_sessions_of_its_game_only(open_storage: Any) -> None:
    storage = await open_storage()
    a = await storage.open_session("legion", 1, 1, ANN, {"k": "é ☢"})
    await storage.open_session("escape", 1, 2, ANN, {})
    done = await storage.open_session("legion", 1, 3, ANN, {})
    await storage.change_session(done.id, lambda s: setattr(s, "status", "finished") or True)
    again = await open_storage()
    assert [(s.id, s.state) for s in await again.active_sessions("legion")] == [(a.id, {"k": "é ☢"})]


async def test_the_last_change_writes_the_result_once(open_storage: Any) -> None:
    storage = await open_storage()
    session = await storage.open_session("escape", 7, CID, ANN, {})

    def finish(s: GameSession) -> bool:
        s.status = "finished"
        s.result = SessionResult(
            outcome="escaped",
            players=[{"user_id": ANN, "name": "Ann", "won": True}, {"user_id": BOB, "name": "Bob", "won": False}],
            details={"hours": 12},
        )
        return True

    await storage.change_session(session.id, finish)
    await storage.change_session(session.id, finish)  # a repeated ending does not add a second row
    [row] = await storage.session_results(game="escape", guild_id=7)
    assert (row.session_id, row.outcome, row.details) == (session.id, "escaped", {"hours": 12})
    assert [p["name"] for p in row.players] == ["Ann", "Bob"]
    assert [r.session_id for r in await storage.session_results(game="escape", user_id=BOB)] == [session.id]
    assert await storage.session_results(game="legion", guild_id=7) == []
    assert await storage.session_results(game="escape", guild_id=8) == []
