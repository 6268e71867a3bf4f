"""Live hands: redraws are merged to one edit per interval, and an expired token is let go."""

from __future__ import annotations

import asyncio
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord

from bot.games.space_alert.mission._hands import TOKEN_LIFETIME_S, LiveHands
from bot.games.space_alert.mission._station import Selection
from tests.bot.helpers import http_error


def _interaction() -> Any:
    inter = MagicMock(spec=discord.Interaction)
    inter.edit_original_response = AsyncMock()
    return inter


async def test_changes_close_together_make_one_edit_per_interval() -> None:
    renders: list[str] = []

    async def render(fid: str, uid: int, sel: Selection) -> Any:
        renders.append(sel.key)
        return discord.Embed(title="station"), discord.ui.View()

    hands = LiveHands(render)
    hands.interval = 0.2
    inter = _interaction()
    hands.remember("f", 1, inter, Selection("t3"))
    started = asyncio.get_running_loop().time()
    for _ in range(5):  # five changes within a few milliseconds
        hands.changed("f", {1, 2})  # 2 never opened a station: nothing to edit
        await asyncio.sleep(0.001)
    await asyncio.gather(*hands.tasks())
    # the first change is shown at once, the four after it together, one interval later
    assert inter.edit_original_response.await_count == 2
    assert asyncio.get_running_loop().time() - started >= 0.15
    assert renders == ["t3", "t3"]  # with the selection the player had


async def test_an_expired_token_is_dropped_and_old_hands_are_not_touched() -> None:
    async def render(fid: str, uid: int, sel: Selection) -> Any:
        return discord.Embed(title="station"), discord.ui.View()

    now = [0.0]
    hands = LiveHands(render, clock=lambda: now[0])
    hands.interval = 0.0
    expired = _interaction()
    expired.edit_original_response.side_effect = http_error(404)
    hands.remember("f", 1, expired, Selection())
    hands.changed("f", {1})
    await asyncio.gather(*hands.tasks())
    hands.changed("f", {1})  # forgotten after the failed edit: no second try
    assert hands.tasks() == [] and expired.edit_original_response.await_count == 1

    old = _interaction()
    hands.remember("f", 2, old, Selection())
    now[0] = TOKEN_LIFETIME_S + 1  # 15 minutes later: the token is dead, do not even try
    hands.changed("f", {2})
    assert hands.tasks() == [] and old.edit_original_response.await_count == 0
