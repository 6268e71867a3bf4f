"""One ordered, retrying outbox per flight, so a slow or throttled channel never holds up the clock.

Why: the timer tick must publish the intercom text mirror, but `channel.send` can take seconds
when Discord rate-limits the channel (HTTP 429).  Awaiting it inside the tick would delay the next
state transition (an incoming-data window opening late is a rules bug, not a cosmetic one).  So
the tick only enqueues; a per-flight worker task sends the jobs in order, sleeps for the
`retry_after` Discord asks for on 429 (and backs off on 5xx), and never drops a throttled message.
Jobs that can never succeed are not retried forever: a 403 (Forbidden) is reported once through
`on_forbidden` and then skipped, any other 4xx is logged and skipped.  `close()` cancels the
worker cleanly; `join()` waits until everything queued so far has been sent.

At shutdown `shutdown(timeout)` gives the queue a bounded time to drain and hands back the entries
never sent (the one interrupted first), so the caller can store them (`spec()`, a JSON document)
and send them after the restart.  `on_settled` runs after each entry is done with (sent or given
up), which is where a restored entry's stored row is deleted: every post goes out once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

log = logging.getLogger(__name__)

Job = Callable[[], Awaitable[Any]]

DEFAULT_RETRY_S = 1.0
MAX_RETRY_S = 60.0
MAX_SERVER_ERRORS = 5


def retry_after(exc: BaseException) -> float:
    """Seconds Discord asked us to wait: `RateLimited.retry_after`, the Retry-After header, or 1 s."""
    value = getattr(exc, "retry_after", None)
    if value is None:
        headers = getattr(getattr(exc, "response", None), "headers", None) or {}
        try:
            value = headers.get("Retry-After") or headers.get("X-RateLimit-Reset-After")
        except AttributeError:
            value = None
    try:
        seconds = float(value) if value is not None else DEFAULT_RETRY_S
    except (TypeError, ValueError):
        seconds = DEFAULT_RETRY_S
    return min(MAX_RETRY_S, max(0.0, seconds))


@dataclass(eq=False)
class Entry:
    """A queued job; `spec` describes what is left of it as JSON (None: it cannot be stored)."""

    job: Job
    spec: Callable[[], dict[str, Any] | None] | None = None
    row_id: int | None = None  # its stored row, for a post restored after a restart
    settled: bool = False


class Outbox:
    """Ordered background sender of one flight's channel posts."""

    def __init__(
        self,
        name: str,
        *,
        on_forbidden: Callable[[discord.Forbidden], Awaitable[None]] | None = None,
        on_settled: Callable[[Entry], Awaitable[None]] | None = None,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        self.name = name
        self.on_forbidden = on_forbidden
        self.on_settled = on_settled
        self.sleep = sleep
        self._queue: asyncio.Queue[Entry] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._current: Entry | None = None

    def put(
        self,
        job: Job,
        *,
        spec: Callable[[], dict[str, Any] | None] | None = None,
        row_id: int | None = None,
    ) -> None:
        """Queue a job (returns at once); the worker starts on first use."""
        self._queue.put_nowait(Entry(job, spec, row_id))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._worker(), name=f"outbox-{self.name}")

    async def shutdown(self, timeout: float) -> list[Entry]:
        """Let the queue drain for at most `timeout` s, stop, and return what was never sent, in order."""
        if self._task is not None and not self._task.done() and timeout > 0:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._queue.join(), timeout)
        await self.close()
        left: list[Entry] = []
        if self._current is not None and not self._current.settled:
            left.append(self._current)
        self._current = None
        while not self._queue.empty():
            left.append(self._queue.get_nowait())
            self._queue.task_done()
        return left

    @property
    def pending(self) -> int:
        return self._queue.qsize()

    async def join(self) -> None:
        """Wait until every job queued so far has been sent (or given up as unsendable)."""
        if self._task is not None and not self._task.done():
            await self._queue.join()

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def cancel(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._task = None

    async def _worker(self) -> None:
        while True:
            entry = await self._queue.get()
            self._current = entry
            try:
                try:
                    await self._run(entry.job)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("outbox %s: a post failed unexpectedly; skipped", self.name)
                entry.settled = True
                if self.on_settled is not None:
                    try:
                        await self.on_settled(entry)
                    except asyncio.CancelledError:
                        raise
                    except Exception:
                        log.exception("outbox %s: bookkeeping after a post failed", self.name)
                self._current = None
            finally:
                self._queue.task_done()

    async def _run(self, job: Job) -> None:
        server_errors = 0
        while True:
            try:
                await job()
                return
            except discord.RateLimited as exc:
                delay = retry_after(exc)
            except discord.Forbidden as exc:
                if self.on_forbidden is not None:
                    await self.on_forbidden(exc)
                else:
                    log.warning("outbox %s: forbidden: %s", self.name, exc)
                return
            except discord.HTTPException as exc:
                if exc.status == 429:
                    delay = retry_after(exc)
                elif exc.status >= 500 and server_errors < MAX_SERVER_ERRORS:
                    server_errors += 1
                    delay = min(MAX_RETRY_S, DEFAULT_RETRY_S * 2**server_errors)
                else:
                    log.warning("outbox %s: post rejected (%s); skipped", self.name, exc)
                    return
            log.info("outbox %s: throttled, retrying in %.2f s", self.name, delay)
            await self.sleep(delay)


class Outboxes:
    """One `Outbox` per flight, made on first use; the flights' posts and their voice mutes each keep one."""

    def __init__(self, make: Callable[[str], Outbox]) -> None:
        self._make = make
        self._boxes: dict[str, Outbox] = {}

    def get(self, flight_id: str) -> Outbox:
        box = self._boxes.get(flight_id)
        if box is None:
            box = self._boxes[flight_id] = self._make(flight_id)
        return box

    async def join(self) -> None:
        for box in list(self._boxes.values()):
            await box.join()

    async def retire(self, flight_id: str) -> bool:
        """After the flight: let its queue empty, then drop it (True if it was dropped)."""
        box = self._boxes.get(flight_id)
        if box is None:
            return False
        await box.join()
        if self._boxes.get(flight_id) is not box or box.pending:
            return False
        del self._boxes[flight_id]
        await box.close()
        return True

    def cancel(self) -> None:
        for box in self._boxes.values():
            box.cancel()
        self._boxes.clear()

    async def shutdown(self, timeout: float) -> dict[str, list[Entry]]:
        """Give every queue `timeout` s, stop them, and hand back what each left unsent."""
        boxes, self._boxes = dict(self._boxes), {}
        left = await asyncio.gather(*(box.shutdown(timeout) for box in boxes.values()))
        return dict(zip(boxes, left, strict=True))
