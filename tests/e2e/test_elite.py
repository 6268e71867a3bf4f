"""A Project: ELITE game set up by its director, to the first action phase and its voice."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import WAIT, answer, assert_clean, cid, fake_discord, public, start_bot

pytestmark = pytest.mark.e2e


async def test_elite_setup_to_the_first_action_phase_with_voice(tmp_path: Path) -> None:
    async with fake_discord() as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=20)
        options = {"map": "abandoned_lab", "mission": "extermination", "difficulty": "easy", "players": 2}
        ix = await fd.slash("elite start", options, user="alice", channel="bridge")
        picker = await answer(fd, ix)
        assert picker.ephemeral and "Pick 2 heroes" in picker.text
        await fd.click(picker, picker.custom_ids[0], user="alice", values=["kinje", "kara"])
        status = await fd.wait_for_message(
            "Project: ELITE", channel="bridge", predicate=lambda m: bool(m.buttons), timeout=WAIT
        )
        # The director joins the host's voice channel; like a person, wait for it before going on.
        await fd.wait_for(lambda: fd.voice.packets, WAIT, "the director's voice connection")

        def press(action: str) -> Any:  # the button as the status message shows it now (its id names the move)
            message = fd.world.messages_by_id[status.id]
            return fd.click(message, cid(message, action), user="alice")

        early = await press("start")  # not yet: the timer runs only in the action phase
        refusal = await answer(fd, early)
        assert refusal.ephemeral and "Action Phase" in refusal.text
        for _ in range(3):  # event phase, alien spawn, action phase
            step = await press("next")
            assert step.ack_type == 7  # the click edits the status message itself
        assert "Action Phase" in fd.world.messages_by_id[status.id].text
        # The phase lines were spoken: speech over silence (the music bed is off until the timer runs).
        spoken = await fd.wait_for_utterances(1, timeout=WAIT)
        assert spoken[0].duration > 0.3

        started = await press("start")
        assert "(running)" in started.message.text
        started_at = fd.interaction_time(started)
        # With the timer running the music bed plays without a pause: one sound longer than any call.
        await fd.wait_for(
            lambda: any(u.start_wall > started_at - 1 and u.duration > 5.0 for u in fd.voice.utterances()),
            WAIT,
            "the music bed",
        )
        stopped = await press("stop")
        assert stopped.acked
        assert any("Project: ELITE" in m.text for m in public(fd))
        assert_clean(fd)
