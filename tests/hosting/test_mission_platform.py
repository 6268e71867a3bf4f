"""The flight code with the platform around it: /settings read on every start, /mission school
from lesson to progress and hints, a campaign mission handed over and back, a scheduled lobby."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.exts.campaign._cog import CampaignButton
from bot.exts.hosting.scheduler import run_schedules
from bot.exts.mission import _ids
from tests.bot.helpers import FakeClock, World, click, find_id, new_bot, stop_bot, tick


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def bot(tmp_path: Path, clock: FakeClock) -> AsyncIterator[Any]:
    instance = await new_bot(tmp_path / "sa.sqlite3", clock)
    yield instance
    await stop_bot(instance)


@pytest.fixture
def world(bot: Any) -> World:
    return World(bot)


async def fly_lobby(bot: Any, world: World, clock: FakeClock, lobby: Any, ann: Any, bob: Any) -> str:
    """Join, take roles, start and let the whole operation run out; the flight id."""
    fid = find_id(lobby.view, "join").split(":")[1]
    await click(world, bob, _ids.make(fid, "join"))
    await click(world, ann, _ids.make(fid, "roles"), ["captain", "security"])
    await click(world, bob, _ids.make(fid, "roles"), ["comms"])
    started = await click(world, ann, _ids.make(fid, "start"))
    assert started.log[-1].kind == "edit_message", started.log
    clock.advance(900)
    service = bot.get_cog("Mission").flights
    assert await tick(service, fid) is None
    await service.drain()
    return fid


async def start(bot: Any, world: World, user: Any, **params: Any) -> Any:
    cog = bot.get_cog("Mission")
    inter = world.interaction(user)
    await cog.mission_start.callback(cog, inter, **({"mission": "S1-1", "seed": 7} | params))
    return inter.log[-1]


async def test_settings_refuse_and_shape_every_start(bot: Any, world: World, clock: FakeClock) -> None:
    ann, bob = world.member("Ann", in_voice=True), world.member("Bob", in_voice=True)
    await bot.storage.set_setting(world.guild.id, "channels", [111111111111111111])
    refused = await start(bot, world, ann)
    assert refused.ephemeral and refused.content == "Flights run only in <#111111111111111111> on this server."
    assert await bot.storage.active_flight_in_channel(world.channel.id) is None

    await bot.storage.set_setting(world.guild.id, "channels", [world.channel.id])
    await bot.storage.set_setting(world.guild.id, "language", "cs")
    await bot.storage.set_setting(world.guild.id, "voice", False)
    await bot.storage.set_setting(world.guild.id, "log", "channel")
    lobby = await start(bot, world, ann)
    record = await bot.storage.active_flight_in_channel(world.channel.id)
    assert (record.language, record.voice, record.options["log"]) == ("cs", False, "channel")
    await fly_lobby(bot, world, clock, lobby, ann, bob)
    result = next(m for m, s in zip(world.channel.messages, world.channel.sent, strict=True) if s.embed)
    result.create_thread.assert_not_awaited()  # the captain's log goes to the channel itself
    assert any("Lodní deník" in (s.content or "") or "Kolo 1" in (s.content or "") for s in world.channel.sent)


async def test_a_school_flight_explains_records_and_hints(bot: Any, world: World, clock: FakeClock) -> None:
    ann, bob = world.member("Ann", in_voice=True), world.member("Bob", in_voice=True)
    cog = bot.get_cog("Mission")
    inter = world.interaction(ann)
    await cog.mission_school.callback(cog, inter)
    lobby = inter.log[-1]
    embeds = lobby.kwargs["embeds"]
    assert embeds[0].title == "Flight school 1/7: Movement and the lasers" and len(embeds) == 2
    record = await bot.storage.active_flight_in_channel(world.channel.id)
    assert record.options["mission"] == "S1-1" and record.options["school"] == "movement_lasers"
    fid = await fly_lobby(bot, world, clock, lobby, ann, bob)
    result = await bot.storage.load_flight(fid)
    assert result.status == "finished"
    for user in (ann, bob):
        progress = await bot.storage.school_progress(user.id)
        assert progress is not None and progress["attempts"] == {"movement_lasers": 1}
    thread_text = "\n".join(
        s.content or "" for m in world.channel.messages for s in getattr(m.thread, "sent", []) if m.thread.sent
    )
    assert "Flight school:" in thread_text  # the captain's log ends with the hints (or a clean bill)
    assert "Lesson **Movement and the lasers**" in world.channel.sent[-1].content


async def test_a_campaign_mission_is_handed_over_and_back(bot: Any, world: World, clock: FakeClock) -> None:
    ann, bob = world.member("Ann", in_voice=True), world.member("Bob", in_voice=True)
    campaign = bot.get_cog("Campaign")
    inter = world.interaction(ann)
    await campaign.start.callback(campaign, inter, p2=bob)
    view = inter.log[0].view
    for what in ("common", "serious"):
        for user in (ann, bob):
            cid = next(c for c in (i.custom_id for i in view.children) if f":{what}:white" in c)
            await CampaignButton(cid).callback(world.interaction(user, custom_id=cid))
    running = await bot.storage.running_campaign(world.channel.id)
    assert running is not None and running.state["session"]["phase"] == "flying"

    lobby = await start(bot, world, ann, mission="S2-1")
    record = await bot.storage.active_flight_in_channel(world.channel.id)
    assert record.options["campaign_id"] == running.id and "carried" in record.options
    await fly_lobby(bot, world, clock, lobby, ann, bob)
    (entry,) = await bot.storage.logbook(world.guild.id)
    assert entry.campaign_id == running.id
    after = await bot.storage.latest_campaign(world.channel.id)
    assert after is not None and after.state["session"]["phase"] in ("repair", "finished")
    assert after.missions == 1


async def test_a_scheduled_flight_opens_its_lobby_for_the_host(bot: Any, world: World, clock: FakeClock) -> None:
    ann = world.member("Ann")
    cog = bot.get_cog("Mission")
    inter = world.interaction(ann)
    await cog.mission_schedule.callback(cog, inter, time="in 1h", mission="S1-2")
    assert "**S1-2** is scheduled for <t:" in inter.log[-1].content
    unknown = world.interaction(ann)
    await cog.mission_schedule.callback(cog, unknown, time="in 1h", mission="nope")
    assert unknown.log[-1].ephemeral
    fired: list[Any] = []
    bot.dispatch = lambda event, *args: fired.append(args[0]) if event == "scheduled_flight" else None
    clock.advance(3600)
    await run_schedules(bot, clock())
    await cog.on_scheduled_flight(fired[0])
    record = await bot.storage.active_flight_in_channel(world.channel.id)
    assert record is not None and record.host_id == ann.id and record.options["mission"] == "S1-2"
    assert world.channel.sent[-1].embed is not None and record.lobby_message_id is not None
