"""A process killed between a change's commit and its sends (issue 25), on SQLite and PostgreSQL:
the communication failure's alerts and mutes commit with the tick that starts or ends it and reach
the channel and the crew exactly once after the crash; the result's pieces (embed, thread,
captain's log, navigation) record their progress one by one, so a successor continues from the
next piece and none is posted twice, also when the crash fell between a send and its record.
Also: a click that only reads drops no coroutine and writes nothing (no warning, no outbox row)."""

from __future__ import annotations

import asyncio
import gc
import warnings
from collections.abc import AsyncIterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.games.space_alert.mission import ids as _ids
from bot.games.space_alert.mission.storage import Flights
from engine.flight.machine import Flight
from tests.bot.crash_helpers import crash, flying, forget_nothing, history_of, stop_clean, successor
from tests.bot.helpers import World, click, http_error, start_flight, stop_bot, tick
from tests.bot.storage_backends import bot_backend
from tests.bot.test_muting import COMM_DOWN_S, COMM_UP_S, mute_calls
from tests.bot.test_shutdown import block, unblock

# the fixture (each test on SQLite and on PostgreSQL), and `history_of` for tests that import it from here
__all__ = ["bot_backend", "history_of"]

# a coroutine created and dropped is a bug here, not a warning
pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")

DOWN = "🔇 Communications down"
RESTORED = "🔊 Communications restored"


async def to(bot: Any, fid: str, clock: Any, at: float) -> None:
    """Move the clock to mission second `at`."""
    service = bot.get_cog("Mission").flights
    clock.advance(at - service.flight_time(await Flights(bot.storage).load_flight(fid)))


def posted(channel: Any, start: int = 0) -> str:
    return "\n".join(s.content or "" for s in channel.sent[start:])


def hang_members(*members: Any) -> None:
    """Discord never answers these members' edits (the process dies before any mute is out)."""

    async def hang(**_kw: Any) -> None:
        await asyncio.Event().wait()

    for member in members:
        member.edit.side_effect = hang


def answer_members(*members: Any) -> None:
    for member in members:
        member.edit.side_effect = None


async def test_a_communication_failure_survives_a_crash_before_anything_is_sent(
    tmp_path: Path, clock: Any, bot_backend: str
) -> None:
    first = await flying(tmp_path, clock)
    bot1, world, service, fid, ann, bob = first.bot, first.world, first.service, first.fid, first.ann, first.bob
    await to(bot1, fid, clock, COMM_DOWN_S - 5)
    await tick(service, fid)
    before = len(world.channel.sent)
    block(world.channel)
    hang_members(ann, bob)
    await to(bot1, fid, clock, COMM_DOWN_S)
    await service.tick(fid)
    record = await Flights(bot1.storage).load_flight(fid)
    # one transaction: the failure, whom it mutes and the alert saying so
    assert Flight.from_dict(record.state).deck().comm_down_until_s is not None
    assert set(record.notes["muted"]) == {ann.id, bob.id}
    staged = [p for _id, f, p in await bot1.storage.pending_posts() if f == fid]
    assert any(kind == "alert" and DOWN in said for p in staged for kind, said in p["items"]), staged
    await crash(bot1)

    unblock(world.channel)
    answer_members(ann, bob)
    bot2 = await successor(first, clock)  # at once, still inside the failure
    service2 = bot2.get_cog("Mission").flights
    assert posted(world.channel, before).count(DOWN) == 1
    assert mute_calls(ann)[-1:] == [True] and mute_calls(bob)[-1:] == [True]  # muted by the successor

    await to(bot2, fid, clock, COMM_UP_S)
    await tick(service2, fid)
    text = posted(world.channel, before)
    assert text.count(DOWN) == 1 and text.count(RESTORED) == 1
    assert mute_calls(ann).count(False) == 1 and mute_calls(bob).count(False) == 1
    assert (await Flights(bot2.storage).load_flight(fid)).notes["muted"] == []
    await stop_clean(bot2)


async def test_the_end_of_a_failure_survives_a_crash_before_the_unmute(
    tmp_path: Path, clock: Any, bot_backend: str
) -> None:
    first = await flying(tmp_path, clock, drain=False)
    bot1, world, service, fid, ann, bob = first.bot, first.world, first.service, first.fid, first.ann, first.bob
    await to(bot1, fid, clock, COMM_DOWN_S)
    await tick(service, fid)
    assert mute_calls(ann) == [True] and mute_calls(bob) == [True]
    before = len(world.channel.sent)
    block(world.channel)
    hang_members(ann, bob)
    await to(bot1, fid, clock, COMM_UP_S)
    await service.tick(fid)
    assert Flight.from_dict((await Flights(bot1.storage).load_flight(fid)).state).deck().comm_down_until_s is None
    await crash(bot1)

    unblock(world.channel)
    answer_members(ann, bob)
    bot2 = await successor(first, clock)
    assert posted(world.channel, before).count(RESTORED) == 1
    # the dead process's unmute of Ann hung unanswered (Discord never took it), Bob's queued
    # behind it never left; the successor's went out, once each
    assert mute_calls(ann) == [True, False, False] and mute_calls(bob) == [True, False]
    assert (await Flights(bot2.storage).load_flight(fid)).notes["muted"] == []
    await tick(bot2.get_cog("Mission").flights, fid)
    assert mute_calls(ann) == [True, False, False] and mute_calls(bob) == [True, False]  # nothing more
    await stop_bot(bot2)


async def test_an_alert_sent_before_the_crash_is_not_sent_again(tmp_path: Path, clock: Any, bot_backend: str) -> None:
    first = await flying(tmp_path, clock, drain=False)
    bot1, world, service, fid, ann = first.bot, first.world, first.service, first.fid, first.ann
    await to(bot1, fid, clock, COMM_DOWN_S - 5)
    await tick(service, fid)
    forget_nothing(service.posts.store)  # the process dies between the send and the row's deletion
    before = len(world.channel.sent)
    await to(bot1, fid, clock, COMM_DOWN_S)
    await service.tick(fid)
    await service.posts._outboxes.join()
    sent_then = [s.content or "" for s in world.channel.sent[before:]]
    assert sum(DOWN in s for s in sent_then) == 1
    await crash(bot1)

    world.channel.history = history_of(world.channel, clock)
    bot2 = await successor(first, clock)
    assert [s.content or "" for s in world.channel.sent[before:]] == sent_then  # nothing twice
    assert mute_calls(ann).count(True) >= 1 and mute_calls(ann)[-1] is True  # a mute again is harmless
    await stop_clean(bot2)


def thread_history(thread: Any) -> Any:
    def history(limit: int = 25) -> AsyncIterator[Any]:
        async def gen() -> AsyncIterator[Any]:
            for entry in list(reversed(thread.sent))[:limit]:
                yield SimpleNamespace(content=entry.content, author=SimpleNamespace(id=None))

        return gen()

    return history


class ResultWatch:
    """Follows the result message and its thread in a test world, across a restart: the thread
    is found by its id and by its message's id (as on Discord), and can be made to hang."""

    def __init__(self, world: World) -> None:
        self.world = world
        self.message: Any = None
        self.thread: Any = None
        self.hang_after: int | None = None  # thread sends answered before the rest hang
        channel = world.channel
        original = channel.send.side_effect

        async def send(content: str | None = None, **kwargs: Any) -> Any:
            message = await original(content, **kwargs)
            embed = kwargs.get("embed")
            if embed is not None and "result" in (embed.title or "").lower():
                self.adopt(message)
            return message

        channel.send.side_effect = send
        plain = world._channel

        def lookup(channel_id: int) -> Any:
            made = self.thread is not None and self.message.create_thread.await_count > 0
            if made and channel_id in (self.thread.id, self.message.id):  # a thread once Discord made it
                return self.thread
            return plain(channel_id)

        world._channel = lookup  # type: ignore[method-assign]

    def adopt(self, message: Any) -> None:
        self.message, self.thread = message, message.thread
        thread, sent = self.thread, self.thread.send.side_effect

        async def send(content: str | None = None, **kwargs: Any) -> Any:
            if self.hang_after is not None and len(thread.sent) >= self.hang_after:
                await asyncio.Event().wait()
            return await sent(content, **kwargs)

        thread.send.side_effect = send
        thread.history = thread_history(thread)

    def results(self, start: int = 0) -> int:
        return sum(
            1
            for s in self.world.channel.sent[start:]
            if s.embed is not None and "result" in (s.embed.title or "").lower()
        )


async def watched(bot: Any, world: World) -> tuple[str, Any, Any]:
    """`start_flight` with a `ResultWatch` on the world (as `world.watch`), set before the flight."""
    world.watch = ResultWatch(world)  # type: ignore[attr-defined]  # (World keeps no such field)
    return await start_flight(bot, world)


async def finish_blocked(bot: Any, world: World, fid: str, clock: Any, until: Any) -> None:
    """Fly to the end; wait until `until()` holds while the result goes out (then the test crashes it)."""
    service = bot.get_cog("Mission").flights
    await service.drain()
    clock.advance(2000)
    assert await service.tick(fid) is None
    for _ in range(500):
        if until():
            break
        await asyncio.sleep(0.01)
    assert until()


async def test_the_result_continues_from_the_next_piece_after_a_crash(
    tmp_path: Path, clock: Any, bot_backend: str
) -> None:
    first = await flying(tmp_path, clock, start=watched, drain=False)
    bot1, world, fid, watch = first.bot, first.world, first.fid, first.world.watch
    watch.hang_after = 2  # two pieces of the captain's log out, the third never answered
    await finish_blocked(bot1, world, fid, clock, lambda: watch.thread is not None and len(watch.thread.sent) == 2)
    for _ in range(200):  # the second piece's progress is being stored
        [(_row, _f, stored)] = [p for p in await bot1.storage.pending_posts() if p[2]["op"] == "result"]
        if stored["sent"] == 2:
            break
        await asyncio.sleep(0.01)
    await crash(bot1)
    assert stored["sent"] == 2 and stored["message_id"] == watch.message.id and stored["picture"] is None
    chunks = stored["chunks"]
    assert len(chunks) > 2

    watch.hang_after = None
    bot2 = await successor(first, clock)
    assert watch.results() == 1
    contents = [s.content for s in watch.thread.sent]
    assert contents[: len(chunks)] == chunks  # each piece once, in order
    assert len(contents) == len(chunks) + 1  # and the navigation once
    assert watch.thread is watch.message.thread and watch.message.create_thread.await_count == 1
    await stop_clean(bot2)


@pytest.mark.parametrize("cut", ["result", "thread", "chunk", "navigation"])
async def test_a_piece_sent_but_not_recorded_is_not_sent_again(
    tmp_path: Path, clock: Any, bot_backend: str, cut: str
) -> None:
    """The crash falls after Discord took a piece and before its progress was stored."""
    first = await flying(tmp_path, clock, start=watched, drain=False)
    bot1, world, fid, watch = first.bot, first.world, first.fid, first.world.watch
    before = len(world.channel.sent)
    store = bot1.get_cog("Mission").flights.posts.store
    recorded: list[dict[str, Any]] = []
    progress = store.update_post
    stop_at = {"result": 1, "thread": 2, "chunk": 4}.get(cut)  # the record after that piece hangs

    async def record(row: int, payload: dict[str, Any]) -> None:
        if (stop_at is not None and len(recorded) + 1 >= stop_at) or (cut == "navigation" and payload.get("nav_sent")):
            await asyncio.Event().wait()
        recorded.append(payload)
        await progress(row, payload)

    store.update_post = record
    await finish_blocked(
        bot1,
        world,
        fid,
        clock,
        lambda: (
            watch.thread is not None
            and (
                {"result": watch.message is not None, "thread": watch.message.create_thread.await_count == 1}.get(cut)
                or (cut == "chunk" and len(watch.thread.sent) == 2)
                or (cut == "navigation" and len(watch.thread.sent) > 0 and watch.thread.sent[-1].view is not None)
            )
        ),
    )
    [(_row, _f, stored)] = [p for p in await bot1.storage.pending_posts() if p[2]["op"] == "result"]
    await crash(bot1)
    chunks = stored["chunks"]
    sent_then = [s.content for s in watch.thread.sent]

    world.channel.history = history_of(world.channel, clock)
    bot2 = await successor(first, clock)
    assert watch.results(before) == 1, cut
    assert watch.message.create_thread.await_count == 1, cut
    contents = [s.content for s in watch.thread.sent]
    assert contents[: len(sent_then)] == sent_then
    assert contents[: len(chunks)] == chunks, cut  # every piece once, in order
    assert len(contents) == len(chunks) + 1, cut  # the navigation once
    await stop_clean(bot2)


async def test_opening_a_station_at_a_quiet_moment_drops_no_coroutine_and_writes_nothing(
    bot: Any, world: Any, clock: Any
) -> None:
    fid, ann, _bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights
    await tick(service, fid)
    version = (await Flights(bot.storage).load_flight(fid)).version
    gc.collect()  # what earlier tests left behind is not this click's
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        inter = await click(world, ann, _ids.make(fid, "station"))
        gc.collect()  # a dropped coroutine warns when it is collected
    assert not [w for w in caught if "never awaited" in str(w.message)], [str(w.message) for w in caught]
    assert inter.log[-1].kind == "send_message"
    assert (await Flights(bot.storage).load_flight(fid)).version == version  # read, not written
    assert await bot.storage.pending_posts() == []


async def test_a_429_storm_unmutes_each_member_once(bot: Any, world: Any, clock: Any) -> None:
    """Every member edit is throttled a few times before Discord takes it; the failure ends and
    the flight ends while unmutes wait: each member is unmuted once, and muted once."""
    fid, ann, bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights
    answered: dict[int, list[bool]] = {ann.id: [], bob.id: []}

    def storm(member: Any) -> Any:
        tries = {"n": 0}

        async def edit(*, mute: bool, reason: str) -> None:
            tries["n"] += 1
            if tries["n"] % 3:
                raise http_error(429, retry_after=0.01)
            answered[member.id].append(mute)

        return edit

    ann.edit.side_effect, bob.edit.side_effect = storm(ann), storm(bob)
    await to(bot, fid, clock, COMM_DOWN_S)
    await service.tick(fid)
    await to(bot, fid, clock, COMM_UP_S)
    await service.tick(fid)
    clock.advance(2000)
    assert await service.tick(fid) is None  # the end: its unmute queued behind the throttled ones
    await service.drain()
    assert answered == {ann.id: [True, False], bob.id: [True, False]}
    assert (await Flights(bot.storage).load_flight(fid)).notes["muted"] == []


async def test_a_refused_mute_notice_is_staged_said_once_and_forgotten(bot: Any, world: Any, clock: Any) -> None:
    """The "cannot mute" notice commits with its once-per-flight flag (an outbox row), goes out
    once however many mutes Discord refuses, and its row is gone once it is out."""
    fid, ann, bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights
    for member in (ann, bob):
        member.edit.side_effect = http_error(403)
    staged: list[dict[str, Any]] = []
    stage = bot.storage.stage_post

    async def spy(flight_id: str, payload: dict[str, Any]) -> int:
        staged.append(payload)
        return await stage(flight_id, payload)

    bot.storage.stage_post = spy
    await to(bot, fid, clock, COMM_DOWN_S)
    await tick(service, fid)
    notices = [s.content for s in world.channel.sent if "server-mute" in (s.content or "").lower()]
    assert len(notices) == 1, notices
    assert sum(1 for p in staged for _kind, said in p["items"] if said == notices[0]) == 1
    assert await bot.storage.pending_posts() == []
