"""Channel posts go through a per-flight outbox: a throttled or forbidden channel never stalls the clock."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from bot.games.space_alert.logbook import Logbook
from bot.games.space_alert.mission._poster import Outbox, retry_after
from bot.games.space_alert.mission.storage import Flights
from tests.bot.helpers import Sent, http_error, make_message, start_flight, station_view, tick


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
    assert (await station_view(bot, fid, "Ann")).can_draw, "incoming data opened although the channel is blocked"
    assert len(channel.sent) == before  # nothing got through yet

    gate.set()
    await service.drain()
    posted = [s.content for s in channel.sent[before:]]
    assert attempts[1].startswith(attempts[0])  # the throttled alert was retried (with what came meanwhile)
    assert posted == list(dict.fromkeys(attempts[1:]))  # every message, once, in the order queued
    # what waited was merged: the alerts together, one intercom message with every line so far
    # (not one post per line or per tick)
    assert len(posted) <= 3, posted
    assert posted[0].startswith("⚠️") and any(p.count("📢") >= 4 for p in posted)
    joined = "\n".join(posted)
    assert joined.index("T+2") < joined.index("Incoming data")  # 0:10 threat before 2:20 data


async def test_sustained_rate_limits_merge_the_queue_and_the_result_comes_within_5_s(
    bot: Any, world: Any, clock: Any
) -> None:
    fid, _ann, _bob = await start_flight(bot, world, voice="off")
    service = bot.get_cog("Mission").flights
    await service.drain()
    channel = world.channel
    calls = {"n": 0}
    plain_send = channel.send.side_effect

    async def throttled_send(content: str | None = None, **kwargs: Any) -> Any:
        calls["n"] += 1
        if calls["n"] % 2:
            raise http_error(429, retry_after=0.2)  # every other request: slow down
        return await plain_send(content, **kwargs)

    channel.send.side_effect = throttled_send
    for _ in range(700):  # the whole mission, a second at a time, while Discord throttles
        clock.advance(1)
        if await service.tick(fid) is None:
            break
    ended = time.monotonic()
    while not any(s.embed is not None and "result" in (s.embed.title or "") for s in channel.sent):
        assert time.monotonic() - ended < 5.0, "the result is not out 5 s after the end"
        await asyncio.sleep(0.05)
    await service.drain()
    text = "\n".join(s.content or "" for s in channel.timeline)
    from engine.flight.machine import Flight

    threats = Flight.from_dict((await Flights(bot.storage).load_flight(fid)).state).deck().threats
    assert "Mission complete" in text and text.count("⚠️") == len(threats) >= 5  # nothing lost
    assert calls["n"] < 40, calls["n"]  # merged: a few dozen requests at most, not one per line


async def test_forbidden_mid_flight_tells_the_host_once_and_the_flight_goes_on(
    bot: Any, world: Any, clock: Any
) -> None:
    fid, ann, bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights
    await service.drain()
    world.channel.send.side_effect = http_error(403)  # Send Messages was taken away

    for at in (12, 60, 141, 200):
        clock.advance(at - service.flight_time(await Flights(bot.storage).load_flight(fid)))
        await tick(service, fid)
    record = await Flights(bot.storage).load_flight(fid)
    assert record.status == "flying" and (await station_view(bot, fid, "Ann")).can_draw
    assert record.notes["forbidden_notice"] is True
    ann.send.assert_awaited_once()
    assert "can no longer post" in ann.send.await_args.args[0]
    bob.send.assert_not_awaited()

    clock.advance(1000)  # the result cannot be posted either: still finished and logged, no crash
    assert await tick(service, fid) is None
    assert (await Flights(bot.storage).load_flight(fid)).status == "finished"
    assert len(await Logbook(bot.storage).entries(world.guild.id)) == 1
    ann.send.assert_awaited_once()


async def test_forbidden_host_dm_failing_too_is_only_logged(bot: Any, world: Any, clock: Any) -> None:
    fid, ann, _bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights
    await service.drain()
    world.channel.send.side_effect = http_error(403)
    ann.send.side_effect = http_error(403)  # DMs closed
    clock.advance(60)
    await tick(service, fid)
    assert (await Flights(bot.storage).load_flight(fid)).status == "flying"


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
