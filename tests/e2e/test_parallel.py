"""Several flights at once: two channels of one server and a second server, all in one bot process."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from tests.e2e.harness import WAIT, Flight, all_text, assert_clean, cid, fake_discord, public, start_bot

pytestmark = pytest.mark.e2e

WORLD = {"guilds": [{"name": "Second"}]}


async def fly(flight: Flight, mission: str) -> str:
    """Open, board, every crew member places one card; returns the result post's text."""
    await flight.open_lobby(mission, seed=11)
    await flight.board()
    for user in flight.crew:
        hand = await flight.station(user)
        hand = await flight.place_first_card(user, hand)
        assert cid(hand, "pick")
    result = await flight.result()
    return str(result.text)


async def test_three_flights_at_once_stay_apart(tmp_path: Path) -> None:
    async with fake_discord(WORLD) as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=40)
        flights = [
            Flight(fd, "bridge", 0, "alice", ("alice", "bob")),
            Flight(fd, "general", 0, "dave", ("dave", "erin")),
            Flight(fd, "bridge", "Second", "carol", ("carol", "alice")),
        ]
        missions = ["S1-1", "S1-2", "S1-4"]  # S1-4: communications down at 3:50 for 10 s
        results = await asyncio.gather(*(fly(f, m) for f, m in zip(flights, missions, strict=True)))

        for flight, mission, text in zip(flights, missions, results, strict=True):
            assert f"Mission {mission}" in text
            assert re.search(r"Score: \*\*-?\d+\*\*", text)
            # Each channel holds exactly one flight's posts: its own lobby, deck and result.
            mine = public(fd, flight.channel, flight.guild)
            ids = {c.split(":")[1] for m in mine for c in m.custom_ids if c.startswith(("sa:", "sr:"))}
            assert ids == {flight.flight_id}, ids
        assert len({f.flight_id for f in flights}) == 3
        # The intercom spoke in both servers' voice channels.  A server has one voice connection:
        # of its two flights one speaks, the other says once that it continues in text.
        assert fd.utterances(guild=0) and fd.utterances(guild="Second")
        busy = "Another flight on this server is using the voice intercom"
        told = [all_text(fd, f.channel, f.guild).count(busy) for f in flights]
        assert sorted(told[:2]) == [0, 1] and told[2] == 0, told

        # Each communication failure server-muted that crew in voice, in its server only, and
        # gave their voices back (the last unmute may trail the result: PATCH member is throttled).
        def mutes(user: str) -> list[bool]:
            return [m.mute for m in fd.member_mutes(user, guild="Second")]

        for user in ("carol", "alice"):
            await fd.wait_for(lambda u=user: mutes(u)[-1:] == [False], WAIT, f"{user} to be unmuted")
            said = mutes(user)
            assert said[0] is True and said.count(True) == 3, said  # S1-4 has three failures
        assert fd.member_mutes(guild=0) == []
        assert_clean(fd)
