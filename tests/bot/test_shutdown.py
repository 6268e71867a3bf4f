"""Shutdown loses no queued post: the outbox drains for a bounded time, what is left is stored
(migration 0002's outbox table) and a new bot over the same database sends it, once, in order."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from bot.games.space_alert.mission.storage import Flights
from tests.bot.helpers import Sent, World, make_message, new_bot, start_flight, stop_bot, tick


def block(channel: Any) -> list[str | None]:
    """Make the channel hang on every send (Discord not answering); returns the attempts."""
    attempts: list[str | None] = []

    async def hang(content: str | None = None, **kwargs: Any) -> Any:
        attempts.append(content)
        await asyncio.Event().wait()

    channel.send.side_effect = hang
    return attempts


def unblock(channel: Any) -> None:
    async def send(content: str | None = None, **kwargs: Any) -> Any:
        channel.sent.append(Sent("send", content, kwargs))
        message = make_message(channel)
        channel.messages.append(message)
        return message

    channel.send.side_effect = send


async def close_bot(bot: Any, drain_s: float) -> float:
    """Close the bot the way discord.py does (cogs unloaded, then the storage); seconds it took."""
    bot.get_cog("Mission").flights.shutdown_drain_s = drain_s
    started = time.monotonic()
    for name in list(bot.cogs):
        await bot.remove_cog(name)
    took = time.monotonic() - started
    await bot.storage.close()
    return took


async def test_posts_queued_at_shutdown_arrive_once_in_order_after_the_restart(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "sa.sqlite3"
    bot1 = await new_bot(db, clock)
    world = World(bot1)
    fid, _ann, _bob = await start_flight(bot1, world)
    service = bot1.get_cog("Mission").flights
    await service.drain()
    before = len(world.channel.sent)
    attempts = block(world.channel)
    clock.advance(12)  # the first threat (0:10)
    await service.tick(fid)
    clock.advance(141 - 12)  # incoming data (2:20)
    await service.tick(fid)
    await asyncio.sleep(0)
    assert len(attempts) == 1  # the first post hangs; the second waits behind it

    took = await close_bot(bot1, drain_s=0.05)
    assert took < 1.0  # bounded: a hung channel does not hold the shutdown
    assert len(world.channel.sent) == before

    stored = await SqliteOutbox(db).rows()
    # what waited: the outbox rows the two ticks wrote with their changes (issue 25), nothing more
    assert [(p[1], p[2]["op"]) for p in stored] == [(fid, "said"), (fid, "said")]
    unblock(world.channel)
    bot2 = await new_bot(db, clock, world=world)
    service2 = bot2.get_cog("Mission").flights
    await service2.drain()
    posted = [s.content for s in world.channel.sent[before:]]
    assert posted[0].startswith(attempts[0])  # the first tick's alert first
    text = "\n".join(posted)
    assert text.index("T+2") < text.index("Incoming data")  # once each, in the order committed
    assert text.count("T+2") == 1 and text.count("📢 Incoming data") == 1
    assert await bot2.storage.pending_posts() == []

    # a later tick's post comes after them, and a clean close stores nothing
    clock.advance(171 - 141)
    await tick(service2, fid)
    later = "\n".join(s.content or "" for s in world.channel.sent[before + len(posted) :])
    assert "🔇 Communications down" in later  # the alert (sent with the tick's intercom line)
    await stop_bot(bot2)
    bot3 = await new_bot(db, clock, world=world)
    assert await bot3.storage.pending_posts() == []
    assert [s.content for s in world.channel.sent[before:]][: len(posted)] == posted
    await stop_bot(bot3)


async def test_a_result_left_unsent_is_posted_with_its_log_after_the_restart(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "sa.sqlite3"
    bot1 = await new_bot(db, clock)
    world = World(bot1)
    fid, _ann, _bob = await start_flight(bot1, world)
    service = bot1.get_cog("Mission").flights
    await service.drain()
    block(world.channel)
    clock.advance(2000)
    assert await service.tick(fid) is None  # finished: logged, the result is queued
    assert (await Flights(bot1.storage).load_flight(fid)).status == "finished"
    await close_bot(bot1, drain_s=0.02)

    unblock(world.channel)
    before = len(world.channel.sent)
    bot2 = await new_bot(db, clock, world=world)  # the flight is over, its posts still go out
    await bot2.get_cog("Mission").flights.drain()
    sent = world.channel.sent[before:]
    results = [s for s in sent if s.embed is not None]
    assert len(results) == 1 and "result" in results[0].embed.title
    message = world.channel.messages[world.channel.sent.index(results[0])]
    message.create_thread.assert_awaited_once()
    log = "\n".join(s.content for s in message.thread.sent)
    assert log.startswith("**Captain's log**") and "Turn 1" in log
    assert await bot2.storage.pending_posts() == []
    await stop_bot(bot2)


async def test_a_half_sent_result_resumes_where_it_stopped(tmp_path: Path, clock: Any) -> None:
    """The embed went out, the thread too, then Discord hung: after the restart only the log follows."""
    db = tmp_path / "sa.sqlite3"
    bot1 = await new_bot(db, clock)
    world = World(bot1)
    fid, _ann, _bob = await start_flight(bot1, world)
    service = bot1.get_cog("Mission").flights
    await service.drain()
    thread_gate: dict[str, Any] = {}
    original = world.channel.send.side_effect

    async def send_then_hang_in_thread(content: str | None = None, **kwargs: Any) -> Any:
        message = await original(content, **kwargs)
        if kwargs.get("embed") is not None and "result" in (kwargs["embed"].title or ""):

            async def hang(*_a: Any, **_k: Any) -> None:
                await asyncio.Event().wait()

            message.thread.send.side_effect = hang
            thread_gate["message"] = message
        return message

    world.channel.send.side_effect = send_then_hang_in_thread
    clock.advance(2000)
    await service.tick(fid)
    await asyncio.sleep(0.01)
    assert "message" in thread_gate
    await close_bot(bot1, drain_s=0.02)
    [(_, _, payload)] = await SqliteOutbox(db).rows()
    assert payload["op"] == "result" and payload["message_id"] == thread_gate["message"].id
    assert payload["thread_tried"] and payload["sent"] == 0

    thread = thread_gate["message"].thread
    thread.send.side_effect = None
    world.channel.get_partial_message = lambda mid: thread_gate["message"]
    original_channel = world._channel
    world._channel = lambda cid: thread if cid == thread.id else original_channel(cid)  # type: ignore[method-assign]
    before = len(world.channel.sent)
    bot2 = await new_bot(db, clock, world=world)
    await bot2.get_cog("Mission").flights.drain()
    assert len(world.channel.sent) == before  # the embed is not posted twice
    thread_gate["message"].create_thread.assert_awaited_once()  # nor the thread opened twice
    assert thread.send.await_count >= 1
    await stop_bot(bot2)


class SqliteOutbox:
    """Read the stored posts straight from the database file."""

    def __init__(self, db: Path) -> None:
        self.db = db

    async def rows(self) -> list[tuple[int, str, dict[str, Any]]]:
        from bot.platform.storage import SqliteStorage

        storage = SqliteStorage(self.db)
        await storage.open()
        try:
            return await storage.pending_posts()
        finally:
            await storage.close()
