"""The director in voice, on fakes: every call on its instant through a whole Action Phase with a
pause and time changes (samples counted at the mixed source), speech from the voice service, and
voice rejoined after a restart (or a host-only button when it cannot be).

The source is read frame by frame as discord.py's player thread would, on the game's manual clock;
the cog's timer task sleeps on the same clock.  Speech is a fake whose every line is a constant
level of its own (one silent lead-in frame first, as rendered clips have), so a line's first
audible sample is the first sample at its level.
"""

from __future__ import annotations

import array
import asyncio
import itertools
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest

from bot.games.elite._cog import EliteCog, HeroPicker
from bot.games.elite._i18n import call_text, text
from bot.platform.storage import SqliteStorage
from engine.common.clock import ManualClock
from engine.elite.timer import ALL_CALLS
from tests.bot.helpers import make_member, make_voice_channel
from tests.elite.test_cog import Msg, ix, make_channel, new_cog, press
from tests.voice.fakes import FakeEngine
from voice.audio import FRAME_BYTES, FRAME_S, SAMPLE_RATE, SAMPLES_PER_FRAME, opus_available
from voice.cache import AudioCache
from voice.config import VoiceConfig
from voice.music_bed import MixedSource, MusicBed
from voice.player import VoiceService
from voice.tts import CircuitBreaker, SpeechEngines

pytestmark = pytest.mark.skipif(not opus_available(), reason="voice needs libopus")


class SilentBed(MusicBed):
    """No music, so the speech levels can be read exactly (the levels are test_music_bed's)."""

    def prepare(self) -> None:
        return None

    def mono_frame(self, stage: int, position: int) -> array.array[int]:
        return array.array("h", bytes(2 * SAMPLES_PER_FRAME))


class LevelSpeech:
    """Each line a constant level of its own: one silent lead-in frame, then 10 frames (0.2 s)."""

    lead_frames = 1

    def __init__(self) -> None:
        self.levels: dict[str, int] = {}
        self._pcm: dict[str, bytes] = {}

    def level(self, line: str) -> int:
        return self.levels.setdefault(line, 1000 + 100 * len(self.levels))

    def ready(self, line: str, lang: str) -> bytes | None:
        return self._pcm.get(line)

    async def pcm(self, line: str, lang: str) -> bytes | None:
        level = self.level(line)
        frame = array.array("h", [level] * (FRAME_BYTES // 2)).tobytes()
        self._pcm[line] = bytes(FRAME_BYTES) + frame * 10
        return self._pcm[line]


def voice_client() -> Any:
    client = MagicMock(spec=discord.VoiceClient)
    client.played = []
    client.play = MagicMock(side_effect=lambda source, **_: client.played.append(source))
    client.disconnect = AsyncMock()
    return client


def voice_channel() -> Any:
    channel = make_voice_channel(None, [])
    channel.client = voice_client()
    channel.connect = AsyncMock(return_value=channel.client)
    return channel


class ClockedSleep:
    """The timer task's sleep: wait until the frame driver has moved the clock far enough.

    `parked` tells the driver the timer task is back in its sleep, i.e. it has done the work of the
    last step (a storage write runs in a thread and may take a while on a loaded machine)."""

    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock
        self.parked = False

    async def __call__(self, dt: float) -> None:
        target = self.clock() + max(0.0, dt)
        self.parked = True
        try:
            await asyncio.sleep(0)
            while self.clock() < target - 1e-9:
                await asyncio.sleep(0)
        finally:
            self.parked = False


def clocked_sleep(clock: ManualClock) -> Callable[[float], Awaitable[None]]:
    return ClockedSleep(clock)


async def settle(cog: EliteCog, channel_id: int) -> None:
    """Let the timer task catch up with the clock: until it sleeps again or has ended (bounded)."""
    for _ in range(4):
        await asyncio.sleep(0)
    sleeper, task = cog.sleep, cog.tasks.get(channel_id)
    deadline = asyncio.get_running_loop().time() + 5.0
    while isinstance(sleeper, ClockedSleep) and not sleeper.parked and task is not None and not task.done():
        if asyncio.get_running_loop().time() > deadline:
            break
        await asyncio.sleep(0.001)


async def begin_in_voice(cog: EliteCog, channel: Any, host: Any, mission: str = "recon") -> None:
    first = ix(channel, host.id)
    first.user = host
    await cog.start.callback(cog, first, map="crash_site", mission=mission, difficulty="easy", players=2)
    picker: HeroPicker = first.response.calls[0][2]["view"]
    picker.select._values = ["kara", "gerid"]
    pick = ix(channel, host.id)
    pick.user = host
    await picker._picked(pick)
    assert pick.followup.sent == []  # no "runs in text" note: voice is on


@pytest.fixture
async def rig(tmp_path: Path) -> AsyncIterator[tuple[None, Any, ManualClock, SqliteStorage]]:
    """A channel, a manual clock and a temporary database (the cog is made per test: voice_cog)."""
    store = SqliteStorage(tmp_path / "sa.sqlite3")
    await store.open()
    yield None, make_channel(), ManualClock(1000.0), store
    await store.close()


def voice_cog(storage: Any, clock: ManualClock, speech: Any) -> EliteCog:
    cog = new_cog(storage, clock)
    cog.use_voice = True
    cog.sleep = clocked_sleep(clock)
    cog.voice.bed = SilentBed()

    async def speech_for(guild_id: int) -> Any:
        return speech

    cog.voice.speech = speech_for
    return cog


class LiveTimer:
    """The session's timer as it is now: every stored step replaces the session's game (it is
    restored from the saved document), so a timer read once would go stale."""

    def __init__(self, session: Any) -> None:
        self.session = session

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session.game.timer, name)


async def test_every_call_is_heard_on_its_instant_through_pause_and_time_changes(rig: Any) -> None:
    _, channel, clock, storage = rig
    speech = LevelSpeech()
    cog = voice_cog(storage, clock, speech)
    vc = voice_channel()
    host = make_member("host", voice_channel=vc)
    await begin_in_voice(cog, channel, host)
    cog.status_messages[channel.id] = channel.posted[-1]
    assert vc.connect.await_count == 1 and len(vc.client.played) == 1
    for _ in range(3):
        await press(cog, channel, "next", user=host.id)
    await asyncio.sleep(0)  # the calls' words render in the background
    session = cog.sessions[channel.id]
    assert session.game.timer is not None
    timer: Any = LiveTimer(session)
    source: MixedSource = cog.voice.voices[channel.id].source

    source.read()
    clock.advance(0.013)  # Start is pressed between two frames: every call falls inside a frame
    await press(cog, channel, "start", user=host.id)
    clock.advance(FRAME_S - 0.013)
    steps: list[tuple[Callable[[], bool], str]] = [
        (lambda: timer.remaining() <= 84.99, "pause"),  # a die fell off the table
        (lambda: timer.state == "paused" and clock() >= paused_at[0] + 3.0, "pause"),  # resume
        (lambda: timer.remaining() <= 50.0, "plus"),  # +15 s: 1:00 is called again
        (lambda: timer.remaining() <= 20.5, "minus"),  # -15 s: straight into the countdown at 5.5
    ]
    paused_at = [0.0]
    samples: list[tuple[float, float]] = [(clock(), timer.remaining())]
    heard: list[tuple[int, float]] = []  # (level, instant of its first sample)
    previous, tail = 0, 50
    for _ in range(int(140 / FRAME_S)):
        at = clock()
        out = array.array("h")
        out.frombytes(source.read())
        if not out[0] == out[-2] == previous:  # a line starts (or ends) in this frame: find the sample
            for i in range(0, len(out), 2):
                if out[i] != previous and out[i] != 0:
                    heard.append((out[i], at + (i // 2) / SAMPLE_RATE))
                previous = out[i]
        clock.advance(FRAME_S)
        await settle(cog, channel.id)
        while steps and steps[0][0]():
            action = steps.pop(0)[1]
            if action == "pause" and timer.state == "running":
                paused_at[0] = clock()
            await press(cog, channel, action, user=host.id)
        samples.append((clock(), timer.remaining() if timer.state != "paused" else -1.0))
        tail -= timer.state == "times_up"
        if not tail:
            break
    assert not steps and timer.state == "times_up"

    # when each call should be heard: the instant the time left crosses its second
    expected: dict[int, list[float]] = {}
    for (t0, r0), (_, r1) in itertools.pairwise(samples):
        if r0 < 0 or r1 < 0 or not 0 <= r0 - r1 <= FRAME_S + 1e-6:
            continue  # paused, or time was added or removed at this boundary
        for call in ALL_CALLS:
            if r0 > call.seconds >= r1:
                expected.setdefault(call.seconds, []).append(t0 + (r0 - call.seconds))
    words = {speech.level(call_text("en", c)): c.seconds for c in ALL_CALLS}
    got: dict[int, list[float]] = {}
    for level, at in heard:
        if level in words:
            got.setdefault(words[level], []).append(at)
    # -15 s at 0:20.5 left jumps to 0:05.5: 30 was called, 10..6 are skipped (past), 5..1 and 0 follow
    assert sorted(got, reverse=True) == [90, 60, 30, 5, 4, 3, 2, 1, 0]
    assert len(got[60]) == 2  # once, and again after +15 s put the time back above it
    lateness = [abs(a - e) for s in got for a, e in zip(got[s], expected[s], strict=True)]
    assert len(lateness) == 10 and max(lateness) <= 1 / SAMPLE_RATE  # on the instant, to the sample
    announcements = {speech.level(text("en", "say.paused")), speech.level(text("en", "say.resumed"))}
    assert announcements <= {level for level, _ in heard}


async def test_no_call_is_heard_while_paused(rig: Any) -> None:
    _, channel, clock, storage = rig
    speech = LevelSpeech()
    cog = voice_cog(storage, clock, speech)
    host = make_member("host", voice_channel=voice_channel())
    await begin_in_voice(cog, channel, host)
    for _ in range(3):
        await press(cog, channel, "next", user=host.id)
    await press(cog, channel, "start", user=host.id)
    source = cog.voice.voices[channel.id].source
    assert [k for _, k in source.scheduled()][:3] == [90, 60, 30] and len(source.scheduled()) == 14
    assert source.music_on
    await press(cog, channel, "pause", user=host.id)
    assert source.scheduled() == [] and not source.music_on
    await press(cog, channel, "pause", user=host.id)
    assert len(source.scheduled()) == 14 and source.music_on
    await press(cog, channel, "stop", user=host.id)
    assert channel.id not in cog.voice.voices


def real_service(root: Path) -> tuple[VoiceService, FakeEngine]:
    gtts = FakeEngine("gtts")
    engines = SpeechEngines(gtts, FakeEngine("espeak"), CircuitBreaker())
    return VoiceService(VoiceConfig(cache_dir=root), engines=engines, cache=AudioCache(root)), gtts


async def test_a_restart_rejoins_the_stored_voice_channel_without_synthesising_again(rig: Any, tmp_path: Path) -> None:
    _, channel, clock, storage = rig
    service, gtts = real_service(tmp_path / "voice")
    cog = new_cog(storage, clock)
    cog.use_voice = True
    cog.voice.bed = SilentBed()
    cog.bot.voice = type("Bridge", (), {"service": service})()
    vc = voice_channel()
    host = make_member("host", voice_channel=vc)
    await begin_in_voice(cog, channel, host)
    for _ in range(3):
        await press(cog, channel, "next", user=host.id)
    for task in list(cog.voice._background):
        await task  # every call's words rendered (and cached on disk)
    rendered = len(gtts.calls)
    assert rendered >= len(ALL_CALLS)
    await press(cog, channel, "start", user=host.id)
    doc = cog.docs[channel.id]
    assert doc.voice_channel_id == vc.id
    await cog.cog_unload()
    vc.client.disconnect.assert_awaited()

    service2, gtts2 = real_service(tmp_path / "voice")  # a new process, the same cache
    again = new_cog(storage, clock)
    again.use_voice = True
    again.voice.bed = SilentBed()
    vc.connect.reset_mock()
    again.bot.voice = type("Bridge", (), {"service": service2})()

    async def still(dt: float) -> None:  # the timer task waits without moving the shared test clock:
        await asyncio.sleep(0.001)  # each stored step awaits the database, and time must not run meanwhile

    again.sleep = still
    again.bot.get_channel = lambda cid: {vc.id: vc, channel.id: channel}.get(cid)
    posted = len(channel.posted)
    await again.cog_load()
    for task in list(again.voice._background):
        await task
    for task in list(again.voice._background):
        await task
    assert vc.connect.await_count == 1 and channel.id in again.voice.voices
    note = channel.posted[posted].content
    assert "back in voice" in note and "press Pause / Resume" in note
    assert gtts2.calls == []  # every line came from the disk cache
    session = again.sessions[channel.id]
    await press(again, channel, "pause", user=host.id)  # the host resumes: music and calls go on
    source = again.voice.voices[channel.id].source
    timer = session.game.timer
    assert timer is not None and timer.state == "running" and source.music_on
    assert [k for _, k in source.scheduled()] == [c.seconds for _, c in timer.schedule()]
    assert len(source.scheduled()) >= 13  # 1:30 may have been called before the restart
    await press(again, channel, "stop", user=host.id)


async def test_when_voice_cannot_come_back_the_host_gets_a_button(rig: Any) -> None:
    _, channel, clock, storage = rig
    speech = LevelSpeech()
    cog = voice_cog(storage, clock, speech)
    vc = voice_channel()
    host = make_member("host", voice_channel=vc)
    await begin_in_voice(cog, channel, host)
    await cog.cog_unload()

    again = voice_cog(storage, clock, speech)
    again.bot.get_channel = lambda cid: {channel.id: channel}.get(cid)  # the voice channel is gone
    posted = len(channel.posted)
    await again.cog_load()
    for task in list(again.voice._background):
        await task
    line: Msg = channel.posted[posted]
    assert "could not rejoin voice (the voice channel is gone)" in line.content
    (button,) = line.view.children
    assert button.custom_id == f"elite:voice:{channel.id}" and button.item.label == "Rejoin voice"

    stranger = ix(channel, 999)
    await again.on_button(stranger, channel.id, "voice")
    kind, content, kw = stranger.response.calls[0]
    assert kind == "send" and kw["ephemeral"] and "only the host of this game" in content
    assert channel.id not in again.voice.voices

    click = ix(channel, host.id)
    click.user = host  # the host is in a voice channel again
    await again.on_button(click, channel.id, "voice")
    assert click.response.calls[0][0] == "defer" and click.followup.sent == ["🔊 Voice is back."]
    assert channel.id in again.voice.voices and again.docs[channel.id].voice_channel_id == vc.id


async def test_a_russian_host_without_voice_is_told_why_in_russian(rig: Any) -> None:
    _, channel, clock, storage = rig
    cog = voice_cog(storage, clock, LevelSpeech())
    first = ix(channel)
    await cog.start.callback(cog, first, map="crash_site", mission="recon", difficulty="easy", players=2, language="ru")
    picker: HeroPicker = first.response.calls[0][2]["view"]
    picker.select._values = ["kara", "gerid"]
    pick = ix(channel)
    await picker._picked(pick)
    assert pick.followup.sent == ["Голос: зайдите в голосовой канал, чтобы слышать таймер. Игра идёт в тексте."]
    voice_button = channel.posted[-1].view.children[-1]  # the host brings voice later with it
    assert voice_button.custom_id == f"elite:voice:{channel.id}" and voice_button.item.label == "Вернуть голос"

    async def no_service(guild_id: int) -> str:
        return "no_speech"

    cog.voice.speech = no_service
    session = cog.sessions[channel.id]
    assert await cog.voice.join(session, 42, member=make_member("x", voice_channel=voice_channel())) == "no_speech"


async def test_a_step_handled_late_never_plays_a_call_twice(rig: Any) -> None:
    """The timer task stalls (a slow database) past the end of the phase; when it catches up and
    syncs voice, the source already played "time's up" on its instant and must not play it again."""
    _, channel, clock, storage = rig
    speech = LevelSpeech()
    cog = voice_cog(storage, clock, speech)
    host = make_member("host", voice_channel=voice_channel())
    await begin_in_voice(cog, channel, host)
    for _ in range(3):
        await press(cog, channel, "next", user=host.id)
    await asyncio.sleep(0)
    await press(cog, channel, "start", user=host.id)
    cog.tasks[channel.id].cancel()  # stalled: nothing polls the timer any more
    session = cog.sessions[channel.id]
    source: MixedSource = cog.voice.voices[channel.id].source
    end = clock() + 120.0
    times_up = speech.level(text("en", "say.times_up"))

    def onsets(frames: int) -> list[float]:
        found, previous = [], 0
        for _ in range(frames):
            out = array.array("h")
            out.frombytes(source.read())
            if out[0] == times_up and previous != times_up:
                found.append(clock())
            previous = out[0]
            clock.advance(FRAME_S)
        return found

    assert onsets(int(121 / FRAME_S)) == [pytest.approx(end)]
    assert session.game.timer.state == "running"  # type: ignore[union-attr]  # not polled yet
    cog.voice.sync(session)  # the late step catches up
    assert source.scheduled() == []
    assert onsets(100) == []
