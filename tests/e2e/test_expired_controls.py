"""Presses nothing handles any more are answered: ELITE's private hero picker after a restart.

The restart-proof controls are registered kinds; short-lived private pickers live in memory only.
A press on one from before a restart used to be dropped (Discord's "This interaction failed"); the
platform now answers it privately, in the presser's language (bot/platform/unclaimed.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.harness import WAIT, answer, assert_clean, fake_discord, kill_bot, start_bot

pytestmark = pytest.mark.e2e

EXPIRED = {
    "en-US": "This control has expired",
    "ru": "Этот элемент управления устарел",
    "cs": "Tento ovládací prvek vypršel",
}


async def test_a_private_picker_pressed_after_a_restart_is_answered_in_the_pressers_language(tmp_path: Path) -> None:
    async with fake_discord() as fd:
        first = await start_bot(fd, tmp_path / "bot", time_scale=20)
        options = {"map": "abandoned_lab", "mission": "extermination", "difficulty": "easy", "players": 2}
        pickers = []
        for user in ("alice", "bob", "carol"):  # three wizards, one per member (each a private picker)
            picker = await answer(fd, await fd.slash("elite start", options, user=user, channel="bridge"))
            assert picker.ephemeral and "Pick 2 heroes" in picker.text
            pickers.append((user, picker))
        await kill_bot(fd, first)
        await start_bot(fd, tmp_path / "bot", time_scale=20)

        for (user, picker), locale in zip(pickers, EXPIRED, strict=True):
            ix = await fd.click(picker, picker.custom_ids[0], user=user, values=["kinje", "kara"], locale=locale)
            told = await answer(fd, ix)
            assert told.ephemeral and told.text.startswith(EXPIRED[locale]), told.text
        # Nothing started from a forgotten wizard: no status message in the channel.
        assert not [m for m in fd.messages("bridge") if "Project: ELITE" in m.text and m.buttons]
        assert_clean(fd)


async def test_a_live_picker_is_still_handled_by_its_view(tmp_path: Path) -> None:
    """The answer is only for presses nothing takes: a picker of this process still starts a game."""
    async with fake_discord() as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=20)
        options = {"map": "abandoned_lab", "mission": "extermination", "difficulty": "easy", "players": 2}
        picker = await answer(fd, await fd.slash("elite start", options, user="alice", channel="bridge"))
        await fd.click(picker, picker.custom_ids[0], user="alice", values=["kinje", "kara"])
        status = await fd.wait_for_message(
            "Project: ELITE", channel="bridge", predicate=lambda m: bool(m.buttons), timeout=WAIT
        )
        assert status.buttons
        assert_clean(fd)
