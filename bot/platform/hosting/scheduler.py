"""`/mission schedule <time> <mission>` in Discord: store, announce, remind, open.

The rules of when to remind and open are pure (schedule.py); this module stores the rows through
the storage interface (`add_schedule` / `pending_schedules` / `mark_schedule`) and talks to the
channel.  Restart-proof: everything it decides from is in the row, and a row is marked before
the message for it goes out (a crash in between loses one reminder rather than sending two).
Opening the lobby is the flight code's: the runner dispatches `scheduled_flight(record)` and the
Mission cog opens a lobby in the row's channel for its host.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.platform.hosting._text import tx
from bot.platform.hosting.gate import flight_gate, serves
from bot.platform.hosting.schedule import (
    REMIND_BEFORE_S,
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


async def run_schedules(bot: Any, now: float) -> list[tuple[int, Action]]:
    """Carry out what is due now (reminders, openings, stale rows dropped); returns what was
    done as (schedule id, action), for the tests and the log."""
    # only this process's servers (several shards share one database), each row claimed first
    records = {r.id: r for r in await bot.storage.pending_schedules() if serves(bot, r.guild_id)}
    done: list[tuple[int, Action]] = []
    for item, action in due([as_scheduled(r) for r in records.values()], now):
        record = records[item.id]
        claimed = await bot.storage.mark_schedule(
            item.id, reminded=True, done=action != "remind", was_reminded=item.reminded
        )
        if not claimed:
            continue  # another process got there first
        done.append((item.id, action))
        channel: Any = bot.get_channel(item.channel_id)
        lang = await server_language(bot.storage, item.guild_id, bot.settings.default_language)
        full, rel = timestamps(item.at)
        mission = discord.utils.escape_markdown(item.mission)
        try:
            if action == "remind" and channel is not None:
                await channel.send(
                    tx(lang, "schedule.remind", mission=mission, full=full, rel=rel), allowed_mentions=NO_PINGS
                )
            elif action == "drop" and channel is not None:
                await channel.send(tx(lang, "schedule.dropped", mission=mission, full=full), allowed_mentions=NO_PINGS)
            elif action == "open":
                if channel is not None:  # a campaign night opens a vote, not a lobby for the mission
                    opening = (
                        t(lang, "schedule.campaign_opening")
                        if record.campaign
                        else tx(lang, "schedule.opening", mission=mission)
                    )
                    await channel.send(opening, allowed_mentions=NO_PINGS)
                bot.dispatch("scheduled_flight", record)
        except discord.HTTPException:
            log.warning("schedule %s: could not post the %s message", item.id, action)
    return done
