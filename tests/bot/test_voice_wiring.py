"""The flight service's calls to the voice intercom (the bot's side).

The clock never waits for voice; voice gets every line, the 0 s one included; a natural end lets
the last lines play (`finish`), an abort silences at once (`abort`); the bridge's two reports
(voice lost for good, a member's deliberate disconnect) each give one line in the channel, the
second with a button only the host may use to bring voice back.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.games.space_alert.mission import ids as _ids
from bot.games.space_alert.mission.storage import Flights
from bot.platform.i18n import t
from tests.bot.helpers import (
    RecordingVoice,
    World,
    channel_text,
    click,
    find_id,
    last,
    new_bot,
    start_flight,
    stop_bot,
    tick,
)

OPENING = "Enemy activity detected. Please begin first phase."


class BlockingVoice(RecordingVoice):
    """A bridge whose `start` hangs until the test lets it go (a slow join, a cold render)."""

    def __init__(self) -> None:
        super().__init__(reason=None)
        self.entered = asyncio.Event()
        self.release = asyncio.Event()

    async def start(self, flight_id: str, started_at: float, time_scale: float, *, resumed: bool | None = None) -> None:
        self.entered.set()
        await self.release.wait()
        await super().start(flight_id, started_at, time_scale, resumed=resumed)


async def voice_bot(tmp_path: Path, clock: Any, voice: Any) -> tuple[Any, World]:
    bot = await new_bot(tmp_path / "voice.sqlite3", clock, voice=voice)
    return bot, World(bot)


def names(voice: RecordingVoice) -> list[str]:
    return [call[0] for call in voice.calls]


def posts_with(world: World, text: str) -> list[Any]:
    return [s for s in world.channel.sent if text in (s.content or "")]


async def test_the_timer_runs_and_the_opening_line_is_mirrored_while_voice_is_still_starting(
    tmp_path: Path, clock: Any
) -> None:
    voice = BlockingVoice()
    bot, world = await voice_bot(tmp_path, clock, voice)
    service = bot.get_cog("Mission").flights
    bot.run_timers = True  # the real timer task, on the fake clock
    starting = asyncio.create_task(start_flight(bot, world))
    await asyncio.wait_for(voice.entered.wait(), 5)
    assert len(service._timers) == 1  # the timer is armed while voice's start has not returned
    fid = next(iter(service._timers))
    for _ in range(200):  # the timer's first tick mirrors the 0 s line, voice still blocked
        if OPENING in channel_text(world.channel):
            break
        await asyncio.sleep(0.01)
    assert OPENING in channel_text(world.channel)
    assert "start" not in names(voice)
    voice.release.set()
    await asyncio.wait_for(starting, 5)
    assert names(voice) == ["prepare", "start"]
    assert voice.calls[1][1][0] == fid and voice.calls[1][1][3] is False  # a fresh start, not a resume
    await stop_bot(bot)


async def test_a_fresh_start_hands_voice_every_line_from_the_0_s_one(tmp_path: Path, clock: Any) -> None:
    voice = RecordingVoice(reason=None)
    bot, world = await voice_bot(tmp_path, clock, voice)
    post = world.channel.send.side_effect

    async def slow_post(*args: Any, **kwargs: Any) -> Any:  # the deck post takes 80 ms of flight time
        clock.advance(0.08)
        return await post(*args, **kwargs)

    world.channel.send.side_effect = slow_post
    fid, _ann, _bob = await start_flight(bot, world)
    assert voice.cues[0].at_s == 0.0 and voice.cues[0].text == OPENING
    assert voice.cues[-1].text == "Mission complete. Entering hyperspace."
    record = await Flights(bot.storage).load_flight(fid)
    assert voice.calls[-1] == ("start", (fid, record.started_at, record.time_scale, False))
    await stop_bot(bot)


async def test_the_server_s_tts_setting_is_read_on_every_flight(tmp_path: Path, clock: Any) -> None:
    """/settings tts: the default races gTTS with espeak-ng; "espeak" makes the flight's voice speak
    with espeak-ng only.  The setting is read when the flight's voice starts (no restart needed)."""
    voice = RecordingVoice(reason=None)
    bot, world = await voice_bot(tmp_path, clock, voice)
    await start_flight(bot, world)
    assert voice.tts == "gtts"
    await stop_bot(bot)

    (tmp_path / "other").mkdir()
    voice = RecordingVoice(reason=None)
    bot, world = await voice_bot(tmp_path / "other", clock, voice)
    await bot.storage.set_setting(world.guild.id, "tts", "espeak")  # after start-up, before the flight
    await start_flight(bot, world)
    assert voice.tts == "espeak" and names(voice)[:2] == ["prepare", "start"]
    await stop_bot(bot)


async def test_a_resume_hands_voice_every_line_and_says_it_is_a_resume(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "voice.sqlite3"
    bot1 = await new_bot(db, clock, voice=RecordingVoice(reason=None))
    world = World(bot1)
    fid, _ann, _bob = await start_flight(bot1, world)
    clock.advance(200)
    await stop_bot(bot1)

    voice = RecordingVoice(reason=None)
    bot2 = await new_bot(db, clock, voice=voice, world=world)
    service = bot2.get_cog("Mission").flights
    service.arm = lambda _fid: None  # no real timer task; this test is about voice
    bot2.run_timers = True
    await service.resume_all()
    await service.drain()
    assert names(voice) == ["prepare", "start"]
    assert voice.calls[-1][1][0] == fid and voice.calls[-1][1][3] is True
    assert voice.cues[0].text == OPENING  # the bridge, not the bot, skips what is long past
    await stop_bot(bot2)


async def test_a_resume_waits_for_the_gateway_before_asking_voice(tmp_path: Path, clock: Any) -> None:
    """Flights resume in cog_load, before the gateway has delivered the servers: voice asked then
    found no server, said "the voice channel is gone" and the rest of the flight stayed silent."""
    db = tmp_path / "voice.sqlite3"
    bot1 = await new_bot(db, clock, voice=RecordingVoice(reason=None))
    world = World(bot1)
    fid, _ann, _bob = await start_flight(bot1, world)
    clock.advance(30)
    await stop_bot(bot1)

    voice = RecordingVoice(reason=None)
    bot2 = await new_bot(db, clock, voice=voice, world=world)
    ready = asyncio.Event()
    bot2.is_ready = ready.is_set  # type: ignore[method-assign]
    bot2.wait_until_ready = ready.wait  # type: ignore[method-assign]
    service = bot2.get_cog("Mission").flights
    service.arm = lambda _fid: None
    bot2.run_timers = True
    await service.resume_all()
    for _ in range(20):
        await asyncio.sleep(0)
    try:
        assert "prepare" not in names(voice)  # not before the servers are known
    finally:
        ready.set()  # (posts wait for it too)
    await service.drain()
    assert names(voice) == ["prepare", "start"] and voice.calls[-1][1][0] == fid
    await stop_bot(bot2)


async def test_a_natural_end_finishes_voice_after_the_last_lines_are_mirrored(tmp_path: Path, clock: Any) -> None:
    voice = RecordingVoice(reason=None)
    bot, world = await voice_bot(tmp_path, clock, voice)
    fid, _ann, _bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights
    clock.advance(2000)
    assert await tick(service, fid) is None
    assert ("finish", fid) in voice.calls
    assert ("abort", fid) not in voice.calls and ("stop", fid) not in voice.calls
    text = channel_text(world.channel)
    assert "one." in text and "Mission complete. Entering hyperspace." in text
    await stop_bot(bot)


async def test_a_failed_resolution_still_ends_voice_and_tells_the_channel(
    tmp_path: Path, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.games.space_alert.mission import _flights

    def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("engine exploded")

    monkeypatch.setattr(_flights, "resolve_flight", broken)
    voice = RecordingVoice(reason=None)
    bot, world = await voice_bot(tmp_path, clock, voice)
    fid, _ann, _bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights
    clock.advance(2000)
    assert await tick(service, fid) is None
    await service.drain()
    assert ("finish", fid) in voice.calls  # the intercom ends as on any natural end
    assert (await Flights(bot.storage).load_flight(fid)).status == "finished"  # the channel is free again
    assert "engine exploded" in channel_text(world.channel)
    await stop_bot(bot)


async def test_an_abort_silences_voice_at_once(tmp_path: Path, clock: Any) -> None:
    voice = RecordingVoice(reason=None)
    bot, world = await voice_bot(tmp_path, clock, voice)
    fid, ann, _bob = await start_flight(bot, world)
    cog = bot.get_cog("Mission")
    await cog.mission_abort.callback(cog, world.interaction(ann))
    await cog.flights.drain()
    assert ("abort", fid) in voice.calls and ("finish", fid) not in voice.calls
    await stop_bot(bot)


async def test_a_member_disconnect_posts_one_line_and_only_the_host_brings_voice_back(
    tmp_path: Path, clock: Any
) -> None:
    voice = RecordingVoice(reason=None)
    bot, world = await voice_bot(tmp_path, clock, voice)
    fid, ann, bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights
    assert voice.on_member_disconnect is not None and voice.on_text_only is not None  # set when the cog loaded
    await voice.on_member_disconnect(fid)
    await voice.on_member_disconnect(fid)  # told twice for one disconnect: still one line
    await service.drain()
    lines = posts_with(world, "disconnected me from voice")
    assert len(lines) == 1 and "continues in text" in (lines[0].content or "")
    button = find_id(lines[0].view, "rejoin")
    assert button == _ids.make(fid, "rejoin")

    inter = await click(world, bob, button)
    assert last(inter).ephemeral and "Only the host" in (last(inter).content or "")
    assert "rejoin" not in names(voice)

    voice.rejoin_reason = "the host is not in a voice channel"
    inter = await click(world, ann, button)
    assert last(inter).ephemeral and "The host is not in a voice channel" in (last(inter).content or "")

    voice.rejoin_reason = None
    inter = await click(world, ann, button)
    assert last(inter).ephemeral and "back in voice" in (last(inter).content or "")
    assert names(voice).count("rejoin") == 2

    await voice.on_member_disconnect(fid)  # a second disconnect after the rejoin: a new line
    await service.drain()
    assert len(posts_with(world, "disconnected me from voice")) == 2

    clock.advance(2000)
    await tick(service, fid)
    inter = await click(world, ann, button)  # the flight is over: the button says so
    assert last(inter).ephemeral and "over" in (last(inter).content or "")
    await voice.on_member_disconnect(fid)  # and the bridge's late report posts nothing
    await service.drain()
    assert len(posts_with(world, "disconnected me from voice")) == 2
    await stop_bot(bot)


@pytest.mark.parametrize("lang", ["ru", "cs"])
async def test_the_disconnect_line_speaks_the_flight_language(tmp_path: Path, clock: Any, lang: str) -> None:
    voice = RecordingVoice(reason=None)
    bot, world = await voice_bot(tmp_path, clock, voice)
    fid, _ann, _bob = await start_flight(bot, world, language=lang)
    await voice.on_member_disconnect(fid)
    await bot.get_cog("Mission").flights.drain()
    line = next(s for s in world.channel.sent if s.content == t(lang, "voice.disconnected"))
    assert find_id(line.view, "rejoin") == _ids.make(fid, "rejoin")
    await stop_bot(bot)


async def test_voice_lost_for_good_is_told_once(tmp_path: Path, clock: Any) -> None:
    voice = RecordingVoice(reason=None)
    bot, world = await voice_bot(tmp_path, clock, voice)
    fid, _ann, _bob = await start_flight(bot, world)
    await voice.on_text_only(fid, "connecting to voice timed out")
    await voice.on_text_only(fid, "connecting to voice timed out")
    await bot.get_cog("Mission").flights.drain()
    told = posts_with(world, "the intercom continues in text")
    assert len(told) == 1 and "Connecting to voice timed out" in (told[0].content or "")
    await stop_bot(bot)


async def test_the_hooks_are_released_when_the_cog_unloads(tmp_path: Path, clock: Any) -> None:
    voice = RecordingVoice(reason=None)
    bot, _world = await voice_bot(tmp_path, clock, voice)
    assert voice.on_member_disconnect is not None
    await stop_bot(bot)
    assert voice.on_member_disconnect is None and voice.on_text_only is None
