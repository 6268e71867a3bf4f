"""A process killed between a flight's finish and its sends (issue 25), on SQLite and PostgreSQL:
the follow-ups of the result (here the flight school's progress and its "progress saved" post)
commit with the finish, so a crash after the commit loses none of them; the process taking over
sends them after the result, once, also when the crashed one had sent them but not recorded it.
The unrestorable flight's goodbye commits with the change that ends the flight, the same way."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot.games.space_alert.mission.storage import Flights
from bot.games.space_alert.storage import School
from tests.bot.crash_helpers import Process, crash, flying, history_of, staged, stop_clean, successor
from tests.bot.helpers import World, new_bot, start_flight, stop_bot
from tests.bot.storage_backends import bot_backend
from tests.bot.test_shutdown import block, unblock

__all__ = ["bot_backend"]  # the fixture: each test on SQLite and on PostgreSQL

pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")

SAVED = "Lesson **"


async def school_flight(bot: Any, world: World) -> tuple[str, Any, Any]:
    """A running flight that is a flight-school lesson (the hints go in the follow-up)."""
    fid, ann, bob = await start_flight(bot, world)

    def lesson(record: Any) -> None:
        record.options.update(school="movement_lasers", hints_in_log=False)

    await Flights(bot.storage).update_flight(fid, lesson)
    return fid, ann, bob


def kinds(channel: Any, start: int) -> list[str]:
    """What the channel got since `start`: "result", "saved" (the school's follow-up) or "other"."""
    found = []
    for sent in channel.sent[start:]:
        if sent.embed is not None and "result" in (sent.embed.title or "").lower():
            found.append("result")
        elif (sent.content or "").startswith(SAVED):
            found.append("saved")
        else:
            found.append("other")
    return found


async def attempts(bot: Any, user_id: int) -> int:
    stored = await School(bot.storage).progress(user_id)
    return int((stored or {}).get("attempts", {}).get("movement_lasers", 0))


async def test_the_school_s_follow_up_survives_a_crash_before_anything_is_sent(
    tmp_path: Path, clock: Any, bot_backend: str
) -> None:
    first = await flying(tmp_path, clock, start=school_flight)
    bot1, world, service, fid, ann, bob = first.bot, first.world, first.service, first.fid, first.ann, first.bob
    before = len(world.channel.sent)
    block(world.channel)  # Discord hangs: nothing of the finish goes out
    clock.advance(2000)
    assert await service.tick(fid) is None  # resolved and finished
    ops = [p["op"] for p in await staged(bot1, fid)]
    # the result and the follow-up committed with the finish, in sending order
    assert ops[-2:] == ["result", "follow_up"], ops
    assert await attempts(bot1, ann.id) == 1 and await attempts(bot1, bob.id) == 1  # progress too
    await crash(bot1)

    unblock(world.channel)
    bot2 = await successor(first, clock)
    got = [k for k in kinds(world.channel, before) if k != "other"]
    assert got == ["result", "saved"]  # each once, the follow-up after the result it follows
    saved = next(s.content for s in world.channel.sent[before:] if (s.content or "").startswith(SAVED))
    assert "Ann, Bob" in saved
    assert await attempts(bot2, ann.id) == 1  # counted once, not again by the restart
    await stop_clean(bot2)


async def test_a_follow_up_sent_but_not_recorded_is_not_sent_again(
    tmp_path: Path, clock: Any, bot_backend: str
) -> None:
    first = await flying(tmp_path, clock, start=school_flight)
    bot1, world, service, fid = first.bot, first.world, first.service, first.fid
    before = len(world.channel.sent)

    async def keep(_row: int) -> None:  # the process dies before any sent row is deleted
        return None

    bot1.storage.delete_post = keep
    clock.advance(2000)
    assert await service.tick(fid) is None
    await service.drain()
    assert [k for k in kinds(world.channel, before) if k != "other"] == ["result", "saved"]
    assert [p["op"] for p in await staged(bot1, fid)][-2:] == ["result", "follow_up"]
    sent_then = len(world.channel.sent)
    await crash(bot1)

    world.channel.history = history_of(world.channel, clock)
    bot2 = await successor(first, clock)
    assert [k for k in kinds(world.channel, before) if k != "other"] == ["result", "saved"]  # nothing twice
    assert len(world.channel.sent) == sent_then
    await stop_clean(bot2)


async def test_an_unrestorable_flight_s_goodbye_survives_a_crash(tmp_path: Path, clock: Any, bot_backend: str) -> None:
    first = await flying(tmp_path, clock)
    bot1, world, service, fid = first.bot, first.world, first.service, first.fid

    def spoil(record: Any) -> None:
        record.state = {**(record.state or {}), "schema_version": 10**6}  # written by a far newer bot

    await Flights(bot1.storage).update_flight(fid, spoil)
    before = len(world.channel.sent)
    block(world.channel)
    clock.advance(5)
    assert await service.tick(fid) is None
    record = await Flights(bot1.storage).load_flight(fid)
    assert record.status == "aborted"
    payloads = await staged(bot1, fid)
    assert [p["op"] for p in payloads] == ["said"] and payloads[0]["items"][0][0] == "alert"
    goodbye = payloads[0]["items"][0][1]
    await crash(bot1)

    unblock(world.channel)
    bot2 = await successor(first, clock)
    assert [s.content for s in world.channel.sent[before:]].count(goodbye) == 1
    await stop_clean(bot2)


async def test_the_campaign_s_next_step_survives_a_crash_before_anything_is_sent(
    tmp_path: Path, clock: Any, bot_backend: str
) -> None:
    from bot.games.space_alert.campaign.storage import Campaigns
    from tests.campaign.test_evening import voted

    first = await flying(tmp_path, clock, drain=False)
    bot1, world, fid, ann, bob = first.bot, first.world, first.fid, first.ann, first.bob
    cog = await voted(bot1, world, ann, bob)
    due = await cog.due_flight(world.channel.id)

    def campaign_mission(record: Any) -> None:
        record.options.update(due.options)

    await Flights(bot1.storage).update_flight(fid, campaign_mission)
    service = bot1.get_cog("Mission").flights
    await service.drain()
    before = len(world.channel.sent)
    block(world.channel)
    clock.advance(2000)
    assert await service.tick(fid) is None
    payloads = await staged(bot1, fid)
    ops = [p["op"] for p in payloads]
    follows = [p for p in payloads if p["op"] == "follow_up"]
    assert follows and ops[-len(follows) - 1 :] == ["result"] + ["follow_up"] * len(follows), ops
    title = follows[0]["embed"]["title"]  # the next step (or the score), then a loss's end
    stored = await Campaigns(bot1.storage).running(world.channel.id)
    phase = stored.state["session"]["phase"] if stored is not None else "ended"
    assert phase != "flying"  # the campaign's step (or its end) committed with the finish
    await crash(bot1)

    unblock(world.channel)
    bot2 = await successor(first, clock)
    titles = [s.embed.title for s in world.channel.sent[before:] if s.embed is not None]
    assert titles.count(title) == 1 and "result" in titles[0].lower()  # the result first, the step once
    contents = [s.content for s in world.channel.sent[before:]]
    for extra in follows[1:]:  # a lost campaign's end, once, after the step
        assert contents.count(extra["content"]) == 1 and contents[-1] == follows[-1]["content"]
    step = next(s for s in world.channel.sent[before:] if s.embed is not None and s.embed.title == title)
    if phase in ("vote", "repair"):
        assert step.kwargs.get("view") is not None  # its buttons drawn from the campaign as it stands
    again = await Campaigns(bot2.storage).running(world.channel.id)
    if stored is None:
        assert again is None
    else:  # not flown twice
        assert again is not None and again.state["session"] == stored.state["session"]
    await stop_clean(bot2)


async def started_then_crashed(tmp_path: Path, clock: Any, world_of: Any, stall: Any) -> tuple[Process, int]:
    """A flight whose start committed, then the process died in the deck's first post (`stall`
    makes it hang where the test wants); the crashed process and the sends before."""
    import asyncio

    from bot.games.space_alert.mission import ids as _ids
    from tests.bot.helpers import click, open_lobby

    db = tmp_path / "sa.sqlite3"
    bot1 = await new_bot(db, clock)
    world = world_of(bot1)
    ann, bob = world.member("Ann", in_voice=True), world.member("Bob", in_voice=True)
    fid, _ = await open_lobby(bot1, world, ann)
    await click(world, bob, _ids.make(fid, "join"))
    await click(world, ann, _ids.make(fid, "roles"), ["captain", "security"])
    await click(world, bob, _ids.make(fid, "roles"), ["comms"])
    before = len(world.channel.sent)
    stalled = stall(bot1, world)
    pressed = asyncio.create_task(click(world, ann, _ids.make(fid, "start")))
    for _ in range(500):
        if stalled():
            break
        await asyncio.sleep(0.01)
    assert stalled()
    assert (await Flights(bot1.storage).load_flight(fid)).status == "flying"  # the start committed
    await crash(bot1)
    pressed.cancel()
    return Process(db, bot1, world, fid, ann, bob), before


def decks(channel: Any, fid: str, start: int) -> int:
    return sum(1 for s in channel.sent[start:] if s.view is not None and any(fid in c for c in _ids_of(s.view)))


def _ids_of(view: Any) -> list[str]:
    return [c for item in view.children if isinstance(c := getattr(item, "custom_id", None), str)]


async def test_a_deck_never_posted_is_posted_by_the_next_process(tmp_path: Path, clock: Any, bot_backend: str) -> None:
    def stall(_bot: Any, world: Any) -> Any:
        tried = block(world.channel)
        return lambda: len(tried) > 0

    first, before = await started_then_crashed(tmp_path, clock, World, stall)
    world, fid = first.world, first.fid
    unblock(world.channel)
    bot2 = await successor(first, clock)
    assert decks(world.channel, fid, before) == 1
    record = await Flights(bot2.storage).load_flight(fid)
    assert record.deck_message_id is not None
    await stop_bot(bot2)


async def test_a_deck_posted_but_not_recorded_is_not_posted_again(tmp_path: Path, clock: Any, bot_backend: str) -> None:
    import asyncio

    def stall(bot: Any, world: Any) -> Any:
        store = bot.get_cog("Mission").flights.store
        update = store.update
        reached: list[bool] = []

        async def hang_on_the_deck(flight_id: str, change: Any) -> Any:
            if getattr(change, "__name__", "") == "remember_deck":
                reached.append(True)
                await asyncio.Event().wait()
            return await update(flight_id, change)

        store.update = hang_on_the_deck
        return lambda: bool(reached)

    first, before = await started_then_crashed(tmp_path, clock, World, stall)
    world, fid = first.world, first.fid
    assert decks(world.channel, fid, before) == 1  # sent; its id never stored
    world.channel.history = history_of(world.channel, clock)
    bot2 = await successor(first, clock)
    assert decks(world.channel, fid, before) == 1  # found, not posted again
    record = await Flights(bot2.storage).load_flight(fid)
    assert record.deck_message_id == world.channel.messages[before].id
    await stop_bot(bot2)


async def test_the_resolution_failed_alert_survives_a_crash(
    tmp_path: Path, clock: Any, bot_backend: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.games.space_alert.mission import _flights

    def broken(*_args: Any) -> Any:
        raise RuntimeError("engine broke")

    monkeypatch.setattr(_flights, "resolve_flight", broken)
    first = await flying(tmp_path, clock)
    bot1, world, service, fid = first.bot, first.world, first.service, first.fid
    before = len(world.channel.sent)
    block(world.channel)
    clock.advance(2000)
    assert await service.tick(fid) is None
    assert (await Flights(bot1.storage).load_flight(fid)).status == "finished"
    payloads = await staged(bot1, fid)
    alerts = [said for p in payloads if p["op"] == "said" for kind, said in p["items"] if "engine broke" in said]
    assert len(alerts) == 1  # committed with the finish
    await crash(bot1)

    unblock(world.channel)
    bot2 = await successor(first, clock)
    assert sum("engine broke" in (s.content or "") for s in world.channel.sent[before:]) == 1
    await stop_clean(bot2)


async def test_a_failing_follow_up_still_lets_the_flight_finish(tmp_path: Path, clock: Any) -> None:
    first = await flying(tmp_path, clock, start=school_flight, drain=False)
    bot, world, fid, ann = first.bot, first.world, first.fid, first.ann
    school = bot.get_cog("School")
    counted = school.flight_follow_ups

    async def broken(record: Any, result: Any) -> Any:
        await counted(record, result)  # progress written, then the follow-up breaks: rolled back
        raise RuntimeError("school broke")

    school.flight_follow_ups = broken
    service = bot.get_cog("Mission").flights
    await service.drain()
    before = len(world.channel.sent)
    clock.advance(2000)
    assert await service.tick(fid) is None
    await service.drain()
    assert (await Flights(bot.storage).load_flight(fid)).status == "finished"
    assert [k for k in kinds(world.channel, before) if k != "other"] == ["result"]
    assert await attempts(bot, ann.id) == 0  # nothing of the failed follow-up committed
    assert await bot.storage.pending_posts() == []
    await stop_bot(bot)
