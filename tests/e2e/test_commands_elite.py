"""Project: ELITE's commands and every control of its status message, on a Russian server, against
the real bot: /elite roll, /elite schema and /elite board before, during and after games; the
director's buttons (Next, Start, Pause, −15 s, +15 s, Peek and Reveal with their token pickers,
Defeat with its cause picker, Victory) pressed by the host and by members who are not the host.

Why the literal texts: the words are what a player reads; this scenario must keep passing when
the texts move between modules, and fail when a Russian server is answered in English.
"""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.platform.hosting._text import tx
from bot.platform.i18n import t
from tests.e2e.harness import ADMIN_WORLD as WORLD
from tests.e2e.harness import WAIT, answer, assert_clean, cid, fake_discord, public, start_bot

pytestmark = pytest.mark.e2e

CYRILLIC = re.compile(r"[а-яё]", re.I)
# The director's own words on a Russian server (what players read; English would be a bug).
NO_GAME_RU = "Здесь не идёт игра."
BOARD_EMPTY_RU = "Здесь ещё не закончилась ни одна игра ELITE."
PICK_RU = "Выберите Героев: 2."


async def private(fd: Any, ix: Any) -> Any:
    message = await answer(fd, ix)
    assert message.ephemeral and message.visible_to == ix.user_id, message
    return message


async def start_game(fd: Any, mission: str) -> Any:
    """alice sets a game up (two heroes) and gets the public status message with its controls."""
    before = {m.id for m in public(fd)}
    options = {"map": "crash_site", "mission": mission, "difficulty": "easy", "players": 2}
    picker = await private(fd, await fd.slash("elite start", options, user="alice", channel="bridge"))
    assert picker.text == PICK_RU, picker.text
    await fd.click(picker, picker.custom_ids[0], user="alice", values=["kinje", "kara"])
    return await fd.wait_for_message(
        "Project: ELITE",
        channel="bridge",
        predicate=lambda m: bool(m.buttons) and m.id not in before,
        timeout=WAIT,
    )


async def test_elite_commands_and_controls_by_host_and_strangers_in_russian(tmp_path: Path) -> None:
    async with fake_discord(WORLD) as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=20)
        ix = await fd.slash("settings set", {"key": "language", "value": "ru"}, user="alice", channel="bridge")
        assert (await private(fd, ix)).text == tx("ru", "saved", key="language", value="ru")

        # Before any game: roll has nothing to roll for, the board is empty, the schema is a file.
        ix = await fd.slash("elite roll", {"alien": "hound", "in_range": "kinje 1"}, user="bob", channel="bridge")
        assert (await private(fd, ix)).text == NO_GAME_RU
        assert (await private(fd, await fd.slash("elite board", user="bob", channel="bridge"))).text == BOARD_EMPTY_RU
        schema = await private(fd, await fd.slash("elite schema", user="carol", channel="bridge"))
        assert CYRILLIC.search(schema.text), schema.text
        assert [a.filename for a in schema.attachments] == ["elite-pack.schema.json"]
        assert "properties" in json.loads(schema.attachments[0].data)

        # An exploration game: its tokens can be peeked at and revealed.
        status = await start_game(fd, "exploration")
        # The director joins the host's voice channel; like a person, wait for it before going on.
        await fd.wait_for(lambda: fd.voice.packets, WAIT, "the director's voice connection")

        def press(action: str, user: str = "alice") -> Any:  # the button as the status message shows it now
            message = fd.world.messages_by_id[status.id]
            return fd.click(message, cid(message, action), user=user)

        # Every control, pressed by a member who is not the host: refused privately, in Russian.
        # (Peek is every player's: a hero's player looks at a token, privately; tried below.)
        for action in ("next", "start", "pause", "minus", "plus", "reveal", "victory", "defeat", "stop", "voice"):
            refused = await private(fd, await press(action, user="bob"))
            assert refused.text == t("ru", "permissions.host"), (action, refused.text)
        ix = await fd.slash("elite roll", {"alien": "hound", "in_range": "kinje 1"}, user="bob", channel="bridge")
        assert (await private(fd, ix)).text == t("ru", "permissions.host")
        # A second wizard in the same channel does not replace the running game.
        again = await private(
            fd,
            await fd.slash(
                "elite start",
                {"map": "crash_site", "mission": "recon", "difficulty": "easy", "players": 2},
                user="carol",
                channel="bridge",
            ),
        )
        assert CYRILLIC.search(again.text) and again.custom_ids == [], again.text

        for _ in range(3):  # event phase, alien spawn, action phase
            assert (await press("next")).ack_type == 7  # the host's click edits the status itself
        started = await press("start")
        assert started.ack_type == 7
        for action in ("minus", "plus", "pause", "pause"):  # the second Pause resumes
            assert (await press(action)).ack_type == 7, action

        # Peek: a private token picker, then a private answer; Reveal: the picker, then a public line.
        picker = await private(fd, await press("peek", user="bob"))
        cells = [o["value"] for o in picker.find_component(picker.custom_ids[0])["options"]]
        peeked = await fd.click(picker, picker.custom_ids[0], user="bob", values=[cells[0]])
        assert peeked.message.ephemeral and peeked.message.visible_to == fd.world.user("bob").id
        assert CYRILLIC.search(peeked.message.text), peeked.message.text
        picker = await private(fd, await press("reveal"))
        before = len(public(fd))
        revealed = await fd.click(picker, picker.custom_ids[0], user="alice", values=[cells[0]])
        assert revealed.message.text == "Раскрыто.", revealed.message.text
        await fd.wait_for(lambda: len(public(fd)) > before, WAIT, "the revealed token's public line")

        # The host rolls for an alien: a public answer in Russian.
        ix = await fd.slash("elite roll", {"alien": "hound", "in_range": "kinje 1", "hit_value": 4}, user="alice")
        rolled = await answer(fd, ix)
        assert CYRILLIC.search(rolled.text), rolled.text

        # Defeat: the cause picker (private), then the game is over and its controls are gone.
        picker = await private(fd, await press("defeat"))
        causes = [o["value"] for o in picker.find_component(picker.custom_ids[0])["options"]]
        assert "time" in causes
        over = await fd.click(picker, picker.custom_ids[0], user="alice", values=["time"])
        assert CYRILLIC.search(over.message.text), over.message.text
        await fd.wait_for(lambda: fd.world.messages_by_id[status.id].custom_ids == [], WAIT, "the controls to go")
        late = await private(fd, await fd.slash("elite roll", {"alien": "hound", "in_range": "kinje 1"}, user="alice"))
        assert late.text == "Игра окончена.", late.text  # the finished game, not "no game"

        # A second game in the same channel, played to the End of Round and won there: Victory
        # before it is refused (privately), as the rulebook checks victory at the round's end.
        status = await start_game(fd, "extermination")
        # (No waiting for the director's voice: the host presses while it joins and renders its
        # calls, and the previous game's end, still speaking, must not stop this game's clock.)
        early = await private(fd, await press("victory"))
        assert CYRILLIC.search(early.text), early.text
        for _ in range(3):  # event phase, alien spawn, action phase
            assert (await press("next")).ack_type == 7
        assert (await press("start")).ack_type == 7
        for _ in range(8):  # the two minutes, taken off fifteen seconds at a time
            assert (await press("minus")).ack_type == 7
        # The timer task calls time's up on its next poll; until then Next is refused ("still running").
        refusals = []
        for _ in range(60):
            step = await press("next")
            if step.ack_type == 7:
                break
            refusals.append((await answer(fd, step)).text)
            await asyncio.sleep(0.5)
        assert step.ack_type == 7 and set(refusals) <= {"Фаза Действий ещё идёт."}, refusals
        assert (await press("next")).ack_type == 7  # activation -> end of round
        won = await press("victory")
        assert won.ack_type == 7  # the click edits the status: the game is won
        await fd.wait_for(lambda: fd.world.messages_by_id[status.id].custom_ids == [], WAIT, "the controls to go")

        # The won game is stored right after the click's answer: ask the board until it counts it.
        for _ in range(20):
            board = await answer(fd, await fd.slash("elite board", user="dave", channel="bridge"))
            assert not board.ephemeral and "**Project: ELITE — этот сервер**" in board.text, board.text
            if "Игр: 2" in board.text:
                break
            await asyncio.sleep(0.25)
        assert "Игр: 2" in board.text and "Легкий 1" in board.text, board.text  # a defeat and an easy win
        assert_clean(fd)
