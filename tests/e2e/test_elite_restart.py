"""A Project: ELITE game survives a crash in the middle of its Action Phase: the bot is killed
while the timer runs, comes back, takes the game up from its stored document with the timer
paused where it was last stored, and the host carries on; a second member still cannot steer."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import WAIT, answer, assert_clean, cid, fake_discord, kill_bot, start_bot

pytestmark = pytest.mark.e2e

OPTIONS = {"map": "crash_site", "mission": "recon", "difficulty": "easy", "players": 2}


def time_left(text: str) -> int:
    """Seconds on the status message's timer line (`⏱ 1:42 (running)`)."""
    found = re.search(r"⏱ (\d+):(\d\d)", text)
    assert found, text
    return int(found[1]) * 60 + int(found[2])


async def test_elite_comes_back_paused_after_a_crash_and_the_host_carries_on(tmp_path: Path) -> None:
    async with fake_discord() as fd:
        bot = await start_bot(fd, tmp_path / "bot")
        wizard = await answer(fd, await fd.slash("elite start", OPTIONS, user="alice", channel="bridge"))
        await fd.click(wizard, wizard.custom_ids[0], user="alice", values=["kinje", "kara"])
        status = await fd.wait_for_message(
            "Project: ELITE", channel="bridge", predicate=lambda m: bool(m.buttons), timeout=WAIT
        )

        def shown() -> Any:
            return fd.world.messages_by_id[status.id]

        def press(action: str, user: str = "alice") -> Any:
            message = shown()  # the button as the status message shows it now (its id names the move)
            return fd.click(message, cid(message, action), user=user)

        for _ in range(3):  # event phase, alien spawn, action phase
            assert (await press("next")).ack_type == 7
        started = await press("start")
        assert "(running)" in started.message.text
        await asyncio.sleep(3)  # the timer runs on wall time; the 1:30 call is not due yet

        await kill_bot(fd, bot)  # SIGKILL: no clean stop pauses the timer
        await asyncio.sleep(2)  # downtime, which must not be taken from the crew
        await start_bot(fd, tmp_path / "bot")
        await fd.wait_for_message("paused at the restart", channel="bridge", timeout=WAIT)
        await fd.wait_for(lambda: "(paused)" in shown().text, WAIT, "the status message showing the paused timer")
        # Paused at its last stored instant (here the Start press; a call that fires is stored too):
        # the downtime, and the seconds since that instant, are given back to the crew, never taken.
        left = time_left(shown().text)
        assert 115 <= left <= 120, shown().text

        refused = await answer(fd, await press("pause", user="bob"))  # not the host: refused, nothing changes
        assert refused.ephemeral and "only the host" in refused.text
        assert "(paused)" in shown().text

        resumed = await press("pause")  # the host resumes: the timer runs on from where it stopped
        assert resumed.ack_type == 7 and "(running)" in resumed.message.text
        assert left - 2 <= time_left(resumed.message.text) <= left

        stopped = await press("stop")
        assert stopped.acked
        await fd.wait_for(lambda: not shown().buttons, WAIT, "the controls to go with the game")
        again = await answer(fd, await fd.slash("elite start", OPTIONS, user="bob", channel="bridge"))
        assert "Pick 2 heroes" in again.text  # the channel is free: the ended game left the store
        assert_clean(fd)
