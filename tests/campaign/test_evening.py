"""The campaign as a crew expects it (issue 24): the host's recorded change of mission, a lost
campaign's clear end, and every message naming a command built from the command tree."""

from __future__ import annotations

import asyncio
import re
from types import SimpleNamespace
from typing import Any

import pytest

from bot.games.space_alert.campaign._cog import CampaignButton
from bot.games.space_alert.campaign.storage import Campaigns
from bot.platform.command_line import UnknownCommand, command_line, find_command
from engine.campaign.flow import Campaign, CampaignError


async def voted(bot: Any, world: Any, *members: Any) -> Any:
    """A campaign of `members` (the first hosts it) that has voted white / white."""
    cog = bot.get_cog("Campaign")
    start = world.interaction(members[0])
    await cog.start.callback(cog, start, **{f"p{i}": m for i, m in enumerate(members[1:], 2)})
    view = start.log[0].view
    for what in ("common", "serious"):
        for user in members:
            cid = next(c for c in (i.custom_id for i in view.children) if f":{what}:white" in c)
            await CampaignButton(cid).callback(world.interaction(user, custom_id=cid))
    return cog


def test_the_host_s_choice_is_recorded_and_survives_storage() -> None:
    campaign = Campaign(seed=5, crew=["Ann"])
    with pytest.raises(CampaignError):
        campaign.swap_mission("S1-1")  # nothing voted yet: nothing to change
    campaign.start_mission("white", "white")
    drawn = campaign.drawn_mission()
    campaign.swap_mission("S1-3")
    assert campaign.due_mission() == "S1-3" and campaign.swaps == {0: "S1-3"}
    again = Campaign.from_dict(campaign.to_dict())
    assert again.due_mission() == "S1-3" and again.drawn_mission() == drawn
    again.swap_mission(drawn.lower())  # back to the drawn recording
    assert again.swaps == {} and again.due_mission() == drawn


async def test_campaign_change_is_the_host_s_and_the_flight_follows_it(bot: Any, world: Any) -> None:
    ann, bob = world.member("Ann"), world.member("Bob")
    nothing = world.interaction(ann)
    cog = bot.get_cog("Campaign")
    await cog.change_mission.callback(cog, nothing, mission="S1-2")
    assert nothing.log[0].content == "No campaign mission is waiting to be flown in this channel."
    cog = await voted(bot, world, ann, bob)
    drawn = (await cog.due_flight(world.channel.id)).due.mission
    stranger = world.interaction(bob)
    await cog.change_mission.callback(cog, stranger, mission="S1-2")
    assert stranger.log[0].ephemeral and "only the host of this game" in stranger.log[0].content
    bad = world.interaction(ann)
    await cog.change_mission.callback(cog, bad, mission="S9-9")
    assert bad.log[0].ephemeral and "S9-9" in bad.log[0].content
    changed = world.interaction(ann)
    await cog.change_mission.callback(cog, changed, mission="s1-2")
    text = changed.log[0].content
    assert f"**S1-2** instead of the drawn {drawn} (recorded)" in text
    assert "`/mission start mission:S1-2 normal_threats:white serious_threats:white`" in text
    due = await cog.due_flight(world.channel.id)
    assert due.due.mission == "S1-2" and due.due.drawn == drawn and due.options["campaign_drawn"] == drawn
    status = world.interaction(bob)
    await cog.status.callback(cog, status)
    assert "`/mission start mission:S1-2 normal_threats:white serious_threats:white`" in status.log[0].embed.description
    assert due.matches("s1-2", "white", "white") and not due.matches(drawn, "white", "white")


async def test_a_lost_campaign_ends_with_a_clear_message(bot: Any, world: Any) -> None:
    ann = world.member("Ann")
    cog = await voted(bot, world, ann)
    due = await cog.due_flight(world.channel.id)
    game = {
        "tracks": {"red": "T5", "white": "T3", "blue": "T1", "internal": "T4"},
        "players": [{"name": "Ann", "actions": "------------"}],
        "threats": [{"id": "SE1-03", "turn": 1, "zone": "red"}, {"id": "SE1-02", "turn": 2, "zone": "white"}],
        "carried": due.carried,
    }
    from engine.resolution.mission import resolve

    result = resolve(game, log=True)
    if result.outcome != "destroyed":  # the test needs a lost ship: pile on serious threats
        game["threats"] += [{"id": "SE1-04", "turn": 3, "zone": "blue"}, {"id": "SE2-01", "turn": 4, "zone": "red"}]
        result = resolve(game, log=True)
    assert result.outcome == "destroyed"
    record = SimpleNamespace(
        id="f1",
        guild_id=world.guild.id,
        channel_id=world.channel.id,
        options=due.options | {"mission": due.due.mission},
    )
    await cog.on_flight_resolved(record, result)
    score, lost = world.channel.sent[-2], world.channel.sent[-1]
    assert score.embed.title == "Exploration campaign — final score"
    assert lost.content == (
        "The campaign ends here: the ship was lost in mission 1. A new crew, a new ship: `/campaign start`."
    )
    end = world.interaction(ann)
    await cog.end.callback(cog, end)
    assert end.log[0].ephemeral and "No campaign is running" not in end.log[0].content
    assert f"the ship was lost in mission 1 ({due.due.mission})" in end.log[0].content
    assert "`/campaign start`" in end.log[0].content


async def test_follow_ups_wait_for_the_flight_s_result_post(bot: Any, world: Any) -> None:
    """The campaign's step is stored at once; its post goes out only once the result is out."""
    ann = world.member("Ann")
    cog = await voted(bot, world, ann)
    due = await cog.due_flight(world.channel.id)
    flights = bot.get_cog("Mission").flights
    posted = asyncio.Event()
    flights._results["f2"] = posted  # a result queued and not out yet
    game = {
        "tracks": {"red": "T5", "white": "T3", "blue": "T1", "internal": "T4"},
        "players": [{"name": "Ann", "actions": "------------"}],
        "threats": [{"id": "E1-07", "turn": 1, "zone": "red"}],
        "carried": due.carried,
    }
    from engine.resolution.mission import resolve

    record = SimpleNamespace(
        id="f2",
        guild_id=world.guild.id,
        channel_id=world.channel.id,
        options=due.options | {"mission": due.due.mission},
    )
    sent = len(world.channel.sent)
    listener = asyncio.create_task(cog.on_flight_resolved(record, resolve(game, log=True)))
    await asyncio.sleep(0.05)
    stored = await Campaigns(bot.storage).running(world.channel.id)
    assert stored.state["session"]["phase"] == "repair"  # the step is stored already
    assert len(world.channel.sent) == sent  # but nothing is posted before the result
    posted.set()
    await asyncio.wait_for(listener, 5)
    assert world.channel.sent[-1].embed.title == "Repairs after mission 1"


def test_command_lines_come_from_the_tree(bot: Any) -> None:
    tree = bot.tree
    line = command_line(tree, "mission start", serious_threats="mixed", mission="S2-5", normal_threats="white")
    assert line == "`/mission start mission:S2-5 normal_threats:white serious_threats:mixed`"
    assert command_line(tree, "campaign end") == "`/campaign end`"
    with pytest.raises(UnknownCommand):
        command_line(tree, "mission start", normal="white")  # the option the old announcement taught
    with pytest.raises(UnknownCommand):
        find_command(tree, "campaign nope")
    # no hand-written command with options is left in any locale string
    from bot.platform.i18n import catalogue

    for lang in ("en", "ru", "cs", "sk"):
        for key, text in catalogue(lang).items():
            for written in re.findall(r"`/([a-z ]+?) ([a-z_]+):", text):
                command = find_command(tree, written[0])
                assert written[1] in [p.name for p in command.parameters], (lang, key, text)
