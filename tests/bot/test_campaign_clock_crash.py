"""A campaign carries on across crashes (issue 25), on SQLite and PostgreSQL: a flight the ship
survives ends in the repair step, the repairs close on the campaign's clock into the next vote,
the vote closes on the clock into the next mission's announcement; the process is killed after
each commit and before its posts are out.  What the crew sees, in order, is each post exactly
once: the result, the repairs (with their menu), the next vote (with its buttons), the vote's
outcome and the announcement.  Also: the announcement of a vote closed by the last press, a post
sent before the crash but not recorded (looked up, not sent again), and a scheduled campaign's
first vote."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from bot.games.space_alert.campaign._cog import CampaignButton
from bot.games.space_alert.campaign.posts import queue_of
from bot.games.space_alert.campaign.storage import Campaigns
from bot.games.space_alert.mission.storage import Flights
from engine.campaign.session import REPAIR_SECONDS, VOTE_SECONDS
from tests.bot.helpers import World, custom_ids, new_bot, start_flight, stop_bot
from tests.bot.storage_backends import bot_backend
from tests.bot.test_outbox_staging import crash
from tests.bot.test_shutdown import block, unblock

__all__ = ["bot_backend"]  # the fixture: each test on SQLite and on PostgreSQL

pytestmark = pytest.mark.filterwarnings("error::RuntimeWarning")

REPAIRS = "Repairs after mission 1"
VOTE_2 = "Exploration campaign — before mission 2 of 3"
VOTED = "The crew has voted."
ANNOUNCED = "🚀 Campaign mission"


@pytest.fixture
def survivable(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every flight meets no threat, on a ship that took off with a broken lift: it survives, so
    the campaign goes on to its repairs (with something to repair)."""
    from bot.games.space_alert.campaign.handoff import game_of
    from bot.games.space_alert.mission import _flights
    from bot.games.space_alert.mission.result import resolve_game

    def calm(flight: Any, options: dict[str, Any] | None = None) -> Any:
        game = game_of(flight, options or {})
        assert game.carried is not None  # a campaign mission
        carried = game.carried.model_copy(update={"damage": {"red": ["lift"]}})
        result, replay = resolve_game(game.model_copy(update={"threats": [], "carried": carried}))
        assert result.outcome == "survived"
        return result, replay

    monkeypatch.setattr(_flights, "resolve_flight", calm)


def seen(channel: Any, start: int) -> list[str]:
    """What the crew saw of the campaign since `start`, in order: the result, the repairs, the
    vote before mission 2, the vote's outcome, the announcement (intercom lines left out)."""
    found = []
    for sent in channel.sent[start:]:
        title = (sent.embed.title or "") if sent.embed is not None else ""
        if "result" in title.lower():
            found.append("result")
        elif title == REPAIRS:
            found.append("repairs")
        elif title == VOTE_2 and (sent.embed.description or "") == VOTED:
            found.append("voted")
        elif title == VOTE_2:
            found.append("vote")
        elif (sent.content or "").startswith(ANNOUNCED):
            found.append("announcement")
    return found


def history_with_embeds(channel: Any, clock: Any) -> Any:
    """`channel.history` as Discord answers it: the bot's messages, newest first, embeds included
    (a campaign post is found by its text and its embed's title and description)."""

    def history(limit: int = 25) -> AsyncIterator[Any]:
        async def gen() -> AsyncIterator[Any]:
            for sent in list(reversed(channel.sent))[:limit]:
                yield SimpleNamespace(
                    content=sent.content,
                    embeds=[sent.embed] if sent.embed is not None else [],
                    author=SimpleNamespace(id=None),
                    edited_at=None,
                    created_at=datetime.fromtimestamp(clock(), UTC),
                )

        return gen()

    return history


async def campaign_flight(bot: Any, world: World) -> tuple[str, Any, Any]:
    """A running flight that is mission 1 of a campaign voted white / white."""
    from tests.campaign.test_evening import voted

    fid, ann, bob = await start_flight(bot, world)
    cog = await voted(bot, world, ann, bob)
    due = await cog.due_flight(world.channel.id)

    def campaign_mission(record: Any) -> None:
        record.options.update(due.options)

    await Flights(bot.storage).update_flight(fid, campaign_mission)
    await bot.get_cog("Mission").flights.drain()
    return fid, ann, bob


async def campaign_rows(bot: Any, campaign_id: str) -> list[dict[str, Any]]:
    return [p for _id, queue, p in await bot.storage.pending_posts() if queue == queue_of(campaign_id)]


async def crashed_in(
    bot: Any,
    world: World,
    work: Callable[[], Awaitable[Any]],
    committed: Callable[[], Awaitable[Any]] | None = None,
) -> list[str | None]:
    """Run `work` with Discord hanging on every channel post; once it has committed and tries to
    post (`committed` checks the database then), the process dies.  The posts it tried."""
    tried = block(world.channel)
    task = asyncio.create_task(work())
    for _ in range(500):
        if tried or task.done():
            break
        await asyncio.sleep(0.01)
    assert tried, "nothing was posted"
    if committed is not None:
        await committed()
    await crash(bot)
    task.cancel()  # what the dead process was doing ends with it
    with contextlib.suppress(asyncio.CancelledError):
        await task
    return tried


async def restarted(db: Path, clock: Any, world: World) -> Any:
    unblock(world.channel)
    bot = await new_bot(db, clock, world=world)
    await bot.get_cog("Mission").flights.drain()
    return bot


async def test_a_campaign_carries_on_to_its_repairs_and_next_mission_across_three_crashes(
    tmp_path: Path, clock: Any, bot_backend: str, survivable: None
) -> None:
    db = tmp_path / "sa.sqlite3"
    bot1 = await new_bot(db, clock)
    world = World(bot1)
    fid, _ann, _bob = await campaign_flight(bot1, world)
    campaign = await Campaigns(bot1.storage).running(world.channel.id)
    assert campaign is not None
    before = len(world.channel.sent)

    # crash 1: the flight survived; its finish committed the repair step, its result and repairs
    service = bot1.get_cog("Mission").flights
    clock.advance(2000)

    async def repair_step() -> None:
        stored = await Campaigns(bot1.storage).running(world.channel.id)
        assert stored is not None and stored.state["session"]["phase"] == "repair"
        staged = [p["op"] for _id, queue, p in await bot1.storage.pending_posts() if queue == fid]
        assert staged[-2:] == ["result", "follow_up"], staged

    block(world.channel)  # the finish queues its posts (it does not wait for them): nothing goes out
    assert await service.tick(fid) is None
    await repair_step()
    await crash(bot1)
    bot2 = await restarted(db, clock, world)
    assert seen(world.channel, before) == ["result", "repairs"]
    repairs = world.channel.sent[-1]
    assert any(":repairmenu:" in c for c in custom_ids(repairs.kwargs["view"]))  # the menu, drawn at sending

    # crash 2: nobody chose; the clock closes the repairs and opens the vote before mission 2
    clock.advance(REPAIR_SECONDS + 1)
    cog2 = bot2.get_cog("Campaign")

    async def vote_opened() -> None:
        rows = await campaign_rows(bot2, campaign.id)
        assert [(p["op"], p["embed"]["title"]) for p in rows] == [("follow_up", VOTE_2)]  # committed with the close
        stored = await Campaigns(bot2.storage).running(world.channel.id)
        assert stored is not None and stored.state["session"]["phase"] == "vote"

    await crashed_in(bot2, world, lambda: cog2.tick_channel(world.guild.id, world.channel.id, clock()), vote_opened)
    bot3 = await restarted(db, clock, world)
    assert seen(world.channel, before) == ["result", "repairs", "vote"]
    vote = world.channel.sent[-1]
    buttons = custom_ids(vote.kwargs["view"])
    assert any(":continue:continue" in c for c in buttons)  # its buttons, drawn from the vote as it stands

    # crash 3: the crew votes to go on but not on the difficulties; the clock closes the vote
    for member in (_ann, _bob):
        cid = next(c for c in buttons if ":continue:continue" in c)
        await CampaignButton(cid).callback(world.interaction(member, custom_id=cid))
    clock.advance(VOTE_SECONDS + 1)
    cog3 = bot3.get_cog("Campaign")

    async def vote_closed() -> None:
        rows = await campaign_rows(bot3, campaign.id)
        assert [p["embed"]["title"] if p["embed"] else p["content"][: len(ANNOUNCED)] for p in rows] == [
            VOTE_2,
            ANNOUNCED,
        ]
        stored = await Campaigns(bot3.storage).running(world.channel.id)
        assert stored is not None and stored.state["session"]["phase"] == "flying"

    await crashed_in(bot3, world, lambda: cog3.tick_channel(world.guild.id, world.channel.id, clock()), vote_closed)
    bot4 = await restarted(db, clock, world)
    assert seen(world.channel, before) == ["result", "repairs", "vote", "voted", "announcement"]
    due = await bot4.get_cog("Campaign").due_flight(world.channel.id)
    assert due is not None and due.due.number == 2 and f"**{due.due.mission}**" in world.channel.sent[-1].content
    assert await bot4.storage.pending_posts() == []
    await stop_bot(bot4)


async def campaign_voting(tmp_path: Path, clock: Any) -> tuple[Path, Any, World, Any, Any, Any]:
    """A bot whose channel's new campaign (Ann and Bob) is voting on its first mission: the
    database, the bot, the world, the two members and the /campaign start interaction."""
    db = tmp_path / "sa.sqlite3"
    bot = await new_bot(db, clock)
    world = World(bot)
    ann, bob = world.member("Ann"), world.member("Bob")
    cog = bot.get_cog("Campaign")
    start = world.interaction(ann)
    await cog.start.callback(cog, start, p2=bob)
    return db, bot, world, ann, bob, start


async def test_the_announcement_of_a_vote_closed_by_a_press_survives_a_crash(
    tmp_path: Path, clock: Any, bot_backend: str
) -> None:
    db, bot1, world, ann, bob, start = await campaign_voting(tmp_path, clock)
    buttons = custom_ids(start.log[0].view)
    white = {what: next(c for c in buttons if f":{what}:white" in c) for what in ("common", "serious")}
    await CampaignButton(white["common"]).callback(world.interaction(ann, custom_id=white["common"]))
    await CampaignButton(white["common"]).callback(world.interaction(bob, custom_id=white["common"]))
    await CampaignButton(white["serious"]).callback(world.interaction(ann, custom_id=white["serious"]))
    before = len(world.channel.sent)
    last = world.interaction(bob, custom_id=white["serious"])
    tried = await crashed_in(bot1, world, lambda: CampaignButton(white["serious"]).callback(last))
    assert last.log[0].kind == "edit_message"  # the press was answered before the post
    assert tried[0] is not None and tried[0].startswith(f"{ANNOUNCED} 1:")
    bot2 = await restarted(db, clock, world)
    posted = [s.content or "" for s in world.channel.sent[before:]]
    assert [p for p in posted if p.startswith(f"{ANNOUNCED} 1:")] == [tried[0]]
    assert await bot2.storage.pending_posts() == []
    await stop_bot(bot2)


async def test_a_clock_post_sent_but_not_recorded_is_not_sent_again(
    tmp_path: Path, clock: Any, bot_backend: str
) -> None:
    db, bot1, world, _ann, _bob, _start = await campaign_voting(tmp_path, clock)
    cog = bot1.get_cog("Campaign")
    before = len(world.channel.sent)

    async def lost(_row: int) -> None:  # the process dies between the sends and the rows' deletion
        await asyncio.Event().wait()

    bot1.get_cog("Mission").flights.posts.store.delete_post = lost
    clock.advance(VOTE_SECONDS + 1)  # nobody voted: the clock closes the vote (white / white)
    ticking = asyncio.create_task(cog.tick_channel(world.guild.id, world.channel.id, clock()))
    for _ in range(500):
        if len(world.channel.sent) > before:
            break
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.05)
    # the vote's outcome is out, its row not deleted; the announcement waits behind it
    sent_then = [(s.content, s.embed.title if s.embed else None) for s in world.channel.sent[before:]]
    assert sent_then == [(None, "Exploration campaign — before mission 1 of 3")]
    rows = [p for _id, _queue, p in await bot1.storage.pending_posts()]
    assert [bool(p["embed"]) for p in rows] == [True, False] and rows[1]["content"].startswith(f"{ANNOUNCED} 1:")
    await crash(bot1)
    ticking.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await ticking

    world.channel.history = history_with_embeds(world.channel, clock)
    bot2 = await restarted(db, clock, world)
    # the outcome found in the channel (not sent again), the announcement sent once, after it
    assert [(s.content, s.embed.title if s.embed else None) for s in world.channel.sent[before:]] == [
        *sent_then,
        (rows[1]["content"], None),
    ]
    assert await bot2.storage.pending_posts() == []
    await stop_bot(bot2)


async def test_a_scheduled_campaign_s_first_vote_survives_a_crash(tmp_path: Path, clock: Any, bot_backend: str) -> None:
    from bot.platform.storage.platform import ScheduleRecord

    db = tmp_path / "sa.sqlite3"
    bot1 = await new_bot(db, clock)
    world = World(bot1)
    ann, bob = world.member("Ann"), world.member("Bob")
    world.guild.get_member = lambda uid: {ann.id: ann, bob.id: bob}.get(uid)
    schedule = ScheduleRecord(
        id=7,
        guild_id=world.guild.id,
        channel_id=world.channel.id,
        host_id=ann.id,
        at=clock(),
        mission="campaign",
        campaign=True,
        options={"crew": [[bob.id, "Bob"]]},
    )
    cog = bot1.get_cog("Campaign")
    before = len(world.channel.sent)

    async def opened() -> None:
        assert (await Campaigns(bot1.storage).running(world.channel.id)) is not None
        assert [p["op"] for _id, _queue, p in await bot1.storage.pending_posts()] == ["follow_up"]

    await crashed_in(bot1, world, lambda: cog.open_scheduled(schedule, world.channel), opened)
    bot2 = await restarted(db, clock, world)
    votes = [
        s
        for s in world.channel.sent[before:]
        if s.embed is not None and s.embed.title == "Exploration campaign — before mission 1 of 3"
    ]
    assert len(votes) == 1 and any(":common:white" in c for c in custom_ids(votes[0].kwargs["view"]))
    assert await bot2.storage.pending_posts() == []
    await stop_bot(bot2)
