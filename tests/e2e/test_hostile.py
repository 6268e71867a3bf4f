"""Hostile and unlucky input: strangers' clicks, stale buttons, Discord's 429s, text that tries to ping."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import (
    WAIT,
    Flight,
    all_text,
    answer,
    assert_clean,
    cid,
    fake_discord,
    mention_leaks,
    start_bot,
)

pytestmark = pytest.mark.e2e

HOSTILE = "@everyone @here <@&1>"
# The default world, plus a member whose display name tries to ping everyone.
WORLD: dict[str, Any] = {
    "guild": {
        "members": [
            {"username": "alice", "global_name": "Alice", "roles": ["Captain", "Crew"], "voice": "Bridge Voice"},
            {"username": "bob", "global_name": "Bob", "roles": ["Crew"], "voice": "Bridge Voice"},
            {"username": "mallory", "global_name": HOSTILE, "roles": ["Crew"], "voice": "Bridge Voice"},
            {"username": "erin", "global_name": "Erin", "roles": [], "voice": None, "dm_open": False},
        ]
    }
}


async def private_answer(fd: Any, ix: Any) -> str:
    message = await answer(fd, ix)
    assert message.ephemeral and message.visible_to == ix.user_id, message
    return str(message.text)


async def test_strangers_stale_buttons_429s_and_pings(tmp_path: Path) -> None:
    async with fake_discord(WORLD) as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=30)

        # Text that would ping, typed as a mission name: refused privately, echoed defused.
        ix = await fd.slash("mission start", {"mission": HOSTILE}, user="alice", channel="bridge")
        assert "Unknown mission" in await private_answer(fd, ix)

        flight = Flight(fd, "bridge", None, "alice", ("alice", "bob", "mallory"))
        await flight.open_lobby("S1-1", seed=5)
        # Only the host starts the flight.
        ix = await fd.click(flight.lobby, cid(flight.lobby, "start"), user="bob")
        assert await private_answer(fd, ix)
        await flight.board()

        # Discord throttles the channel: the next posts and edits get 429s (with retry_after);
        # the bot waits and carries on, nothing is lost.
        fd.inject_429("POST /channels/{channel_id}/messages", count=3, retry_after=0.5)
        fd.inject_429("PATCH /channels/{channel_id}/messages/{message_id}", count=3, retry_after=0.5)

        # Someone outside the crew presses My station: told privately, in time.
        ix = await fd.click(flight.deck, cid(flight.deck, "station"), user="erin")
        assert "not in this flight's crew" in await private_answer(fd, ix)

        hands = {}
        for user in flight.crew:
            hands[user] = await flight.place_first_card(user, await flight.station(user))
        result = await flight.result()
        assert re.search(r"Score: \*\*-?\d+\*\*", result.text)
        await fd.wait_for(lambda: "Mission complete. Entering hyperspace." in all_text(fd), WAIT, "the last line")
        assert len(fd.rate_limited()) >= 6  # the injected 429s really happened

        # A hand left open over the end: it says so and keeps only Refresh, which still answers.
        hand = hands["bob"]
        assert "Operation ended" in hand.text and not any(":pick:" in c for c in hand.custom_ids)
        ix = await fd.click(hand, cid(hand, "refresh"), user="bob")
        assert "This flight is over" in await private_answer(fd, ix)

        # /resolve with hostile player names: a public result that pings nobody.
        game = {
            "tracks": {"red": "T1", "white": "T2", "blue": "T3", "internal": "T4"},
            "players": [{"name": HOSTILE, "actions": "-" * 12}],
            "threats": [{"id": "E1-01", "turn": 1, "zone": "red"}],
        }
        ix = await fd.slash("resolve", {"json": json.dumps(game)}, user="mallory", channel="general")
        await fd.wait_for(lambda: any(not m.ephemeral for m in ix.messages), WAIT, "the public /resolve result")

        # The hostile display name reached the channel (deck, log) but pinged nobody.
        texts = [m.text for m in fd.messages("bridge") if m.author_id == fd.world.bot.id]
        texts += [m.text for m in fd.messages("general") if m.author_id == fd.world.bot.id]
        assert any("everyone" in text for text in texts)
        assert mention_leaks(fd) == []
        assert_clean(fd)
