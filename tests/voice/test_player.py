"""The bot-facing API (VoiceService / IntercomPlayer), settings, and the discord.py glue with spec'd fakes."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from tests.voice.fakes import FakeCue, FakeEngine, FakeVoice, VirtualClock
from voice.audio import FRAME_BYTES, FRAME_S, OPUS_SILENCE, opus_available
from voice.cache import AudioCache
from voice.config import VoiceConfig
from voice.discord_sink import (
    DiscordVoiceSink,
    IntercomSource,
    OpusFrameSource,
    PCMFrameSource,
    connect_for_host,
    connect_voice,
    describe_voice_error,
    voice_permission_problem,
)
from voice.effects import EffectBank
from voice.mixer import FrameMixer
from voice.player import VoiceService
from voice.tts import CircuitBreaker, SpeechEngines

pytestmark = pytest.mark.skipif(not opus_available(), reason="libopus0 is not installed")

HALF = FRAME_S / 2 + 1e-6


async def inline(fn, *args):
    """Run 'blocking' work on the loop, so virtual time only moves when the intercom waits."""
    return fn(*args)


@pytest.fixture(scope="module")
def effects() -> EffectBank:
    bank = EffectBank()
    bank.warm()
    return bank


class HangingEngine(FakeEngine):
    """An online engine that never answers (Google hanging instead of failing)."""

    async def synthesize(self, text: str, lang: str) -> bytes:
        self.calls.append((text, lang))
        await asyncio.Event().wait()
        raise AssertionError("unreachable")


def service(tmp_path, effects, *, primary=None, clock=None, **cfg) -> VoiceService:
    clock = clock or VirtualClock()
    engines = SpeechEngines(primary, FakeEngine("espeak"), CircuitBreaker(clock=clock))
    return VoiceService(
        VoiceConfig(cache_dir=tmp_path, **cfg),
        engines=engines,
        cache=AudioCache(tmp_path),
        effects=effects,
        clock=clock,
        run_blocking=inline,
        sleep=clock.sleep,
    )


CUES = [
    FakeCue(0.0, "mission_start", "Enemy activity detected.", effect="alert"),
    FakeCue(10.0, "comm_down", "Communications system down.", effect="static_start", duration_s=10.0),
    FakeCue(20.0, "comm_restored", "Communications restored.", effect="static_end"),
    FakeCue(30.0, "transfer_complete", "Data transfer complete.", effect="beep"),
]


async def test_start_returns_at_once_renders_in_the_background_and_plays_every_line(tmp_path, effects):
    clock = VirtualClock()
    svc = service(tmp_path, effects, clock=clock)
    sink = FakeVoice(clock, connected=False, join_delay_s=0.3)  # joins in the background too
    seen: list[str] = []
    player = svc.player(sink, clock=clock, sleep=clock.sleep, on_line=lambda line, rec: seen.append(line.kind))
    t0 = clock()
    player.start(t0, CUES)  # nothing rendered, nothing joined: start does not wait for either
    assert player.running and not sink.frames
    report = await clock.run(player.wait())
    assert [r.status for r in report.lines] == ["played"] * 4
    assert seen == ["mission_start", "comm_down", "comm_restored", "transfer_complete"]
    assert report.lines[0].lateness_s == pytest.approx(0.3, abs=HALF)  # the join, nothing else
    assert [r.started - t0 for r in report.lines[1:]] == pytest.approx([10, 20, 30], abs=HALF)
    assert player.stats.synthesized == {"espeak": 4}
    static = set(effects.clip("static").frames)
    static_times = [t for t, f in sink.frames if f in static]
    assert static_times and report.lines[1].ended <= static_times[0] + 1e-6
    assert static_times[-1] < report.lines[2].started - 1e-6 and sink.closed
    assert svc.releases == 1 and not svc.cache._memory  # the last flight ended: memory given back


async def test_a_hanging_online_engine_does_not_delay_the_first_line(tmp_path, effects):
    clock = VirtualClock()
    hanging = HangingEngine("gtts")
    svc = service(tmp_path, effects, primary=hanging, clock=clock)
    sink = FakeVoice(clock)
    player = svc.player(sink, clock=clock, sleep=clock.sleep)
    t0 = clock()
    player.start(t0, CUES)
    report = await clock.run(player.wait())
    first = report.lines[0]
    assert first.status == "played"
    assert first.lateness_s <= svc.config.online_min_budget_s + HALF  # espeak-ng after the short budget
    assert len(hanging.calls) == 1  # tried once, then the breaker skips it for the whole flight
    assert all(r.status == "played" for r in report.lines)
    assert svc.engines.breaker.state == "open"

    # the health survives a restart: a new process skips gTTS from its first line
    clock2 = VirtualClock()
    svc2 = service(tmp_path, effects, primary=HangingEngine("gtts"), clock=clock2)
    assert svc2.engines.breaker.state == "open"


async def test_a_cached_clip_from_any_engine_is_used_before_the_network(tmp_path, effects):
    clock = VirtualClock()
    online = FakeEngine("gtts")
    svc = service(tmp_path, effects, primary=online, clock=clock)
    offline = svc.engines.fallback
    assert offline is not None
    await svc.renderer._render(offline, svc.renderer._keys("Hello.", "en")[1][1], "Hello.", "en")
    svc.cache.forget_memory()  # as after a restart: on disk only
    player = svc.player(FakeVoice(clock), clock=clock, sleep=clock.sleep)
    player.start(clock(), [FakeCue(0.0, "x", "Hello.")])
    report = await clock.run(player.wait())
    assert report.lines[0].status == "played" and online.calls == []


async def test_without_voice_the_flight_goes_on_and_says_why_once(tmp_path, effects):
    clock = VirtualClock()
    told: list[str] = []
    player = service(tmp_path, effects, clock=clock).player(
        None, clock=clock, sleep=clock.sleep, on_problem=told.append
    )
    player.start(clock(), CUES)
    report = await clock.run(player.wait())
    assert [r.status for r in report.lines] == ["no_voice"] * 4
    assert told == ["voice is not connected"]


async def test_no_engine_at_all_is_reported(tmp_path, effects):
    svc = VoiceService(
        VoiceConfig(cache_dir=tmp_path),
        engines=SpeechEngines(None, None, CircuitBreaker()),
        cache=AudioCache(tmp_path),
        effects=effects,
    )
    told: list[str] = []
    player = svc.player(None, on_problem=told.append)
    prepared = await player.prepare(CUES)
    assert len(told) == 1 and "espeak-ng" in told[0]
    assert prepared.lines == 3  # effects still play (alert, static span, beep); speech is missing
    assert not prepared.ok


async def test_unknown_effect_is_a_problem_not_a_crash(tmp_path, effects):
    player = service(tmp_path, effects).player(None)
    prepared = await player.prepare([FakeCue(0.0, "x", "Hello.", effect="fanfare")])
    assert prepared.lines == 1 and any("fanfare" in p for p in prepared.problems)


async def test_stop_before_start_leaves_the_channel(tmp_path, effects):
    clock = VirtualClock()
    sink = FakeVoice(clock)
    player = service(tmp_path, effects).player(sink)
    await player.stop()
    assert sink.closed
    with pytest.raises(RuntimeError):
        service(tmp_path, effects).player(sink).start(0.0)  # neither cues nor prepare


def test_config_from_env_and_validation(tmp_path):
    cfg = VoiceConfig.from_env(
        {"TTS_BACKEND": "ESPEAK", "TIME_SCALE": "4", "VOICE_CACHE_DIR": str(tmp_path), "RED_ALERT_LOOP": "yes"}
    )
    assert cfg.tts_backend == "espeak" and cfg.time_scale == 4.0 and cfg.red_alert_loop
    assert VoiceConfig.from_env({}).tts_backend == "auto"
    with pytest.raises(ValueError):
        VoiceConfig(tts_backend="polly")
    with pytest.raises(ValueError):
        VoiceConfig(time_scale=0)


# -- discord glue -------------------------------------------------------------------------------


def test_opus_source_serves_frames_without_encoding():
    src = OpusFrameSource([b"a", b"b"])
    assert src.is_opus() and isinstance(src, discord.AudioSource)
    assert [src.read(), src.read(), src.read()] == [b"a", b"b", b""]
    loop = OpusFrameSource([b"a", b"b"], loop=True)
    assert [loop.read() for _ in range(5)] == [b"a", b"b", b"a", b"b", b"a"]
    pcm = PCMFrameSource(bytes(FRAME_BYTES * 2 + 10))
    assert not pcm.is_opus() and len(pcm.read()) == FRAME_BYTES and len(pcm.read()) == FRAME_BYTES
    assert pcm.read() == b""


def perms(**flags):
    base = {"view_channel": True, "connect": True, "speak": True, "move_members": False}
    base.update(flags)
    return SimpleNamespace(**base)


def channel(cid=1, name="Bridge", **flags):
    ch = MagicMock(spec=discord.VoiceChannel)
    ch.id = cid
    ch.name = name
    ch.user_limit = 0
    ch.members = []
    ch.permissions_for.return_value = perms(**flags)
    return ch


def test_permission_problems_are_named():
    me = object()
    assert voice_permission_problem(channel(), me) is None
    assert "Connect" in voice_permission_problem(channel(connect=False), me)
    assert "Speak" in voice_permission_problem(channel(speak=False), me)
    assert "see" in voice_permission_problem(channel(view_channel=False), me)
    full = channel()
    full.user_limit = 1
    full.members = [object()]
    assert "full" in voice_permission_problem(full, me)
    assert voice_permission_problem(None, me) == "the host is not in a voice channel"
    assert "timed out" in describe_voice_error(TimeoutError())
    assert "DAVE" in describe_voice_error(type("Closed", (Exception,), {"code": 4017})())
    assert "kicked" in describe_voice_error(type("Closed", (Exception,), {"code": 4014})())


def voice_client(ch, connected=True):
    vc = MagicMock(spec=discord.VoiceClient)
    vc.is_connected.return_value = connected
    vc.is_playing.return_value = False
    vc.channel = ch
    return vc


async def test_sink_plays_the_mixer_through_one_player_and_follows_the_host():
    bridge, lounge = channel(1, "Bridge"), channel(2, "Lounge")
    where = {"ch": bridge}
    vc = voice_client(bridge)
    guild = MagicMock()
    guild.voice_client = vc
    guild.me = object()
    lounge.guild = guild
    sink = DiscordVoiceSink(vc, channel_resolver=lambda: where["ch"])
    assert sink.is_connected() and not sink.is_playing()

    mixer = FrameMixer()
    sink.attach(mixer)
    source = vc.play.call_args.args[0]
    assert isinstance(source, IntercomSource) and isinstance(source, discord.AudioSource) and source.is_opus()
    vc.is_playing.return_value = True
    assert sink.is_playing()
    sink.attach(mixer)  # already playing: the player is kept, never restarted
    assert vc.play.call_count == 1 and not vc.stop.called
    vc.play.call_args.kwargs["after"](None)  # the player ended (stream over or connection gone)
    assert not sink.is_playing()
    sink.attach(mixer)  # the watchdog re-attaches: a new reader, and the old one can never read again
    assert vc.play.call_count == 2 and source.read() == b""
    assert vc.play.call_args.args[0].read() == OPUS_SILENCE  # nothing due yet: silence, not the end

    sink.mark_member_disconnect()
    assert sink.member_disconnected  # a moderator's Disconnect is remembered, not undone

    where["ch"] = lounge  # the host moved: we count as disconnected, reconnect moves us
    assert not sink.is_connected()
    assert await sink.reconnect() is None
    vc.move_to.assert_awaited_once()
    assert vc.move_to.call_args.args[0] is lounge

    await sink.close()
    vc.disconnect.assert_awaited()
    sink.mark_member_disconnect()  # our own leaving is not a member's disconnect
    sink.member_disconnected = False
    sink.mark_member_disconnect()
    assert not sink.member_disconnected


async def test_connect_replaces_a_stale_client_and_reports_failures():
    ch = channel()
    stale = voice_client(ch, connected=False)
    fresh = voice_client(ch)
    guild = MagicMock()
    guild.voice_client = stale
    guild.me = object()
    ch.guild = guild
    ch.connect = AsyncMock(return_value=fresh)
    vc, reason = await connect_voice(ch, timeout=5)
    assert vc is fresh and reason is None
    stale.disconnect.assert_awaited_once_with(force=True)
    assert ch.connect.call_args.kwargs == {"timeout": 5, "reconnect": True, "self_deaf": True}

    guild.voice_client = None
    ch.connect = AsyncMock(side_effect=TimeoutError())
    vc, reason = await connect_voice(ch)
    assert vc is None and "timed out" in reason

    muted = channel(speak=False)
    muted.guild = guild
    muted.connect = AsyncMock()
    vc, reason = await connect_voice(muted)
    assert vc is None and "Speak" in reason
    muted.connect.assert_not_awaited()  # permissions are checked first


async def test_connect_for_host_needs_the_host_in_voice():
    host = SimpleNamespace(id=5, voice=None)
    sink, reason = await connect_for_host(host)
    assert sink is None and reason == "the host is not in a voice channel"
