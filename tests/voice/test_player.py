"""The bot-facing API (VoiceService / IntercomPlayer), settings, and the discord.py glue with spec'd fakes."""

from __future__ import annotations

from types import SimpleNamespace
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from tests.voice.fakes import FakeClock, FakeCue, FakeEngine, FakeSink
from voice.audio import FRAME_BYTES, opus_available
from voice.cache import AudioCache
from voice.config import VoiceConfig
from voice.discord_sink import (
    DiscordVoiceSink,
    OpusFrameSource,
    PCMFrameSource,
    connect_for_host,
    connect_voice,
    describe_voice_error,
    voice_permission_problem,
)
from voice.player import VoiceService
from voice.tts import CircuitBreaker, SpeechEngines

pytestmark = pytest.mark.skipif(not opus_available(), reason="libopus0 is not installed")


def service(tmp_path, **cfg) -> VoiceService:
    engines = SpeechEngines(None, FakeEngine("espeak"), CircuitBreaker())
    return VoiceService(VoiceConfig(cache_dir=tmp_path, **cfg), engines=engines, cache=AudioCache(tmp_path))


CUES = [
    FakeCue(0.0, "mission_start", "Enemy activity detected.", effect="alert"),
    FakeCue(10.0, "comm_down", "Communications system down.", effect="static_start", duration_s=10.0),
    FakeCue(20.0, "comm_restored", "Communications restored.", effect="static_end"),
    FakeCue(30.0, "transfer_complete", "Data transfer complete.", effect="beep"),
]


async def test_prepare_start_and_report(tmp_path):
    svc = service(tmp_path)
    clock = FakeClock()
    sink = FakeSink(clock)
    seen: list[str] = []
    player = svc.player(sink, clock=clock, sleep=clock.sleep, on_line=lambda line, rec: seen.append(line.kind))
    prepared = await player.prepare(CUES)
    assert prepared.ok and prepared.lines == 4 and prepared.stats.synthesized == {"espeak": 4}
    alert = svc.effects.clip("alert")
    start_line = player.lines[0]
    assert start_line.clip.frames[: len(alert.frames)] == alert.frames  # alert first, then the voice
    beep = svc.effects.clip("beep")
    assert player.lines[3].clip.frames[: len(beep.frames)] == beep.frames  # the beep opens its line

    t0 = clock() + 1
    player.start(t0)
    report = await player.wait()
    assert [r.status for r in report.lines] == ["played"] * 4
    assert seen == ["mission_start", "comm_down", "comm_restored", "transfer_complete"]
    assert [r.started - t0 for r in report.lines] == pytest.approx([0, 10, 20, 30])
    assert len(sink.filler_plays()) == 1 and sink.closed
    summary = report.summary()
    assert summary["played"] == 4 and summary["lateness_p99_ms"] == pytest.approx(0, abs=1e-3)

    # a second flight with the same lines is all cache hits
    again = await svc.player(FakeSink(clock), clock=clock, sleep=clock.sleep).prepare(CUES)
    assert again.stats.cache_hits == 4 and again.stats.synthesized == {}


async def test_without_voice_the_flight_goes_on_and_says_why_once(tmp_path):
    svc = service(tmp_path)
    clock = FakeClock()
    told: list[str] = []
    player = svc.player(None, clock=clock, sleep=clock.sleep, on_problem=told.append)
    await player.prepare(CUES)
    player.start(clock())
    report = await player.wait()
    assert [r.status for r in report.lines] == ["no_voice"] * 4
    assert told == ["voice is not connected"]


async def test_no_engine_at_all_is_reported(tmp_path):
    svc = VoiceService(
        VoiceConfig(cache_dir=tmp_path), engines=SpeechEngines(None, None, CircuitBreaker()), cache=AudioCache(tmp_path)
    )
    told: list[str] = []
    player = svc.player(FakeSink(FakeClock()), on_problem=told.append)
    prepared = await player.prepare(CUES)
    assert len(told) == 1 and "espeak-ng" in told[0]
    assert prepared.lines == 3  # effects still play (alert, static span, beep); speech is missing
    assert not prepared.ok


async def test_unknown_effect_is_a_problem_not_a_crash(tmp_path):
    player = service(tmp_path).player(FakeSink(FakeClock()))
    prepared = await player.prepare([FakeCue(0.0, "x", "Hello.", effect="fanfare")])
    assert prepared.lines == 1 and any("fanfare" in p for p in prepared.problems)


async def test_stop_before_start_leaves_the_channel(tmp_path):
    sink = FakeSink(FakeClock())
    player = service(tmp_path).player(sink)
    await player.prepare(CUES)
    await player.stop()
    assert sink.closed
    with pytest.raises(RuntimeError):
        service(tmp_path).player(sink).start(0.0)  # not prepared


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


async def test_sink_plays_opus_and_follows_the_host():
    bridge, lounge = channel(1, "Bridge"), channel(2, "Lounge")
    where = {"ch": bridge}
    vc = voice_client(bridge)
    guild = MagicMock()
    guild.voice_client = vc
    guild.me = object()
    lounge.guild = guild
    sink = DiscordVoiceSink(vc, channel_resolver=lambda: where["ch"])
    assert sink.is_connected()

    from tests.voice.fakes import tone_clip

    done = []
    sink.play(tone_clip(0.1), done.append)
    source = vc.play.call_args.args[0]
    assert isinstance(source, OpusFrameSource) and source.is_opus()
    assert vc.play.call_args.kwargs["after"] == done.append

    vc.is_playing.return_value = True  # a filler is looping: a new line stops it first
    sink.play(tone_clip(0.1), done.append)
    vc.stop.assert_called()

    where["ch"] = lounge  # the host moved: we count as disconnected, reconnect moves us
    assert not sink.is_connected()
    assert await sink.reconnect() is None
    vc.move_to.assert_awaited_once()
    assert vc.move_to.call_args.args[0] is lounge

    await sink.close()
    vc.disconnect.assert_awaited()


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
