"""Channel posts go through a per-flight outbox: a throttled or forbidden channel never stalls the clock."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.exts.mission._poster import Outbox, retry_after
from tests.bot.helpers import Sent, http_error, make_message, start_flight, tick


async def test_throttled_channel_does_not_delay_the_clock_and_keeps_the_order(bot: Any, world: Any, clock: Any) -> None:
    fid, _ann, _bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights
    await service.drain()
    channel = world.channel
    before = len(channel.sent)
    gate = asyncio.Event()
    attempts: list[str | None] = []

    async def slow_send(content: str | None = None, **kwargs: Any) -> Any:
        attempts.append(content)
        if len(attempts) == 1:
            raise http_error(429, retry_after=0.01)  # Discord: slow down
        await gate.wait()  # a channel that answers only when we let it
        channel.sent.append(Sent("send", content, kwargs))
        return make_message(channel)

    channel.send.side_effect = slow_send

    clock.advance(12)  # the first threat announcement (0:10)
    await asyncio.wait_for(service.tick(fid), timeout=1.0)
    clock.advance(141 - 12)  # incoming data at 2:20: the next state transition
    await asyncio.wait_for(service.tick(fid), timeout=1.0)
    state = (await bot.storage.load_flight(fid)).state
    assert state["incoming"], "incoming data opened although the channel is still blocked"
    assert len(channel.sent) == before  # nothing got through yet

    gate.set()
    await service.drain()
    posted = [s.content for s in channel.sent[before:]]
    assert attempts[0] == attempts[1]  # the throttled message was retried, not dropped
    assert posted == list(dict.fromkeys(attempts))  # every message, once, in the order queued
    assert len(posted) == 2  # one post per tick
    joined = "\n".join(posted)
    assert joined.index("T+2") < joined.index("Incoming data")  # 0:10 threat before 2:20 data


async def test_forbidden_mid_flight_tells_the_host_once_and_the_flight_goes_on(
    bot: Any, world: Any, clock: Any
) -> None:
    fid, ann, bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights
    await service.drain()
    world.channel.send.side_effect = http_error(403)  # Send Messages was taken away

    for at in (12, 60, 141, 200):
        clock.advance(at - service.flight_time(await bot.storage.load_flight(fid)))
        await tick(service, fid)
    record = await bot.storage.load_flight(fid)
    assert record.status == "flying" and record.state["incoming"]
    assert record.notes["forbidden_notice"] is True
    ann.send.assert_awaited_once()
    assert "can no longer post" in ann.send.await_args.args[0]
    bob.send.assert_not_awaited()

    clock.advance(1000)  # the result cannot be posted either: still finished and logged, no crash
    assert await tick(service, fid) is None
    assert (await bot.storage.load_flight(fid)).status == "finished"
    assert len(await bot.storage.logbook(world.guild.id)) == 1
    ann.send.assert_awaited_once()


async def test_forbidden_host_dm_failing_too_is_only_logged(bot: Any, world: Any, clock: Any) -> None:
    fid, ann, _bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights
    await service.drain()
    world.channel.send.side_effect = http_error(403)
    ann.send.side_effect = http_error(403)  # DMs closed
    clock.advance(60)
    await tick(service, fid)
    assert (await bot.storage.load_flight(fid)).status == "flying"


async def test_outbox_retries_server_errors_skips_bad_requests_and_closes_cleanly() -> None:
    sleeps: list[float] = []

    async def no_sleep(seconds: float) -> None:
        sleeps.append(seconds)

    done: list[str] = []
    failures = {"a": [http_error(503)], "b": [http_error(400)]}

    def job(name: str) -> Any:
        async def run() -> None:
            if failures.get(name):
                raise failures[name].pop()
            done.append(name)

        return run

    box = Outbox("t", sleep=no_sleep)
    for name in "abc":
        box.put(job(name))
    await box.join()
    assert done == ["a", "c"] and sleeps == [2.0]  # 503 retried after a back-off; 400 skipped

    blocked = asyncio.Event()
    box.put(blocked.wait)
    await asyncio.sleep(0)
    await box.close()  # cancels the waiting worker without raising
    assert box._task is None


def test_retry_after_reads_the_header_or_defaults() -> None:
    assert retry_after(http_error(429, retry_after=2.5)) == 2.5
    assert retry_after(http_error(429)) == 1.0
