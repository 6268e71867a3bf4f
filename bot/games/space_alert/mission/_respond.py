"""Answering interactions inside Discord's 3 seconds without acknowledging before the save.

Two promises pull apart here: a click is acknowledged only after its change is
stored, and every interaction is answered within 3 s.  `Reply` does both: the real answer (which
implies the save happened) goes out as the initial response when the work is quick, and a
watchdog defers the interaction if the work is still running after `DEFER_AFTER` seconds (a long
lock wait, a slow disk), after which the answer goes out as an edit or follow-up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import discord

log = logging.getLogger(__name__)

DEFER_AFTER = 2.0
# Longest a background redraw waits for the interactions being answered to go out.
BACKGROUND_WAIT_S = 1.0


class Foreground:
    """The interactions being answered right now in this process.

    An answer and the work it sets off (the other players' stations redrawn, the flight deck
    edited) share one event loop and one database connection; a player waits for the answer and
    not for the rest, so the rest waits for a moment when no answer is being worked on (at most
    `BACKGROUND_WAIT_S`, so a stream of clicks never starves it)."""

    def __init__(self) -> None:
        self.busy = 0
        self._quiet: asyncio.Event | None = None

    def _event(self) -> asyncio.Event:
        if self._quiet is None:
            self._quiet = asyncio.Event()
            self._quiet.set()
        return self._quiet

    def enter(self) -> None:
        self.busy += 1
        self._event().clear()

    def leave(self) -> None:
        self.busy = max(0, self.busy - 1)
        if self.busy == 0:
            self._event().set()

    async def quiet(self, max_wait: float = BACKGROUND_WAIT_S) -> None:
        """Return when no interaction is being answered, or after `max_wait` seconds."""
        if self.busy == 0:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._event().wait(), max_wait)


FOREGROUND = Foreground()


class Reply:
    """One interaction's answer.  `update=True` edits the clicked message; else a new message."""

    def __init__(self, interaction: discord.Interaction, *, update: bool = False, ephemeral: bool = True) -> None:
        self.interaction = interaction
        self.update = update
        self.ephemeral = ephemeral
        self._watchdog: asyncio.Task[None] | None = None
        self._deferring = False
        self._lock = asyncio.Lock()

    async def __aenter__(self) -> Reply:
        FOREGROUND.enter()
        self._watchdog = asyncio.create_task(self._defer_later())
        return self

    async def __aexit__(self, *exc: object) -> None:
        try:
            await self._stop_watchdog()
        finally:
            FOREGROUND.leave()

    async def _defer_later(self) -> None:
        await asyncio.sleep(DEFER_AFTER)
        self._deferring = True
        async with self._lock:
            if not self.interaction.response.is_done():
                with contextlib.suppress(discord.HTTPException):
                    if self.update:
                        await self.interaction.response.defer()
                    else:
                        await self.interaction.response.defer(ephemeral=self.ephemeral, thinking=True)

    async def _stop_watchdog(self) -> None:
        task = self._watchdog
        if task is None:
            return
        if not self._deferring:
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        self._watchdog = None

    async def send(self, content: str | None = None, **kwargs: Any) -> None:
        """The answer: content/embed/view.  Works whether or not the watchdog deferred first."""
        await self._stop_watchdog()
        await send(self.interaction, content, update=self.update, ephemeral=self.ephemeral, **kwargs)

    async def reject(self, content: str) -> None:
        """A short private explanation; the clicked message is left as it was."""
        await self._stop_watchdog()
        await send(self.interaction, content, update=False, ephemeral=True)


async def send(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    update: bool = False,
    ephemeral: bool = True,
    **kwargs: Any,
) -> None:
    """Respond, edit or follow up, whichever the interaction's state allows."""
    response = interaction.response
    try:
        if not response.is_done():
            if update:
                await response.edit_message(content=content, **kwargs)
            else:
                await response.send_message(content, ephemeral=ephemeral, **kwargs)
        elif update:
            await interaction.edit_original_response(content=content, **kwargs)
        else:
            await interaction.followup.send(content or discord.utils.MISSING, ephemeral=ephemeral, **kwargs)
    except discord.NotFound:
        # 10062: the token died (3-s miss or 15-min expiry); the state is saved, so nothing is lost.
        log.warning("interaction %s expired before it could be answered", interaction.id)
    except discord.HTTPException as exc:
        log.warning("could not answer interaction %s: %s", interaction.id, exc)
