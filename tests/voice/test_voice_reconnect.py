"""The bot's own voice connection dropping is not a member's Disconnect (issue 25): discord.py's
reconnect leaves the channel and comes back with the guild's voice client kept, while after a
moderator's Disconnect the library drops the voice client at once."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

import pytest

import bot.platform.voicebridge as voicebridge
from bot.platform.voicebridge import IntercomBridge


class Sink:
    def __init__(self) -> None:
        self.marked = 0

    def mark_member_disconnect(self) -> None:
        self.marked += 1


def bridge_with_flight(guild: Any) -> tuple[IntercomBridge, Sink]:
    bot = SimpleNamespace(user=SimpleNamespace(id=99), get_guild=lambda _gid: guild)
    bridge = IntercomBridge(bot, service=SimpleNamespace())
    sink = Sink()
    bridge.flights["f1"] = voicebridge._Flight(guild.id, sink, [], "espeak")
    return bridge, sink


def left_voice(guild: Any) -> tuple[Any, Any, Any]:
    me = SimpleNamespace(id=99, guild=guild)
    return me, SimpleNamespace(channel=object()), SimpleNamespace(channel=None)


@pytest.fixture(autouse=True)
def quick_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(voicebridge, "DISCONNECT_VERDICT_S", 0.3)


async def test_the_librarys_own_reconnect_does_not_end_voice() -> None:
    guild = SimpleNamespace(id=1, voice_client=object())  # kept: discord.py reconnects
    bridge, sink = bridge_with_flight(guild)
    await bridge._voice_state_update(*left_voice(guild))
    assert sink.marked == 0


async def test_a_members_disconnect_still_ends_voice_at_once() -> None:
    guild = SimpleNamespace(id=1, voice_client=object())
    bridge, sink = bridge_with_flight(guild)

    async def cleaned_up() -> None:
        await asyncio.sleep(0.05)
        guild.voice_client = None  # what discord.py does after an external disconnect

    asyncio.get_running_loop().create_task(cleaned_up())
    started = asyncio.get_running_loop().time()
    await bridge._voice_state_update(*left_voice(guild))
    assert sink.marked == 1
    assert asyncio.get_running_loop().time() - started < 0.3  # not after the whole wait
    # someone else leaving voice is none of the intercom's business
    other = SimpleNamespace(id=5, guild=guild)
    await bridge._voice_state_update(other, SimpleNamespace(channel=object()), SimpleNamespace(channel=None))
    assert sink.marked == 1
