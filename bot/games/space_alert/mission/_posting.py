"""What a flight posts in its text channel: the intercom mirror, short alerts, and the result.

The intercom is one message per phase, edited as lines come, instead of one message per line
(a mission has 50-80 lines, every countdown number among them).  What needs the crew's attention
(a threat announced, a data transfer, communications down) also gets a short post of its own.

Nothing is sent from the flight's clock: lines are added to the flight's `Mirror`, which keeps at
most one flush job in the flight's ordered `Outbox`.  The flush sends whatever is pending when it
runs, so lines that arrive while Discord makes us wait (a 429, or the edit interval) are merged
into the next request rather than queued one by one; that keeps the queue in front of the result
short whatever the channel's rate limit, and nothing is dropped.  At shutdown what is left is
stored as JSON and sent after the restart.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.games.space_alert.campaign.handoff import send_follow_up
from bot.games.space_alert.hindsight.cog import hindsight_button
from bot.games.space_alert.mission._poster import Entry, Job, Outbox, Outboxes
from bot.games.space_alert.mission._store import FlightStore
from bot.games.space_alert.mission.components import view_of
from bot.games.space_alert.mission.result import picture_file, with_picture
from bot.games.space_alert.replay.components import log_buttons, pictures_button
from bot.games.space_alert.replay.text import text
from bot.platform.i18n import t

if TYPE_CHECKING:
    from bot.platform.client import SpaceAlertBot

log = logging.getLogger(__name__)

MESSAGE_LIMIT = 1900  # under Discord's 2000 characters, with room for a prefix
EDIT_INTERVAL_S = 1.0  # at most one intercom edit per second per flight (the countdown's pace)
SHUTDOWN_DRAIN_S = 5.0  # at shutdown, queued posts get this long to go out; the rest is stored
MISSED_AFTER_S = 3.0  # an intercom line posted this much later than its moment is marked as missed


@dataclass
class Post:
    """One channel message of the mirror: its lines, its id once sent, how much of it Discord has."""

    attention: bool
    lines: list[str] = field(default_factory=list)
    message_id: int | None = None
    shown: int = 0  # lines already in the message on Discord
    sealed: bool = False  # no more lines go into it
    rows: list[int | None] = field(default_factory=list)  # each line's outbox row (None: not staged)

    @property
    def content(self) -> str:
        return "\n".join(self.lines)

    @property
    def pending(self) -> bool:
        return self.shown < len(self.lines)

    def fits(self, line: str) -> bool:
        return len(self.content) + len(line) + 1 <= MESSAGE_LIMIT

    def to_dict(self) -> dict[str, Any] | None:
        """What a shutdown stores of it: a line staged in the outbox already has its row (sent
        from there after the restart), so a post with staged lines keeps only its unstaged
        pending lines, as a new message."""
        rows = self.rows + [None] * (len(self.lines) - len(self.rows))
        if not any(r is not None for r in rows):
            return {"attention": self.attention, "lines": self.lines, "message_id": self.message_id}
        left = [line for line, row in zip(self.lines[self.shown :], rows[self.shown :], strict=True) if row is None]
        return {"attention": self.attention, "lines": left, "message_id": None} if left else None


class Mirror:
    """One flight's text mirror: the phase's intercom message and the alerts not yet sent."""

    def __init__(self, channel_id: int, posts: list[Post] | None = None) -> None:
        self.channel_id = channel_id
        self.posts: list[Post] = posts or []
        self.job: Job | None = None  # the flush queued or running: new lines join it
        self.last_edit = 0.0
        self.unsent: dict[int, int] = {}  # outbox row -> its lines not on Discord yet
        self.done_rows: list[int] = []  # rows whose lines are all out: to delete

    def _owe(self, row: int | None) -> None:
        if row is not None:
            self.unsent[row] = self.unsent.get(row, 0) + 1

    def shown(self, post: Post, count: int) -> None:
        """`count` lines of `post` are on Discord now; rows with nothing left go to `done_rows`."""
        for row in post.rows[post.shown : count]:
            if row is not None and row in self.unsent:
                self.unsent[row] -= 1
                if self.unsent[row] <= 0:
                    del self.unsent[row]
                    self.done_rows.append(row)
        post.shown = max(post.shown, count)

    def line(self, text: str, row: int | None = None) -> None:
        """Add an intercom line to the current phase's message (a new message when it is full)."""
        current = next((p for p in reversed(self.posts) if not p.attention), None)
        if current is None or current.sealed or not current.fits(text):
            if current is not None:
                current.sealed = True
            current = Post(attention=False)
            self.posts.append(current)
        current.rows.extend([None] * (len(current.lines) - len(current.rows)))
        current.lines.append(text[:MESSAGE_LIMIT])
        current.rows.append(row)
        self._owe(row)

    def alert(self, text: str, row: int | None = None) -> None:
        self.posts.append(Post(attention=True, lines=[text[:MESSAGE_LIMIT]], sealed=True, rows=[row]))
        self._owe(row)

    def new_phase(self) -> None:
        """The next intercom line starts a new message."""
        for post in self.posts:
            if not post.attention:
                post.sealed = True

    @property
    def pending(self) -> bool:
        return any(p.pending for p in self.posts)

    def spec(self) -> dict[str, Any] | None:
        left = [d for p in self.posts if p.pending and (d := p.to_dict()) is not None]
        return {"op": "mirror", "channel_id": self.channel_id, "posts": left} if left else None

    def drop_pending(self) -> None:
        """Give up what could not be sent (the channel is gone or refuses us)."""
        for post in self.posts:
            self.shown(post, len(post.lines))
            post.sealed = True
        self.forget_sent()

    def forget_sent(self) -> None:
        """Drop posts that are sent and will not change any more."""
        keep = [p for p in self.posts if p.pending or not p.sealed]
        self.posts = keep


class ChannelPosts:
    """The flights' outboxes and mirrors; every channel post and edit of a flight goes through here."""

    def __init__(self, bot: SpaceAlertBot, store: FlightStore) -> None:
        self.bot = bot
        self.store = store
        self.edit_interval_s = EDIT_INTERVAL_S
        self.shutdown_drain_s = SHUTDOWN_DRAIN_S
        self._outboxes = Outboxes(self._new_outbox)
        self._mirrors: dict[str, Mirror] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    # -- what the flight says --------------------------------------------------------------------------
    def mirror(self, flight_id: str, channel_id: int) -> Mirror:
        mirror = self._mirrors.get(flight_id)
        if mirror is None:
            mirror = self._mirrors[flight_id] = Mirror(channel_id)
        return mirror

    def say(self, flight_id: str, channel_id: int, *, lines: Sequence[str] = (), alerts: Sequence[str] = ()) -> None:
        """Add intercom lines and alerts; returns at once (the flight's outbox sends them)."""
        mirror = self.mirror(flight_id, channel_id)
        for line in lines:
            mirror.line(line)
        for alert in alerts:
            mirror.alert(alert)
        if mirror.pending:
            self._flush_later(flight_id, mirror)

    def new_phase(self, flight_id: str, channel_id: int) -> None:
        self.mirror(flight_id, channel_id).new_phase()

    def say_items(self, flight_id: str, channel_id: int, items: list[list[str]], row: int | None) -> None:
        """The items a change staged in outbox row `row` (`FlightService.compose`), in order; the
        row is deleted once every one of them is on Discord."""
        mirror = self.mirror(flight_id, channel_id)
        for kind, said in items:
            if kind == "line":
                mirror.line(said, row)
            elif kind == "alert":
                mirror.alert(said, row)
            elif kind == "phase":
                mirror.new_phase()
        if mirror.pending:
            self._flush_later(flight_id, mirror)
        elif mirror.done_rows or (row is not None and row not in mirror.unsent):
            if row is not None and row not in mirror.done_rows and row not in mirror.unsent:
                mirror.done_rows.append(row)
            self._background(self._delete_done(mirror))

    def _background(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _delete_done(self, mirror: Mirror) -> None:
        """Forget the outbox rows whose lines are all on Discord (a failure leaves them: a
        process taking over looks them up before sending them again)."""
        while mirror.done_rows:
            row = mirror.done_rows.pop(0)
            try:
                await self.store.delete_post(row)
            except Exception as exc:
                log.warning("outbox row %s not deleted (%s); looked up before any re-send", row, exc)

    def _flush_later(self, flight_id: str, mirror: Mirror, row_id: int | None = None) -> None:
        if mirror.job is not None and row_id is None:
            return  # the queued (or running, or retrying) flush will send the new lines too

        async def flush() -> None:
            try:
                await self._flush(mirror)
            except discord.HTTPException as exc:
                if exc.status != 429 and exc.status < 500:
                    mirror.drop_pending()  # refused for good (403, 400): not retried
                raise

        mirror.job = flush
        self.outbox(flight_id).put(flush, spec=mirror.spec, row_id=row_id)

    async def _flush(self, mirror: Mirror) -> None:
        """Send everything pending; lines added meanwhile are sent by this same job."""
        channel = await self.channel(mirror.channel_id)
        if channel is None:
            log.info("channel %s is gone; the intercom mirror is dropped", mirror.channel_id)
            mirror.drop_pending()
            return
        while mirror.pending:
            await self._send_alerts(channel, mirror)
            for post in [p for p in mirror.posts if p.pending and not p.attention]:
                await self._send_intercom(channel, mirror, post)
            if mirror.done_rows:  # off the sending path: lines arriving meanwhile still merge
                self._background(self._delete_done(mirror))
        mirror.forget_sent()

    async def _send_alerts(self, channel: Any, mirror: Mirror) -> None:
        """Every alert waiting, merged into as few messages as fit."""
        waiting = [p for p in mirror.posts if p.attention and p.pending]
        while waiting:
            batch = [waiting.pop(0)]
            while waiting and len("\n".join(p.content for p in [*batch, waiting[0]])) <= MESSAGE_LIMIT:
                batch.append(waiting.pop(0))
            message = await channel.send("\n".join(p.content for p in batch))
            for post in batch:
                post.message_id = getattr(message, "id", None)
                mirror.shown(post, len(post.lines))

    async def _send_intercom(self, channel: Any, mirror: Mirror, post: Post) -> None:
        if post.message_id is not None:
            wait = mirror.last_edit + self.edit_interval_s - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
        count = len(post.lines)  # lines that arrive during the request go in the next edit
        content = "\n".join(post.lines[:count])
        if post.message_id is None:
            message = await channel.send(content)
            post.message_id = getattr(message, "id", None)
        else:
            await channel.get_partial_message(post.message_id).edit(content=content)
        mirror.last_edit = time.monotonic()
        mirror.shown(post, count)

    def post_result(self, flight_id: str, payload: dict[str, Any], row_id: int | None = None) -> None:
        """Queue the result behind what the flight still has to say (its last lines come first);
        `row_id`: its outbox row, deleted once it is out."""
        self._queue(flight_id, payload, row_id=row_id)

    def post_follow_up(self, flight_id: str, payload: dict[str, Any], row_id: int | None = None) -> None:
        """Queue a follow-up of the flight (the campaign's next step, the school's progress;
        staged in `row_id` with the finish) behind its result."""
        self._queue(flight_id, payload, row_id=row_id)

    def _queue(
        self, flight_id: str, payload: dict[str, Any], row_id: int | None = None, *, restored: bool = False
    ) -> None:
        """Queue one storable job (`payload` is what a shutdown writes to the outbox table);
        `restored`: its row was left by an earlier process, which may have sent part of it."""
        op = payload.get("op")
        if op == "result":
            post = ResultPost(self, payload, row_id, restored=restored)
            self.outbox(flight_id).put(post, spec=post.spec, row_id=row_id)
        elif op == "follow_up":
            follow = FollowUpPost(self, payload, restored=restored)
            self.outbox(flight_id).put(follow, spec=lambda: payload, row_id=row_id)
        elif op == "said":  # staged by a change, restored after a crash or a takeover
            self.outbox(flight_id).put(self._unconfirmed(payload), spec=lambda: payload, row_id=row_id)
        elif op == "mirror":
            posts = [
                Post(bool(p["attention"]), list(p["lines"]), p.get("message_id"), sealed=True)
                for p in payload.get("posts", [])
            ]
            self._flush_later(flight_id, Mirror(int(payload["channel_id"]), posts), row_id=row_id)
        else:  # a plain text post
            mirror = Mirror(int(payload["channel_id"]), [Post(True, [str(payload.get("content", ""))], sealed=True)])
            self._flush_later(flight_id, mirror, row_id=row_id)

    # -- the queues ----------------------------------------------------------------------------------------
    def outbox(self, flight_id: str) -> Outbox:
        return self._outboxes.get(flight_id)

    def _new_outbox(self, flight_id: str) -> Outbox:
        async def forbidden(exc: discord.Forbidden) -> None:
            await self._forbidden(flight_id, exc)

        return Outbox(flight_id, on_forbidden=forbidden, on_settled=self._settled)

    async def _settled(self, entry: Entry) -> None:
        """A job is done (sent or given up): the next line queues a new flush; a restored post's row goes."""
        for mirror in self._mirrors.values():
            if mirror.job is entry.job:
                mirror.job = None
                if mirror.pending:  # given up after repeated server errors
                    mirror.drop_pending()
                if mirror.done_rows:
                    self._background(self._delete_done(mirror))
        if entry.row_id is not None:
            await self.store.delete_post(entry.row_id)

    async def _forbidden(self, flight_id: str, exc: discord.Forbidden) -> None:
        """Posting was refused mid-flight (a permission was taken away): tell the host once, fly on."""
        record = await self.store.claim_note(flight_id, "forbidden_notice")
        if record is None:
            log.debug("flight %s: still forbidden to post: %s", flight_id, exc)
            return
        log.warning("flight %s: Discord refused a post in channel %s (%s)", flight_id, record.channel_id, exc)
        guild = self.bot.get_guild(record.guild_id)
        host = guild.get_member(record.host_id) if guild is not None else None
        if host is None:
            return
        try:
            await host.send(t(record.language, "perms.lost", channel=f"<#{record.channel_id}>"))
        except discord.HTTPException as dm_exc:
            log.info("flight %s: cannot tell the host either: %s", flight_id, dm_exc)

    async def channel(self, channel_id: int | None) -> Any:
        """A channel or thread to post in, resolved when the post goes out (after a restart the
        cache fills only once the gateway is ready; until then wait for it, then ask the API)."""
        if channel_id is None:
            return None
        channel = self.bot.get_channel(channel_id)
        if channel is not None:
            return channel
        if not self.bot.is_ready():
            with contextlib.suppress(RuntimeError, TimeoutError):  # RuntimeError: never logged in (tests)
                await asyncio.wait_for(self.bot.wait_until_ready(), timeout=60)
            channel = self.bot.get_channel(channel_id)
            if channel is not None:
                return channel
        try:
            return await self.bot.fetch_channel(channel_id)
        except discord.HTTPException as exc:
            if exc.status == 429:
                raise
            log.info("cannot fetch channel %s: %s", channel_id, exc)
        except Exception as exc:  # not logged in: nothing to ask
            log.info("cannot fetch channel %s: %s", channel_id, exc)
        return None

    async def join(self) -> None:
        await self._outboxes.join()
        while self._tasks:  # the outbox rows of what was sent are deleted too
            await asyncio.gather(*self._tasks, return_exceptions=True)

    async def retire(self, flight_id: str) -> None:
        """After the flight: let its queue empty, then drop it."""
        if await self._outboxes.retire(flight_id):
            self._mirrors.pop(flight_id, None)

    def cancel(self) -> None:
        self._outboxes.cancel()
        for task in self._tasks:
            task.cancel()

    async def restore(self) -> None:
        """After a restart: queue the posts a shutdown stored, before anything new.  A queue is a
        flight's, or a campaign's own (`campaign:<id>`, no flight: its rows carry their server)."""
        for row_id, flight_id, payload in await self.store.pending_posts():
            record = await self.store.peek(flight_id)
            guild_id = record.guild_id if record is not None else payload.get("guild_id")
            if guild_id is not None and not self.bot.cluster.owns(int(guild_id)):
                continue  # its channel is on another process's shard: that process sends it
            if payload.get("op") == "said" and record is not None:
                payload = {**payload, "language": record.language}
            log.info("flight %s: sending a post committed but not confirmed sent", flight_id)
            self._queue(flight_id, payload, row_id=row_id, restored=True)

    def _unconfirmed(self, payload: dict[str, Any]) -> Job:
        """The job of a staged row left by a crash: looked up in the channel when it runs (after
        the gateway is ready, never in the start-up path), then what is missing is sent.  A retry
        after a 429 looks up again, so what its first attempt sent is not sent twice."""

        async def job() -> None:
            left = await self._not_yet_sent(payload, str(payload.get("language", "en")))
            if left is None:
                return
            mirror = Mirror(int(payload["channel_id"]))
            for kind, said in left.get("items", []):
                if kind == "line":
                    mirror.line(said)
                elif kind == "alert":
                    mirror.alert(said)
                else:
                    mirror.new_phase()
            await self._flush(mirror)

        return job

    async def _not_yet_sent(self, payload: dict[str, Any], lang: str) -> dict[str, Any] | None:
        """A staged row whose sending was cut off (a crash between the send and the row's
        deletion, or before the send): the items not found in the bot's recent messages of the
        channel sent or edited since the row was written, None when all are there.  Intercom
        lines posted now, past their moment, are marked as missed."""
        at = float(payload.get("at", 0.0))
        seen: list[str] = []  # "\n"-framed contents of the bot's recent messages
        channel = await self.channel(int(payload["channel_id"]))
        me = getattr(self.bot.user, "id", None)
        if channel is not None and hasattr(channel, "history"):
            try:
                async for message in channel.history(limit=25):
                    stamp = message.edited_at or message.created_at
                    if message.author.id == me and stamp is not None and stamp.timestamp() >= at - 1.0:
                        seen.append(f"\n{message.content}\n")
            except discord.HTTPException as exc:
                log.info("cannot read channel %s to look for sent posts (%s)", payload["channel_id"], exc)
        late = self.bot.clock() - at > MISSED_AFTER_S
        missed = t(lang, "cluster.missed")
        items = []
        for kind, said in payload.get("items", []):
            if kind != "phase" and any(f"\n{said}\n" in content for content in seen):
                continue  # a whole line (or an alert's lines) of a message: it went out
            if kind == "line" and late and not said.startswith(missed):
                said = f"{missed} {said}"
            items.append([kind, said])
        if not any(kind != "phase" for kind, _text in items):
            return None
        return {**payload, "items": items}

    async def shutdown(self, timeout: float | None = None) -> None:
        """Give the queues `timeout` s to drain, then store what is left (sent once after the restart)."""
        timeout = self.shutdown_drain_s if timeout is None else timeout
        for flight_id, left in (await self._outboxes.shutdown(timeout)).items():
            await self._store_unsent(flight_id, left)

    async def _store_unsent(self, flight_id: str, entries: list[Entry]) -> None:
        fresh: list[dict[str, Any]] = []
        for entry in entries:
            payload = entry.spec() if entry.spec is not None else None
            if payload is None:
                continue  # nothing left of it (a flush whose lines all went out)
            if entry.row_id is not None:
                await self.store.update_post(entry.row_id, payload)  # already stored: keep its place
            else:
                fresh.append(payload)
        if fresh:
            await self.store.store_posts(flight_id, fresh)
            log.info("flight %s: %d post(s) stored at shutdown, sent after the restart", flight_id, len(fresh))


class FollowUpPost:
    """One follow-up of a flight's result (`handoff.follow_up`), as an outbox job queued behind
    the result.  Its row committed with the finish; a row a crash left is looked up first: the
    bot's recent messages in the channel since it was staged, by their text and embed, so a post
    the crashed process sent (but did not delete the row of) is not sent again."""

    def __init__(self, posts: ChannelPosts, payload: dict[str, Any], *, restored: bool = False) -> None:
        self.posts = posts
        self.payload = payload
        self._look = restored

    async def __call__(self) -> None:
        payload = self.payload
        channel = await self.posts.channel(int(payload["channel_id"]))
        if channel is None:
            log.info("follow-up for channel %s: the channel is gone; dropped", payload["channel_id"])
            return
        if self._look and await self._sent_already(channel):
            log.info("follow-up for channel %s: found already sent; not sent again", payload["channel_id"])
            return
        await send_follow_up(self.posts.bot, channel, payload)

    async def _sent_already(self, channel: Any) -> bool:
        payload = self.payload
        at = float(payload.get("at", 0.0))
        embed = payload.get("embed") or {}
        wanted = (payload.get("content") or None, embed.get("title"), embed.get("description"))
        me = getattr(self.posts.bot.user, "id", None)
        try:
            async for message in channel.history(limit=25):
                stamp = getattr(message, "created_at", None)
                if getattr(message.author, "id", None) != me or (stamp is not None and stamp.timestamp() < at - 1.0):
                    continue
                first = (getattr(message, "embeds", None) or [None])[0]
                found = (
                    getattr(message, "content", None) or None,
                    getattr(first, "title", None),
                    getattr(first, "description", None),
                )
                if found == wanted:
                    return True
        except (discord.HTTPException, AttributeError, TypeError) as exc:
            log.info("cannot read channel %s to look for a sent follow-up (%s)", payload["channel_id"], exc)
        return False


class ResultPost:
    """The result embed, a thread under it, then the captain's log in the thread ending with the turn
    navigation: one outbox job.

    It remembers how far it got, in memory (a 429 retry resumes after the last piece that went
    out) and in its outbox row after every piece, so a process killed mid-way leaves a row its
    successor resumes from the next piece.  The one piece a crash may cut between its send and
    that record is looked up in the channel (or thread) before anything is sent again: the result
    by its buttons' ids, the thread by the result's id (a message's thread has the message's id),
    the log's chunks and navigation by their text.  Every piece goes out once.
    """

    def __init__(
        self, posts: ChannelPosts, payload: dict[str, Any], row_id: int | None = None, *, restored: bool = False
    ) -> None:
        self.posts = posts
        self.state = dict(payload)
        self.state.setdefault("sent", 0)
        self.row_id = row_id
        self._look = restored  # a row a crash left: what went out is looked up before sending
        self._message: Any = None
        self._target: Any = None

    def spec(self) -> dict[str, Any]:
        return dict(self.state)

    async def _progress(self) -> None:
        """Store how far the post got in its row (after every piece); a failure only costs a
        look-up after a crash, never a second post."""
        if self.row_id is None:
            return
        try:
            await self.posts.store.update_post(self.row_id, self.spec())
        except Exception as exc:
            log.warning("result row %s: progress not stored (%s); looked up after a crash", self.row_id, exc)

    async def __call__(self) -> None:
        state = self.state
        channel = await self.posts.channel(state["channel_id"])
        if channel is None:
            log.info("result for channel %s: the channel is gone; dropped", state["channel_id"])
            return
        if state.get("message_id") is None:
            found = await self._find_result(channel) if self._look else None
            self._message = found or await self._send_result(channel)
            state["message_id"] = self._message.id
            state["picture"] = None  # sent: a job stored from here on need not carry ~100 kB
            await self._progress()
        if not state.get("thread_tried"):
            await self._thread(channel)
            state["thread_tried"] = True
            await self._progress()
        target = self._target
        if target is None and state.get("target_id") is not None:
            target = await self.posts.channel(state["target_id"])
        target = target or channel
        chunks = state.get("chunks") or []
        navigation = log_navigation(state)
        if self._look:
            await self._count_sent(target, chunks, navigation)
        while state["sent"] < len(chunks):
            await target.send(chunks[state["sent"]])
            state["sent"] += 1
            await self._progress()
        if navigation is not None and not state.get("nav_sent"):
            content, view = navigation
            await target.send(content, view=view)
            state["nav_sent"] = True
            await self._progress()
        self._look = False

    async def _thread(self, channel: Any) -> None:
        """The captain's log's thread under the result: found (a crash after Discord made it) or made."""
        state = self.state
        if self._look:
            existing = await self.posts.channel(state["message_id"])  # a thread has its message's id
            if existing is not None and existing is not channel:
                self._target, state["target_id"] = existing, existing.id
                return
        message = self._message or channel.get_partial_message(state["message_id"])
        try:
            self._target = await message.create_thread(name=state["thread_name"])
            state["target_id"] = self._target.id
        except discord.HTTPException as exc:
            if exc.status == 429:
                raise
            log.info("no thread for the captain's log (%s); posting in the channel", exc)
        except (AttributeError, ValueError, TypeError) as exc:
            log.info("no thread for the captain's log (%s); posting in the channel", exc)

    async def _find_result(self, channel: Any) -> Any:
        """The result message an earlier process sent but did not record: the bot's recent
        message carrying this flight's result buttons (None when there is none, or no flight id)."""
        view = result_view(self.state)
        wanted = {cid for item in view.children if (cid := getattr(item, "custom_id", None))} if view else set()
        if not wanted:
            return None
        for message in await self._recent(channel, 25):
            if wanted & custom_ids_of(message):
                log.info("result for channel %s: found already sent; not sent again", self.state["channel_id"])
                return message
        return None

    async def _count_sent(self, target: Any, chunks: list[str], navigation: Any) -> None:
        """Skip the captain's log's pieces already in the thread (sent before a crash, unrecorded)."""
        state = self.state
        seen = [getattr(m, "content", None) for m in await self._recent(target, len(chunks) + 10)]
        found = [i for i, chunk in enumerate(chunks) if chunk in seen]
        if found:
            state["sent"] = max(state["sent"], found[-1] + 1)
        if navigation is not None and navigation[0] in seen:
            state["nav_sent"] = True

    async def _recent(self, channel: Any, limit: int) -> list[Any]:
        """The bot's own recent messages in a channel or thread (none when it cannot be read)."""
        me = getattr(self.posts.bot.user, "id", None)
        found: list[Any] = []
        try:
            async for message in channel.history(limit=limit):
                if getattr(message.author, "id", None) == me:
                    found.append(message)
        except (discord.HTTPException, AttributeError, TypeError) as exc:
            log.info("cannot read channel %s to look for sent pieces (%s)", getattr(channel, "id", "?"), exc)
        return found

    async def _send_result(self, channel: Any) -> Any:
        """The result embed with its overview picture and the pictures button.

        A picture Discord refuses (no Attach Files permission, too large) costs only the picture:
        the result is sent again without it.  Rate limits and server errors go to the outbox, which
        retries the whole send.
        """
        state = self.state
        view = result_view(state)
        picture = state.get("picture")
        if picture:
            embed = with_picture(discord.Embed.from_dict(state["embed"]))
            try:
                file = picture_file(base64.b64decode(picture), state.get("picture_alt"))
                return await channel.send(embed=embed, file=file, view=view)
            except discord.HTTPException as exc:
                if exc.status == 429 or exc.status >= 500:
                    raise
                log.warning("result for channel %s: picture refused (%s); sent without it", state["channel_id"], exc)
                state["picture"] = None
        return await channel.send(embed=discord.Embed.from_dict(state["embed"]), view=view)


def custom_ids_of(message: Any) -> set[str]:
    """The custom ids of a message's components (its action rows' buttons and selects)."""
    ids: set[str] = set()
    for row in getattr(message, "components", None) or []:
        for item in getattr(row, "children", None) or [row]:
            if isinstance(cid := getattr(item, "custom_id", None), str):
                ids.add(cid)
    return ids


def log_navigation(state: dict[str, Any]) -> tuple[str, discord.ui.View] | None:
    """The captain's log's last message: the turn navigation (restart-proof replay buttons that
    turn this message into a turn's picture, then step to the previous or next turn)."""
    flight_id = state.get("flight_id")
    if not flight_id:  # a result job stored before the pictures existed
        return None
    lang = state.get("language", "en")
    buttons = log_buttons(flight_id, text(lang, "nav_start"), text(lang, "nav_first"), text(lang, "nav_end"))
    return text(lang, "log_nav"), view_of(*buttons)


def result_view(state: dict[str, Any]) -> discord.ui.View | None:
    """The result post's buttons (restart-proof DynamicItems): the flight's turn-by-turn pictures,
    and Hindsight (the smallest change that would have saved the ship, in the log's thread)."""
    flight_id = state.get("flight_id")
    if not flight_id:  # a result job stored before the pictures existed
        return None
    lang = state.get("language", "en")
    return view_of(pictures_button(flight_id, label=text(lang, "pictures_button")), hindsight_button(flight_id, lang))
