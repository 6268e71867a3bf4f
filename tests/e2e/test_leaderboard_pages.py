"""/leaderboard's paged boards, clicked as players click them: Next, Next, Previous, a double press,
in two languages; then the campaigns' board and every public server's board.

Why seeded: 25 surviving flights of one mission make three pages (ten a page), and flying 25
flights would take an hour (12 finished campaigns, two pages, likewise).  They are written through
the storage API into the bot's own SQLite file before the bot starts, as the bot itself would have
written their logbook lines and campaign rows.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.games.space_alert.campaign.storage import CampaignRecord, Campaigns
from bot.games.space_alert.logbook import Logbook, LogbookCrew, LogbookEntry
from bot.games.space_alert.stats._text import tx
from bot.platform.hosting._text import tx as hosting_tx
from bot.platform.storage import SqliteStorage
from tests.e2e.harness import ADMIN_WORLD as WORLD
from tests.e2e.harness import WAIT, answer, assert_clean, fake_discord, private, start_bot

pytestmark = pytest.mark.e2e

FLIGHTS = 25  # three pages: 10, 10, 5
CAMPAIGNS = 12  # two pages: 10, 2
MISSION = "S1-2"


def crew_of(n: int) -> str:
    return f"Pilot {n:02}"


async def seed(database: Path, guild_id: int, channel_id: int) -> None:
    """FLIGHTS surviving S1-2 flights (white/white) of this server: flight n scored 100 - n, so
    the board's order is flight 1, 2, 3, ...; plus a lost one and one of other difficulties,
    which the board must leave out."""
    database.parent.mkdir(parents=True, exist_ok=True)
    storage = SqliteStorage(str(database))
    await storage.open()
    try:
        for n in range(1, FLIGHTS + 3):
            outcome = "destroyed" if n == FLIGHTS + 1 else "survived"
            serious = "yellow" if n == FLIGHTS + 2 else "white"
            await Logbook(storage).add(
                LogbookEntry(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    flown_at=f"2026-11-{1 + n % 20:02}T20:00:00+00:00",
                    mission_id=MISSION,
                    normal_difficulty="white",
                    serious_difficulty=serious,
                    language="en",
                    outcome=outcome,
                    crew=[LogbookCrew(name=crew_of(n), user_id=9_000 + n, roles=["captain"])],
                    result={"outcome": outcome, "score": {"total": 100 - n}},
                    total=100 - n,
                )
            )
        for n in range(1, CAMPAIGNS + 1):  # finished campaigns, campaign n with total 200 - n
            await Campaigns(storage).save(
                CampaignRecord(
                    id=f"camp{n:04}",
                    guild_id=guild_id,
                    channel_id=channel_id + n,  # (one running campaign a channel; these are over)
                    state={},
                    status="finished",
                    missions=3,
                    total=200 - n,
                    crew=[(9_500 + n, f"Crew {n:02}")],
                    started_at=f"2026-10-{n:02}T20:00:00+00:00",
                    finished_at=f"2026-10-{n:02}T23:00:00+00:00",
                )
            )
    finally:
        await storage.close()


def shown(message: Any) -> list[str]:
    """The crews the page lists, top to bottom."""
    return [line.split(" · ")[1] for line in message.embeds[0]["description"].splitlines()]


def footer(message: Any) -> str:
    return str(message.embeds[0]["footer"]["text"])


def buttons(message: Any) -> dict[str, Any]:
    """Previous and Next by their label."""
    return {b["label"]: b for b in message.buttons}


def page_says(lang: str, n: int, pages: int = 3, count: int = FLIGHTS, scope: str = "stats.scope_here") -> str:
    """The footer of page `n` (from 1) of a board."""
    return tx(lang, "board.page", page=n, pages=pages, count=count, scope=tx(lang, scope))


def expected(page: int) -> list[str]:
    return [crew_of(n) for n in range(page * 10 + 1, min(FLIGHTS, page * 10 + 10) + 1)]


async def turn_page(fd: Any, message: Any, key: str, user: str, lang: str) -> Any:
    """`user` presses the button labelled `key` ("board.prev" / "board.next") in `lang`; returns
    the board as it reads once the press is answered."""
    ix = await fd.click(message, buttons(message)[tx(lang, key)]["custom_id"], user=user)
    assert ix.acked and ix.errors == [], ix.errors
    return fd.world.messages_by_id[message.id]


async def test_previous_and_next_page_through_three_pages_in_two_languages(tmp_path: Path) -> None:
    async with fake_discord(WORLD) as fd:
        bridge = fd.world.channel("bridge")
        await seed(tmp_path / "bot" / "bot.sqlite3", bridge.guild_id, bridge.id)
        await start_bot(fd, tmp_path / "bot", time_scale=60)

        for lang, user, other in (("en", "bob", "erin"), ("ru", "carol", "dave")):
            if lang != "en":
                ix = await fd.slash("settings set", {"key": "language", "value": lang}, user="alice")
                assert (await private(fd, ix)).text == hosting_tx(lang, "saved", key="language", value=lang)
            prev, nxt = tx(lang, "board.prev"), tx(lang, "board.next")
            board = await answer(fd, await fd.slash("leaderboard", {"mission": MISSION}, user=user, channel="bridge"))
            assert not board.ephemeral  # a board the whole channel pages through
            assert board.embeds[0]["title"] == tx(lang, "board.title", mission=MISSION, normal="white", serious="white")
            assert shown(board) == expected(0) and footer(board) == page_says(lang, 1)
            assert buttons(board)[prev]["disabled"] and not buttons(board)[nxt]["disabled"]
            assert board.embeds[0]["description"].splitlines()[0].startswith(f"**1.** {100 - 1} · {crew_of(1)}")

            board = await turn_page(fd, board, "board.next", user, lang)
            assert shown(board) == expected(1) and footer(board) == page_says(lang, 2)
            assert board.embeds[0]["description"].splitlines()[0].startswith("**11.** ")
            # Another member (no role at all) pages on: the board is the channel's, not its caller's.
            board = await turn_page(fd, board, "board.next", other, lang)
            assert shown(board) == expected(2) and footer(board) == page_says(lang, 3)
            assert buttons(board)[nxt]["disabled"] and not buttons(board)[prev]["disabled"]
            board = await turn_page(fd, board, "board.prev", user, lang)
            assert shown(board) == expected(1) and footer(board) == page_says(lang, 2)

            # A stale press: two clicks on page 2's Next at once (a double click, or two members)
            # both land on page 3, never past the end.
            next_id = buttons(board)[nxt]["custom_id"]
            both = [await fd.click(board, next_id, user=u, wait=False) for u in (user, other)]
            await asyncio.gather(*(fd.wait_for(lambda ix=ix: ix.acked, WAIT, "a press answered") for ix in both))
            board = fd.world.messages_by_id[board.id]
            assert shown(board) == expected(2) and footer(board) == page_says(lang, 3)

        # The campaigns' board pages the same way (in Russian, as the server is now).
        ix = await fd.slash("leaderboard", {"campaigns": True}, user="bob", channel="bridge")
        board = await answer(fd, ix)
        assert board.embeds[0]["title"] == tx("ru", "board.campaigns")
        crews = [f"Crew {n:02}" for n in range(1, CAMPAIGNS + 1)]
        assert shown(board) == crews[:10] and footer(board) == page_says("ru", 1, 2, CAMPAIGNS)
        board = await turn_page(fd, board, "board.next", "erin", "ru")
        assert shown(board) == crews[10:] and footer(board) == page_says("ru", 2, 2, CAMPAIGNS)
        assert board.embeds[0]["description"].splitlines()[0].startswith("**11.** ")
        board = await turn_page(fd, board, "board.prev", "bob", "ru")
        assert shown(board) == crews[:10]

        # Every public server's board, once this server's board is public: the same flights.
        ix = await fd.slash("settings set", {"key": "leaderboard", "value": "public"}, user="alice")
        await private(fd, ix)
        ix = await fd.slash("leaderboard", {"mission": MISSION, "everywhere": True}, user="carol", channel="bridge")
        board = await answer(fd, ix)
        assert shown(board) == expected(0) and footer(board) == page_says("ru", 1, scope="stats.scope_all")
        board = await turn_page(fd, board, "board.next", "carol", "ru")
        assert shown(board) == expected(1) and footer(board) == page_says("ru", 2, scope="stats.scope_all")
        assert_clean(fd)
