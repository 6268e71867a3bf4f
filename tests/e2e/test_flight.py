"""A whole S1-1 flight as a crew of three plays it, against the real bot process."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.e2e.harness import (
    WAIT,
    Flight,
    all_text,
    assert_clean,
    cid,
    fake_discord,
    has,
    start_bot,
)

pytestmark = pytest.mark.e2e

CREW = ("alice", "bob", "carol")


async def test_three_players_fly_s1_1_to_the_score(tmp_path: Path) -> None:
    async with fake_discord() as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=25)
        flight = Flight(fd, "bridge", None, "alice", CREW)
        lobby = await flight.open_lobby("S1-1", seed=7)
        assert "S1-1" in lobby.text
        deck = await flight.board()
        start_click = flight.interactions[-1]
        await fd.wait_for(lambda: re.search(r"Phase ends <t:\d+:R>", deck.text), WAIT, "the phase countdown")
        for name in ("Alice", "Bob", "Carol"):
            assert name in deck.text

        # Phase 1: everyone opens the station, places a card on turn 1 and finishes the phase.
        for user in CREW:
            hand = await flight.station(user)
            assert hand.ephemeral and hand.visible_to == fd.world.user(user).id
            assert f"Station of {user.title()}" in hand.text
            hand = await flight.place_first_card(user, hand)
            assert re.search(r"` 1` 🟢 \*\*", hand.text), hand.text  # the card lies on turn 1
            finished = await fd.click(hand, cid(hand, "finish"), user=user)
            flight.interactions.append(finished)
            assert re.search(r"` 1` 🔒 \*\*", finished.message.text), finished.message.text  # kept, locked

        # Phase 2 (the last): each places one more card on turn 4.
        for user in CREW:
            hand = await flight.station(user)
            hand = await flight.place_first_card(user, hand)
            assert re.search(r"` 4` 🟢 \*\*", hand.text), hand.text

        result = await flight.result()
        assert re.search(r"Score: \*\*-?\d+\*\*", result.text), result.text
        assert "Mission S1-1" in result.text
        assert [a.filename for a in result.attachments] == ["overview.png"]
        assert result.attachments[0].data[:8] == b"\x89PNG\r\n\x1a\n"

        # The captain's log: a thread under the result, turn by turn, with the crew's actions.
        thread = await fd.wait_for(lambda: fd.thread_of(result), WAIT, "the captain's log thread")
        log = await fd.wait_for_message("Captain's log", channel=thread.id, timeout=WAIT)
        assert "Turn 1" in log.text and "Alice" in log.text

        # The intercom's text mirror reaches its last line; the deck says the operation ended
        # and keeps no button.
        await fd.wait_for(lambda: "Mission complete. Entering hyperspace." in all_text(fd), WAIT, "the last line")
        text = all_text(fd)
        assert text.index("Enemy activity detected") < text.index("Mission complete")
        final_deck = fd.world.messages_by_id[deck.id]
        assert "Operation ended" in final_deck.text and final_deck.custom_ids == []

        # Voice: the intercom spoke in the voice channel; the first line comes right after Start
        # (espeak-ng renders in well under a second), later lines queue behind each other.
        voice_lines = fd.utterances()
        assert len(voice_lines) >= 10, len(voice_lines)
        first = voice_lines[0].start_wall - fd.interaction_time(start_click)
        assert 0.0 <= first < 3.0, first
        starts = [u.start_wall for u in voice_lines]
        assert starts == sorted(starts)
        assert all(not m.mute for m in fd.member_mutes())  # S1-1 has no communication failure
        assert_clean(fd)
        assert not any(has("station")(m) for m in fd.messages("bridge"))
