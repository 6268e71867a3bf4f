"""One fix to discord.py (2.7) that the bot applies at start-up, with the reason.

discord.py's voice connection waits for its state changes through `sane_wait_for`, which wraps each
awaitable in a task and, when the wait times out or is cancelled, leaves those tasks pending.  The
task waits on the connection's own `asyncio.Event`; once the connection object is dropped (a voice
reconnect, a disconnect) nothing references it, and the garbage collector destroys it while
pending, which asyncio logs as an ERROR ("Task was destroyed but it is pending!", coroutine
`Event.wait()`).  It happens on a dropped voice connection under load and says nothing about our
code, but an operator reads it as a crash.  The replacement keeps the same contract (the tasks
done, or `TimeoutError`) and cancels and reaps what it started when it gives up.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Iterable
from typing import Any

_APPLIED = False


async def reaping_wait_for(futures: Iterable[Awaitable[Any]], *, timeout: float | None) -> set[asyncio.Task[Any]]:
    """`discord.utils.sane_wait_for`, but a timeout or a cancellation leaves no task pending."""
    ensured: list[asyncio.Task[Any]] = [asyncio.ensure_future(f) for f in futures]
    try:
        done, pending = await asyncio.wait(ensured, timeout=timeout, return_when=asyncio.ALL_COMPLETED)
    except BaseException:
        await _reap(ensured)
        raise
    if pending:
        await _reap(list(pending))
        raise TimeoutError()
    return done


async def _reap(tasks: list[asyncio.Task[Any]]) -> None:
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def apply() -> None:
    """Install the fix (idempotent).  Only the voice connection's module is patched: it imported
    the helper by name, and it is the one caller that waits on an object it may drop."""
    global _APPLIED
    if _APPLIED:
        return
    import discord.voice_state

    if hasattr(discord.voice_state, "sane_wait_for"):
        discord.voice_state.sane_wait_for = reaping_wait_for
    _APPLIED = True
