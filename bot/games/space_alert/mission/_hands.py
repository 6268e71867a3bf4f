"""Hands that update themselves: each player's latest station message is edited when the game
changes something for them (incoming data, a data transfer, a card given to them, a phase end).

A station is an ephemeral message, which only the interaction that made it can edit, and only
for 15 minutes.  So the last interaction that drew each player's station is kept (with the
selection it showed), and a change queues a redraw through it.  Redraws never run on the flight's
clock: they are background tasks, at most one edit per player per `interval` seconds, merged when
several changes come close together.  Once the token has expired (or Discord refuses the edit)
the entry is dropped, and the player's next click draws a fresh station as before.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.games.space_alert.mission._respond import FOREGROUND
from bot.games.space_alert.mission._station import Selection

log = logging.getLogger(__name__)

TOKEN_LIFETIME_S = 15 * 60 - 30  # Discord's 15 minutes, less a margin for the request itself
EDIT_INTERVAL_S = 1.0

# (flight id, user id, selection) -> the station's embed and view, or None (flight over / not crew)
Render = Callable[[str, int, Selection], Awaitable[tuple[discord.Embed, discord.ui.View] | None]]


@dataclass
class _Hand:
    interaction: discord.Interaction
    selection: Selection
    opened: float
    last_edit: float = 0.0
    task: asyncio.Task[None] | None = None
    dirty: bool = False
    history: list[float] = field(default_factory=list)  # when the edits went out (tests read it)


class LiveHands:
    def __init__(self, render: Render, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.render = render
        self.clock = clock
        self.interval = EDIT_INTERVAL_S
        self._hands: dict[tuple[str, int], _Hand] = {}

    def remember(self, flight_id: str, user_id: int, interaction: discord.Interaction, selection: Selection) -> None:
        """`interaction` just drew this player's station: later changes edit its message."""
        old = self._hands.get((flight_id, user_id))
        hand = _Hand(interaction, selection, self.clock())
        if old is not None:
            hand.last_edit, hand.task, hand.dirty = old.last_edit, old.task, old.dirty
        self._hands[(flight_id, user_id)] = hand

    def changed(self, flight_id: str, user_ids: set[int]) -> None:
        """Something changed for these players: redraw their stations soon (returns at once)."""
        for user_id in user_ids:
            hand = self._hands.get((flight_id, user_id))
            if hand is None:
                continue
            if self.clock() - hand.opened > TOKEN_LIFETIME_S:
                del self._hands[(flight_id, user_id)]
                continue
            hand.dirty = True
            if hand.task is None or hand.task.done():
                hand.task = asyncio.create_task(self._redraw(flight_id, user_id), name=f"hand-{flight_id}-{user_id}")

    def forget(self, flight_id: str) -> None:
        for key in [k for k in self._hands if k[0] == flight_id]:
            hand = self._hands.pop(key)
            if hand.task is not None and not hand.task.done():
                hand.task.cancel()

    def tasks(self) -> list[asyncio.Task[None]]:
        return [h.task for h in self._hands.values() if h.task is not None and not h.task.done()]

    async def _redraw(self, flight_id: str, user_id: int) -> None:
        key = (flight_id, user_id)
        while (hand := self._hands.get(key)) is not None and hand.dirty:
            wait = hand.last_edit + self.interval - self.clock()
            if wait > 0:
                await asyncio.sleep(wait)
            await FOREGROUND.quiet()  # the answers to clicks go out first
            hand = self._hands.get(key)
            if hand is None:
                return
            hand.dirty = False
            drawn = await self.render(flight_id, user_id, hand.selection)
            if self._hands.get(key) is not hand:
                continue  # the player's click drew the station meanwhile, with their new selection
            if drawn is None:
                self._hands.pop(key, None)
                return
            embed, view = drawn
            try:
                await hand.interaction.edit_original_response(embed=embed, view=view)
            except discord.HTTPException as exc:  # the token expired (401/404) or the message is gone
                log.info("flight %s: cannot refresh the station of %s: %s", flight_id, user_id, exc)
                if self._hands.get(key) is hand:
                    del self._hands[key]
                return
            hand.last_edit = self.clock()
            hand.history.append(hand.last_edit)

    def edits(self, flight_id: str, user_id: int) -> list[Any]:
        hand = self._hands.get((flight_id, user_id))
        return list(hand.history) if hand is not None else []
