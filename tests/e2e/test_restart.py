"""The bot process is killed mid-flight and started again on the same database."""

from __future__ import annotations

import re
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
    kill_bot,
    options,
    start_bot,
)

pytestmark = pytest.mark.e2e


async def test_a_killed_bot_resumes_the_flight_and_loses_nothing_acknowledged(tmp_path: Path) -> None:
    async with fake_discord() as fd:
        first = await start_bot(fd, tmp_path / "bot", time_scale=15)
        flight = Flight(fd, "bridge", None, "alice", ("alice", "bob"))
        await flight.open_lobby("S1-1", seed=3)
        await flight.board()

        # Acknowledged before the crash: Alice's card on turn 1, Bob's chosen (not yet placed) card.
        alice_hand = await flight.place_first_card("alice", await flight.station("alice"))
        placed = re.search(r"` 1` 🟢 \*\*(.+?)\*\*", alice_hand.text)
        assert placed, alice_hand.text
        bob_hand = await flight.station("bob")
        picked = await fd.click(bob_hand, cid(bob_hand, "pick"), user="bob", values=[options(bob_hand, "pick")[0]])
        bob_hand = picked.message
        assert cid(bob_hand, "place")

        await kill_bot(fd, first)
        restarted_at = fd.mark("restart")
        await start_bot(fd, tmp_path / "bot", time_scale=15)

        # Bob's hand from before the restart still works: he places the card he had chosen.
        place = await fd.click(bob_hand, cid(bob_hand, "place"), user="bob", values=[options(bob_hand, "place")[0]])
        assert re.search(r"` 1` 🟢 \*\*", place.message.text), place.message.text
        # Alice's station, opened anew, still shows her card on turn 1.
        reopened = await fd.click(flight.deck, cid(flight.deck, "station"), user="alice")
        hand = await answer(fd, reopened, lambda m: "Station of Alice" in m.text)
        assert f"` 1` 🟢 **{placed.group(1)}**" in hand.text or f"` 1` 🔒 **{placed.group(1)}**" in hand.text

        # The flight goes on to its result; the log has both crew members' turn-1 actions.
        result = await flight.result()
        assert re.search(r"Score: \*\*-?\d+\*\*", result.text), result.text
        thread = await fd.wait_for(lambda: fd.thread_of(result), WAIT, "the captain's log thread")
        log = await fd.wait_for_message("Turn 1", channel=thread.id, timeout=WAIT)
        turn_1 = log.text.split("Turn 2")[0]
        assert "Alice" in turn_1 and "Bob" in turn_1, turn_1
        await fd.wait_for(lambda: "Mission complete" in all_text(fd), WAIT, "the intercom's last line")
        # The intercom came back in voice after the restart.
        assert any(u.start_wall > restarted_at for u in fd.utterances()), fd.bot.output() + all_text(fd)[-1500:]
        assert_clean(fd)
