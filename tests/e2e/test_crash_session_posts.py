"""The bot process dies between a game session's commit and its sends (issue 25), deterministically:
the platform's fault hook (SESSION_POSTS_FAULT, once per flag file) ends the process at the first
outbox row, before its send or right after it, when a Scarlet Legion voyage begins.  The deal
committed the first ping; the voyage log's first lines were committed with the thread's id.  The
process started after the crash sends what is missing and nothing twice: one ping, one log start.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.platform.i18n import t
from tests.e2e.harness import REPO, WAIT, bot_env, fake_discord, start_bot
from tests.e2e.test_legion import CREW, MISSION, SEED, WORLD, custom_id

pytestmark = pytest.mark.e2e

SETTLE_S = 2.0  # after the resume: long enough for a duplicate to show, were one sent


@pytest.mark.parametrize("where", ["before_send", "after_send"])
async def test_a_voyage_begun_by_a_process_that_dies_mid_send_posts_once(tmp_path: Path, where: str) -> None:
    flag = tmp_path / "fault-fired"
    async with fake_discord(WORLD) as fd:
        env = bot_env(tmp_path / "bot", time_scale=30) | {
            "SESSION_POSTS_FAULT": where,
            "SESSION_POSTS_FAULT_FLAG": str(flag),
        }
        first = fd.start_bot("bot", env=env, cwd=str(REPO))
        await fd.wait_ready(timeout=WAIT, commands=["mission", "elite"])
        await fd.slash(
            "legion start", {"mission": MISSION, "language": "en", "seed": SEED}, user="alice", channel="bridge"
        )
        lobby = await fd.wait_for_message(
            channel="bridge", predicate=lambda m: any(":join:" in c for c in m.custom_ids), timeout=WAIT
        )
        for user in CREW[1:]:
            await fd.click(lobby, custom_id(lobby, "join"), user=user)
        await fd.click(lobby, custom_id(lobby, "begin"), user="alice")
        # The process ends itself at the first outbox row (the deal's ping).
        await fd.world.notifier.wait_for(lambda: not fd.gateway.is_ready(), WAIT, "the process to die")
        await fd.stop_bot(first)
        assert flag.exists(), "the fault never fired"
        bridge = fd.world.messages_by_id[lobby.id]
        thread = fd.thread_of(bridge)
        assert thread is not None  # created before the crash; its id was committed with the log lines

        await start_bot(fd, tmp_path / "bot", time_scale=30)  # the successor, without the fault
        ping_words = t("en", "legion.ping", who="", what="").split("(")[0].strip(": ")
        start_line = t("en", "legion.log.start")

        def pings() -> list[Any]:
            return [m for m in fd.messages("bridge") if m.author_id == fd.world.bot.id and ping_words in m.text]

        def starts() -> list[Any]:
            return [m for m in fd.messages(thread.id) if start_line in m.text]

        await fd.wait_for(lambda: pings() and starts(), WAIT, "the ping and the log's first lines")
        await asyncio.sleep(SETTLE_S)
        assert len(pings()) == 1, [m.text for m in pings()]
        assert len(starts()) == 1, [m.text for m in starts()]
