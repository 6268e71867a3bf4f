"""`/mission schedule <time> <mission>` in Discord: store, announce, remind, open.

The rules of when to remind and open are pure (schedule.py); this module stores the rows through
the storage interface (`add_schedule` / `pending_schedules` / `mark_schedule`) and talks to the
channel.  Posts exactly once (issue 25): the claim of a due row records, in the same statement,
what it now owes (`owed`: remind / drop / open); after the commit the message goes out, the
message it became is recorded, an opening is carried out, and the row is settled.  A process that
restarts or takes over the server finishes rows still owing at its first round (after the gateway
is ready), looking the message up in the channel first, so a crash between the claim and the post
loses nothing and one between the post and its record sends nothing twice.
Opening the lobby is the game's: the runner awaits the `scheduled_flight(record)` listeners (the
Mission cog opens a lobby in the row's channel for its host, the Campaign cog a vote); a retry may
reach them twice, and a channel holds one lobby or one campaign, so the second finds it open.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.platform.hosting._text import tx
from bot.platform.hosting.gate import flight_gate, serves
from bot.platform.hosting.schedule import (
    REMIND_BEFORE_S,
    STALE_AFTER_S,
    Action,
    Scheduled,
    ScheduleError,
    due,
    parse_time,
    timestamps,
)
from bot.platform.hosting.server_settings import server_language
from bot.platform.i18n import t
from bot.platform.storage.platform import ScheduleRecord

log = logging.getLogger(__name__)
NO_PINGS = discord.AllowedMentions.none()

# the flight code's check of a mission id: None when it can be flown here, else the reason
MissionCheck = Callable[[str], Awaitable[str | None]]
LOOK_BACK = 25  # recent channel messages searched for a post that may have gone out before a crash


def as_scheduled(record: ScheduleRecord) -> Scheduled:
    return Scheduled(
        id=record.id or 0,
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        host_id=record.host_id,
        at=record.at,
        mission=record.mission,
        campaign=record.campaign,
        reminded=record.reminded,
        done=record.done,
    )


async def schedule_flight(
    bot: Any,
    interaction: discord.Interaction,
    when: str,
    mission: str,
    *,
    campaign: bool = False,
    options: dict[str, Any] | None = None,
    check: MissionCheck | None = None,
) -> ScheduleRecord | None:
    """Answer `/mission schedule`: refused (ephemeral) or stored and announced in the channel
    with Discord timestamps (each reader sees their own time zone)."""
    guild_id, channel_id = interaction.guild_id or 0, interaction.channel_id or 0
    gate = await flight_gate(
        bot.storage,
        guild_id,
        channel_id,
        interaction.user,
        admin=bool(interaction.permissions.manage_guild),
        action="mission.schedule",
        default_language=str(bot.settings.default_language),
    )
    lang = gate.language
    if gate.refusal is not None:
        await interaction.response.send_message(gate.refusal, ephemeral=True, allowed_mentions=NO_PINGS)
        return None
    problem = await check(mission) if check is not None else None  # already in words
    at = 0.0
    if problem is None:
        try:
            at = parse_time(when, bot.clock())
        except ScheduleError as exc:
            problem = t(lang, f"schedule.problem.{exc.code}")
    if problem is not None:
        await interaction.response.send_message(  # the reason is a sentence: no second full stop
            tx(lang, "schedule.bad_time", reason=problem.rstrip(". ")), ephemeral=True, allowed_mentions=NO_PINGS
        )
        return None
    record = ScheduleRecord(
        guild_id, channel_id, interaction.user.id, at, mission, campaign=campaign, options=dict(options or {})
    )
    await bot.storage.add_schedule(record)
    await interaction.response.send_message(
        announcement(lang, mission, at, bot.clock(), campaign=campaign), allowed_mentions=NO_PINGS
    )
    return record


def announcement(lang: str, mission: str, at: float, now: float, *, campaign: bool) -> str:
    """What /mission schedule answers: a campaign night says that a vote opens (not a lobby for
    `mission`), and a reminder is promised only when there are more than 10 minutes to go."""
    full, rel = timestamps(at)
    reminded = at - now > REMIND_BEFORE_S
    if campaign:
        night = t(lang, "schedule.campaign_night", full=full, rel=rel)
        return night + (t(lang, "schedule.campaign_night_reminder") if reminded else "")
    name = discord.utils.escape_markdown(mission)
    if reminded:
        return tx(lang, "schedule.announced", mission=name, full=full, rel=rel)
    return t(lang, "schedule.announced_soon", mission=name, full=full, rel=rel)


async def run_schedules(
    bot: Any, now: float, *, fault: Callable[[str, ScheduleRecord], Awaitable[None]] | None = None
) -> list[tuple[int, Action]]:
    """Carry out what is due now (reminders, openings, stale rows dropped), after finishing what
    earlier claims still owe; returns what was claimed as (schedule id, action), for the tests and
    the log.  `fault` (tests): awaited at "claimed" / "before_send" / "after_send" / "opened"; raising
    there is a crash at that point."""
    lock = _round_lock(bot)
    async with lock:  # the start-up round and the loop's never interleave on one row
        await _settle_owed(bot, now, fault)
        # only this process's servers (several shards share one database), each row claimed first
        records = {r.id: r for r in await bot.storage.pending_schedules() if serves(bot, r.guild_id)}
        done: list[tuple[int, Action]] = []
        for item, action in due([as_scheduled(r) for r in records.values()], now):
            record = records[item.id]
            claimed = await bot.storage.mark_schedule(
                item.id, reminded=True, done=action != "remind", was_reminded=item.reminded, owed=action, owed_at=now
            )
            if not claimed:
                continue  # another process got there first
            done.append((item.id, action))
            record.owed, record.owed_at, record.posted_message_id = action, now, None
            if fault is not None:
                await fault("claimed", record)
            await _carry_out(bot, record, fault)
        return done


def _round_lock(bot: Any) -> asyncio.Lock:
    lock = getattr(bot, "_schedule_round_lock", None)
    if not isinstance(lock, asyncio.Lock):
        lock = asyncio.Lock()
        bot._schedule_round_lock = lock
    return lock


async def _settle_owed(bot: Any, now: float, fault: Callable[[str, ScheduleRecord], Awaitable[None]] | None) -> None:
    """Rows a claim left owing (this process failed to reach Discord, or a process died between
    the claim and the post or the opening): finished here, by the process serving the server."""
    for record in await bot.storage.owed_schedules():
        if not serves(bot, record.guild_id):
            continue
        if record.owed in ("remind", "open") and now >= record.at + STALE_AFTER_S:
            log.warning("schedule %s: the %s is too late now; given up", record.id, record.owed)
            await bot.storage.settle_schedule(record.id or 0, str(record.owed))
            continue
        if record.owed == "remind" and now >= record.at:
            await bot.storage.settle_schedule(record.id or 0, "remind")  # the opening says it now
            continue
        record.retry = True
        log.info("schedule %s: finishing its %s (claimed, not confirmed done)", record.id, record.owed)
        await _carry_out(bot, record, fault)


async def _carry_out(
    bot: Any, record: ScheduleRecord, fault: Callable[[str, ScheduleRecord], Awaitable[None]] | None
) -> None:
    """What a claimed row owes: its post (looked up in the channel first on a retry, so it never
    goes out twice), then for an opening the game's lobby or vote; then the row owes nothing.
    A moment's failure of Discord leaves the row owing for the next round."""
    action = str(record.owed)
    schedule_id = record.id or 0
    channel: Any = bot.get_channel(record.channel_id)
    try:
        if record.posted_message_id is None and channel is not None:
            text = await _text(bot, record, action)
            found = await _look_up(bot, channel, text, record.owed_at or 0.0) if record.retry else None
            if found is not None:
                log.info("schedule %s: its %s message had gone out as %s; not sent again", schedule_id, action, found)
            else:
                if fault is not None:
                    await fault("before_send", record)
                message = await channel.send(text, allowed_mentions=NO_PINGS)
                if fault is not None:
                    await fault("after_send", record)
                found = getattr(message, "id", None)
            if found is not None:
                record.posted_message_id = int(found)
                await bot.storage.note_schedule_post(schedule_id, int(found))
        if action == "open":
            await open_flight(bot, record)
            if fault is not None:
                await fault("opened", record)
    except discord.HTTPException as exc:
        if exc.status >= 500 or exc.status == 429:
            log.info("schedule %s: the %s waits for the next round (%s)", schedule_id, action, exc)
            return
        log.warning("schedule %s: could not post the %s message (%s); given up", schedule_id, action, exc)
    except (TimeoutError, OSError) as exc:
        log.info("schedule %s: the %s waits for the next round (%s)", schedule_id, action, exc)
        return
    await bot.storage.settle_schedule(schedule_id, action)


async def _text(bot: Any, record: ScheduleRecord, action: str) -> str:
    """The row's message for `action`, in the server's language (the same words on a retry, so the
    channel look-up finds a post that went out before a crash)."""
    lang = await server_language(bot.storage, record.guild_id, bot.settings.default_language)
    full, rel = timestamps(record.at)
    mission = discord.utils.escape_markdown(record.mission)
    if action == "remind":
        return tx(lang, "schedule.remind", mission=mission, full=full, rel=rel)
    if action == "drop":
        return tx(lang, "schedule.dropped", mission=mission, full=full)
    if record.campaign:  # a campaign night opens a vote, not a lobby for the mission
        return t(lang, "schedule.campaign_opening")
    return tx(lang, "schedule.opening", mission=mission)


async def _look_up(bot: Any, channel: Any, text: str, since: float) -> int | None:
    """A message of the bot's in the channel, created since the claim, saying exactly `text` (a
    post that went out before a crash, unrecorded): its id, else None."""
    if not hasattr(channel, "history"):
        return None
    me = getattr(getattr(bot, "user", None), "id", None)
    try:
        async for message in channel.history(limit=LOOK_BACK):
            created = getattr(message, "created_at", None)
            if created is not None and created.timestamp() < since - 2.0:
                continue
            if me is not None and getattr(getattr(message, "author", None), "id", None) != me:
                continue
            if (message.content or "") == text:
                return int(message.id)
    except discord.HTTPException as exc:
        log.info("cannot read channel %s to look for a sent schedule post (%s)", getattr(channel, "id", "?"), exc)
    return None


async def open_flight(bot: Any, record: ScheduleRecord) -> None:
    """The game's opening of a scheduled night (`scheduled_flight`), awaited so the row owes it
    until it is done: each listener runs here rather than as a detached task.  A retry reaches
    the game with `record.retry` set; the game keeps one lobby or vote per channel (its own
    constraint) and then stays quiet.  A bot without listeners (a test's) gets the event."""
    listeners = list(getattr(bot, "extra_events", {}).get("on_scheduled_flight", []))
    if not listeners:
        bot.dispatch("scheduled_flight", record)
        return
    for listener in listeners:
        try:
            await listener(record)
        except discord.HTTPException:
            raise  # Discord's: sorted by the caller (a moment's failure is retried)
        except Exception:  # a bug is not mended by retrying every round: logged, the row settles
            log.exception("schedule %s: the game's opening failed", record.id)
