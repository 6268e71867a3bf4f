"""Pause and resume as a crew uses them (issue 24): the host pauses from the flight deck, a crew
member who is not the host and a stranger are refused, the intercom falls silent, a restart while
paused stays paused, Resume carries on, and the result says how long the flight was paused."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.e2e.harness import (
    WAIT,
    Flight,
    all_text,
    answer,
    assert_clean,
    cid,
    fake_discord,
    has,
    kill_bot,
    start_bot,
)

pytestmark = pytest.mark.e2e


def intercom_lines(fd: object) -> int:
    return all_text(fd).count("📢")


async def test_the_host_pauses_strangers_cannot_a_restart_stays_paused_and_resume_carries_on(tmp_path: Path) -> None:
    async with fake_discord() as fd:
        bot = await start_bot(fd, tmp_path / "bot", time_scale=15)
        flight = Flight(fd, "bridge", None, "alice", ("alice", "bob"))
        await flight.open_lobby("S1-1", seed=3)
        deck = await flight.board()
        await fd.wait_for(lambda: has("pause")(deck), WAIT, "the deck's Pause button once the flight runs")

        # Bob flies but is not the host; Carol is not in the crew: neither may pause
        for user in ("bob", "carol"):
            refused = await answer(fd, await fd.click(deck, cid(deck, "pause"), user=user))
            assert "Only the host" in refused.text, refused.text
        assert not has("resume")(deck)

        await fd.click(deck, cid(deck, "pause"), user="alice")
        await fd.wait_for(lambda: "Paused by Alice" in deck.text and has("resume")(deck), WAIT, "the paused deck")
        await fd.wait_for_message("Alice paused the flight", channel="bridge", timeout=WAIT)
        assert "Phase ends" not in deck.text  # no deadline runs while paused

        # a crew member's station offers nothing to do, and the intercom stays silent
        hand = await answer(fd, await fd.click(deck, cid(deck, "station"), user="bob"))
        assert not has("place")(hand) and not has("finish")(hand)
        said = intercom_lines(fd)
        await asyncio.sleep(3)  # 45 mission seconds at TIME_SCALE=15: lines would have come
        assert intercom_lines(fd) == said, all_text(fd)[-800:]

        # a restart while paused: still paused, still silent
        await kill_bot(fd, bot)
        await start_bot(fd, tmp_path / "bot", time_scale=15)
        await asyncio.sleep(3)
        assert intercom_lines(fd) == said, all_text(fd)[-800:]
        assert has("resume")(deck) and "Paused by Alice" in deck.text

        # Resume carries on from where the flight stopped (a second pause: tests/flight/test_pause.py)
        resumed = await fd.click(deck, cid(deck, "resume"), user="alice")
        await answer(fd, resumed)
        await fd.wait_for_message("Alice resumed the flight after", channel="bridge", timeout=WAIT)
        await fd.wait_for(lambda: has("pause")(deck) and "Paused by" not in deck.text, WAIT, "the running deck")
        await fd.wait_for(lambda: intercom_lines(fd) > said, WAIT, "the intercom going on")

        result = await flight.result()
        assert "Paused for" in result.text, result.text
        logbook = await answer(fd, await fd.slash("logbook", user="alice", channel="bridge"))
        assert "Paused for" in logbook.text, logbook.text
        assert_clean(fd)
