"""Seats, ownership and units of work as players meet them: the ELITE host's controls against a
second member, a second `/elite start`, a non-admin `/elite-admin pack`, and four campaign voters
pressing the same button at the same instant (every acknowledged press stored)."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import WAIT, answer, assert_clean, cid, fake_discord, start_bot

pytestmark = pytest.mark.e2e
OPTIONS = {"map": "abandoned_lab", "mission": "extermination", "difficulty": "easy", "players": 2}


async def open_elite(fd: Any, host: str) -> Any:
    ix = await fd.slash("elite start", OPTIONS, user=host, channel="bridge")
    picker = await answer(fd, ix)
    await fd.click(picker, picker.custom_ids[0], user=host, values=["kinje", "kara"])
    return await fd.wait_for_message(
        "Project: ELITE", channel="bridge", predicate=lambda m: bool(m.buttons), timeout=WAIT
    )


async def test_elite_is_the_hosts_game(tmp_path: Path) -> None:
    async with fake_discord() as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=20)
        status = await open_elite(fd, "bob")  # bob hosts; alice owns the server (Manage Server)

        def press(action: str, user: str) -> Any:  # the button as the status message shows it now
            message = fd.world.messages_by_id[status.id]
            return fd.click(message, cid(message, action), user=user)

        for action in ("stop", "victory", "next", "plus"):
            refused = await answer(fd, await press(action, "carol"))
            assert refused.ephemeral and "only the host of this game" in refused.text, action
        assert fd.world.messages_by_id[status.id].buttons  # the game goes on, its buttons too
        again = await answer(fd, await fd.slash("elite start", OPTIONS, user="carol", channel="bridge"))
        assert again.ephemeral and "already" in again.text.lower()
        step = await press("next", "bob")  # the host's press is a step of the game
        assert step.ack_type == 7
        by_admin = await press("next", "alice")  # Manage Server may step in
        assert by_admin.ack_type == 7
        assert (await press("next", "bob")).ack_type == 7  # the Action Phase
        # four presses of +15 s at the same instant: every acknowledged one is in the stored game
        pressers = ("bob", "alice", "bob", "alice")
        presses = await asyncio.gather(*(press("plus", u) for u in pressers))
        acknowledged = sum(1 for ix in presses if ix.acked and ix.ack_type == 7)
        assert acknowledged == 4
        with sqlite3.connect(tmp_path / "bot" / "bot.sqlite3") as db:
            (state,) = db.execute("SELECT state FROM game_sessions WHERE game = 'elite'").fetchone()
        assert [a[1] for a in json.loads(state)["actions"]].count("adjust") == acknowledged
        stopped = await press("stop", "bob")
        assert stopped.acked and not fd.world.messages_by_id[status.id].buttons
        assert_clean(fd)


async def test_only_admins_load_an_elite_pack(tmp_path: Path) -> None:
    async with fake_discord() as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=20)
        registered = {c["name"]: c for c in fd.commands()}
        assert int(registered["elite-admin"]["default_member_permissions"]) == 1 << 5  # Manage Server
        assert "pack" not in {o["name"] for o in registered["elite"].get("options", [])}
        pack = json.dumps({"swarm_spawn": [{"type": "hound", "count": 2, "cluster": 3}]}).encode()
        refused = await answer(fd, await fd.slash("elite-admin pack", {"file": ("pack.json", pack)}, user="bob"))
        assert refused.ephemeral and "Manage Server" in refused.text
        loaded = await answer(fd, await fd.slash("elite-admin pack", {"file": ("pack.json", pack)}, user="alice"))
        assert loaded.ephemeral and "1 swarm spawn cards" in loaded.text
        assert_clean(fd)


async def test_simultaneous_campaign_votes_are_all_stored(tmp_path: Path) -> None:
    async with fake_discord() as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=20)
        crew = {"p2": "bob", "p3": "carol", "p4": "dave"}
        opened = await answer(fd, await fd.slash("campaign start", crew, user="alice", channel="bridge"))
        white = next(c for c in opened.custom_ids if c.endswith(":common:white"))
        stranger = await answer(fd, await fd.click(opened, white, user="erin"))
        assert stranger.ephemeral and "only members seated in this game" in stranger.text
        voters = ("alice", "bob", "carol", "dave")
        presses = await asyncio.gather(*(fd.click(opened, white, user=u) for u in voters))
        acknowledged = [u for u, ix in zip(voters, presses, strict=True) if ix.acked and ix.ack_type == 7]
        assert len(acknowledged) == 4
        with sqlite3.connect(tmp_path / "bot" / "bot.sqlite3") as db:
            (state,) = db.execute("SELECT state FROM campaigns WHERE status = 'running'").fetchone()
        votes = json.loads(state)["session"]["votes"]["common"]
        assert sorted(votes) == sorted(str(fd.user(u).id) for u in acknowledged)
        assert set(votes.values()) == {"white"}
        second = await answer(fd, await fd.slash("campaign start", {}, user="bob", channel="bridge"))
        assert second.ephemeral and "already" in second.text.lower()
        not_host = await answer(fd, await fd.slash("campaign end", {}, user="erin", channel="bridge"))
        assert not_host.ephemeral and "only the host of this game" in not_host.text
        ended = await answer(fd, await fd.slash("campaign end", {}, user="alice", channel="bridge"))
        assert not ended.ephemeral and "before its first mission" in ended.text
        assert_clean(fd)
