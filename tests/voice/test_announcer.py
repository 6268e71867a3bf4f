"""bot.platform.voicebridge's `say_now` / `Announcer`: a game's lines spoken now, in order, in the
voice channel asked for; one connection per server that leaves when idle; a server whose voice is
held by anything else (a flight, an ELITE game) stays in text."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from bot.platform.voicebridge import BUSY_REASON, PCM_FRAME_BYTES, Announcer, IntercomBridge, NullVoice, _Flight


class Client:
    """A voice client that 'plays' a source at once: it reads it to the end, then calls `after`."""

    def __init__(self, heard: list[bytes]) -> None:
        self.heard = heard
        self.disconnected = False

    def play(self, source: Any, *, after: Any) -> None:
        chunks = []
        while chunk := source.read():
            chunks.append(chunk)
        self.heard.append(b"".join(chunks))
        after(None)

    async def disconnect(self, *, force: bool = False) -> None:
        self.disconnected = True


class Channel:
    def __init__(self, channel_id: int) -> None:
        self.id = channel_id
        self.heard: list[bytes] = []
        self.clients: list[Client] = []

    async def connect(self) -> Client:
        self.clients.append(Client(self.heard))
        return self.clients[-1]


class Speech:
    """Each line as PCM that names it: its text's bytes in frame-sized lumps ("-" never speaks)."""

    def __init__(self) -> None:
        self.asked: list[tuple[str, str]] = []

    async def pcm(self, text: str, lang: str) -> bytes | None:
        self.asked.append((text, lang))
        return None if text == "-" else text.encode().ljust(PCM_FRAME_BYTES, b"\0")


def announcer(speech: Any, idle_s: float = 0.05) -> Announcer:
    async def find(guild_id: int) -> Any:
        return speech

    return Announcer(find, idle_s=idle_s, opus=lambda: True)


async def settle(announcer: Announcer) -> None:
    for _ in range(200):
        if not announcer.speakers:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the announcer never went idle")


async def test_lines_are_spoken_in_order_on_one_connection_that_leaves_when_idle() -> None:
    speech = Speech()
    say = announcer(speech)
    guild, channel = SimpleNamespace(id=1, voice_client=None), Channel(70)
    assert await say.say(guild, channel, ["Contact!", "-", ""], "ru") is None
    assert await say.say(guild, Channel(71), ["Your move, Bo."], "ru") is None  # the same speaker
    await settle(say)
    assert [pcm.rstrip(b"\0") for pcm in channel.heard] == [b"Contact!", b"Your move, Bo."]
    assert speech.asked == [("Contact!", "ru"), ("-", "ru"), ("Your move, Bo.", "ru")]  # blank: never asked
    assert len(channel.clients) == 1 and channel.clients[0].disconnected  # left once idle
    assert await say.say(guild, channel, ["Again."], "en") is None  # a later line joins again
    await settle(say)
    assert len(channel.clients) == 2 and channel.heard[-1].rstrip(b"\0") == b"Again."


async def test_a_server_whose_voice_is_held_elsewhere_or_without_speech_stays_in_text() -> None:
    speech = Speech()
    held = SimpleNamespace(id=2, voice_client=object())  # an ELITE game or another bot part holds it
    channel = Channel(80)
    assert await announcer(speech).say(held, channel, ["Contact!"], "en") == "busy"
    assert await announcer(speech).say(SimpleNamespace(id=3, voice_client=None), None, ["x"], "en") == "no_channel"

    async def no_speech(guild_id: int) -> str:
        return "no_speech"

    quiet = Announcer(no_speech, opus=lambda: True)
    assert await quiet.say(SimpleNamespace(id=4, voice_client=None), channel, ["x"], "en") == "no_speech"
    no_opus = Announcer(no_speech, opus=lambda: False)
    assert await no_opus.say(SimpleNamespace(id=4, voice_client=None), channel, ["x"], "en") == "no_opus"
    assert channel.clients == [] and speech.asked == []


async def test_the_bridge_keeps_a_running_flights_voice_and_null_voice_says_why() -> None:
    class Service:
        def unavailable_reason(self) -> None:
            return None

    bot = SimpleNamespace(get_guild=lambda guild_id: None)
    bridge = IntercomBridge(bot, service=Service())
    bridge.flights["f1"] = _Flight(5, sink=None, cues=[])
    assert await bridge.say_now(5, 90, ["Contact!"], "en") == BUSY_REASON
    assert await bridge.say_now(6, 90, ["Contact!"], "en") == "no_channel"  # no such server here
    assert await NullVoice("off").say_now(5, 90, ["Contact!"], "en") == "off"


class SlowSpeech(Speech):
    """Speech that waits for the test's permission before rendering each line."""

    def __init__(self) -> None:
        super().__init__()
        self.go = asyncio.Event()

    async def pcm(self, text: str, lang: str) -> bytes | None:
        await self.go.wait()
        return await super().pcm(text, lang)


async def test_the_waiting_lines_are_bounded_and_the_oldest_dropped_with_a_log_line(caplog: Any) -> None:
    """A crew faster than speech: at most `max_waiting` lines wait; the newest are kept, in order."""
    speech = SlowSpeech()
    say = Announcer(lambda guild_id: _found(speech), idle_s=0.05, opus=lambda: True, max_waiting=3)
    guild, channel = SimpleNamespace(id=5, voice_client=None), Channel(90)
    caplog.set_level("INFO", logger="bot.platform.voicebridge")
    assert await say.say(guild, channel, ["Hour 1."], "en") is None
    await asyncio.sleep(0.01)  # the speaker took "Hour 1." and waits for its speech
    assert await say.say(guild, channel, [f"Line {i}." for i in range(2, 10)], "en") is None
    assert say.speakers[5].queue.qsize() == 3
    assert "5 stale lines dropped" in caplog.text
    speech.go.set()
    await settle(say)
    heard = [pcm.rstrip(b"\0").decode() for pcm in channel.heard]
    assert heard == ["Hour 1.", "Line 7.", "Line 8.", "Line 9."]


async def _found(speech: Any) -> Any:
    return speech
