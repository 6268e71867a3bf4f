"""A process killed between a session change's commit and its sends (issue 25), on SQLite and
PostgreSQL, for the games kept as platform sessions: what the step made due (a ping, a log line, the
bridge's or the station post's edit) was committed with it, and the process that starts after the
crash sends it exactly once: a post committed but not sent is sent, a post sent but not recorded is
found in the channel and not sent twice, an edit already shown is not made again.

"Discord" is one recording channel shared by both processes; the crash is the first process hanging
at the dispatcher's fault point (before or after a send) and then being dropped, never resumed."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.games.escape import _cog as escape_cog
from bot.games.escape import _doc
from bot.games.legion import _cog as legion_cog
from bot.games.legion import _play as play
from bot.platform import tables
from bot.platform.session_posts import SessionPosts, edit, post, session_posts
from bot.platform.sessions import GameSession
from bot.platform.storage.session_outbox import OutboxRow
from engine.common.clock import ManualClock
from engine.escape.rules import Command
from tests.bot.storage_backends import Opener, open_storage
from tests.elite.test_cog import ix as elite_ix
from tests.elite.test_cog import new_cog as new_elite_cog
from tests.elite.test_cog import press as elite_press
from tests.elite.test_cog import start_game as start_elite
from tests.escape.test_adapter import game as escape_game
from tests.legion.test_adapter import choose

__all__ = ["open_storage"]  # the fixture: each test on SQLite and on PostgreSQL

BOT_ID = 7000
CHANNEL = 2
_ids = itertools.count(5000)


class Message:
    def __init__(self, channel: Channel, content: str, fields: dict[str, Any]) -> None:
        self.channel = channel
        self.id = next(_ids)
        self.content = content
        self.fields = fields
        self.author = SimpleNamespace(id=BOT_ID)
        self.created_at = datetime.now(UTC)
        self.edited_at: datetime | None = None
        self.edits: list[str] = []
        self.view = fields.get("view")

    async def edit(self, **fields: Any) -> Message:
        if "view" in fields:
            self.view = fields["view"]
        if fields.get("content") is not None:
            self.content = str(fields["content"])
        self.edits.append(self.content)
        self.edited_at = datetime.now(UTC)
        return self


class Channel:
    """Every channel and thread of the test's server (one list of messages, in order)."""

    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def send(self, content: str = "", **fields: Any) -> Message:
        message = Message(self, content, fields)
        self.messages.append(message)
        return message

    def get_partial_message(self, message_id: int) -> Message:
        return next(m for m in self.messages if m.id == message_id)

    async def fetch_message(self, message_id: int) -> Message:
        return self.get_partial_message(message_id)

    async def history(self, limit: int = 100) -> Any:
        for message in list(reversed(self.messages))[:limit]:
            yield message

    def sent(self, text: str) -> int:
        """How many messages say `text`."""
        return sum(text in m.content for m in self.messages)


class Bot:
    def __init__(self, storage: Any, channel: Channel) -> None:
        self.storage = storage
        self.channel = channel
        self.user = SimpleNamespace(id=BOT_ID)
        self.application_id = 1
        self.voice = None

    def get_channel(self, _channel_id: int) -> Channel:
        return self.channel

    async def wait_until_ready(self) -> None:
        return None


def hang_at(where: str, posts: SessionPosts) -> asyncio.Event:
    """The first process stops for good at `where` of its first row there (its crash)."""
    reached = asyncio.Event()

    async def fault(at: str, _row: OutboxRow) -> None:
        if at == where:
            reached.set()
            await asyncio.Event().wait()

    posts.fault = fault
    return reached


async def crash_during(work: Awaitable[Any], reached: asyncio.Event, posts: SessionPosts) -> None:
    """Run `work` until the dispatcher reaches its fault point, then drop the process."""
    task = asyncio.ensure_future(work)
    waiter = asyncio.ensure_future(reached.wait())
    await asyncio.wait({task, waiter}, timeout=10, return_when=asyncio.FIRST_COMPLETED)
    assert reached.is_set(), "the step never reached the outbox"
    waiter.cancel()
    task.cancel()
    await posts.close()
    await asyncio.gather(task, return_exceptions=True)


async def restart(open_storage: Opener, channel: Channel, register: Callable[[Bot], Any]) -> tuple[Bot, SessionPosts]:
    """The successor: a fresh storage handle and dispatcher; its game registers, its resume runs."""
    bot = Bot(await open_storage(), channel)
    posts = session_posts(bot)
    posts.edit_interval_s = 0.0
    register(bot)
    await posts.drain()
    return bot, posts


# -- the platform alone ---------------------------------------------------------------------------
async def open_running(storage: Any, game: str, state: dict[str, Any]) -> GameSession:
    session = await storage.open_session(game, 1, CHANNEL, 11, state)

    def run(s: GameSession) -> bool:
        s.status = "running"
        return True

    found = await storage.change_session(session.id, run)
    assert found is not None
    return found


async def test_a_staged_post_commits_with_its_change_or_not_at_all(open_storage: Opener) -> None:
    storage = await open_storage()
    session = await open_running(storage, "test", {"n": 0})

    def failing(s: GameSession) -> bool:
        s.state["n"] = 1
        s.stage(post(CHANNEL, "never"))
        raise RuntimeError("the change fails")

    with pytest.raises(RuntimeError):
        await storage.change_session(session.id, failing)
    assert await storage.unsent_session_posts(session_id=session.id) == []

    def step(s: GameSession) -> bool:
        s.state["n"] = 2
        s.stage(post(CHANNEL, "hello", mentions=[5]), edit(CHANNEL, slot="status", content="x"))
        return True

    stored = await storage.change_session(session.id, step)
    assert stored is not None and len(stored.staged) == 2 and stored.posts == []
    rows = await storage.unsent_session_posts(session_id=session.id)
    assert [r.payload["op"] for r in rows] == ["send", "edit"] and rows[0].payload["mentions"] == [5]
    assert rows[0].game == "test" and rows[0].guild_id == 1


async def test_a_named_post_is_edited_where_it_went_and_edits_coalesce(open_storage: Opener) -> None:
    storage = await open_storage()
    channel = Channel()
    bot = Bot(storage, channel)
    posts = session_posts(bot)
    session = await open_running(storage, "test", {})

    def first(s: GameSession) -> bool:
        s.stage(post(CHANNEL, "status v1", slot="status"))
        return True

    stored = await storage.change_session(session.id, first)
    assert stored is not None and await posts.deliver(stored) == 1
    (status,) = channel.messages
    assert await storage.session_slot_message(session.id, "status") == status.id
    for n in (2, 3, 4):  # three steps committed before anything is sent: one edit, the newest

        def step(s: GameSession, n: int = n) -> bool:
            s.stage(edit(CHANNEL, slot="status", content=f"status v{n}"))
            return True

        await storage.change_session(session.id, step)
    await posts.deliver(session.id)
    await posts.drain()
    assert status.content == "status v4" and status.edits == ["status v4"]
    assert await storage.unsent_session_posts(session_id=session.id) == []


# -- Scarlet Legion -------------------------------------------------------------------------------
def legion_doc() -> dict[str, Any]:
    doc = play.new_lobby(11, "Ann", "en", 29, "reconnaissance")
    for user, name in ((22, "Bo"), (33, "Cy"), (44, "Di")):
        tables.join(doc, play.RULES, user, name)
    play.begin(doc, play.content_of(doc))
    return doc


def legion_click(user_id: int) -> Any:
    async def answer(*_args: Any, **_kw: Any) -> None:
        return None

    return SimpleNamespace(
        user=SimpleNamespace(id=user_id),
        response=SimpleNamespace(edit_message=answer, send_message=answer),
        channel_id=CHANNEL,
        guild_id=1,
    )


async def legion_step(bot: Bot, session: GameSession) -> Any:
    """The member the voyage waits for makes a plain choice; the cog's whole step."""
    cog = legion_cog.LegionCog(bot)
    session_posts(bot).register("legion", cog.render, resume=False)  # what cog_load does
    doc = session.state
    state = play.load(doc, play.content_of(doc))
    seat = play.waiting_for(state)[0]
    kind, arg, value = choose(doc, state, seat)
    await cog._act(legion_click(doc["seats"][seat]), session, kind, arg, value)


def register_legion(bot: Bot) -> None:
    session_posts(bot).register("legion", legion_cog.LegionCog(bot).render)


@pytest.mark.parametrize("where", ["before_send", "after_send"])
async def test_a_legion_step_reaches_the_channel_once_across_a_crash(open_storage: Opener, where: str) -> None:
    storage = await open_storage()
    channel = Channel()
    bridge = await channel.send("the bridge")
    doc = legion_doc()
    doc["bridge"], doc["thread"] = bridge.id, CHANNEL
    session = await open_running(storage, "legion", doc)
    bot1 = Bot(storage, channel)
    posts1 = session_posts(bot1)
    reached = hang_at(where, posts1)
    await crash_during(legion_step(bot1, session), reached, posts1)
    stored = await storage.load_session(session.id)
    assert stored is not None and stored.version == session.version + 1  # the step committed
    rows = await storage.unsent_session_posts(session_id=session.id)
    assert rows, "its posts were committed with it"
    expected = [r.payload["content"] for r in rows if r.payload["op"] == "send"]
    before = {text: channel.sent(text) for text in expected}
    await storage.close()  # the process is gone (SQLite: its lock with it)

    bot2, posts2 = await restart(open_storage, channel, register_legion)
    assert await bot2.storage.unsent_session_posts(session_id=session.id) == []
    for text in expected:  # each of the step's posts exactly once, whether or not it went before the crash
        assert channel.sent(text) == 1, (text, before[text])
    state = play.load(stored.state, play.content_of(stored.state))
    assert bridge.content == play.bridge_text(stored.state, state)  # the bridge shows the step
    assert len(bridge.edits) == 1  # and was edited once (after_send: the crashed edit, found shown)
    if where == "after_send":  # what went out before the crash was found, the rest sent
        assert posts2.found >= 1 and posts2.found + posts2.sent == len(rows)
    else:
        assert posts2.found == 0 and posts2.sent == len(rows)


async def test_a_legion_reminder_committed_but_unsent_goes_out_after_the_restart(open_storage: Opener) -> None:
    storage = await open_storage()
    channel = Channel()
    session = await open_running(storage, "legion", legion_doc())
    bot1 = Bot(storage, channel)
    posts1 = session_posts(bot1)
    reached = hang_at("before_send", posts1)
    cog = legion_cog.LegionCog(bot1)
    later = datetime.fromisoformat(session.updated_at).replace(year=2100)
    await crash_during(cog.remind_slow(later), reached, posts1)
    assert channel.messages == []
    await storage.close()
    bot2, _posts = await restart(open_storage, channel, register_legion)
    assert channel.sent("still waiting") == 1
    assert await legion_cog.LegionCog(bot2).remind_slow(later) == 0  # the reminder was for that step: not again


# -- Star World: Escape ---------------------------------------------------------------------------
async def escape_step(bot: Bot, session: GameSession) -> Escape:
    cog = escape_cog.EscapeCog(bot)
    session_posts(bot).register("escape", cog.render, resume=False)  # what cog_load does
    cog._refresh_panels = lambda _sid: None  # type: ignore[method-assign]  # other seats' panels: not here
    doc = session.state
    mover = int(doc["actor"])
    click = SimpleNamespace(
        user=SimpleNamespace(id=doc["seats"][mover]),
        response=SimpleNamespace(edit_message=_answer, send_message=_answer),
        channel_id=CHANNEL,
        guild_id=1,
        token="tok",
    )
    await cog.play(click, session.id, Command("end_turn", -1))
    return cog


Escape = escape_cog.EscapeCog


async def _answer(*_args: Any, **_kw: Any) -> None:
    return None


def register_escape(bot: Bot, *, resume: bool = True) -> None:
    session_posts(bot).register("escape", escape_cog.EscapeCog(bot).render, resume=resume)


@pytest.mark.parametrize("where", ["before_send", "after_send"])
async def test_an_escape_step_reaches_the_channel_once_across_a_crash(open_storage: Opener, where: str) -> None:
    storage = await open_storage()
    channel = Channel()
    doc = escape_game(3)
    doc["mode"] = "referee"  # no picture to draw: the text is what the test reads
    session = await open_running(storage, "escape", doc)
    bot0 = Bot(storage, channel)
    register_escape(bot0, resume=False)

    def deal(s: GameSession) -> bool:  # what `begin` stages: the station post, the first ping
        s.stage(escape_cog.EscapeCog(bot0)._station_post(s))
        return True

    dealt = await storage.change_session(session.id, deal)
    assert dealt is not None
    await session_posts(bot0).deliver(dealt)
    (station,) = channel.messages
    bot1 = Bot(storage, channel)
    posts1 = session_posts(bot1)
    posts1.edit_interval_s = 0.0
    reached = hang_at(where, posts1)
    await crash_during(escape_step(bot1, dealt), reached, posts1)
    stored = await storage.load_session(session.id)
    assert stored is not None and stored.version == dealt.version + 1
    pings = [r.payload["content"] for r in await storage.unsent_session_posts(session_id=session.id)]
    assert pings, "the step's posts were committed with it"
    await storage.close()

    bot2, _posts = await restart(open_storage, channel, register_escape)
    assert await bot2.storage.unsent_session_posts(session_id=session.id) == []
    nxt = int(stored.state["seats"][int(stored.state["actor"])])
    assert channel.sent(f"<@{nxt}>") == 1  # the next player's ping, once
    state = _doc.state_of(stored.state)
    assert station.content == escape_cog.station_text(stored.state, state)  # the station shows the step
    assert len(station.edits) == 1  # edited once, even when the crashed edit had gone out


# -- Project: ELITE -------------------------------------------------------------------------------
class TextChannel(Channel, discord.abc.Messageable):
    """The recording channel as ELITE's interactions carry it (a Messageable, with its id)."""

    id = CHANNEL

    @property
    def posted(self) -> list[Message]:
        return self.messages


def elite_cog(storage: Any, channel: TextChannel) -> Any:
    cog = new_elite_cog(storage, ManualClock(1000.0))
    cog.bot.get_channel = lambda _channel_id: channel
    cog.bot.user = SimpleNamespace(id=BOT_ID)
    session_posts(cog.bot).edit_interval_s = 0.0
    return cog


@pytest.mark.parametrize("where", ["before_send", "after_send"])
async def test_an_elite_reveal_reaches_the_channel_once_across_a_crash(open_storage: Opener, where: str) -> None:
    storage = await open_storage()
    channel = TextChannel()
    cog = elite_cog(storage, channel)
    status = await start_elite(cog, channel, mission="exploration")
    answer = await elite_press(cog, channel, "reveal")
    picker = answer.response.calls[0][2]["view"]
    cell = int(picker.select.options[0].value)
    picker.select._values = [str(cell)]
    posts1 = session_posts(cog.bot)
    reached = hang_at(where, posts1)
    await crash_during(picker._picked(elite_ix(channel)), reached, posts1)
    rows = await storage.unsent_session_posts()
    assert [r.payload["op"] for r in rows] == ["send", "edit"]  # the reveal's lines, the status edit
    shown = str(rows[1].payload["content"])
    await storage.close()

    cog2 = elite_cog(await open_storage(), channel)
    posts2 = session_posts(cog2.bot)
    posts2.register("elite")  # what cog_load does: the resume
    await posts2.drain()
    assert await cog2.bot.storage.unsent_session_posts() == []
    reveals = [m for m in channel.messages if m is not status and m.content.startswith(f"Cell {cell}:")]
    assert len(reveals) == 1  # the reveal, once
    assert status.content == shown and status.edits.count(shown) == 1  # the status, edited once


@pytest.mark.parametrize("where", ["before_send", "after_send"])
async def test_an_elite_game_s_first_posts_go_out_once_across_a_crash(open_storage: Opener, where: str) -> None:
    """The setup and the status message are committed with the game's first stored write; a crash
    before or after the setup's send leaves one setup and one status message, the status found by
    its head line and kept as the named post its edits target."""
    storage = await open_storage()
    channel = TextChannel()
    cog = elite_cog(storage, channel)
    first = elite_ix(channel)
    await cog.start.callback(cog, first, map="crash_site", mission="recon", difficulty="easy", players=2)
    picker = first.response.calls[0][2]["view"]
    picker.select._values = ["kara", "gerid"]
    posts1 = session_posts(cog.bot)
    reached = hang_at(where, posts1)
    await crash_during(picker._picked(elite_ix(channel)), reached, posts1)
    await storage.close()

    cog2 = elite_cog(await open_storage(), channel)
    posts2 = session_posts(cog2.bot)
    posts2.register("elite")
    await posts2.drain()
    assert await cog2.bot.storage.unsent_session_posts() == []
    setups = [m for m in channel.messages if "Objective cells:" in m.content]
    statuses = [m for m in channel.messages if m.content.startswith("**Project: ELITE")]
    assert len(setups) == 1 and len(statuses) == 1, [m.content[:40] for m in channel.messages]
    (session,) = await cog2.bot.storage.active_sessions("elite")
    assert await cog2.bot.storage.session_slot_message(session.id, "status") == statuses[0].id
