"""What every crash-injection test (issue 25) does around its one interesting moment: a first
process with a running flight, the process killed without a drain, a successor over the same
database and the same world, and the check that it left nothing unsent.

    first = await flying(tmp_path, clock)            # bot, world, flight, service; posts drained
    block(first.world.channel)                       # (the test's own fault: Discord hangs, ...)
    clock.advance(2000)
    assert await first.service.tick(first.fid) is None
    assert [p["op"] for p in await staged(first.bot, first.fid)] == [...]
    await crash(first.bot)                           # no drain, no shutdown storing
    unblock(first.world.channel)
    second = await successor(first, clock)           # same db and world; its posts drained
    ...                                              # what the successor sent
    await stop_clean(second)                         # the outbox is empty, the bot stopped

Why here: tests/bot/test_outbox_staging.py, test_outbox_crash.py and test_follow_up_crash.py each
wrote these steps out again; a new crash test should only write its fault and its checks.
`crash` and `history_of` keep their old homes as re-exports for tests that import them there.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from tests.bot.helpers import World, new_bot, start_flight, stop_bot


@dataclass
class Process:
    """One bot process of a crash test and what it flies: its database file, its test world (the
    successor gets the same one, as a restarted bot meets the same Discord), the flight's id and
    its two crew members, and the Mission cog's flight service."""

    db: Path
    bot: Any
    world: World
    fid: str
    ann: Any
    bob: Any

    @property
    def service(self) -> Any:
        return self.bot.get_cog("Mission").flights


async def flying(
    tmp_path: Path,
    clock: Any,
    *,
    start: Callable[[Any, World], Awaitable[tuple[str, Any, Any]]] = start_flight,
    drain: bool = True,
) -> Process:
    """A first process over `tmp_path`/sa.sqlite3 with a flight in the air (`start(bot, world)`,
    by default tests.bot.helpers.start_flight); with `drain`, the start's posts are already out."""
    db = tmp_path / "sa.sqlite3"
    bot = await new_bot(db, clock)
    world = World(bot)
    fid, ann, bob = await start(bot, world)
    process = Process(db, bot, world, fid, ann, bob)
    if drain:
        await process.service.drain()
    return process


async def crash(bot: Any) -> None:
    """The process dies: no drain, no shutdown storing, its queues just stop."""
    service = bot.get_cog("Mission").flights
    service.stop_all()
    await bot.storage.close()


async def successor(first: Process, clock: Any) -> Any:
    """The process that takes over after `crash`: a new bot over the same database and world,
    whose start-up sends have all gone out (what it owed is in `first.world` now)."""
    bot = await new_bot(first.db, clock, world=first.world)
    await bot.get_cog("Mission").flights.drain()
    return bot


async def stop_clean(bot: Any) -> None:
    """The successor owes nothing (every outbox row sent and forgotten); then it stops."""
    assert await bot.storage.pending_posts() == []
    await stop_bot(bot)


async def staged(bot: Any, fid: str) -> list[dict[str, Any]]:
    """The outbox payloads of flight `fid`, in sending order."""
    return [payload for _row, flight, payload in await bot.storage.pending_posts() if flight == fid]


def forget_nothing(store: Any) -> None:
    """The process dies between a send and its row's deletion: `store.delete_post` never returns
    (so the row stays, as if the deletion had not happened yet)."""

    async def lost(_row: int) -> None:
        await asyncio.Event().wait()

    store.delete_post = lost


def history_of(channel: Any, clock: Any, start: int = 0) -> Any:
    """`channel.history` as Discord answers it: the bot's messages, newest first, with their
    components (so the result is found by its buttons)."""
    from datetime import UTC, datetime

    def history(limit: int = 25) -> AsyncIterator[Any]:
        async def gen() -> AsyncIterator[Any]:
            sent = list(zip(channel.sent[start:], channel.messages[-len(channel.sent[start:]) :], strict=False))
            edits = {message_id: kw["content"] for message_id, kw in channel.edits if "content" in kw}
            for entry, message in list(reversed(sent))[:limit]:
                view = entry.view
                yield SimpleNamespace(
                    id=message.id,
                    content=edits.get(message.id, entry.content),  # an edited message shows its last text
                    author=SimpleNamespace(id=None),
                    edited_at=None,
                    created_at=datetime.fromtimestamp(clock(), UTC),
                    components=[SimpleNamespace(children=list(view.children))] if view is not None else [],
                    create_thread=message.create_thread,
                )

        return gen()

    return history
