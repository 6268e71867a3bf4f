"""/campaign through the bot: votes by button, the flight result handed over, repairs from the
menu, a restart in the middle, the deadline, and the end by vote with the final score."""

from __future__ import annotations

import asyncio
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bot.games.space_alert.campaign._cog import CampaignButton, CampaignSelect
from bot.games.space_alert.campaign.storage import Campaigns
from bot.games.space_alert.stats.storage import Careers
from engine.campaign.session import REPAIR_SECONDS
from engine.resolution.mission import resolve
from tests.bot.helpers import custom_ids, new_bot, stop_bot


async def press(world: Any, user: Any, custom_id: str, values: list[str] | None = None) -> Any:
    inter = world.interaction(user, custom_id=custom_id, values=values)
    item = CampaignSelect(custom_id) if values is not None else CampaignButton(custom_id)
    await item.callback(inter)
    return inter


def ids_of(view: Any, what: str) -> dict[str, str]:
    return {cid.split(":")[3]: cid for cid in custom_ids(view) if cid.split(":")[2] == what}


async def test_a_campaign_night_in_discord(bot: Any, world: Any, clock: Any, tmp_path: Path) -> None:
    ann, bob, cid = world.member("Ann"), world.member("Bob"), world.member("Cid")
    cog = bot.get_cog("Campaign")
    start = world.interaction(ann)
    await cog.start.callback(cog, start, p2=bob, p3=cid)
    view = start.log[0].view
    common, serious = ids_of(view, "common"), ids_of(view, "serious")
    assert set(common) == {"white", "mixed", "yellow"} and not ids_of(view, "continue")

    refused = await press(world, world.member("Eve"), common["yellow"])
    assert "only members seated in this game" in refused.log[0].content
    for user, choice in ((ann, "white"), (bob, "yellow"), (cid, "white")):
        await press(world, user, common[choice])
    for user in (ann, bob):
        await press(world, user, serious["mixed"])
    last = await press(world, cid, serious["yellow"])
    assert last.log[0].kind == "edit_message" and last.log[0].kwargs["embed"].description == "The crew has voted."
    announcement = world.channel.sent[-1].content
    assert "Campaign mission 1: **S2-" in announcement and "threats white / mixed" in announcement

    carried = await cog.carried_for(world.guild.id, world.channel.id)
    assert carried == {"damage": {}, "battlebots": ["upper_blue", "lower_red"]}
    game = {
        "tracks": {"red": "T5", "white": "T3", "blue": "T1", "internal": "T4"},
        "players": [{"name": n, "actions": "------------"} for n in ("Ann", "Bob", "Cid")],
        "threats": [{"id": "E1-07", "turn": 1, "zone": "red"}],
        "carried": carried,
    }
    assert "`/mission start mission:S2-" in announcement
    assert "normal_threats:white serious_threats:mixed`" in announcement
    due = await cog.due_flight(world.channel.id)
    assert due is not None and due.due.mission in announcement and due.due.number == 1
    other = SimpleNamespace(guild_id=world.guild.id, channel_id=world.channel.id, options={"mission": "S1-1"})
    sent = len(world.channel.sent)
    await cog.on_flight_resolved(other, resolve(game, log=True))  # not the campaign's flight: ignored
    assert len(world.channel.sent) == sent and await cog.due_flight(world.channel.id) == due
    options = {"mission": due.due.mission, "campaign_id": due.campaign_id}
    record = SimpleNamespace(guild_id=world.guild.id, channel_id=world.channel.id, options=options)
    await cog.on_flight_resolved(record, resolve(game, log=True))
    repair_post = world.channel.sent[-1]
    assert repair_post.embed.title == "Repairs after mission 1"
    menu = custom_ids(repair_post.view)[0]

    # a second bot over the same database stands in for a restart: it knows only what was stored
    bot2 = await new_bot(tmp_path / "sa.sqlite3", clock, world=world)
    if bot2.get_cog("Campaign") is None:
        await bot2.load_extension("bot.games.space_alert.campaign")
    try:
        chosen = await press(world, ann, menu, values=["red.lift"])
        assert "Ann: red: lift" in chosen.log[0].kwargs["embed"].description
        clock.advance(REPAIR_SECONDS + 1)  # Bob and Cid never choose: defaults
        await bot2.get_cog("Campaign").tick_channel(world.guild.id, world.channel.id, clock())
        vote_post = world.channel.sent[-1]
        cont = ids_of(vote_post.view, "continue")
        assert set(cont) == {"end", "continue"}
        stored = await Campaigns(bot2.storage).running(world.channel.id)
        assert stored is not None and stored.guild_id == world.guild.id
        assert "lift" not in stored.state["session"]["campaign"]["carried"]["damage"].get("red", [])

        for user, choice in ((ann, "end"), (bob, "end"), (cid, "continue")):
            inter = await press(world, user, cont[choice])
        for user in (ann, bob, cid):
            await press(world, user, ids_of(vote_post.view, "common")["white"])
            inter = await press(world, user, ids_of(vote_post.view, "serious")["white"])
        final = inter.log[0].kwargs["embed"]
        assert final.title == "Exploration campaign — final score" and "**Total:" in final.description
        assert await Campaigns(bot2.storage).all_running() == []
        ended = await Campaigns(bot2.storage).latest(world.channel.id)
        assert ended is not None and ended.status == "finished" and ended.missions == 1
        assert ended.total is not None and ended.crew == [(ann.id, "Ann"), (bob.id, "Bob"), (cid.id, "Cid")]
        board = await Careers(bot2.storage).campaign_leaderboard_page(guild_id=world.guild.id)
        assert [r.total for r in board.rows] == [ended.total]
    finally:
        await stop_bot(bot2)


async def test_only_one_campaign_per_channel_and_end_by_host(bot: Any, world: Any) -> None:
    cog = bot.get_cog("Campaign")
    ann = world.member("Ann")
    await cog.start.callback(cog, world.interaction(ann))
    again = world.interaction(world.member("Bob"))
    await cog.start.callback(cog, again)
    assert "already running" in again.log[0].content
    not_host = world.interaction(world.member("Bob"))
    await cog.end.callback(cog, not_host)
    assert "only the host of this game" in not_host.log[0].content
    ended = world.interaction(ann)
    await cog.end.callback(cog, ended)
    assert "before its first mission" in ended.log[0].content
    status = world.interaction(ann)
    await cog.status.callback(cog, status)
    assert status.log[0].ephemeral


async def test_campaign_texts_follow_the_server_language(bot: Any, world: Any) -> None:
    from bot.platform.i18n import catalogue

    campaign = {key for key in catalogue("en") if key.startswith("campaign.")}
    assert all(campaign <= set(catalogue(lang)) for lang in ("ru", "cs", "sk"))  # nothing left in English
    await bot.storage.set_setting(world.guild.id, "language", "sk")
    cog = bot.get_cog("Campaign")
    start = world.interaction(world.member("Ann"))
    await cog.start.callback(cog, start)
    embed = start.log[0].embed
    assert embed.title == "Prieskumná kampaň — pred misiou 1 z 3"
    labels = [child.item.label for child in start.log[0].view.children]
    assert "Bežné ohrozenia: biela" in labels
    again = world.interaction(world.member("Bob"))
    await cog.start.callback(cog, again)
    assert again.log[0].content == "V tomto kanáli už kampaň beží (/campaign status)."


async def test_the_flight_handoff_carries_the_ship_into_the_game(bot: Any, world: Any) -> None:
    from bot.games.space_alert.campaign.handoff import campaign_options, game_of, resolve_flight
    from engine.model import Game

    assert await campaign_options(bot, world.channel.id) == {}  # no campaign here
    cog = bot.get_cog("Campaign")
    ann = world.member("Ann")
    start = world.interaction(ann)
    await cog.start.callback(cog, start)
    for what, choice in (("common", "white"), ("serious", "white")):
        await press(world, ann, ids_of(start.log[0].view, what)[choice])
    options = await campaign_options(bot, world.channel.id)
    running = await Campaigns(bot.storage).running(world.channel.id)
    assert running is not None and options["campaign_id"] == running.id
    carried = {"damage": {"red": ["structural", "shield"]}, "battlebots": ["lower_red"]}
    base = Game.model_validate(
        {
            "tracks": {"red": "T5", "white": "T3", "blue": "T1", "internal": "T4"},
            "players": [{"name": "Ann", "actions": "------------"}],
            "threats": [{"id": "E1-07", "turn": 1, "zone": "red"}],
        }
    )
    flight = SimpleNamespace(to_game=lambda: base)
    assert game_of(flight, {}) is base
    game = game_of(flight, {**options, "carried": carried})
    assert game.carried is not None and game.carried.damage["red"] == ["structural", "shield"]
    result = resolve_flight(flight, {"carried": carried})
    assert result.carry is not None  # a campaign game hands back the ship to carry on


async def test_simultaneous_votes_are_all_stored_and_keyed_by_member_id(bot: Any, world: Any) -> None:
    """Five crew members (two of them both called "Ann") press "white" at the same moment: every
    acknowledged press is a stored vote, each under its member id (names are only rendered)."""
    from tests.bot.helpers import make_member

    ann = world.member("Ann")
    crew = [make_member("Ann", world.guild), world.member("Bob"), world.member("Cid"), world.member("Dee")]
    cog = bot.get_cog("Campaign")
    start = world.interaction(ann)
    await cog.start.callback(cog, start, p2=crew[0], p3=crew[1], p4=crew[2], p5=crew[3])
    white = ids_of(start.log[0].view, "common")["white"]
    presses = await asyncio.gather(*(press(world, user, white) for user in (ann, *crew)))
    acknowledged = {p.user.id for p in presses if p.log and p.log[0].kind == "edit_message"}
    assert len(acknowledged) == 5
    stored = await Campaigns(bot.storage).running(world.channel.id)
    assert stored is not None
    assert set(stored.state["session"]["votes"]["common"]) == {str(i) for i in acknowledged}
    assert stored.state["session"]["campaign"]["crew"] == [str(m.id) for m in (ann, *crew)]
    assert [name for _uid, name in stored.crew] == ["Ann", "Ann", "Bob", "Cid", "Dee"]


async def test_a_campaign_stored_with_names_is_read_by_member_id() -> None:
    """A campaign stored before keyed its crew by display name: it is read back by member id."""
    from bot.games.space_alert.campaign._cog import keyed_by_id

    state = {
        "members": {"11": "Ann", "12": "Bob"},
        "host": 11,
        "session": {
            "campaign": {"crew": ["Ann", "Bob"]},
            "votes": {"common": {"Ann": "white"}},
            "repairs": {"Bob": ["battlebots", None, None]},
            "knocked_out": ["Ann"],
        },
    }
    keyed = keyed_by_id(state)
    assert keyed["session"]["campaign"]["crew"] == ["11", "12"]
    assert keyed["session"]["votes"] == {"common": {"11": "white"}}
    assert set(keyed["session"]["repairs"]) == {"12"} and keyed["session"]["knocked_out"] == ["11"]
    assert keyed_by_id(keyed) is keyed  # converted once


async def test_a_stranger_and_a_scheduled_repeat_never_reset_a_running_campaign(bot: Any, world: Any) -> None:
    cog = bot.get_cog("Campaign")
    ann = world.member("Ann")
    assert await cog.open("same", world.guild.id, world.channel.id, [(ann.id, "Ann")], seed=1) is not None
    record = await Campaigns(bot.storage).running(world.channel.id)
    assert record is not None
    # the same campaign opened again (a retried schedule) and another one: both refused by the store
    assert await cog.open("same", world.guild.id, world.channel.id, [(ann.id, "Ann")], seed=2) is None
    assert await cog.open("other", world.guild.id, world.channel.id, [(ann.id, "Ann")], seed=3) is None
    again = await Campaigns(bot.storage).running(world.channel.id)
    assert again is not None and again.id == "same" and again.state == record.state
