"""Scheduled posts exactly once (issue 25): a claimed schedule row owes its reminder, "dropped" or
opening message and, for an opening, the game's lobby or vote; a process killed anywhere between
the claim and the settling leaves the row owing, and its successor finishes it without sending
anything twice (it looks a possibly-sent message up in the channel first).

The storage half runs on each backend (tests/bot/storage_backends.py) with a small bot of the
scheduler's needs; the game half runs the real bot (SQLite) and its Mission and Campaign cogs.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.games.space_alert.campaign.storage import Campaigns
from bot.games.space_alert.mission.storage import Flights
from bot.platform.hosting._text import tx
from bot.platform.hosting.schedule import REMIND_BEFORE_S
from bot.platform.hosting.scheduler import run_schedules
from bot.platform.storage.platform import ScheduleRecord
from tests.bot.crash_helpers import history_of
from tests.bot.helpers import FakeClock, World, http_error, new_bot, stop_bot
from tests.bot.storage_backends import open_storage

__all__ = ["open_storage"]  # the fixture used below

ME, GUILD, CHANNEL, HOST = 77, 10_000_000_000_000_001, 10_000_000_000_000_005, 10_000_000_000_000_009
AT = 2_000_000_000.0  # the scheduled time


class Crash(BaseException):
    """The process dies here (nothing after this point runs; a BaseException, as a kill is)."""


def crash_at(point: str) -> Callable[[str, ScheduleRecord], Awaitable[None]]:
    async def fault(where: str, _record: ScheduleRecord) -> None:
        if where == point:
            raise Crash(where)

    return fault


class Channel:
    """A channel of "Discord": what was sent (it outlives the processes), its recent history."""

    def __init__(self) -> None:
        self.id = CHANNEL
        self.sent: list[Any] = []
        self.failing = 0  # the next sends fail with a 503
        self.now = AT

    async def send(self, content: str, **_kwargs: Any) -> Any:
        if self.failing:
            self.failing -= 1
            raise http_error(503)
        message = SimpleNamespace(
            id=9000 + len(self.sent),
            content=content,
            author=SimpleNamespace(id=ME),
            created_at=datetime.fromtimestamp(self.now, UTC),
        )
        self.sent.append(message)
        return message

    def history(self, limit: int = 25) -> AsyncIterator[Any]:
        async def newest_first() -> AsyncIterator[Any]:
            for message in list(reversed(self.sent))[:limit]:
                yield message

        return newest_first()


def process(storage: Any, channel: Channel, opened: list[ScheduleRecord]) -> Any:
    """One bot process over `storage`: the scheduler's needs, and a game that records openings."""

    async def on_scheduled_flight(record: ScheduleRecord) -> None:
        opened.append(record)

    return SimpleNamespace(
        storage=storage,
        settings=SimpleNamespace(default_language="en"),
        user=SimpleNamespace(id=ME),
        cluster=None,
        get_channel=lambda channel_id: channel if channel_id == channel.id else None,
        extra_events={"on_scheduled_flight": [on_scheduled_flight]},
    )


async def scheduled(storage: Any, *, at: float = AT) -> int:
    return await storage.add_schedule(ScheduleRecord(GUILD, CHANNEL, HOST, at, "S2-3"))


@pytest.mark.parametrize("point", ["claimed", "before_send"])
async def test_a_crash_between_the_claim_and_the_post_loses_no_reminder(open_storage: Any, point: str) -> None:
    channel, opened = Channel(), []
    first = process(await open_storage(), channel, opened)
    await scheduled(first.storage)
    now = AT - REMIND_BEFORE_S + 1
    with pytest.raises(Crash):
        await run_schedules(first, now, fault=crash_at(point))
    assert channel.sent == [] and [r.owed for r in await first.storage.owed_schedules()] == ["remind"]

    second = process(await open_storage(), channel, opened)  # a restart over the same database
    assert await run_schedules(second, now + 20) == []  # nothing newly due: the claim is finished
    reminder = tx("en", "schedule.remind", mission="S2-3", full=f"<t:{int(AT)}:F>", rel=f"<t:{int(AT)}:R>")
    assert [m.content for m in channel.sent] == [reminder]
    assert await second.storage.owed_schedules() == []
    assert await run_schedules(second, now + 40) == []
    assert len(channel.sent) == 1  # exactly once


async def test_a_crash_after_the_post_before_its_record_sends_nothing_twice(open_storage: Any) -> None:
    channel, opened = Channel(), []
    first = process(await open_storage(), channel, opened)
    await scheduled(first.storage)
    now = AT - REMIND_BEFORE_S + 1
    with pytest.raises(Crash):
        await run_schedules(first, now, fault=crash_at("after_send"))
    assert len(channel.sent) == 1
    (owing,) = await first.storage.owed_schedules()
    assert owing.owed == "remind" and owing.posted_message_id is None  # sent, not recorded

    second = process(await open_storage(), channel, opened)
    await run_schedules(second, now + 20)
    assert len(channel.sent) == 1  # found in the channel, not sent again
    assert await second.storage.owed_schedules() == []


async def test_an_owed_opening_opens_once_and_posts_once(open_storage: Any) -> None:
    channel, opened = Channel(), []
    first = process(await open_storage(), channel, opened)
    sid = await scheduled(first.storage)
    with pytest.raises(Crash):
        await run_schedules(first, AT + 1, fault=crash_at("after_send"))  # posted; the game not reached
    assert len(channel.sent) == 1 and opened == []

    second = process(await open_storage(), channel, opened)
    with pytest.raises(Crash):
        await run_schedules(second, AT + 20, fault=crash_at("opened"))  # opened; not settled
    assert len(channel.sent) == 1  # the message was found, not sent again
    assert [(r.id, r.retry) for r in opened] == [(sid, True)]
    (owing,) = await second.storage.owed_schedules()
    assert owing.owed == "open" and owing.posted_message_id == channel.sent[0].id

    third = process(await open_storage(), channel, opened)
    await run_schedules(third, AT + 40)
    assert len(channel.sent) == 1  # recorded: not even looked for
    assert len(opened) == 2 and opened[-1].retry  # the game is asked again and keeps its one lobby
    assert await third.storage.owed_schedules() == [] and await third.storage.pending_schedules() == []
    await run_schedules(third, AT + 60)
    assert len(channel.sent) == 1 and len(opened) == 2


async def test_a_moment_s_failure_waits_for_the_next_round_and_other_servers_wait(open_storage: Any) -> None:
    channel, opened = Channel(), []
    bot = process(await open_storage(), channel, opened)
    await scheduled(bot.storage)
    channel.failing = 1
    assert [a for _i, a in await run_schedules(bot, AT + 1)] == ["open"]
    assert channel.sent == [] and opened == []  # 503: the row still owes both
    bot.cluster = SimpleNamespace(owns=lambda guild_id: guild_id != GUILD)  # another process's server now
    await run_schedules(bot, AT + 20)
    assert channel.sent == [] and opened == []
    bot.cluster = None
    await run_schedules(bot, AT + 40)
    assert len(channel.sent) == 1 and len(opened) == 1
    assert "S2-3" in channel.sent[0].content and await bot.storage.owed_schedules() == []


# -- the real games: one lobby, one vote ------------------------------------------------------------
@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


async def crashed_opening(tmp_path: Path, clock: FakeClock, point: str, *, campaign: bool) -> tuple[Any, World]:
    """A first process whose scheduled night's opening is cut at `point`, then its successor's
    first round; the successor and the shared world."""
    db = tmp_path / "sa.sqlite3"
    first = await new_bot(db, clock)
    world = World(first)
    ann = world.member("Ann")
    world.channel.history = history_of(world.channel, clock)
    await first.storage.add_schedule(
        ScheduleRecord(world.guild.id, world.channel.id, ann.id, clock() + 60, "S1-2", campaign=campaign)
    )
    clock.advance(61)
    with pytest.raises(Crash):
        await run_schedules(first, clock(), fault=crash_at(point))
    first.get_cog("Mission").flights.stop_all()
    await first.storage.close()
    second = await new_bot(db, clock, world=world)
    clock.advance(20)
    await run_schedules(second, clock())
    await run_schedules(second, clock() + 20)  # and again: nothing more
    return second, world


@pytest.mark.parametrize("point", ["claimed", "after_send", "opened"])
async def test_a_scheduled_lobby_opens_exactly_once_across_a_crash(
    tmp_path: Path, clock: FakeClock, point: str
) -> None:
    bot, world = await crashed_opening(tmp_path, clock, point, campaign=False)
    try:
        texts = [m.content or "" for m in world.channel.sent]
        assert sum("lobby opens now" in text for text in texts) == 1
        assert sum(m.embed is not None for m in world.channel.sent) == 1  # one lobby post
        assert not any("already" in text or "busy" in text.lower() for text in texts)
        record = await Flights(bot.storage).active_flight_in_channel(world.channel.id)
        assert record is not None and record.status == "lobby" and record.lobby_message_id is not None
        assert await bot.storage.owed_schedules() == []
    finally:
        await stop_bot(bot)


@pytest.mark.parametrize("point", ["claimed", "opened"])
async def test_a_scheduled_campaign_vote_opens_exactly_once_across_a_crash(
    tmp_path: Path, clock: FakeClock, point: str
) -> None:
    bot, world = await crashed_opening(tmp_path, clock, point, campaign=True)
    try:
        texts = [m.content or "" for m in world.channel.sent]
        assert sum("campaign starts now" in text for text in texts) == 1
        assert sum(m.embed is not None for m in world.channel.sent) == 1  # one vote
        assert not any("already" in text.lower() for text in texts)
        campaigns = Campaigns(bot.storage)
        found = await campaigns.latest(world.channel.id)
        assert found is not None and found.id.startswith("schedule-")
        assert await bot.storage.owed_schedules() == []
    finally:
        await stop_bot(bot)
