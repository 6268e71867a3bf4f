"""The flight code with the platform around it: /settings read on every start, /mission school
from lesson to progress and hints, a campaign mission handed over and back, a scheduled lobby."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.games.space_alert.campaign._cog import CampaignButton
from bot.games.space_alert.campaign.storage import Campaigns
from bot.games.space_alert.logbook import Logbook
from bot.games.space_alert.mission import ids as _ids
from bot.games.space_alert.mission.storage import Flights
from bot.games.space_alert.storage import School
from bot.platform.hosting.scheduler import run_schedules
from bot.platform.storage.platform import ScheduleRecord
from tests.bot.helpers import FakeClock, World, click, find_id, last, new_bot, stop_bot, tick


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
    assert await Flights(bot.storage).active_flight_in_channel(world.channel.id) is None

    await bot.storage.set_setting(world.guild.id, "channels", [world.channel.id])
    await bot.storage.set_setting(world.guild.id, "language", "cs")
    await bot.storage.set_setting(world.guild.id, "voice", False)
    await bot.storage.set_setting(world.guild.id, "log", "channel")
    lobby = await start(bot, world, ann)
    record = await Flights(bot.storage).active_flight_in_channel(world.channel.id)
    assert (record.language, record.voice, record.options["log"]) == ("cs", False, "channel")
    await fly_lobby(bot, world, clock, lobby, ann, bob)
    result = next(m for m, s in zip(world.channel.messages, world.channel.sent, strict=True) if s.embed)
    result.create_thread.assert_not_awaited()  # the captain's log goes to the channel itself
    assert any("Lodní deník" in (s.content or "") or "Kolo 1" in (s.content or "") for s in world.channel.sent)


async def test_a_school_flight_explains_records_and_hints(bot: Any, world: World, clock: FakeClock) -> None:
    ann, bob = world.member("Ann", in_voice=True), world.member("Bob", in_voice=True)
    cog = bot.get_cog("Mission")
    inter = world.interaction(ann)
    await cog.mission_school.callback(cog, inter, untimed=False)
    lobby = inter.log[-1]
    embeds = lobby.kwargs["embeds"]
    assert embeds[0].title == "Flight school 1/7: Movement and the lasers" and len(embeds) == 2
    record = await Flights(bot.storage).active_flight_in_channel(world.channel.id)
    assert record.options["mission"] == "S1-1" and record.options["school"] == "movement_lasers"
    fid = await fly_lobby(bot, world, clock, lobby, ann, bob)
    result = await Flights(bot.storage).load_flight(fid)
    assert result.status == "finished"
    for user in (ann, bob):
        progress = await School(bot.storage).progress(user.id)
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
    running = await Campaigns(bot.storage).running(world.channel.id)
    assert running is not None and running.state["session"]["phase"] == "flying"

    due = await campaign.due_flight(world.channel.id)
    assert due is not None and due.due.number == 1
    other = "S2-1" if due.due.mission != "S2-1" else "S2-2"
    refused = await start(bot, world, ann, mission=other)  # not the drawn recording: refused, with the way out
    assert refused.ephemeral and await Flights(bot.storage).active_flight_in_channel(world.channel.id) is None
    command = f"`/mission start mission:{due.due.mission} normal_threats:white serious_threats:white`"
    assert command in refused.content and "`/campaign change mission:…`" in refused.content
    yellow = await start(bot, world, ann, mission=due.due.mission, normal_threats="yellow")
    assert yellow.ephemeral and command in yellow.content  # not the voted difficulty either
    lobby = await start(bot, world, ann, mission=due.due.mission)  # the voted difficulties by default
    record = await Flights(bot.storage).active_flight_in_channel(world.channel.id)
    assert record.options["campaign_id"] == running.id and "carried" in record.options
    assert record.options["mission"] == due.due.mission and record.options["normal"] == "white"
    campaign_field = next(f for f in lobby.embed.fields if f.name == "Exploration campaign")
    assert "Mission 1 of 3" in campaign_field.value and "a ship without damage" in campaign_field.value
    await fly_lobby(bot, world, clock, lobby, ann, bob)
    (entry,) = await Logbook(bot.storage).entries(world.guild.id)
    assert entry.campaign_id == running.id
    after = await Campaigns(bot.storage).latest(world.channel.id)
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
    await bot.storage.set_setting(world.guild.id, "language", "ru")
    in_russian = world.interaction(ann)
    await cog.mission_schedule.callback(cog, in_russian, time="in 1h", mission="nope")
    assert in_russian.log[-1].ephemeral and in_russian.log[-1].content != unknown.log[-1].content
    assert "nope" in in_russian.log[-1].content  # the server's language, not the bot's default
    await bot.storage.set_setting(world.guild.id, "language", "en")
    clock.advance(3600)
    opened = await run_schedules(bot, clock())  # the Mission cog's opening is awaited, not detached
    assert [action for _id, action in opened] == ["open"]
    record = await Flights(bot.storage).active_flight_in_channel(world.channel.id)
    assert record is not None and record.host_id == ann.id and record.options["mission"] == "S1-2"
    assert world.channel.sent[-1].embed is not None and record.lobby_message_id is not None
    assert await bot.storage.owed_schedules() == []  # settled once the lobby is open
    posts = len(world.channel.sent)
    assert await bot.storage.pending_schedules() == []
    retry = ScheduleRecord(
        world.guild.id, world.channel.id, ann.id, clock(), "S1-2", id=opened[0][0], owed="open", retry=True
    )
    await cog.on_scheduled_flight(retry)  # a retry after a crash: the lobby is there, nothing is said
    assert len(world.channel.sent) == posts
    again = await Flights(bot.storage).active_flight_in_channel(world.channel.id)
    assert again is not None and again.id == record.id


async def test_an_untimed_school_flight_ends_its_phases_on_everyone_s_finish(tmp_path: Path, clock: FakeClock) -> None:
    """Lesson 1 (S1-1, two phases) in its default untimed mode, through the real cog: the clock
    runs far past the recording's phase end and nothing ends; the deck and the stations say why;
    a restart while the phase waits keeps it waiting; the last Finish of each phase ends it."""
    db = tmp_path / "sa.sqlite3"
    bot = await new_bot(db, clock)
    world = World(bot)
    ann, bob = world.member("Ann", in_voice=True), world.member("Bob", in_voice=True)
    cog = bot.get_cog("Mission")
    inter = world.interaction(ann)
    await cog.mission_school.callback(cog, inter)
    lobby = inter.log[-1]
    record = await Flights(bot.storage).active_flight_in_channel(world.channel.id)
    assert record.options["untimed"] is True and record.voice is False  # text-only intercom
    fid = find_id(lobby.view, "join").split(":")[1]
    await click(world, bob, _ids.make(fid, "join"))
    await click(world, ann, _ids.make(fid, "start"))
    service = bot.get_cog("Mission").flights

    clock.advance(900)  # far past S1-1's first phase end
    assert await tick(service, fid) is not None  # still flying: the phase waits
    record = await Flights(bot.storage).load_flight(fid)
    deck_text = service.deck(record)[0].description or ""
    assert "Untimed: the phase ends when everyone has pressed Finish." in deck_text
    assert "Waiting for Finish: Ann, Bob" in deck_text
    station = await click(world, ann, _ids.make(fid, "station"))
    assert "Untimed" in (last(station).embed.description or "")
    await click(world, ann, _ids.make(fid, "finish", ann.id))
    record = await Flights(bot.storage).load_flight(fid)
    assert "Waiting for Finish: Bob" in (service.deck(record)[0].description or "")
    await stop_bot(bot)

    clock.advance(600)  # a restart while the phase waits for Bob: it still waits
    bot = await new_bot(db, clock, world=world)
    service = bot.get_cog("Mission").flights
    assert await tick(service, fid) is not None
    record = await Flights(bot.storage).load_flight(fid)
    assert record.status == "flying" and "Waiting for Finish: Bob" in (service.deck(record)[0].description or "")
    await click(world, bob, _ids.make(fid, "finish", bob.id))  # the last Finish ends phase 1 for everyone
    record = await Flights(bot.storage).load_flight(fid)
    assert record.state["round_phase"] == 2 and "Waiting for Finish: Ann, Bob" in service.deck(record)[0].description
    for user in (ann, bob):  # the last phase: Finish means done, and the operation ends on the second
        await click(world, user, _ids.make(fid, "finish", user.id))
    # done early: the last phase still runs to its time on the recording (moved by the first wait)
    assert await tick(service, fid) is not None
    clock.advance(600)  # then the operation ends, "operation ended" is said, and the flight resolves
    assert await tick(service, fid) is None
    await service.drain()
    record = await Flights(bot.storage).load_flight(fid)
    assert record.status == "finished"
    progress = await School(bot.storage).progress(ann.id)
    assert progress is not None and progress["attempts"] == {"movement_lasers": 1}
    await stop_bot(bot)


async def test_a_scheduled_campaign_night_opens_the_campaign_once_across_restarts(
    tmp_path: Path, clock: FakeClock
) -> None:
    """Scheduled, the bot restarts before the time and again after it: the row survives the
    first restart, the campaign's first vote opens once for the host (as /campaign start would),
    and neither a second run nor a repeated dispatch opens another."""
    db = tmp_path / "sa.sqlite3"
    bot = await new_bot(db, clock)
    world = World(bot)
    ann = world.member("Ann")
    cog = bot.get_cog("Mission")
    inter = world.interaction(ann)
    bob, cy = world.member("Bob"), world.member("Cy")
    await cog.mission_schedule.callback(
        cog, inter, time="in 1h", mission="S1-2", campaign=True, p2=bob, p3=cy, p4=bob, p5=ann
    )
    assert "Campaign night" in inter.log[-1].content
    await stop_bot(bot)

    clock.advance(3600)
    bot = await new_bot(db, clock, world=world)
    fired: list[Any] = []
    opening = bot.extra_events["on_scheduled_flight"][0]  # the Mission cog's, awaited by the runner

    async def on_scheduled_flight(row: Any) -> None:
        fired.append(row)
        await opening(row)

    bot.extra_events["on_scheduled_flight"] = [on_scheduled_flight]
    assert [action for _, action in await run_schedules(bot, clock())] == ["open"]
    assert await run_schedules(bot, clock()) == []  # claimed and settled: once
    assert len(fired) == 1
    running = await Campaigns(bot.storage).running(world.channel.id)
    assert running is not None and running.state["host"] == ann.id
    # the crew named when it was scheduled, each once, the host included once
    assert running.state["members"] == {str(ann.id): "Ann", str(bob.id): "Bob", str(cy.id): "Cy"}
    assert running.state["session"]["phase"] == "vote"
    vote = world.channel.sent[-1]
    assert vote.embed is not None and vote.embed.title == "Exploration campaign — before mission 1 of 3"
    assert any(":common:white" in (getattr(item, "custom_id", "") or "") for item in vote.view.children)
    assert await Flights(bot.storage).active_flight_in_channel(world.channel.id) is None  # no flight lobby instead
    await bot.get_cog("Mission").on_scheduled_flight(fired[0])  # a repeated dispatch: refused politely
    assert "already running" in world.channel.sent[-1].content
    await stop_bot(bot)

    bot = await new_bot(db, clock, world=world)
    assert await run_schedules(bot, clock()) == [] and await bot.storage.pending_schedules() == []
    again = await Campaigns(bot.storage).running(world.channel.id)
    assert again is not None and again.id == running.id
    await stop_bot(bot)
