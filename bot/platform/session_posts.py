"""Posts exactly once for the games kept as platform sessions (issue 25): every public message and
edit a committed session change makes due goes through an outbox.

Why: a game used to change its session (`change_session`) and then post; a process that died in
between left its status post one step behind, or lost a ping or a log line, until the next step.
Now the change stages its posts on the session (`GameSession.stage(post(...), edit(...))`); they
are written to `session_outbox` in the same unit of work as the document, so they commit with it or
not at all.  After the commit the game calls `deliver(session_id)` and this dispatcher sends them in
order and records, in the same row, the message each became.  A process that starts (or, over a
shared database, a sweep) sends what was committed but not confirmed sent, and looks a new message
up in the channel's recent history first (by its marker: what it says), so one that went out before
the crash (sent, not recorded) is recorded, not sent again.

Payloads are plain JSON, built here and knowing no game.  What cannot be JSON (buttons, a picture)
is drawn at send time by the game's renderer from the stored session (`register`), so a post sent
late shows the game as it is then.  An edit of a redrawable post is idempotent: pending edits of one
message coalesce into the newest.  A named post (`slot`, e.g. a game's status post) keeps the id of
the message it became in its row; later edits of the slot target it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.platform.text import mention_users, no_mentions

if TYPE_CHECKING:
    from bot.platform.sessions import GameSession
    from bot.platform.storage.session_outbox import OutboxRow

log = logging.getLogger(__name__)

# A game's renderer: (the stored session, None when it is gone; the payload) -> the send/edit's own
# keyword arguments (content, view, file, embed, ...), overriding the payload's plain content.
Render = Callable[["GameSession | None", dict[str, Any]], Awaitable[dict[str, Any]]]
# (channel id, message id or None) -> a game's own message object (or channel, for None), or None
Locate = Callable[[int, "int | None"], Any]
Sent = Callable[[dict[str, Any], Any], None]  # (payload, the message it became)

LOOK_BACK = 25  # recent channel messages searched for a post that may have gone out before a crash
EDIT_INTERVAL_S = 1.2  # Discord allows about 5 edits per 5 s in a channel: one edit of a post per interval
KEEP_SENT_S = 7 * 86400.0  # sent rows of ended games are kept a week (diagnostics), then pruned at start-up
SWEEP_AFTER_S = 30.0  # a sweep takes up rows left unsent this long (a dead process's, or a failed send)
FAULT_ENV = "SESSION_POSTS_FAULT"  # e2e: "before_send" / "after_send" ends the process there (once: _FLAG)


def post(
    channel_id: int,
    content: str = "",
    *,
    mentions: list[int] | tuple[int, ...] = (),
    render: str | None = None,
    slot: str | None = None,
    marker: str | None = None,
    **data: Any,
) -> dict[str, Any]:
    """A new message in `channel_id` (a channel or a thread): `content` as it is, mentioning only
    `mentions`; `render` names what the game's renderer draws at send time (buttons, a picture,
    content from the stored state); `slot` names it for later edits; `marker` is the text that
    finds it in the channel after a crash (default: `content`; give a stable part when the
    renderer draws the content).  `data`: anything else the renderer wants (JSON)."""
    return {
        "op": "send",
        "channel_id": int(channel_id),
        "content": content,
        "mentions": [int(m) for m in mentions],
        "render": render,
        "slot": slot,
        "marker": marker,
        **data,
    }


def edit(
    channel_id: int,
    *,
    message_id: int | None = None,
    slot: str | None = None,
    content: str | None = None,
    render: str | None = None,
    **data: Any,
) -> dict[str, Any]:
    """An edit of message `message_id`, or of the session's named post `slot`, in `channel_id`."""
    if message_id is None and slot is None:
        raise ValueError("an edit names its message or its slot")
    return {
        "op": "edit",
        "channel_id": int(channel_id),
        "message_id": None if message_id is None else int(message_id),
        "slot": slot,
        "content": content,
        "render": render,
        **data,
    }


def split(text: str, limit: int = 1900) -> list[str]:
    """Text over Discord's length limit as several messages' worth (a long log line batch)."""
    return [text[start : start + limit] for start in range(0, len(text), limit)] or [""]


class SessionPosts:
    """The platform's dispatcher of staged session posts (one per bot: `session_posts(bot)`)."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot
        self.renderers: dict[str, Render] = {}
        self.locators: dict[str, Locate] = {}
        self.on_sent: dict[str, Sent] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._attempted: set[int] = set()  # rows this process began to send (a retry looks first)
        self._waiting: dict[tuple[int, int], OutboxRow] = {}  # per (channel, message): the edit to send next
        self._editors: dict[tuple[int, int], asyncio.Task[None]] = {}
        self._editing: set[int] = set()
        self._look: set[int] = set()  # edits a resume queued: the message is read before it is edited again
        self.edit_interval_s = EDIT_INTERVAL_S
        self._tasks: set[asyncio.Task[None]] = set()
        self._watching = False
        # Tests: awaited at "before_send" / "after_send" of each row; never returning there is a crash.
        self.fault: Callable[[str, OutboxRow], Awaitable[None]] | None = None
        self.sent = 0  # rows confirmed sent by this process (figures, tests)
        self.found = 0  # rows found already sent in the channel (not sent again)

    # -- wiring ----------------------------------------------------------------------------------------
    def register(
        self,
        game: str,
        render: Render | None = None,
        *,
        resume: bool = True,
        locate: Locate | None = None,
        on_sent: Sent | None = None,
    ) -> None:
        """A game's renderer; and, once the gateway is ready, the game's rows a previous process
        committed but did not confirm sent go out (`resume`).  `locate`: (channel id, message id)
        -> the message object to edit, (channel id, None) -> the channel to post in, for a game
        that holds its own objects (None: the bot's channel, a partial message); `on_sent`: told
        each new message a post of the game became (payload, message)."""
        if render is not None:
            self.renderers[game] = render
        if locate is not None:
            self.locators[game] = locate
        if on_sent is not None:
            self.on_sent[game] = on_sent
        cluster = getattr(self.bot, "cluster", None)
        if not self._watching and cluster is not None and hasattr(cluster, "watch"):
            self._watching = True
            cluster.watch(on_lost=self._ignore_lost, on_sweep=self.sweep)
        if resume:
            self._spawn(self._resume_when_ready(game))

    @staticmethod
    async def _ignore_lost(_name: str) -> None:
        return None

    def _spawn(self, coro: Awaitable[None]) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drain(self) -> None:
        """Wait for the background sends (tests, shutdown)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def _resume_when_ready(self, game: str) -> None:
        wait = getattr(self.bot, "wait_until_ready", None)
        if wait is not None:
            try:
                await asyncio.wait_for(wait(), timeout=120)
            except TimeoutError:
                log.warning("session posts of %s: the gateway was not ready; the sweep sends them", game)
                return
        try:
            await self.resume(game)
        except Exception:
            log.exception("session posts of %s: resuming failed; the next sweep tries again", game)

    # -- sending ---------------------------------------------------------------------------------------
    async def deliver(self, session: GameSession | str) -> int:
        """Send the session's committed rows in order, right after the change that staged them
        (`session`: what `change_session` returned; its id sends whatever is unsent); how many
        went out.  Up to the last row this change staged: a step's own version of a post is what
        its delivery shows (the steps made while Discord makes an edit wait coalesce in its editor)."""
        if isinstance(session, str):
            return await self._send(session, look=False)
        if not session.staged:
            return 0  # the change staged nothing
        return await self._send(session.id, upto=max(session.staged), look=False)

    async def resume(self, game: str | None = None) -> int:
        """Start-up or takeover: every row committed but not confirmed sent (of the servers this
        process serves), looked up in its channel before a new message is sent again."""
        rows = await self.bot.storage.unsent_session_posts(game=game)
        sent = await self._send_all(rows)
        pruned = await self.bot.storage.prune_session_posts(time.time() - KEEP_SENT_S)
        if pruned:
            log.info("session posts: %d sent row(s) of ended games forgotten", pruned)
        return sent

    async def sweep(self) -> None:
        """The cluster keeper's sweep: rows left unsent for a while (their process died, or a send
        failed for a moment) go out here."""
        now = time.time()
        rows = [r for r in await self.bot.storage.unsent_session_posts() if now - r.staged_at >= SWEEP_AFTER_S]
        if rows:
            await self._send_all(rows)

    async def _send_all(self, rows: list[OutboxRow]) -> int:
        """Rows found unsent by a resume or a sweep, per session, up to the last one found (rows a
        step of this process commits meanwhile are its own delivery's)."""
        by_session: dict[str, list[OutboxRow]] = {}
        for row in rows:
            if self._serves(row.guild_id):
                by_session.setdefault(row.session_id, []).append(row)
        sent = 0
        for session_id, mine in by_session.items():
            if any(r.payload.get("render") and r.game not in self.renderers for r in mine):
                continue  # its game has not registered its renderer (yet): its own resume sends them
            log.info("session %s: sending %d post(s) committed but not confirmed sent", session_id, len(mine))
            sent += await self._send(session_id, upto=max(r.id for r in mine), look=True)
        return sent

    def _serves(self, guild_id: int) -> bool:
        cluster = getattr(self.bot, "cluster", None)
        return cluster is None or bool(cluster.owns(guild_id))

    async def _send(self, session_id: str, *, upto: int | None = None, look: bool) -> int:
        """The session's unsent rows (up to row `upto`), in order.  Edits of a post already posted
        go to its editor at once (never behind a new message Discord makes us wait for; edits
        coalesce there); the rest is sent under the session's lock, read again under it, so two
        deliveries never send one row twice."""
        early = await self._coalesce(await self.bot.storage.unsent_session_posts(session_id=session_id, upto=upto))
        sent = 0
        for row in early:
            if row.payload.get("op") == "edit" and await self._target(row) is not None:
                sent += await self._queue_edit(row, look=look)
        lock = self._locks.setdefault(session_id, asyncio.Lock())
        async with lock:
            found = await self.bot.storage.unsent_session_posts(session_id=session_id, upto=upto)
            rows = await self._coalesce(found)
            session: GameSession | None = await self.bot.storage.load_session(session_id) if rows else None
            for row in rows:
                outcome = await self._one(row, session, look=look or row.id in self._attempted)
                if outcome is None:  # Discord failed for a moment: the rest waits (the order holds)
                    break
                sent += outcome
            return sent

    async def _coalesce(self, rows: list[OutboxRow]) -> list[OutboxRow]:
        """Pending edits of one message: only the newest is sent (it draws the newest state)."""
        last: dict[tuple[Any, ...], int] = {}
        for row in rows:
            if row.payload.get("op") == "edit":
                last[_target(row.payload)] = row.id
        kept: list[OutboxRow] = []
        for row in rows:
            if row.payload.get("op") == "edit" and last[_target(row.payload)] != row.id:
                await self.bot.storage.mark_session_post(row.id, None)  # superseded by a newer edit
                continue
            kept.append(row)
        return kept

    async def _one(self, row: OutboxRow, session: GameSession | None, *, look: bool) -> int | None:
        """Send one row (an edit goes to its post's editor) and record it: 1 when it went out (or
        was found out, or queued), 0 when it was given up, None when it must wait for a retry."""
        if row.payload.get("op") == "edit":
            return await self._queue_edit(row, look=look)
        channel_id = int(row.payload["channel_id"])
        locate = self.locators.get(row.game)
        channel = (locate(channel_id, None) if locate is not None else None) or self._channel(channel_id)

        async def send() -> None:
            fields = await self._fields(row, session)
            if look:
                found = await self._look_up(channel, row, fields)
                if found is not None:
                    await self.bot.storage.mark_session_post(row.id, found)
                    self.found += 1
                    log.info("session %s: post %d had gone out as %s; not sent again", row.session_id, row.id, found)
                    return
            await self._fault("before_send", row)
            self._attempted.add(row.id)
            message = await channel.send(**fields)
            await self._fault("after_send", row)
            await self.bot.storage.mark_session_post(row.id, getattr(message, "id", None))
            self.sent += 1
            told = self.on_sent.get(row.game)
            if told is not None:
                told(row.payload, message)

        return await self._guarded(row, send)

    async def _guarded(self, row: OutboxRow, act: Callable[[], Awaitable[None]]) -> int | None:
        """`act` (which records the row), with Discord's failures sorted: a moment's (5xx, a
        timeout) leaves the row for a retry (None); a refusal (4xx: no access, the message is
        gone) or a drawing that fails gives it up, recorded so it does not block the rest (0)."""
        try:
            await act()
            return 1
        except discord.HTTPException as exc:
            if exc.status >= 500 or exc.status == 429:
                log.info("session %s: post %d waits for a retry (%s)", row.session_id, row.id, exc)
                return None
            log.info("session %s: post %d given up (%s)", row.session_id, row.id, exc)
        except (TimeoutError, OSError) as exc:
            log.info("session %s: post %d waits for a retry (%s)", row.session_id, row.id, exc)
            return None
        except Exception:
            log.exception("session %s: post %d could not be drawn or sent; given up", row.session_id, row.id)
        await self.bot.storage.mark_session_post(row.id, None)
        return 0

    # -- edits: one editor per message, the newest version wins, paced under Discord's edit limit ----
    async def _target(self, row: OutboxRow) -> int | None:
        """The message an edit row edits: its own id, else its slot's (None: not posted yet)."""
        target = row.payload.get("message_id")
        if target is None and row.payload.get("slot"):
            target = await self.bot.storage.session_slot_message(row.session_id, str(row.payload["slot"]))
        return None if target is None else int(target)

    async def _queue_edit(self, row: OutboxRow, *, look: bool = False) -> int:
        payload = row.payload
        target = await self._target(row)
        if target is None:
            await self.bot.storage.mark_session_post(row.id, None)  # nothing to edit (never posted)
            return 0
        key = (int(payload["channel_id"]), int(target))
        if row.id in self._editing:
            return 1  # on its way already
        older = self._waiting.get(key)
        if older is not None and older.id >= row.id:
            return 1
        self._waiting[key] = row
        if look:
            self._look.add(row.id)
        if older is not None:  # superseded by this newer edit of the same message (it commits first)
            await self.bot.storage.mark_session_post(older.id, None)
        task = self._editors.get(key)
        if task is None or task.done():
            editor: asyncio.Task[None] = asyncio.ensure_future(self._edit_loop(key))
            self._editors[key] = editor
            self._tasks.add(editor)
            editor.add_done_callback(self._tasks.discard)
        return 1

    async def _edit_loop(self, key: tuple[int, int]) -> None:
        """Send the waiting edit of one message, then wait `edit_interval_s` before the next: the
        steps made meanwhile only replace the waiting edit (the newest wins), so a quick crew never
        builds a backlog behind Discord's rate limit on edits."""
        try:
            while key in self._waiting:
                row = self._waiting.pop(key)
                self._editing.add(row.id)
                try:
                    outcome = await self._guarded(row, functools.partial(self._edit, row, key))
                finally:
                    self._editing.discard(row.id)
                if outcome is None:
                    break  # a moment's failure: the row stays unsent; the next delivery or sweep retries
                if key in self._waiting:
                    await asyncio.sleep(self.edit_interval_s)
        finally:
            if self._editors.get(key) is asyncio.current_task():
                del self._editors[key]

    async def _edit(self, row: OutboxRow, key: tuple[int, int]) -> None:
        session = await self.bot.storage.load_session(row.session_id)  # pictures and buttons: as stored now
        fields = await self._fields(row, session)
        if (row.id in self._look or row.id in self._attempted) and await self._shows(key, fields):
            self._look.discard(row.id)  # the crashed process's edit went out: not made twice
            await self.bot.storage.mark_session_post(row.id, key[1])
            self.found += 1
            return
        self._look.discard(row.id)
        await self._fault("before_send", row)
        self._attempted.add(row.id)
        await self._message(row.game, key).edit(**fields)
        await self._fault("after_send", row)
        await self.bot.storage.mark_session_post(row.id, key[1])
        self.sent += 1

    async def _shows(self, key: tuple[int, int], fields: dict[str, Any]) -> bool:
        """Whether the message already shows this edit's text (an edit a crash left unrecorded)."""
        content = fields.get("content")
        channel = self._channel(key[0])
        if content is None or not hasattr(channel, "fetch_message"):
            return False
        try:
            message = await channel.fetch_message(key[1])
        except discord.HTTPException:
            return False
        return bool(getattr(message, "content", None) == content)

    async def _fields(self, row: OutboxRow, session: GameSession | None) -> dict[str, Any]:
        payload = row.payload
        fields: dict[str, Any] = {}
        if payload.get("content") is not None:
            fields["content"] = str(payload["content"])
        mentions = [int(m) for m in payload.get("mentions") or []]
        fields["allowed_mentions"] = (
            mention_users([discord.Object(id=m) for m in mentions]) if mentions else no_mentions()
        )
        if payload.get("render"):
            render = self.renderers.get(row.game)
            if render is None:
                raise LookupError(f"no renderer for {row.game} posts")
            fields.update(await render(session, payload))
        return fields

    async def _look_up(self, channel: Any, row: OutboxRow, fields: dict[str, Any]) -> int | None:
        """A message of the bot's in the channel, created since the row was staged, that is this
        post (a crash between the send and its record): its id, else None.  It says exactly the
        post's text, or carries its `marker`; a message another row is recorded as, or that an
        edit targets (a status post that now shows the same words), is never taken."""
        marker = row.payload.get("marker")
        content = fields.get("content")
        if not (marker or content) or not hasattr(channel, "history"):
            return None
        me = getattr(getattr(self.bot, "user", None), "id", None)
        claimed = await self.bot.storage.session_post_messages(row.session_id)  # another row's message
        for other in await self.bot.storage.unsent_session_posts(session_id=row.session_id):
            if other.payload.get("op") == "edit" and other.payload.get("message_id"):
                claimed.add(int(other.payload["message_id"]))
        try:
            async for message in channel.history(limit=LOOK_BACK):
                created = getattr(message, "created_at", None)
                if created is not None and created.timestamp() < row.staged_at - 2.0:
                    continue
                if (me is not None and getattr(message.author, "id", None) != me) or int(message.id) in claimed:
                    continue
                said = message.content or ""
                if (marker and str(marker) in said) or (not marker and said == content):
                    return int(message.id)
        except discord.HTTPException as exc:
            log.info("cannot read channel %s to look for a sent post (%s)", row.payload.get("channel_id"), exc)
        return None

    def _message(self, game: str, key: tuple[int, int]) -> Any:
        locate = self.locators.get(game)
        found = locate(*key) if locate is not None else None
        return found if found is not None else self._channel(key[0]).get_partial_message(key[1])

    def _channel(self, channel_id: int) -> Any:
        get = getattr(self.bot, "get_channel", None)
        found = get(channel_id) if get is not None else None
        if found is None and hasattr(self.bot, "get_partial_messageable"):
            found = self.bot.get_partial_messageable(channel_id)
        return found

    async def _fault(self, where: str, row: OutboxRow) -> None:
        if self.fault is not None:
            await self.fault(where, row)
        if os.environ.get(FAULT_ENV) == where:  # e2e: a kill -9 at this exact point, once per flag file
            flag = os.environ.get(FAULT_ENV + "_FLAG", "")
            if flag and not os.path.exists(flag):
                with contextlib.suppress(OSError), open(flag, "w") as mark:
                    mark.write(str(row.id))
                log.warning("session posts: fault %s injected at row %d; the process ends", where, row.id)
                os._exit(70)


def _target(payload: dict[str, Any]) -> tuple[Any, ...]:
    return (payload.get("channel_id"), payload.get("message_id"), payload.get("slot"))


def session_posts(bot: Any) -> SessionPosts:
    """The bot's dispatcher (made on first use, so a game and a test bot need no wiring)."""
    found = getattr(bot, "session_posts", None)
    if not isinstance(found, SessionPosts):
        found = SessionPosts(bot)
        bot.session_posts = found
    return found
