"""Server mute / unmute at a communication failure run on the flight's voice queue, not in the tick:
a throttled or slow mute never delays the next state transition, the unmute still happens after
it, refusals are reported once, and the stored muted ids survive a restart."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot.games.space_alert.mission.storage import Flights
from bot.platform.client import SpaceAlertBot
from engine.flight.machine import Flight
from tests.bot.helpers import World, http_error, new_bot, start_flight, stop_bot, tick

COMM_DOWN_S = 171  # S2-1: communications down at 2:50, restored at 3:00
COMM_UP_S = 182


async def _to(service: Any, bot: Any, fid: str, clock: Any, at: float) -> None:
    clock.advance(at - service.flight_time(await Flights(bot.storage).load_flight(fid)))


def mute_calls(member: Any) -> list[bool]:
    return [call.kwargs["mute"] for call in member.edit.await_args_list]


async def test_a_throttled_mute_does_not_delay_the_clock_and_the_unmute_follows(
    bot: Any, world: Any, clock: Any
) -> None:
    fid, ann, bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights
    await service.drain()
    gate = asyncio.Event()
    attempts: list[bool] = []

    async def slow_edit(*, mute: bool, reason: str) -> None:
        attempts.append(mute)
        if len(attempts) == 1:
            raise http_error(429, retry_after=0.01)  # Discord: slow down
        await gate.wait()  # a member edit that answers only when we let it

    ann.edit.side_effect = slow_edit

    await _to(service, bot, fid, clock, COMM_DOWN_S)
    await asyncio.wait_for(service.tick(fid), timeout=1.0)  # returns although Ann's mute is stuck
    record = await Flights(bot.storage).load_flight(fid)
    assert Flight.from_dict(record.state).deck().comm_down_until_s is not None
    assert set(record.notes["muted"]) == {ann.id, bob.id}  # recorded before any Discord call

    await _to(service, bot, fid, clock, COMM_UP_S)
    await asyncio.wait_for(service.tick(fid), timeout=1.0)  # the next transition is on time
    assert Flight.from_dict((await Flights(bot.storage).load_flight(fid)).state).deck().comm_down_until_s is None
    try:
        # The retry runs on the voice queue after Discord's retry_after; wait for it, boundedly.
        for _ in range(200):
            if len(attempts) >= 2:
                break
            await asyncio.sleep(0.01)
        assert attempts == [True, True]  # throttled once, retried, still waiting: no unmute yet
    finally:
        gate.set()  # never leave the fake edit hanging: teardown drains the queue
    await service.drain()
    assert attempts == [True, True, False]  # mute (retried), then unmute, in order
    assert mute_calls(bob) == [True, False]
    assert (await Flights(bot.storage).load_flight(fid)).notes["muted"] == []
    texts = "\n".join(s.content or "" for s in world.channel.sent)
    assert "Communications down" in texts and "Communications restored" in texts


async def test_a_refused_mute_is_reported_once(bot: Any, world: Any, clock: Any) -> None:
    fid, ann, bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights
    ann.edit.side_effect = http_error(403)  # Ann's role is above the bot's
    bob.edit.side_effect = http_error(403)
    await _to(service, bot, fid, clock, COMM_DOWN_S)
    await tick(service, fid)
    await _to(service, bot, fid, clock, COMM_UP_S)
    await tick(service, fid)
    refused = [s.content for s in world.channel.sent if "refused to server-mute" in (s.content or "")]
    assert len(refused) == 1
    record = await Flights(bot.storage).load_flight(fid)
    assert record.notes["muted"] == [] and record.notes["mute_error_sent"] is True
    assert record.status == "flying"


async def test_muted_ids_survive_a_restart_and_are_unmuted(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "sa.sqlite3"
    bot1 = await new_bot(db, clock)
    world = World(bot1)
    fid, ann, bob = await start_flight(bot1, world)
    service = bot1.get_cog("Mission").flights
    await _to(service, bot1, fid, clock, COMM_DOWN_S)
    await tick(service, fid)
    assert mute_calls(ann) == [True] and mute_calls(bob) == [True]
    await stop_bot(bot1)

    clock.advance(60)  # down while communications came back
    bot2 = await new_bot(db, clock, world=world)  # resume: the failure is over, so unmute at once
    service2 = bot2.get_cog("Mission").flights
    await service2.drain()
    assert mute_calls(ann) == [True, False] and mute_calls(bob) == [True, False]
    assert (await Flights(bot2.storage).load_flight(fid)).notes["muted"] == []
    await tick(service2, fid)  # the overdue "restored" finds nobody left to unmute
    assert mute_calls(ann) == [True, False]
    await stop_bot(bot2)


async def test_a_restart_during_the_failure_mutes_again(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "sa.sqlite3"
    bot1 = await new_bot(db, clock)
    world = World(bot1)
    fid, ann, _bob = await start_flight(bot1, world)
    service = bot1.get_cog("Mission").flights
    ann.edit.side_effect = asyncio.Event().wait  # the mute never completes before the shutdown
    await _to(service, bot1, fid, clock, COMM_DOWN_S)
    await service.tick(fid)
    service.shutdown_drain_s = 0.01
    for name in list(bot1.cogs):
        await bot1.remove_cog(name)
    await bot1.storage.close()

    ann.edit.side_effect = None
    bot2 = await new_bot(db, clock, world=world)  # still inside the failure
    service2 = bot2.get_cog("Mission").flights
    await service2.drain()
    assert ann.edit.await_args_list[-1].kwargs["mute"] is True
    await _to(service2, bot2, fid, clock, COMM_UP_S)
    await tick(service2, fid)
    assert ann.edit.await_args_list[-1].kwargs["mute"] is False
    assert (await Flights(bot2.storage).load_flight(fid)).notes["muted"] == []
    await stop_bot(bot2)


async def test_members_muted_by_a_flight_that_ended_before_the_unmute_are_unmuted_at_restart(
    tmp_path: Path, clock: Any
) -> None:
    """The bot stopped after the flight ended but before its final unmute went out: the next
    start-up must unmute them (otherwise they stay server-muted for good)."""
    db = tmp_path / "sa.sqlite3"
    bot1 = await new_bot(db, clock)
    world = World(bot1)
    fid, ann, bob = await start_flight(bot1, world)
    service = bot1.get_cog("Mission").flights
    await _to(service, bot1, fid, clock, COMM_DOWN_S)
    await tick(service, fid)
    assert mute_calls(ann) == [True] and mute_calls(bob) == [True]
    record = await Flights(bot1.storage).load_flight(fid)
    record.status = "finished"  # ended (e.g. aborted) with the unmute still owed
    await Flights(bot1.storage).save_flight(record)
    await stop_bot(bot1)

    bot2 = await asyncio.wait_for(new_bot(db, clock, world=world), timeout=10)
    await asyncio.wait_for(bot2.get_cog("Mission").flights.drain(), timeout=10)
    assert mute_calls(ann) == [True, False] and mute_calls(bob) == [True, False]
    assert (await Flights(bot2.storage).load_flight(fid)).notes["muted"] == []
    await asyncio.wait_for(stop_bot(bot2), timeout=10)


async def test_a_restart_unmutes_once_the_gateway_has_delivered_the_server(
    tmp_path: Path, clock: Any, monkeypatch: Any
) -> None:
    """Flights resume before the gateway has delivered the servers.  The unmute then found no
    server, took the members for gone, struck them off the muted list and left them
    server-muted for good (seen with the real bot against fakecord)."""
    db = tmp_path / "sa.sqlite3"
    bot1 = await new_bot(db, clock)
    world = World(bot1)
    fid, ann, bob = await start_flight(bot1, world)
    service = bot1.get_cog("Mission").flights
    await _to(service, bot1, fid, clock, COMM_DOWN_S)
    await tick(service, fid)
    assert mute_calls(ann) == [True] and mute_calls(bob) == [True]
    await stop_bot(bot1)

    clock.advance(60)  # down while communications came back
    ready = asyncio.Event()
    monkeypatch.setattr(SpaceAlertBot, "is_ready", lambda self: ready.is_set())
    monkeypatch.setattr(SpaceAlertBot, "wait_until_ready", lambda self: ready.wait())
    bot2 = await new_bot(db, clock)  # no server in the cache yet: the gateway is still connecting
    service2 = bot2.get_cog("Mission").flights
    for _ in range(20):
        await asyncio.sleep(0)
    try:
        assert (await Flights(bot2.storage).load_flight(fid)).notes["muted"] == sorted([ann.id, bob.id])
    finally:
        world.attach(bot2)  # GUILD_CREATE
        ready.set()
    await asyncio.wait_for(service2.drain(), timeout=10)
    assert mute_calls(ann) == [True, False] and mute_calls(bob) == [True, False]
    assert (await Flights(bot2.storage).load_flight(fid)).notes["muted"] == []
    await stop_bot(bot2)


async def test_a_member_who_left_voice_muted_is_unmuted_when_they_come_back(bot: Any, world: Any, clock: Any) -> None:
    """A server mute outlives the flight and Discord refuses to unmute someone who is not in voice:
    Bob leaves during the failure and would stay muted in every voice channel of the server.  The
    unmute is owed: while the flight flies its own unmutes cover him, once it is over it is sent
    when he joins voice again."""
    fid, ann, bob = await start_flight(bot, world)
    cog = bot.get_cog("Mission")
    service = cog.flights
    await _to(service, bot, fid, clock, COMM_DOWN_S)
    await tick(service, fid)
    assert mute_calls(ann) == [True] and mute_calls(bob) == [True]
    in_voice = bob.voice
    bob.voice = None  # Bob leaves voice while muted
    await _to(service, bot, fid, clock, COMM_UP_S)
    await tick(service, fid)
    assert mute_calls(ann) == [True, False] and mute_calls(bob) == [True]  # not asked of Discord
    assert await Flights(bot.storage).muted_members(fid) == [bob.id]  # owed, not forgotten
    away = type("State", (), {"channel": None, "mute": False})()
    back = type("State", (), {"channel": in_voice.channel, "mute": True})()

    await cog.on_voice_state_update(bob, away, back)  # back while it still flies: the flight's own
    await service.drain()
    assert mute_calls(bob) == [True]

    await cog.mission_abort.callback(cog, world.interaction(ann))  # ends it with Bob still away
    await service.drain()
    assert (await Flights(bot.storage).load_flight(fid)).status != "flying"
    assert mute_calls(bob) == [True]
    bob.voice = in_voice
    await cog.on_voice_state_update(bob, away, back)  # Bob joins voice again, still muted
    await service.drain()
    assert mute_calls(bob) == [True, False]  # unmuted on his return
    assert mute_calls(ann) == [True, False]  # nobody else touched
    assert await Flights(bot.storage).muted_members(fid) == []
    assert service.comms.owed == {}
