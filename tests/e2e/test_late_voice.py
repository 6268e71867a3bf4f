"""A crew member who joins voice late gets, in their station, a written summary of what the
intercom said so far (issue 24), once; a member who was in voice from the start does not."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.e2e.harness import WAIT, Flight, all_text, answer, assert_clean, cid, fake_discord, has, start_bot

pytestmark = pytest.mark.e2e


async def test_a_late_voice_joiner_reads_what_the_intercom_said(tmp_path: Path) -> None:
    async with fake_discord() as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=15)
        flight = Flight(fd, "bridge", None, "alice", ("alice", "erin"))  # erin is not in voice
        await flight.open_lobby("S1-1", seed=3)
        deck = await flight.board()
        await fd.wait_for(lambda: "⚠️" in all_text(fd), WAIT, "a threat announced")

        alice = await answer(fd, await fd.click(deck, cid(deck, "station"), user="alice"), has("pick"))
        assert "The intercom so far" not in alice.text  # in voice from the start: nothing owed

        fd.voice_join("erin", "Bridge Voice")
        await asyncio.sleep(1)  # the voice state reaches the bot through the gateway

        erin = await answer(fd, await fd.click(deck, cid(deck, "station"), user="erin"), has("pick"))
        assert "The intercom so far" in erin.text and "T+" in erin.text and "Incoming data:" in erin.text, erin.text
        again = await answer(fd, await fd.click(deck, cid(deck, "station"), user="erin"), has("pick"))
        assert "The intercom so far" not in again.text  # shown once
        assert_clean(fd)
