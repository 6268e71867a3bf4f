"""Communication failures: server-mute the crew in voice while communications are down.

Server mute and unmute are Discord calls that can be slow or throttled, so like the posts they
never run inside the clock's tick: the tick records who is to be muted (the storage's muted
members of the flight, written before any call, so a restart knows whom to unmute) and queues one job per member on the
flight's voice queue (ordered, retried on 429 with retry_after, 5xx backed off).  A refusal is
reported in the channel once per flight.

Discord refuses to unmute a member who is not in a voice channel, and a server mute outlives
the flight (the member stays muted in every voice channel of the server).  So a member who left
voice while muted stays in the flight's muted members and is owed an unmute: it is sent when they
next join voice (`member_joined_voice`), and a restart retries it with the other ended flights.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.games.space_alert.mission._poster import Job, Outbox, Outboxes
from bot.games.space_alert.mission._posting import ChannelPosts
from bot.games.space_alert.mission._store import FlightStore
from bot.games.space_alert.mission.storage import FlightRecord
from bot.platform.i18n import t

if TYPE_CHECKING:
    from bot.platform.client import SpaceAlertBot

log = logging.getLogger(__name__)

MUTE_REASON = "Space Alert: communications down"  # audit-log reasons (for moderators, in English)
UNMUTE_REASON = "Space Alert: communications restored"


class Comms:
    def __init__(self, bot: SpaceAlertBot, store: FlightStore, posts: ChannelPosts) -> None:
        self.bot = bot
        self.store = store
        self.posts = posts
        self._queues = Outboxes(self._new_queue)
        #: (guild id, user id) -> the flight that muted them and could not unmute them (not in voice)
        self.owed: dict[tuple[int, int], str] = {}
        #: (guild id, user id) -> the mute state Discord last confirmed: a job asking for that
        #: state again has nothing to send, so an unmute queued twice (the end of a failure and the
        #: end of the flight while the first is throttled by a 429) goes out once.
        self._confirmed: dict[tuple[int, int], bool] = {}

    def queue(self, flight_id: str) -> Outbox:
        return self._queues.get(flight_id)

    def _new_queue(self, flight_id: str) -> Outbox:
        async def forbidden(exc: discord.Forbidden) -> None:
            await self._mute_failed(flight_id, exc)

        return Outbox(f"{flight_id}-voice", on_forbidden=forbidden)

    def _crew_in_voice(self, record: FlightRecord) -> tuple[list[Any], str | None]:
        lang = record.language
        guild = self.bot.get_guild(record.guild_id)
        vc_id = record.notes.get("voice_channel_id")
        if guild is None or vc_id is None:
            return [], t(lang, "mute.no_voice")
        channel = guild.get_channel(vc_id)
        if channel is None:
            return [], t(lang, "mute.voice_gone")
        me = guild.me
        if me is None or not channel.permissions_for(me).mute_members:
            return [], t(lang, "mute.no_permission")
        ids = {m.user_id for m in record.crew}
        return [m for m in getattr(channel, "members", []) if m.id in ids], None

    def stage_down(self, record: FlightRecord, seconds: int) -> tuple[str, list[int]]:
        """Inside the change that starts a communication failure (no Discord call): add the crew
        in voice to the record's muted members, saved with the change, and return the line to
        post and whom to mute once it is committed (`mute`).  The muted list is what a process
        restarting or taking over reconciles from, so a crash after the commit neither loses the
        mutes nor the unmutes that end them; the "cannot mute" notice is claimed in the same
        record, so it is said once per flight even when the change is retried."""
        lang = record.language
        members, problem = self._crew_in_voice(record)
        if problem:
            first = not record.notes.get("mute_notice_sent")
            record.notes["mute_notice_sent"] = True
            text = t(lang, "comm.cannot_mute", s=seconds, reason=problem) if first else t(lang, "comm.down", s=seconds)
            return text, []
        muted = [int(u) for u in record.notes.get("muted") or []]
        new = [m.id for m in members if m.id not in muted]  # the others are muted (or owed) already
        record.notes["muted"] = muted + new
        return t(lang, "comm.muted", s=seconds), new

    def unstage(self, record: FlightRecord, user_ids: list[int]) -> None:
        """Inside the change: take back mutes `stage_down` recorded in this same change (its
        failure ended in it too, so they were never sent and no unmute is owed for them)."""
        record.notes["muted"] = [u for u in record.notes.get("muted") or [] if u not in set(user_ids)]

    def mute(self, record: FlightRecord, user_ids: list[int]) -> None:
        """After the commit: queue the server mutes `stage_down` recorded (returns at once)."""
        guild = self.bot.get_guild(record.guild_id)
        for user_id in dict.fromkeys(user_ids):
            member = guild.get_member(user_id) if guild is not None else None
            self.queue(record.id).put(self._mute_job(record.id, record.guild_id, user_id, True, member))

    async def unmute(self, record: FlightRecord) -> None:
        """Queue an unmute for everyone the bot muted (or meant to); returns once they are queued."""
        for user_id in await self.store.muted(record.id):
            self.queue(record.id).put(self._mute_job(record.id, record.guild_id, user_id, False))

    async def reconcile(self, record: FlightRecord, comm_down_until_s: float | None, now_s: float) -> None:
        """After a restart: mute again whoever should be muted, unmute whoever should not be."""
        muted = await self.store.muted(record.id)
        if not muted:
            return
        if record.status == "flying" and comm_down_until_s is not None and comm_down_until_s > now_s:
            for user_id in muted:
                self.queue(record.id).put(self._mute_job(record.id, record.guild_id, user_id, True))
        else:
            await self.unmute(record)

    def _mute_job(self, flight_id: str, guild_id: int, user_id: int, mute: bool, member: Any = None) -> Job:
        key = (guild_id, user_id)

        async def job() -> None:
            if self._confirmed.get(key) == mute:
                return  # already so on Discord (an earlier job sent it)
            await self._send_mute(flight_id, guild_id, user_id, mute, member)

        return job

    async def _send_mute(self, flight_id: str, guild_id: int, user_id: int, mute: bool, member: Any) -> None:
        """One server mute or unmute as the job asks it; raises what the queue retries."""
        guild = self.bot.get_guild(guild_id)
        if guild is None:  # after a restart: not delivered yet is not "left" (they stayed muted)
            await self.bot.until_ready()
            guild = self.bot.get_guild(guild_id)
        target = (guild.get_member(user_id) if guild is not None else None) or member
        if target is None:  # left the server: nothing to undo
            await self.store.update_muted(flight_id, remove={user_id})
            return
        if not mute and getattr(target, "voice", True) is None:
            self._owe(guild_id, user_id, flight_id)  # left voice muted: unmuted when back
            return
        try:
            await target.edit(mute=mute, reason=MUTE_REASON if mute else UNMUTE_REASON)
        except discord.Forbidden:
            if mute:
                await self.store.update_muted(flight_id, remove={user_id})
            raise  # reported once by the queue's on_forbidden
        except discord.HTTPException as exc:
            if exc.status == 429 or exc.status >= 500:
                raise  # the queue retries after retry_after / a back-off
            # 4xx: e.g. the member is no longer in a voice channel
            log.info("flight %s: cannot %s %s: %s", flight_id, "mute" if mute else "unmute", user_id, exc)
            if mute:
                await self.store.update_muted(flight_id, remove={user_id})
                await self._mute_failed(flight_id, exc)
            else:
                self._owe(guild_id, user_id, flight_id)
            return
        self._confirmed[(guild_id, user_id)] = mute
        if not mute:
            self.owed.pop((guild_id, user_id), None)
        # success: muted ids are re-added (an unmute queued earlier may have removed them)
        await self.store.update_muted(flight_id, add={user_id} if mute else None, remove=None if mute else {user_id})

    def _owe(self, guild_id: int, user_id: int, flight_id: str) -> None:
        log.info("flight %s: %s is not in voice; unmuted when they join again", flight_id, user_id)
        self.owed[(guild_id, user_id)] = flight_id

    async def member_joined_voice(self, member: Any) -> None:
        """A member owed an unmute is back in voice: unmute them now, unless their flight is still
        flying (its own next unmute, at the end of the failure or of the flight, covers them)."""
        guild = getattr(member, "guild", None)
        key = (getattr(guild, "id", 0), member.id)
        flight_id = self.owed.get(key)
        if flight_id is None:
            return
        record = await self.store.peek(flight_id)
        if record is not None and record.status == "flying":
            return
        self.owed.pop(key, None)
        self.queue(flight_id).put(self._mute_job(flight_id, key[0], member.id, False, member))

    async def _mute_failed(self, flight_id: str, exc: discord.HTTPException) -> None:
        """Discord refused a server mute: tell the channel once per flight, then carry on.  The
        once-per-flight flag and the notice's outbox row are one unit of work, so a crash after
        it neither loses the notice nor lets a successor say it again."""
        said: list[list[str]] = []
        row: int | None = None

        async def claim(record: FlightRecord) -> dict[str, Any] | None:
            nonlocal said, row
            said, row = [], None
            if record.notes.get("mute_error_sent"):
                return None
            record.notes["mute_error_sent"] = True
            text = t(record.language, "comm.mute_failed", error=getattr(exc, "text", "") or exc.status)
            said = [["alert", text]]
            payload = {"op": "said", "channel_id": record.channel_id, "items": said, "at": self.bot.clock()}
            row = await self.bot.storage.stage_post(record.id, payload)
            return None  # a flag, not a move of the game: nothing for the journal

        record = await self.store.update(flight_id, claim)
        if record is None or not said:
            log.debug("flight %s: mute refused again: %s", flight_id, exc)
            return
        log.warning("flight %s: server mute refused: %s", flight_id, exc)
        self.posts.say_items(record.id, record.channel_id, said, row)

    async def join(self) -> None:
        await self._queues.join()

    async def retire(self, flight_id: str) -> None:
        await self._queues.retire(flight_id)

    def cancel(self) -> None:
        self._queues.cancel()

    async def shutdown(self, timeout: float) -> None:
        await self._queues.shutdown(timeout)  # an unsent mute is not kept: a restart reconciles mutes
