"""Posts exactly once across a crash (issue 25), on SQLite and PostgreSQL: what a tick makes due is
in the outbox when the tick's change commits, before anything is sent; a process killed before
sending leaves it for its successor, which sends it once (late intercom lines marked as missed);
one killed after sending but before forgetting the row does not send it twice."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from tests.bot.crash_helpers import crash, flying, forget_nothing, stop_clean, successor
from tests.bot.storage_backends import bot_backend
from tests.bot.test_shutdown import block, unblock

# the fixture (each test on SQLite and on PostgreSQL), and `crash` for tests that import it from here
__all__ = ["bot_backend", "crash"]


async def test_a_committed_line_survives_a_crash_before_it_is_sent(
    tmp_path: Path, clock: Any, bot_backend: str
) -> None:
    first = await flying(tmp_path, clock)
    bot1, world, service, fid = first.bot, first.world, first.service, first.fid
    before = len(world.channel.sent)
    block(world.channel)  # Discord hangs: nothing of the tick goes out
    clock.advance(12)  # 0:10: the first threat
    await service.tick(fid)
    staged = await bot1.storage.pending_posts()
    assert [(f, p["op"]) for _id, f, p in staged] == [(fid, "said")]  # committed with the tick
    items = staged[0][2]["items"]
    assert any(kind == "alert" and "T+2" in said for kind, said in items), items
    lines = [said for kind, said in items if kind == "line"]
    assert lines
    await crash(bot1)

    clock.advance(20)  # the successor starts 20 s later: the lines' moment has passed
    unblock(world.channel)
    bot2 = await successor(first, clock)
    posted = "\n".join(s.content or "" for s in world.channel.sent[before:])
    assert posted.count("T+2") == 1
    missed = "⏮ (missed while the bot was restarting) "
    for line in lines:
        line = line.removeprefix(missed)  # the 0 s line was late already when the tick staged it
        assert posted.count(line) == 1, (line, posted)
        assert posted.count(missed + line) == 1, (line, posted)
    await stop_clean(bot2)


async def test_a_line_sent_before_the_crash_is_not_sent_again(tmp_path: Path, clock: Any, bot_backend: str) -> None:
    first = await flying(tmp_path, clock)
    bot1, world, service, fid = first.bot, first.world, first.service, first.fid
    forget_nothing(service.posts.store)  # the process dies between the send and the row's deletion
    before = len(world.channel.sent)
    clock.advance(12)
    await service.tick(fid)
    await service.posts._outboxes.join()
    sent_then = [s.content or "" for s in world.channel.sent[before:]]
    assert any("T+2" in s for s in sent_then)
    assert len(await bot1.storage.pending_posts()) == 1  # still there: not confirmed
    await crash(bot1)

    # the channel's recent messages, as Discord's history returns them (newest first)
    messages = [
        SimpleNamespace(
            content=text,
            author=SimpleNamespace(id=None),
            edited_at=None,
            created_at=datetime.fromtimestamp(clock(), UTC),
        )
        for text in reversed(sent_then)
    ]

    async def history(limit: int = 25) -> Any:
        for message in messages[:limit]:
            yield message

    world.channel.history = history
    bot2 = await successor(first, clock)
    assert [s.content or "" for s in world.channel.sent[before:]] == sent_then  # nothing twice
    await stop_clean(bot2)


async def test_the_result_survives_a_crash_after_the_flight_is_finished(
    tmp_path: Path, clock: Any, bot_backend: str
) -> None:
    first = await flying(tmp_path, clock)
    bot1, world, service, fid = first.bot, first.world, first.service, first.fid
    block(world.channel)
    clock.advance(2000)
    assert await service.tick(fid) is None  # finished and logged; the result is not out
    assert "result" in [p["op"] for _id, f, p in await bot1.storage.pending_posts() if f == fid]
    await crash(bot1)

    unblock(world.channel)
    before = len(world.channel.sent)
    bot2 = await successor(first, clock)
    results = [s for s in world.channel.sent[before:] if s.embed is not None and "result" in (s.embed.title or "")]
    assert len(results) == 1
    await stop_clean(bot2)
