"""/replay, the result post's 🖼️ Turn by turn and the captain's log's turn navigation, pressed at
both ends of a flight against the real bot: fakecord refuses a message whose custom ids repeat
(Discord's 400, code 50035), which the unit tests' fakes never did."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import WAIT, Flight, answer, assert_clean, fake_discord, start_bot

pytestmark = pytest.mark.e2e

CREW = ("alice", "bob")
_SLOT = re.compile(r"sr:[0-9a-f]+:turn:(\d+)\.(at|last)")
_LABEL = re.compile(r"(\d+)/12|⤴ (\d+)")


def shown_turn(message: Any) -> tuple[int, int] | None:
    """(turn, last) of a turn picture's navigation, read off its ids (the `at` and `last` slots),
    else None.  The disabled label in the middle numbers the turn as the picture's title does
    ("5/12", "⤴ 13" for the jump); it must agree with the `at` slot."""
    slots = {m[2]: int(m[1]) for c in message.custom_ids if (m := _SLOT.fullmatch(c))}
    if set(slots) != {"at", "last"}:
        return None
    labels = [m for b in message.buttons if (m := _LABEL.fullmatch(str(b.get("label") or "")))]
    assert len(labels) == 1 and int(labels[0][1] or labels[0][2]) == slots["at"], [
        b.get("label") for b in message.buttons
    ]
    return slots["at"], slots["last"]


def check_navigation(message: Any) -> None:
    """Five buttons with five different ids, the ends disabled where nothing lies beyond."""
    ids = message.custom_ids
    assert len(ids) == 5 and len(set(ids)) == 5, ids
    turn, last = shown_turn(message) or (-1, -1)
    disabled = {b["label"]: bool(b.get("disabled")) for b in message.buttons}
    assert disabled["⏮"] == disabled["◀"] == (turn == 0)
    assert disabled["▶"] == disabled["⏭"] == (turn == last)


async def press(fd: Any, message: Any, label: str, user: str, turn: int) -> Any:
    """`user` presses `label` on `message`; returns the message once it shows `turn`."""
    ix = await fd.click(message, label=label, user=user)
    assert ix.errors == [], ix.errors
    current = await fd.wait_for(
        lambda: (
            (m := fd.world.messages_by_id[message.id]) is not None
            and shown_turn(m) is not None
            and shown_turn(m)[0] == turn
            and m
        ),
        WAIT,
        f"turn {turn} after {label}",
    )
    check_navigation(current)
    return current


async def test_replay_turn_by_turn_and_the_log_at_both_ends_of_a_flight(tmp_path: Path) -> None:
    async with fake_discord() as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=40)
        flight = Flight(fd, "bridge", None, "alice", CREW)
        await flight.open_lobby("S1-1", seed=3)
        await flight.board()
        result = await flight.result()  # nobody plays a card: the flight ends on its own
        fid = flight.flight_id

        # /replay at turn 0, 1 and the end; each answer is a picture with five distinct ids.
        posts = {}
        for turn in (0, 1, 13):
            ix = await fd.slash("replay", {"flight": fid, "turn": turn}, user="bob", channel="bridge")
            posts[turn] = await answer(fd, ix, lambda m: shown_turn(m) is not None)
            check_navigation(posts[turn])
        last = shown_turn(posts[13])[1]  # type: ignore[index]
        assert shown_turn(posts[0]) == (0, last) and shown_turn(posts[1]) == (1, last)
        assert shown_turn(posts[13]) == (last, last)  # 13 is clamped to the last snapshot

        # Every button at each end, pressed by another member than the one who asked.
        at = await press(fd, posts[0], "▶", "alice", 1)
        at = await press(fd, at, "◀", "alice", 0)
        at = await press(fd, at, "⏭", "alice", last)
        at = await press(fd, at, "◀", "alice", last - 1)
        at = await press(fd, at, "▶", "bob", last)
        at = await press(fd, at, "⏮", "bob", 0)
        at = await press(fd, posts[1], "◀", "erin", 0)  # a member who did not fly may browse too
        await press(fd, posts[13], "⏮", "alice", 0)

        # The result post's 🖼️ Turn by turn: the end, privately, with working navigation.
        ix = await fd.click(result, label="🖼️ Turn by turn", user="bob")
        mine = await answer(fd, ix, lambda m: shown_turn(m) is not None)
        assert mine.ephemeral and mine.visible_to == fd.world.user("bob").id
        assert shown_turn(mine) == (last, last)
        check_navigation(mine)
        mine = await press(fd, mine, "◀", "bob", last - 1)
        await press(fd, mine, "⏮", "bob", 0)

        # The captain's log thread: "⏮ Before turn 1" turns its last message into turn 0.
        thread = await fd.wait_for(lambda: fd.thread_of(result), WAIT, "the captain's log thread")
        nav = await fd.wait_for_message("turn by turn", channel=thread.id, timeout=WAIT)
        assert len(set(nav.custom_ids)) == 3
        at = await press(fd, nav, "⏮ Before turn 1", "alice", 0)
        at = await press(fd, at, "▶", "bob", 1)
        await press(fd, at, "⏭", "alice", last)

        # A flight that does not exist: a clear private answer, no picture.
        ix = await fd.slash("replay", {"flight": "deadbeef"}, user="bob", channel="bridge")
        told = await answer(fd, ix)
        assert told.ephemeral and "No finished flight" in told.text
        assert_clean(fd)
