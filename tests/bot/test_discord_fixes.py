"""discord.py's voice waits leave nothing pending (bot/platform/discord_fixes.py)."""

from __future__ import annotations

import asyncio

import pytest

from bot.platform import discord_fixes


async def test_a_timed_out_wait_cancels_what_it_started() -> None:
    event = asyncio.Event()
    before = set(asyncio.all_tasks())
    with pytest.raises(TimeoutError):
        await discord_fixes.reaping_wait_for([event.wait()], timeout=0.01)
    assert [t for t in asyncio.all_tasks() - before if not t.done()] == []


async def test_a_cancelled_wait_cancels_what_it_started() -> None:
    event = asyncio.Event()
    before = set(asyncio.all_tasks())
    outer = asyncio.ensure_future(discord_fixes.reaping_wait_for([event.wait()], timeout=None))
    await asyncio.sleep(0.01)
    outer.cancel()
    with pytest.raises(asyncio.CancelledError):
        await outer
    assert [t for t in asyncio.all_tasks() - before if not t.done()] == []


async def test_a_wait_that_completes_returns_its_tasks() -> None:
    event = asyncio.Event()
    waiting = asyncio.ensure_future(discord_fixes.reaping_wait_for([event.wait()], timeout=1))
    await asyncio.sleep(0)
    event.set()
    done = await waiting
    assert len(done) == 1 and all(t.result() is True for t in done)


def test_the_voice_connection_uses_it() -> None:
    import discord.voice_state

    discord_fixes.apply()
    assert discord.voice_state.sane_wait_for is discord_fixes.reaping_wait_for
