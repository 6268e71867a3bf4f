"""`/mission schedule <time> <mission>`: when to announce, remind and open a scheduled flight.

Pure: the time an admin types becomes a unix time, and `due` says what to do now given the stored
schedules and the clock.  Restart-proof because everything it decides from lives in the row
(time, reminded, done): a bot that was down at the reminder still sends the overdue reminder,
unless the lobby time itself has passed (then it only opens the lobby), and a lobby more than an
hour overdue is dropped rather than opened for a crew that has gone home.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Literal, TypeAlias, get_args

REMIND_BEFORE_S = 10 * 60
STALE_AFTER_S = 60 * 60
MAX_AHEAD_S = 30 * 24 * 3600

Action = Literal["remind", "open", "drop"]


# Why a time is refused: stable codes; each language's sentence is the bot's locale key
# `schedule.problem.<code>` (bot/platform/locales/*.json), the English one below is for logs and tests.
ScheduleProblem: TypeAlias = Literal["bad_clock", "unreadable", "past", "too_far"]
PROBLEMS: tuple[ScheduleProblem, ...] = get_args(ScheduleProblem)
_ENGLISH: dict[ScheduleProblem, str] = {
    "bad_clock": "the time of day is HH:MM, 00:00 to 23:59 (UTC)",
    "unreadable": "write 'in 2h', '20:30' (UTC), '2026-12-24 20:30' or a unix time",
    "past": "that time has already passed",
    "too_far": "flights can be scheduled at most 30 days ahead",
}


class ScheduleError(ValueError):
    """A time that cannot be read or lies in the past / too far ahead: `code` says which, so the
    bot can say it in the user's language."""

    def __init__(self, code: ScheduleProblem) -> None:
        super().__init__(_ENGLISH[code])
        self.code: ScheduleProblem = code


@dataclass(frozen=True, slots=True)
class Scheduled:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    at: float  # unix time the lobby opens
    mission: str
    campaign: bool = False
    reminded: bool = False
    done: bool = False


# ASCII digits only ("²" and "٣" are digits to str.isdigit but not to float()); a count of hours or
# minutes longer than _MAX_DIGITS is far beyond 30 days and refused before it becomes a number.
_RELATIVE = re.compile(r"in\s+(?:([0-9]+)\s*h)?\s*(?:([0-9]+)\s*m(?:in)?)?", re.IGNORECASE)
_CLOCK = re.compile(r"([0-9]{1,2}):([0-9]{2})")
_MAX_DIGITS = 12


def parse_time(text: str, now: float) -> float:
    """'in 2h', 'in 90m', 'in 1h30m', '20:30' (today or tomorrow, UTC), '2026-12-24 20:30' (UTC),
    an ISO time with an offset, or a unix time; returns a unix time between now and 30 days.

    Total: any other string raises ScheduleError with its code, never another exception."""
    raw = text.strip()
    when: float | None = None
    if (m := _RELATIVE.fullmatch(raw)) and (m[1] or m[2]):
        if max(len(m[1] or ""), len(m[2] or "")) > _MAX_DIGITS:
            raise ScheduleError("too_far")
        when = now + int(m[1] or 0) * 3600 + int(m[2] or 0) * 60
    elif m := _CLOCK.fullmatch(raw):
        hour, minute = int(m[1]), int(m[2])
        if hour > 23 or minute > 59:
            raise ScheduleError("bad_clock")
        today = datetime.fromtimestamp(now, UTC).replace(hour=hour, minute=minute, second=0, microsecond=0)
        when = (today if today.timestamp() > now else today + timedelta(days=1)).timestamp()
    elif raw.isascii() and raw.isdigit():
        if len(raw) > _MAX_DIGITS:
            raise ScheduleError("too_far")
        when = float(raw)
    else:
        try:
            parsed = datetime.fromisoformat(raw)
            when = (parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)).timestamp()
        except (ValueError, OverflowError, OSError):  # unreadable, or a year 1 / 9999 out of range
            raise ScheduleError("unreadable") from None
    if when <= now:
        raise ScheduleError("past")
    if when - now > MAX_AHEAD_S:
        raise ScheduleError("too_far")
    return when


def timestamps(at: float) -> tuple[str, str]:
    """Discord timestamp markup: the full date and time, and 'in 2 hours' (each reader's zone)."""
    return f"<t:{int(at)}:F>", f"<t:{int(at)}:R>"


def due(schedules: Iterable[Scheduled], now: float) -> list[tuple[Scheduled, Action]]:
    """What to do now, oldest first: remind (10 min before), open the lobby, or drop (stale)."""
    out: list[tuple[Scheduled, Action]] = []
    for item in sorted(schedules, key=lambda s: (s.at, s.id)):
        if item.done:
            continue
        if now >= item.at + STALE_AFTER_S:
            out.append((item, "drop"))
        elif now >= item.at:
            out.append((item, "open"))
        elif now >= item.at - REMIND_BEFORE_S and not item.reminded:
            out.append((item, "remind"))
    return out


def after(item: Scheduled, action: Action) -> Scheduled:
    """The row once `action` has been carried out (store it before acting on the next one)."""
    if action == "remind":
        return replace(item, reminded=True)
    return replace(item, reminded=True, done=True)


def next_wakeup(schedules: Iterable[Scheduled], now: float) -> float | None:
    """When the scheduler must look again (the next reminder or opening), None if nothing waits."""
    times = []
    for item in schedules:
        if item.done:
            continue
        times.append(item.at if item.reminded else item.at - REMIND_BEFORE_S)
    return max(now, min(times)) if times else None
