"""Hindsight through fakecord: a lost flight, its result post's Hindsight button pressed by a crew
member (the sentence and the two pictures in the captain's log thread), by a stranger (refused
politely, privately), and `/hindsight flight:` by a crew member."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.e2e.harness import WAIT, Flight, answer, assert_clean, fake_discord, start_bot

pytestmark = pytest.mark.e2e

CREW = ("alice", "bob", "carol")


async def test_hindsight_after_a_lost_flight(tmp_path: Path) -> None:
    async with fake_discord() as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=25)
        flight = Flight(fd, "bridge", None, "alice", CREW)
        await flight.open_lobby("S1-1", seed=7)  # nobody plays a card: the ship is lost in turn 6
        await flight.board()
        result = await flight.result()
        assert "destroyed" in result.text.lower(), result.text
        fid = flight.flight_id
        hindsight_id = f"hs:{fid}:go"
        assert hindsight_id in result.custom_ids
        assert len(set(result.custom_ids)) == len(result.custom_ids)  # unique in its message
        assert all(len(c) <= 100 for c in result.custom_ids)
        thread = await fd.wait_for(lambda: fd.thread_of(result), WAIT, "the captain's log thread")
        # the log ends with its turn navigation: once it is there, the thread holds the whole log
        await fd.wait_for_message(
            channel=thread.id, predicate=lambda m: f"sr:{fid}:turn:0" in m.custom_ids, timeout=WAIT
        )

        # A stranger's press: a polite private no, nothing in the thread.
        stranger = await fd.click(result, hindsight_id, user="erin")
        refusal = await answer(fd, stranger)
        assert refusal.ephemeral and "Only the crew" in refusal.text
        before = len(fd.messages(thread.id))

        # A crew member's press: the sentence and the pictures (plans side by side, two overviews).
        press = await fd.click(result, hindsight_id, user="bob")
        posted = await fd.wait_for_message(
            channel=thread.id,
            predicate=lambda m: [a.filename for a in m.attachments] == ["plans.png", "real.png", "hindsight.png"],
            timeout=WAIT,
        )
        assert posted.text.startswith(("If ", "No change")), posted.text
        assert "survived" in posted.text or "No change" in posted.text
        assert all(a.data[:8] == b"\x89PNG\r\n\x1a\n" for a in posted.attachments)
        assert len(fd.messages(thread.id)) == before + 1
        note = await answer(fd, press, lambda m: "answer is in" in m.text)
        assert note.ephemeral

        # The command, by a crew member, answers in the same thread (it finds the result post).
        ix = await fd.slash("hindsight", {"flight": fid}, user="carol", channel="bridge")
        await answer(fd, ix, lambda m: "answer is in" in m.text)
        again = await fd.wait_for(
            lambda: len(fd.messages(thread.id)) == before + 2 and fd.messages(thread.id)[-1], WAIT, "a second answer"
        )
        assert again.text == posted.text
        assert [a.filename for a in again.attachments] == ["plans.png", "real.png", "hindsight.png"]
        # ...and a stranger's command is refused the same way.
        ix = await fd.slash("hindsight", {"flight": fid}, user="erin", channel="bridge")
        assert "Only the crew" in (await answer(fd, ix)).text
        assert_clean(fd)
    # Each crew member's answer is kept for the flight's web page (the stranger's is not).
    with sqlite3.connect(tmp_path / "bot" / "bot.sqlite3") as db:
        kept = db.execute(
            "SELECT kind, asked_name, real_outcome FROM flight_comparisons WHERE flight_id = ? ORDER BY id", (fid,)
        ).fetchall()
    assert [(k, n.lower()) for k, n, _o in kept] == [("hindsight", "bob"), ("hindsight", "carol")]
    assert {o for _k, _n, o in kept} == {"destroyed"}
