"""bot.platform.voicebridge: the calls a flight makes never wait for voice; t0 is the flight's own start."""

from __future__ import annotations

import asyncio
import time
from types import SimpleNamespace
from unittest.mock import AsyncMock, MagicMock

import discord

from bot.games.space_alert.mission._voice import reason_text
from bot.platform.voicebridge import BUSY_REASON, IntercomBridge, NullVoice


class StubPlayer:
    def __init__(self, **kw):
        self.kw = kw
        self.started = None
        self.finished = False
        self.aborted = False
        self.rejoins = 0
        self.done: asyncio.Future = asyncio.get_running_loop().create_future()

    def start(self, t0, cues, *, resumed=False):
        self.started = (t0, list(cues), resumed)
        return self.done

    def finish(self):
        self.finished = True

    async def stop(self):
        self.aborted = True

    async def rejoin(self):
        self.rejoins += 1
        return None


class StubService:
    def __init__(self):
        self.players: list[StubPlayer] = []

    def unavailable_reason(self):
        return None

    def player(self, sink, **kw):
        p = StubPlayer(sink=sink, **kw)
        self.players.append(p)
        return p


def make_bot(now: float):
    channel = MagicMock(spec=discord.VoiceChannel)
    channel.id, channel.name, channel.user_limit, channel.members = 7, "Bridge", 0, []
    channel.permissions_for.return_value = SimpleNamespace(
        view_channel=True, connect=True, speak=True, move_members=False
    )
    channel.connect = AsyncMock()
    guild = MagicMock()
    guild.id = 1
    guild.voice_client = None
    guild.get_channel.return_value = channel
    listeners: list = []
    bot = SimpleNamespace(
        get_guild=lambda gid: guild,
        clock=lambda: now,
        user=SimpleNamespace(id=99),
        add_listener=lambda fn, name: listeners.append((name, fn)),
    )
    return bot, guild, channel, listeners


async def test_prepare_never_joins_and_start_uses_the_flights_own_t0():
    bot, _guild, channel, listeners = make_bot(now=1_000.0)
    service = StubService()
    bridge = IntercomBridge(bot, service=service)
    assert [name for name, _ in listeners] == ["on_voice_state_update"]
    cues = [SimpleNamespace(at_s=0.0, text="Enemy activity detected.")]
    assert await bridge.prepare("f1", 1, 7, 5, "en", cues) is None
    channel.connect.assert_not_awaited()  # joining happens in the background, after start

    before = time.monotonic()
    await bridge.start("f1", started_at=1_000.0 - 0.05, time_scale=1.0)  # 50 ms after Start
    player = service.players[0]
    t0, passed, resumed = player.started
    assert passed == cues and resumed is False  # a fresh flight: the 0 s line is still due
    assert before - 0.05 - 0.01 <= t0 <= time.monotonic() - 0.05 + 0.01

    # a restart, far into the flight: lines long past may be skipped (another server: one
    # flight per server holds voice)
    await bridge.prepare("f2", 2, 7, 5, "en", cues)
    await bridge.start("f2", started_at=1_000.0 - 200.0, time_scale=1.0)
    assert service.players[1].started[2] is True

    await bridge.finish("f1")
    assert player.finished and not player.aborted  # the last lines still play
    await bridge.abort("f2")
    assert service.players[1].aborted


async def test_a_second_flight_in_one_server_speaks_in_text_and_leaves_the_first_its_voice():
    """Discord allows one voice connection per server: two intercoms joining at once tore down
    each other's handshake and both flights ended up silent."""
    bot, _guild, _channel, _listeners = make_bot(now=1_000.0)
    service = StubService()
    bridge = IntercomBridge(bot, service=service)
    assert await bridge.prepare("f1", 1, 7, 5, "en", []) is None
    await bridge.start("f1", started_at=1_000.0, time_scale=1.0)
    assert await bridge.prepare("f2", 1, 7, 6, "en", []) == "another flight in this server is using voice"
    await bridge.start("f2", started_at=1_000.0, time_scale=1.0)
    assert len(service.players) == 1 and "f2" not in bridge.flights  # f2 never joins
    told = {lang: reason_text(lang, BUSY_REASON) for lang in ("en", "ru", "cs", "sk")}
    assert told["en"] == "Another flight on this server is using the voice intercom"
    assert len(set(told.values())) == 4  # translated, not the English detail in a wrapper
    assert await bridge.prepare("f3", 2, 7, 5, "en", []) is None  # another server has its own
    service.players[0].done.set_result(None)  # f1's intercom ends: the server's voice is free
    await asyncio.sleep(0)
    assert await bridge.prepare("f4", 1, 7, 5, "en", []) is None


async def test_the_server_s_tts_choice_reaches_the_flight_s_player():
    bot, _guild, _channel, _listeners = make_bot(now=1_000.0)
    service = StubService()
    bridge = IntercomBridge(bot, service=service)
    cues = [SimpleNamespace(at_s=0.0, text="Enemy activity detected.")]
    await bridge.prepare("f1", 1, 7, 5, "en", cues, tts="espeak")
    await bridge.prepare("f2", 2, 7, 5, "en", cues)  # another server, the default: gTTS raced with espeak-ng
    await bridge.start("f1", started_at=1_000.0, time_scale=1.0)
    await bridge.start("f2", started_at=1_000.0, time_scale=1.0)
    assert [p.kw["offline_only"] for p in service.players] == [True, False]


async def test_a_moderators_disconnect_is_reported_and_the_host_can_bring_voice_back():
    bot, guild, channel, listeners = make_bot(now=1_000.0)
    service = StubService()
    bridge = IntercomBridge(bot, service=service)
    told: list[str] = []

    async def on_disconnect(flight_id: str) -> None:
        told.append(flight_id)

    bridge.on_member_disconnect = on_disconnect
    await bridge.prepare("f1", 1, 7, 5, "en", [])
    await bridge.start("f1", started_at=1_000.0, time_scale=1.0)
    sink = bridge.flights["f1"].sink
    handler = listeners[0][1]
    me = SimpleNamespace(id=99, guild=guild)
    await handler(SimpleNamespace(id=3, guild=guild), SimpleNamespace(channel=channel), SimpleNamespace(channel=None))
    assert not sink.member_disconnected  # someone else left: not our business
    await handler(me, SimpleNamespace(channel=channel), SimpleNamespace(channel=channel))
    assert not sink.member_disconnected  # moved or muted, still in voice
    await handler(me, SimpleNamespace(channel=channel), SimpleNamespace(channel=None))
    assert sink.member_disconnected

    player = service.players[0]
    player.kw["on_member_disconnect"]()  # what the scheduler calls once it has stopped voice
    await asyncio.sleep(0)
    assert told == ["f1"]
    assert await bridge.rejoin("f1") is None and player.rejoins == 1
    assert await bridge.rejoin("nope") is not None


async def test_null_voice_answers_every_call():
    nv = NullVoice("off")
    assert await nv.prepare("f", 1, 2, 3, "en", []) == "off"
    await nv.start("f", 0.0, 1.0)
    await nv.finish("f")
    await nv.abort("f")
    await nv.stop("f")
    assert await nv.rejoin("f") == "off"
