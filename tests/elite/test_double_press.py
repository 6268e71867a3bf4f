"""A double click on a button that moves the game on is one press.

Why: Discord delivers a double click as two interactions carrying the same custom id, and the
director used to apply both (a double-clicked Next skipped a phase; a double-clicked Pause paused
and resumed).  The ids of those buttons now carry the game's move count as the status message
showed it, checked inside the unit of work: the first press moves the game on, the second is
refused with "already done".  A press from an id without the count (a status message posted
before ids carried it) acts on the game as it is, as before.
"""

from __future__ import annotations

import asyncio
from typing import Any

from bot.games.elite._cog import GUARDED, CausePicker, ControlView, EliteButton, EliteCog
from bot.games.elite._document import MOVES_KEY, count_move, moves
from bot.games.elite.storage import EliteStore
from bot.platform.storage import SqliteStorage
from tests.elite.test_cog import PRESSING, ix, new_cog, press, rig, start_game, storage

__all__ = ["rig", "storage"]  # the fixtures of test_cog.py

ALREADY = "Already done"


def shown(status: Any, action: str) -> int | None:
    """The move count the status message's `action` button carries (None: it carries none)."""
    assert isinstance(status.view, ControlView)
    (button,) = [b for b in status.view.children if isinstance(b, EliteButton) and b.action == action]
    return button.move


async def click(cog: EliteCog, channel: Any, action: str, move: int | None, user: int = 1) -> Any:
    """One press of `action` with the id's move count, answered on the status message."""
    status: Any = cog.status_messages.get(channel.id)  # the fakes' message
    inter = ix(channel, user, on=status)
    PRESSING[0] += 1
    try:
        await cog.on_button(inter, channel.id, action, move)
    finally:
        PRESSING[0] -= 1
    return inter


async def double_click(cog: EliteCog, channel: Any, action: str) -> tuple[list[Any], list[Any]]:
    """Two presses of the status message's `action` at the same instant: (applied, refused)."""
    move = shown(cog.status_messages[channel.id], action)
    presses = await asyncio.gather(*(click(cog, channel, action, move) for _ in range(2)))
    applied = [p for p in presses if p.response.calls[0][0] == "edit"]
    refused = [p for p in presses if p.response.calls[0][0] == "send"]
    return applied, refused


def refused_as_done(inter: Any) -> bool:
    kind, content, kw = inter.response.calls[0]
    return kind == "send" and kw.get("ephemeral") is True and str(content).startswith(ALREADY)


async def stored(storage: SqliteStorage, channel: Any) -> dict[str, Any]:
    found = await EliteStore(storage).game(channel.id)
    assert found is not None
    return found.state


def steps(state: dict[str, Any], name: str) -> int:
    return [a[1] for a in state["actions"]].count(name)


async def test_only_the_buttons_that_move_the_game_on_carry_its_move_count(rig: Any) -> None:
    cog, channel, _, _ = rig
    status = await start_game(cog, channel)
    assert {a for a in ("next", "start", "pause", "victory", "defeat", "stop") if shown(status, a) == 0} == GUARDED
    # A repeat of these is meant (±15 s twice is 30 s), or opens a private picker: no count.
    assert all(shown(status, a) is None for a in ("minus", "plus", "peek", "reveal", "voice"))
    assert f"elite:next:{channel.id}:0" in status.view.custom_ids()
    assert f"elite:plus:{channel.id}" in status.view.custom_ids()


async def test_a_double_clicked_next_moves_the_game_on_once(rig: Any) -> None:
    cog, channel, _, storage = rig
    status = await start_game(cog, channel)
    applied, refused = await double_click(cog, channel, "next")
    assert len(applied) == 1 and len(refused) == 1 and refused_as_done(refused[0])
    game = cog.sessions[channel.id].game
    assert (game.round, game.phase) == (1, "event")
    state = await stored(storage, channel)
    assert steps(state, "next") == 1 and state[MOVES_KEY] == 1 and state["game"]["phase"] == "event"
    assert shown(status, "next") == 1  # the answer drew the buttons with the new count
    # A fresh press (from the message as it is now) works, and so on to the Action Phase.
    for phase in ("spawn", "action"):
        applied, refused = await double_click(cog, channel, "next")
        assert len(applied) == 1 and refused_as_done(refused[0])
        assert cog.sessions[channel.id].game.phase == phase
    state = await stored(storage, channel)
    assert steps(state, "next") == 3 and state[MOVES_KEY] == 3


async def test_start_and_pause_double_clicked_apply_once(rig: Any) -> None:
    cog, channel, _, storage = rig
    status = await start_game(cog, channel)
    for _ in range(3):
        await click(cog, channel, "next", shown(status, "next"))
    applied, refused = await double_click(cog, channel, "start")
    assert len(applied) == 1 and refused_as_done(refused[0])  # not the engine's "cannot start"
    # Pause toggles: a double click used to pause and resume at once.
    applied, refused = await double_click(cog, channel, "pause")
    assert len(applied) == 1 and refused_as_done(refused[0])
    timer = cog.sessions[channel.id].game.timer
    assert timer is not None and timer.state == "paused"
    state = await stored(storage, channel)
    assert [a[1] for a in state["actions"] if a[1] in ("start", "pause", "resume")] == ["start", "pause"]
    applied, refused = await double_click(cog, channel, "pause")  # the fresh button resumes
    assert len(applied) == 1 and refused_as_done(refused[0])
    timer = cog.sessions[channel.id].game.timer  # each step restores the stored game: read it again
    assert timer is not None and timer.state == "running"
    # ±15 s carry no count: presses add up however fast they come.
    await asyncio.gather(*(click(cog, channel, "plus", shown(status, "plus")) for _ in range(3)))
    assert steps(await stored(storage, channel), "adjust") == 3
    for task in list(cog.tasks.values()):
        task.cancel()


async def test_a_press_from_an_outdated_status_message_is_refused_and_changes_nothing(rig: Any) -> None:
    cog, channel, _, storage = rig
    status = await start_game(cog, channel)
    drawn = shown(status, "next")
    await click(cog, channel, "next", drawn)
    before = await stored(storage, channel)
    for action in ("next", "start", "pause", "victory", "stop"):
        late = await click(cog, channel, action, drawn)
        assert refused_as_done(late), action
    after = await stored(storage, channel)
    assert after["actions"] == before["actions"] and after[MOVES_KEY] == 1
    assert cog.sessions[channel.id].game.phase == "event"
    # Defeat asks the cause first: an outdated press is refused before the picker opens.
    late = await click(cog, channel, "defeat", drawn)
    assert refused_as_done(late)


async def test_endings_double_clicked_end_the_game_once(rig: Any) -> None:
    cog, channel, _, storage = rig
    for ending in ("victory", "stop"):
        await start_game(cog, channel, mission="recon")
        if ending == "victory":  # declared at the End of Round: a round with its timer run out
            status = cog.status_messages[channel.id]
            for _ in range(3):
                await click(cog, channel, "next", shown(status, "next"))
            await click(cog, channel, "start", shown(status, "start"))
            await asyncio.wait_for(cog.tasks[channel.id], timeout=5)  # its sleeps move the clock
            for _ in range(2):
                await click(cog, channel, "next", shown(status, "next"))
            assert cog.sessions[channel.id].game.phase == "end_of_round"
        applied, refused = await double_click(cog, channel, ending)
        assert len(applied) == 1 and len(refused) == 1, ending
        assert refused[0].response.calls[0][2]["ephemeral"]
        assert cog.sessions[channel.id].game.phase == "over"
        for task in list(cog.tasks.values()):
            task.cancel()
    rows = await EliteStore(storage).rows(42)
    assert sorted(r["result"] for r in rows) == ["abandoned", "victory"]  # one row per ending


async def test_defeat_pickers_from_a_double_click_end_the_game_once(rig: Any) -> None:
    cog, channel, _, storage = rig
    status = await start_game(cog, channel, mission="recon")
    move = shown(status, "defeat")
    pickers: list[CausePicker] = []
    for _ in range(2):  # the Defeat button opens a private picker: both presses get one
        opened = await click(cog, channel, "defeat", move)
        picker = opened.response.calls[0][2]["view"]
        assert isinstance(picker, CausePicker) and picker.move == move
        pickers.append(picker)
    picks = [ix(channel) for _ in pickers]
    for picker in pickers:
        picker.select._values = ["hero_died"]
    await asyncio.gather(*(p._picked(i) for p, i in zip(pickers, picks, strict=True)))
    said = [str(i.response.calls[0][1]) for i in picks]
    ended = [s for s in said if s not in ("No game is running here.", "The game is over.")]
    assert len(ended) == 1 and "Defeat" in ended[0], said  # one defeat; the other pick hears it is over
    assert [r["result"] for r in await EliteStore(storage).rows(42)] == ["defeat"]
    # A picker opened before the game moved on is refused.
    await start_game(cog, channel, mission="recon")
    status = cog.status_messages[channel.id]
    opened = await click(cog, channel, "defeat", shown(status, "defeat"))
    picker = opened.response.calls[0][2]["view"]
    await click(cog, channel, "next", shown(status, "next"))
    picker.select._values = ["hero_died"]
    late = ix(channel)
    await picker._picked(late)
    assert str(late.response.calls[0][1]).startswith(ALREADY)
    assert cog.sessions[channel.id].game.phase == "event" and len(await EliteStore(storage).rows(42)) == 1


async def test_ids_without_the_move_count_act_on_the_game_as_it_is(rig: Any) -> None:
    """Status messages posted before ids carried the count: each press is a step, as it was."""
    cog, channel, _, storage = rig
    await start_game(cog, channel)
    for _ in range(2):
        answer = await press(cog, channel, "next")  # on_button without a move count
        assert answer.response.calls[0][0] == "edit"
    assert cog.sessions[channel.id].game.phase == "spawn"
    assert steps(await stored(storage, channel), "next") == 2


async def test_every_edit_of_the_status_message_draws_the_current_count(rig: Any) -> None:
    """The click's answer, a timer call's refresh and a peek's refresh all show buttons whose
    count is the stored one, so the next fresh press is never refused."""
    cog, channel, _, storage = rig
    status = await start_game(cog, channel, mission="exploration")
    for _ in range(3):
        await click(cog, channel, "next", shown(status, "next"))
    await click(cog, channel, "start", shown(status, "start"))
    status.view = None  # the next edit must draw the buttons, not keep these
    while not any("1:30" in e for e in status.edits):  # the timer task's refresh at the 1:30 call
        await asyncio.sleep(0)
    assert shown(status, "next") == 4 == (await stored(storage, channel))[MOVES_KEY]
    status.view = None
    peek = await click(cog, channel, "peek", None, user=7)
    picker = peek.response.calls[0][2]["view"]
    picker.select._values = [picker.select.options[0].value]
    await picker._picked(ix(channel, user=7))
    assert shown(status, "pause") == 4
    paused = await click(cog, channel, "pause", shown(status, "pause"))
    assert paused.response.calls[0][0] == "edit" and shown(status, "pause") == 5
    for task in list(cog.tasks.values()):
        task.cancel()


async def test_a_restart_keeps_the_status_buttons_valid(rig: Any) -> None:
    """The pause a clean stop makes is not the crew's move: after the restart the status
    message's Pause button (drawn before it) resumes the timer."""
    cog, channel, clock, storage = rig
    status = await start_game(cog, channel)
    for _ in range(3):
        await click(cog, channel, "next", shown(status, "next"))
    await click(cog, channel, "start", shown(status, "start"))
    drawn = shown(status, "pause")
    await cog.cog_unload()
    assert (await stored(storage, channel))[MOVES_KEY] == drawn == 4
    again = new_cog(storage, clock)
    await again.cog_load()
    assert again.sessions[channel.id].game.timer.state == "paused"  # type: ignore[union-attr]
    resumed = await click(again, channel, "pause", drawn)
    assert resumed.response.calls[0][0] == "edit"
    assert again.sessions[channel.id].game.timer.state == "running"  # type: ignore[union-attr]
    twice = await click(again, channel, "pause", drawn)
    assert refused_as_done(twice)
    for task in list(again.tasks.values()):
        task.cancel()


def test_the_move_count_counts_the_crews_moves_only() -> None:
    state: dict[str, Any] = {}
    assert moves(state) == 0  # a document stored before moves were counted
    for step, args in (("next", []), ("adjust", [15]), ("poll", []), ("pause", ["restart"]), ("pause", [])):
        count_move(state, step, args)
    assert moves(state) == 2
    for step in ("peek", "reveal", "roll"):
        count_move(state, step, [])
    assert moves(state) == 2
