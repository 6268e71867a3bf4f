"""kill -9 three times in a campaign the ship survives, restarted in place over PostgreSQL (issue 25):
once just after mission 1's result reached the channel (the repair step and its post committed with
the finish), once after the campaign's clock closed the repairs and opened the next vote, once
after the last press closed that vote.  The last two land between the commit and the send: Discord
answers the post with a 429 (so the bot waits), and the kill comes once the database holds the
campaign's new phase and the post's outbox row while the channel does not have the post yet.
The crew sees the result, the repairs, the next vote, the announcement and mission 2's lobby, in
that order, each exactly once, and the campaign goes on from the printed command.

The host flies S1-1 (`/campaign change`, recorded) with a fixed seed, which an idle crew survives
(tests/e2e/test_campaign_repairs.py checks the same seed): nobody picks a repair, so the repair step
closes on the campaign's clock (REPAIR_SECONDS of real time).  Without the seed the threats drawn
vary and an idle crew sometimes loses the ship, which ends the campaign instead.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

from engine.campaign.session import REPAIR_SECONDS
from tests.e2e.harness import REPO, WAIT, Flight, answer, assert_clean, cid, fake_discord, has, public
from tests.e2e.test_crash_outbox import SETTINGS, WORLD, kill_and_restart
from tests.e2e.test_evening import CAMPAIGN_ID, campaign_buttons, printed_command, vote_white
from tests.e2e.test_takeover import database, env

__all__ = ["database"]  # the fixture: a fresh PostgreSQL database

pytestmark = pytest.mark.e2e

CREW = ("alice", "bob")
SEED = 3  # S1-1 with an idle crew survives (as in test_campaign_repairs.py)
RESULT = re.compile(r"^sr:")
REPAIRS = "Repairs after mission 1"
VOTE_2 = "before mission 2"
ANNOUNCED_2 = "Campaign mission 2"
SETTLE_S = 5.0  # after a restart: long enough for a restored post to go out (twice, were it a bug)
POSTS = "POST /channels/{channel_id}/messages"
HELD_S = 20.0  # the 429's retry-after: the post waits this long, the kill comes meanwhile


async def committed(url: str) -> tuple[str | None, int]:
    """The running campaign's phase and its outbox rows not confirmed sent, as the database has them."""
    import asyncpg

    conn = await asyncpg.connect(url)
    try:
        state = await conn.fetchval("SELECT state FROM campaigns WHERE status = 'running'")
        rows = await conn.fetchval("SELECT count(*) FROM outbox WHERE flight_id LIKE 'campaign:%'")
    finally:
        await conn.close()
    if state is None:
        return None, int(rows)
    doc = json.loads(state) if isinstance(state, str) else state
    return str(doc["session"]["phase"]), int(rows)


async def until_committed(url: str, phase: str) -> int:
    """Wait until the campaign is in `phase` with outbox rows staged; how many."""
    deadline = time.monotonic() + REPAIR_SECONDS + WAIT
    while time.monotonic() < deadline:
        now, rows = await committed(url)
        if now == phase and rows:
            return rows
        await asyncio.sleep(0.2)
    raise AssertionError(f"the campaign never reached {phase!r} with its posts staged")


def kinds(fd: Any) -> list[str]:
    """What the crew saw of the campaign in the channel, in order (one entry per message)."""
    found = []
    for message in public(fd):
        if any(RESULT.match(c) for c in message.custom_ids):
            found.append("result")
        elif REPAIRS in message.text:
            found.append("repairs")
        elif VOTE_2 in message.text:
            found.append("vote")
        elif ANNOUNCED_2 in message.text:
            found.append("announcement")
        elif "Mission 2 of 3" in message.text and any(":join:" in c for c in message.custom_ids):
            found.append("lobby")
    return found


async def test_a_campaign_carries_on_across_three_kills(tmp_path: Path, database: str) -> None:
    async with fake_discord(WORLD) as fd:
        workdir = tmp_path / "bot"
        first = fd.start_bot("bot", env=env(workdir, database, **SETTINGS), cwd=str(REPO))
        await fd.wait_ready(timeout=WAIT, commands=["mission", "campaign"])
        bob_id = fd.world.user("bob").id
        ix = await fd.slash("campaign start", {"p2": bob_id}, user="alice", channel="bridge")
        vote = await answer(fd, ix, lambda m: any(CAMPAIGN_ID.match(c) for c in m.custom_ids))
        await vote_white(fd, vote, CREW)
        await fd.wait_for_message("Campaign mission 1", channel="bridge", timeout=WAIT)
        changed = await answer(
            fd, await fd.slash("campaign change", {"mission": "S1-1"}, user="alice", channel="bridge")
        )
        name, opts = printed_command(changed.text, "mission start")
        opts["seed"] = SEED  # the threats drawn, so the ship surely survives (a lost one ends the campaign)
        await fd.slash(name, opts, user="alice", channel="bridge")
        lobby = await fd.wait_for_message(channel="bridge", predicate=has("join"), timeout=WAIT)
        flight = Flight(fd, "bridge", None, "alice", CREW, lobby=lobby)
        flight.flight_id = cid(lobby, "join").split(":")[1]
        await flight.board()

        # kill 1: the result and its captain's log are out; the repair step and its post
        # committed with the finish (the post itself may be out or not yet)
        result = await flight.result(timeout=240)
        nav = f"sr:{flight.flight_id}:"

        def log_complete() -> bool:
            thread = fd.thread_of(result)
            return thread is not None and any(
                any(c.startswith(nav) for c in m.custom_ids) for m in fd.messages(thread.id)
            )

        await fd.wait_for(log_complete, WAIT * 3, "the captain's log")
        second, ready_1 = await kill_and_restart(fd, first, workdir, database)
        try:
            await fd.wait_for_message(REPAIRS, channel="bridge", timeout=WAIT)
        except Exception as exc:  # say what the crew saw instead
            seen = "\n---\n".join(m.text[:300] for m in public(fd)[-6:])
            raise AssertionError(f"no repairs post; the channel's last posts:\n{seen}") from exc

        # kill 2: the campaign's clock closed the repairs (nothing to repair) and opened the vote;
        # its post is committed, held by a 429, not out
        started = time.monotonic()
        fd.inject_429(POSTS, count=1, retry_after=HELD_S)
        staged_2 = await until_committed(database, "vote")
        waited = time.monotonic() - started
        assert kinds(fd) == ["result", "repairs"]
        third, ready_2 = await kill_and_restart(fd, second, workdir, database)
        await fd.wait_for(lambda: "vote" in kinds(fd), WAIT, "the vote before mission 2")
        await asyncio.sleep(SETTLE_S)
        assert kinds(fd) == ["result", "repairs", "vote"]

        # kill 3: the last press closes the vote; its announcement committed with it
        vote2 = next(m for m in public(fd) if VOTE_2 in m.text and m.custom_ids)
        for user in CREW:
            await fd.click(vote2, campaign_buttons(vote2, "continue")["continue"], user=user)
        fd.inject_429(POSTS, count=1, retry_after=HELD_S)
        await vote_white(fd, vote2, CREW)
        await fd.wait_for(
            lambda: "The crew has voted" in fd.world.messages_by_id[vote2.id].text, WAIT, "the vote to close"
        )
        staged_3 = await until_committed(database, "flying")
        assert "announcement" not in kinds(fd)
        fourth, ready_3 = await kill_and_restart(fd, third, workdir, database)
        announcement = await fd.wait_for_message(ANNOUNCED_2, channel="bridge", timeout=WAIT)
        await asyncio.sleep(SETTLE_S)

        # the campaign goes on: mission 2's command, as printed, opens its lobby
        name, opts = printed_command(announcement.text, "mission start")
        await fd.slash(name, opts, user="alice", channel="bridge")
        await fd.wait_for(lambda: "lobby" in kinds(fd), WAIT, "mission 2's lobby")
        seen = kinds(fd)
        print(
            f"\nissue 25 campaign across three kill -9 (restart in place, PostgreSQL):"
            f"\n  restarts ready in {ready_1:.1f} s, {ready_2:.1f} s and {ready_3:.1f} s"
            f"\n  the clock closed the repairs {waited:.0f} s after the restart (REPAIR_SECONDS={REPAIR_SECONDS:.0f})"
            f"\n  staged and not out at kills 2 and 3: {staged_2} and {staged_3} post(s)"
            f"\n  what the crew saw: {seen}"
        )
        assert seen == ["result", "repairs", "vote", "announcement", "lobby"]  # in order, each once
        await fd.stop_bot(fourth)
        assert_clean(fd)
