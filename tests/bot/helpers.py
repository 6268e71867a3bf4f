"""Spec'd fakes of the discord objects the bot touches (after python-discord's tests/helpers.py).

Each fake is a `MagicMock(spec=<real discord class>)`, so a misspelled attribute raises and
`isinstance` checks pass; coroutine methods are `AsyncMock`s that record their calls.  The
interaction response is a small state machine like discord.py's own: a second initial response
raises `InteractionResponded`, which is exactly the bug class (40060) these tests must catch.
Nothing here opens a socket.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord

from bot.games.space_alert.mission import ids as _ids
from bot.games.space_alert.mission.components import FlightButton, FlightSelect
from bot.games.space_alert.mission.storage import Flights
from bot.platform.client import SpaceAlertBot
from bot.platform.settings import Settings
from bot.platform.storage import SqliteStorage

_snowflakes = itertools.count(10**17)


def next_id() -> int:
    return next(_snowflakes)


class RecordingVoice:
    """A voice bridge that records what the bot asked of it (the voice player has its own tests).

    `on_text_only` / `on_member_disconnect` are the hooks the cog sets, as on the real bridge; a
    test calls them to play the bridge's reports.  `rejoin` answers `rejoin_reason`."""

    on_text_only: Any = None
    on_member_disconnect: Any = None

    def __init__(self, reason: str | None = "voice is off in tests", rejoin_reason: str | None = None) -> None:
        self.reason = reason
        self.rejoin_reason = rejoin_reason
        self.calls: list[tuple[str, Any]] = []
        self.cues: list[Any] = []
        self.tts: str | None = None

    async def prepare(
        self,
        flight_id: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        lang: str,
        cues: list[Any],
        *,
        tts: str = "gtts",
    ) -> str | None:
        self.calls.append(("prepare", (flight_id, channel_id, host_id, lang, len(cues))))
        self.tts = tts  # the server's engine setting, as the flight read it
        self.cues = list(cues)
        return self.reason

    async def start(self, flight_id: str, started_at: float, time_scale: float, *, resumed: bool | None = None) -> None:
        self.calls.append(("start", (flight_id, started_at, time_scale, resumed)))

    async def finish(self, flight_id: str) -> None:
        self.calls.append(("finish", flight_id))

    async def abort(self, flight_id: str) -> None:
        self.calls.append(("abort", flight_id))

    async def stop(self, flight_id: str) -> None:
        self.calls.append(("stop", flight_id))

    async def rejoin(self, flight_id: str) -> str | None:
        self.calls.append(("rejoin", flight_id))
        return self.rejoin_reason


class FakeClock:
    """The bot's wall clock, moved by hand."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class Sent:
    kind: str  # send_message / edit_message / defer / followup / edit_original
    content: str | None = None
    kwargs: dict[str, Any] = field(default_factory=dict)

    @property
    def embed(self) -> discord.Embed | None:
        return self.kwargs.get("embed")

    @property
    def view(self) -> discord.ui.View | None:
        return self.kwargs.get("view")

    @property
    def ephemeral(self) -> bool:
        return bool(self.kwargs.get("ephemeral"))


class FakeResponse:
    """Mimics `discord.InteractionResponse`: one initial response, then follow-ups only."""

    def __init__(self, log: list[Sent]) -> None:
        self._done = False
        self.log = log

    def is_done(self) -> bool:
        return self._done

    def _mark(self) -> None:
        if self._done:
            raise discord.InteractionResponded(MagicMock())
        self._done = True

    async def send_message(self, content: str | None = None, **kwargs: Any) -> None:
        self._mark()
        self.log.append(Sent("send_message", content, kwargs))

    async def edit_message(self, **kwargs: Any) -> None:
        self._mark()
        self.log.append(Sent("edit_message", kwargs.pop("content", None), kwargs))

    async def defer(self, **kwargs: Any) -> None:
        self._mark()
        self.log.append(Sent("defer", None, kwargs))


def make_member(name: str, guild: Any = None, *, voice_channel: Any = None) -> MagicMock:
    member = MagicMock(spec=discord.Member)
    member.id = next_id()
    member.name = member.display_name = name
    member.mention = f"<@{member.id}>"
    member.bot = False
    member.guild = guild
    member.edit = AsyncMock()
    if voice_channel is not None:
        state = MagicMock(spec=discord.VoiceState)
        state.channel = voice_channel
        member.voice = state
    else:
        member.voice = None
    return member


def make_message(channel: Any) -> MagicMock:
    message = MagicMock(spec=discord.Message)
    message.id = next_id()
    message.channel = channel
    thread = MagicMock(spec=discord.Thread)
    thread.id = next_id()
    thread.sent = []

    async def thread_send(content: str | None = None, **kwargs: Any) -> MagicMock:
        thread.sent.append(Sent("send", content, kwargs))
        return make_message(thread)

    thread.send = AsyncMock(side_effect=thread_send)
    message.thread = thread
    message.create_thread = AsyncMock(return_value=thread)
    message.edit = AsyncMock()
    return message


def make_text_channel(guild: Any) -> MagicMock:
    channel = MagicMock(spec=discord.TextChannel)
    channel.id = next_id()
    channel.guild = guild
    channel.sent = []
    channel.messages = []
    channel.edits = []
    channel.timeline = []  # sends and edits in the order they reached "Discord"

    async def send(content: str | None = None, **kwargs: Any) -> MagicMock:
        channel.sent.append(Sent("send", content, kwargs))
        channel.timeline.append(Sent("send", content, kwargs))
        message = make_message(channel)
        channel.messages.append(message)
        return message

    channel.send = AsyncMock(side_effect=send)

    def partial(message_id: int) -> MagicMock:
        msg = MagicMock(spec=discord.PartialMessage)
        msg.id = message_id

        async def edit(**kwargs: Any) -> None:
            channel.edits.append((message_id, kwargs))
            channel.timeline.append(Sent("edit", kwargs.get("content"), kwargs))

        msg.edit = AsyncMock(side_effect=edit)
        return msg

    channel.get_partial_message = MagicMock(side_effect=partial)
    return channel


def make_voice_channel(guild: Any, members: list[Any], *, can_mute: bool = True) -> MagicMock:
    channel = MagicMock(spec=discord.VoiceChannel)
    channel.id = next_id()
    channel.guild = guild
    channel.members = members
    channel.permissions_for = MagicMock(
        return_value=discord.Permissions(connect=True, speak=True, mute_members=can_mute)
    )
    return channel


class World:
    """A guild with a text channel, a voice channel and members, wired into a bot's lookups."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.guild = MagicMock(spec=discord.Guild)
        self.guild.id = next_id()
        self.channel = make_text_channel(self.guild)
        self.members: dict[str, MagicMock] = {}
        self.voice = make_voice_channel(self.guild, [])
        self.guild.me = make_member("Space Alert Bot", self.guild)
        self.guild.get_channel = MagicMock(side_effect=self._channel)
        self.guild.get_member = MagicMock(
            side_effect=lambda uid: next((m for m in self.members.values() if m.id == uid), None)
        )
        self.attach(bot)

    def attach(self, bot: Any) -> None:
        """Wire a (new) bot's channel and guild lookups to this world (a restart keeps the world)."""
        self.bot = bot
        bot.get_channel = self._channel  # type: ignore[method-assign]
        bot.get_guild = lambda gid: self.guild if gid == self.guild.id else None  # type: ignore[method-assign]

    def _channel(self, channel_id: int) -> Any:
        return {self.channel.id: self.channel, self.voice.id: self.voice}.get(channel_id)

    def member(self, name: str, *, in_voice: bool = False) -> MagicMock:
        if name not in self.members:
            m = make_member(name, self.guild, voice_channel=self.voice if in_voice else None)
            self.members[name] = m
            if in_voice:
                self.voice.members.append(m)
        return self.members[name]

    def interaction(
        self,
        user: Any,
        *,
        custom_id: str | None = None,
        values: list[str] | None = None,
        app_permissions: discord.Permissions | None = None,
        manage_guild: bool = False,
    ) -> MagicMock:
        return make_interaction(
            self.bot,
            user,
            self.guild,
            self.channel,
            custom_id=custom_id,
            values=values,
            app_permissions=app_permissions,
            manage_guild=manage_guild,
        )


ALL_TEXT = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    read_message_history=True,
    create_public_threads=True,
    send_messages_in_threads=True,
    attach_files=True,
)


def make_interaction(
    bot: Any,
    user: Any,
    guild: Any,
    channel: Any,
    *,
    custom_id: str | None = None,
    values: list[str] | None = None,
    app_permissions: discord.Permissions | None = None,
    manage_guild: bool = False,
) -> MagicMock:
    """A spec'd `discord.Interaction`; `.log` lists every response, edit and follow-up."""
    inter = MagicMock(spec=discord.Interaction)
    inter.id = next_id()
    inter.client = bot
    inter.user = user
    inter.guild = guild
    inter.guild_id = guild.id
    inter.channel = channel
    inter.channel_id = channel.id
    inter.app_permissions = app_permissions or ALL_TEXT
    inter.permissions = discord.Permissions(manage_guild=manage_guild)
    inter.data = {"custom_id": custom_id, "values": values or []} if custom_id else {}
    inter.log = []
    inter.response = FakeResponse(inter.log)
    original = make_message(channel)
    inter.original_response = AsyncMock(return_value=original)

    async def edit_original(**kwargs: Any) -> None:
        inter.log.append(Sent("edit_original", kwargs.pop("content", None), kwargs))

    inter.edit_original_response = AsyncMock(side_effect=edit_original)
    followup = MagicMock(spec=discord.Webhook)

    async def follow(content: Any = None, **kwargs: Any) -> None:
        inter.log.append(Sent("followup", None if content is discord.utils.MISSING else content, kwargs))

    followup.send = AsyncMock(side_effect=follow)
    inter.followup = followup
    return inter


def custom_ids(view: discord.ui.View | None) -> list[str]:
    """Every custom id in a view (DynamicItems included)."""
    if view is None:
        return []
    out = []
    for item in view.children:
        cid = getattr(item, "custom_id", None)
        if cid:
            out.append(cid)
    return out


def find_id(view: discord.ui.View | None, action: str) -> str:
    for cid in custom_ids(view):
        if cid.split(":")[2] == action:
            return cid
    raise AssertionError(f"no {action!r} component in {custom_ids(view)}")


def select_options(view: discord.ui.View | None, action: str) -> list[str]:
    assert view is not None
    for item in view.children:
        if getattr(item, "custom_id", "").split(":")[2:3] == [action]:
            inner: Any = getattr(item, "item", item)
            return [o.value for o in inner.options]
    raise AssertionError(f"no {action!r} select")


async def new_bot(
    db: Path, clock: FakeClock, voice: Any = None, *, world: World | None = None, **settings: Any
) -> SpaceAlertBot:
    """A bot over `db`; with `world`, its lookups are wired before start-up (a restart's resumed
    posts then find the channel, as a real bot's do once the gateway is ready)."""
    config = Settings(_env_file=None, discord_token=None, command_sync="off", database_path=db, **settings)
    storage = SqliteStorage(db)
    await storage.open()
    bot = SpaceAlertBot(
        settings=config, storage=storage, clock=clock, run_timers=False, voice=voice or RecordingVoice()
    )
    if world is not None:
        world.attach(bot)
    await bot.setup_hook()
    service = bot.get_cog("Mission").flights  # type: ignore[union-attr]
    service.posts.edit_interval_s = 0.0  # the pacing of edits is real time; tests move a fake clock
    service.hands.interval = 0.0
    return bot


async def stop_bot(bot: SpaceAlertBot) -> None:
    await bot.get_cog("Mission").flights.drain()  # type: ignore[union-attr]
    for name in list(bot.cogs):
        await bot.remove_cog(name)
    await bot.storage.close()


async def click(world: World, user: Any, custom_id: str, values: list[str] | None = None) -> Any:
    """Press a component the way discord.py does: rebuild the DynamicItem, then call it."""
    inter = world.interaction(user, custom_id=custom_id, values=values)
    action = _ids.parse(custom_id)
    assert action is not None
    cls = FlightButton if action.action in _ids.BUTTON_ACTIONS else FlightSelect
    match = re.fullmatch(cls.__discord_ui_compiled_template__, custom_id)
    assert match is not None, custom_id
    item = cls(custom_id)
    if cls is FlightSelect:
        item._refresh_state(inter, {"custom_id": custom_id, "values": values or []})
    await item.callback(inter)
    await world.bot.get_cog("Mission").flights.drain()
    return inter


def make_attachment(data: bytes, filename: str = "mission.json") -> MagicMock:
    """A spec'd `discord.Attachment` whose `read()` returns `data`."""
    attachment = MagicMock(spec=discord.Attachment)
    attachment.filename = filename
    attachment.size = len(data)
    attachment.read = AsyncMock(return_value=data)
    return attachment


def http_error(status: int, *, retry_after: float | None = None) -> discord.HTTPException:
    """The exception discord.py raises for an HTTP status (Forbidden for 403)."""
    response = MagicMock()
    response.status = status
    response.reason = {403: "Forbidden", 429: "Too Many Requests"}.get(status, "Error")
    response.headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
    cls = discord.Forbidden if status == 403 else discord.HTTPException
    return cls(response, {"message": response.reason, "code": 50013 if status == 403 else 0})


# -- flows shared by the flow tests ----------------------------------------------------------------
async def open_lobby(bot: Any, world: Any, host: Any, **options: Any) -> tuple[str, Any]:
    cog = bot.get_cog("Mission")
    inter = world.interaction(host)
    params = {
        "mission": "S2-1",
        "normal_threats": "white",
        "serious_threats": "yellow",
        "language": "en",
        "voice": "on",
        "seed": 42,
    } | options
    await cog.mission_start.callback(cog, inter, **params)
    sent = inter.log[-1]
    assert sent.kind == "send_message" and not sent.ephemeral
    fid = find_id(sent.view, "join").split(":")[1]
    return fid, sent


async def start_flight(bot: Any, world: Any, **options: Any) -> tuple[str, Any, Any]:
    ann = world.member("Ann", in_voice=True)
    bob = world.member("Bob", in_voice=True)
    fid, _ = await open_lobby(bot, world, ann, **options)
    await click(world, bob, _ids.make(fid, "join"))
    await click(world, ann, _ids.make(fid, "roles"), ["captain", "security"])
    await click(world, bob, _ids.make(fid, "roles"), ["comms"])
    inter = await click(world, ann, _ids.make(fid, "start"))
    assert inter.log[-1].kind == "edit_message", inter.log
    return fid, ann, bob


async def tick(service: Any, fid: str) -> float | None:
    """One timer tick, then wait for the flight's outbox (channel posts are sent in the background)."""
    delay = await service.tick(fid)
    await service.drain()
    return delay


def last(inter: Any) -> Any:
    return inter.log[-1]


def channel_text(channel: Any) -> str:
    """Everything the channel shows in text: posts, and the latest content of every edited message."""
    return "\n".join(s.content or "" for s in channel.timeline)


async def station_view(bot: Any, fid: str, name: str) -> Any:
    """`name`'s station as the engine sees it now (what a test asserts on instead of the stored state)."""
    from engine.flight.machine import Flight

    record = await Flights(bot.storage).load_flight(fid)
    return Flight.from_dict(record.state).station(name)


async def open_station(world: Any, user: Any, fid: str) -> Any:
    inter = await click(world, user, _ids.make(fid, "station"))
    sent = last(inter)
    assert sent.kind == "send_message" and sent.ephemeral, sent
    return sent
