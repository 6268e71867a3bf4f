"""Faults short of a crash (issue 25): the voice connection drops (a network failure, no close
frame) and the intercom goes on; only a member's deliberate Disconnect ends voice."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.e2e.harness import WAIT, Flight, all_text, assert_clean, fake_discord, start_bot

pytestmark = pytest.mark.e2e

DISCONNECTED = "A member disconnected me from voice"


async def test_a_dropped_voice_connection_comes_back_and_a_disconnect_still_ends_voice(tmp_path: Path) -> None:
    async with fake_discord() as fd:
        bot = await start_bot(fd, tmp_path / "bot", time_scale=10)
        flight = Flight(fd, "bridge", None, "alice", ("alice", "bob"))
        await flight.open_lobby("S1-1", seed=3)
        await flight.board()
        await fd.wait_for(lambda: len(fd.utterances()) >= 2, WAIT, "the intercom to speak")

        dropped_at = time.time()
        await fd.voice_drop()  # the voice websocket cut without a close frame
        spoke = await fd.wait_for(
            lambda: next((u for u in fd.utterances() if u.start_wall > dropped_at + 0.5), None),
            WAIT,
            "the intercom to speak again after the drop",
        )
        print(f"\nvoice drop: the intercom spoke again {spoke.start_wall - dropped_at:.1f} s after it")
        assert DISCONNECTED not in all_text(fd)
        assert not [line for line in bot.lines if "disconnected on purpose" in line]

        # a moderator's Disconnect still ends voice, with the usual line for the host
        await fd.voice_disconnect_bot()
        await fd.wait_for(lambda: DISCONNECTED in all_text(fd), WAIT, "the disconnect line")
        await flight.result()
        assert all_text(fd).count(DISCONNECTED) == 1
        assert_clean(fd, allow_errors=lambda e: "Disconnected from voice... Reconnecting" in e)
