"""The flight school in Discord: `/mission school` picks the player's next lesson (or the
one asked for, if it is open), explains it before the flight, and says which recording and mode
to fly; when the flight is resolved, every human crew member's progress is stored and the hints
(what went wrong, which rule explains it) close the captain's log.

The flight itself is the Mission cog's (`/mission school`): `prepare_school_flight` answers
refusals and returns the lesson, the explanation embed and the lobby options (`school`,
`untimed`, the recording); the flight code opens the lobby with them, closes the captain's log
with `hint_lines` and asks `SchoolCog.flight_follow_ups` inside its finishing transaction (progress for the crew, and
the post that says so, staged in the flight's outbox after the result).

An untimed lesson (the lesson's default, or `/mission school untimed:`) flies with the flight
machine's untimed mode: a phase ends when every human has pressed Finish (engine/flight/machine.py
says what that means for the recording's announcements).  Its intercom runs in text only: the
voice bridge plays the whole script on the mission clock, which a held phase end would leave behind.
Lesson and hint texts exist in en/ru/cs/sk (Slovak in the Slovak rulebook's words); a language
without its own text would read English.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import discord
from discord.ext import commands

from bot.games.space_alert.campaign._text import tx
from bot.games.space_alert.campaign.handoff import after_result, follow_up, send_follow_up
from bot.games.space_alert.storage import School
from bot.platform.hosting.server_settings import server_language
from bot.platform.i18n import t
from engine.model import Result
from engine.school.hints import Hint, hints
from engine.school.lessons import LESSON_IDS, LESSONS, Lesson, lesson
from engine.school.progress import SchoolProgress

log = logging.getLogger(__name__)
NO_PINGS = discord.AllowedMentions.none()
SCHOOL_OPTION = "school"  # lobby option: the lesson id of a school flight


def lesson_title(lang: str, item: Lesson) -> str:
    """A lesson's title in `lang` (the catalogue's `school` area; every lesson has all four)."""
    return t(lang, f"school.lesson.{item.id}.title")


def lesson_explanation(lang: str, item: Lesson) -> str:
    return t(lang, f"school.lesson.{item.id}.explanation")


def hint_text(lang: str, hint: Hint) -> str:
    """A hint in words: the rulebook section, then what went wrong and how the rule helps."""
    return f"{hint.rule.section}: {t(lang, f'school.hint.{hint.kind}')}"


@dataclass(frozen=True, slots=True)
class SchoolStart:
    lesson: Lesson
    untimed: bool
    options: dict[str, Any]  # to merge into the lobby's options
    embed: discord.Embed  # the explanation, posted before the flight


def lesson_options(item: Lesson, untimed: bool) -> dict[str, Any]:
    rec = item.recording
    options: dict[str, Any] = {SCHOOL_OPTION: item.id, "untimed": untimed, "hints_in_log": True}
    if rec.official is not None:
        options["mission"] = rec.official
    else:  # the generator's training preset, narrowed down (bot/games/space_alert/mission/_flights.py reads these)
        options |= {"mission": "random", "preset": rec.preset, "seed": rec.seed, "overrides": dict(rec.overrides)}
    return options


def lesson_embed(lang: str, item: Lesson, progress: SchoolProgress | None, untimed: bool) -> discord.Embed:
    embed = discord.Embed(
        title=tx(lang, "school.title", n=item.number, of=len(LESSONS), title=lesson_title(lang, item)),
        description=lesson_explanation(lang, item),
    )
    mode = tx(lang, "school.untimed") + "\n" + t(lang, "flight.untimed_voice") if untimed else tx(lang, "school.timed")
    embed.add_field(name=tx(lang, "school.mode"), value=mode)
    if progress is not None:
        embed.add_field(
            name=tx(lang, "school.progress"),
            value=tx(lang, "school.passed", passed=len(progress.passed), of=len(LESSONS)),
        )
    embed.set_footer(text=tx(lang, "school.rule", rule=item.rule))
    return embed


def flight_lesson_embed(lang: str, options: Mapping[str, Any]) -> discord.Embed | None:
    """The lesson's text for a school flight's lobby message once the flight has started (the
    explanation stays in view while the crew flies it); None for any other flight."""
    lesson_id = str(options.get(SCHOOL_OPTION) or "")
    if lesson_id not in LESSON_IDS:
        return None
    return lesson_embed(lang, lesson(lesson_id), None, bool(options.get("untimed")))


async def load_progress(storage: Any, user_id: int) -> SchoolProgress:
    return SchoolProgress.from_dict(await School(storage).progress(user_id) or {})


async def prepare_school_flight(
    bot: Any, interaction: discord.Interaction, lesson_id: str | None = None, untimed: bool | None = None
) -> SchoolStart | None:
    """The lesson to fly now for this player; None when refused (already answered, ephemerally).
    `untimed` None takes the lesson's default mode."""
    lang = await server_language(bot.storage, interaction.guild_id, bot.settings.default_language)
    progress = await load_progress(bot.storage, interaction.user.id)
    if lesson_id:
        try:
            item = lesson(lesson_id)
        except KeyError:
            await interaction.response.send_message(f"{', '.join(LESSON_IDS)}", ephemeral=True)
            return None
        if not progress.is_open(item.id):
            await interaction.response.send_message(
                tx(lang, "school.locked", n=item.number, before=item.number - 1), ephemeral=True
            )
            return None
    else:
        found = progress.next_lesson()
        if found is None:
            await interaction.response.send_message(tx(lang, "school.done"), ephemeral=True)
            return None
        item = found
    mode = item.untimed if untimed is None else untimed
    return SchoolStart(item, mode, lesson_options(item, mode), lesson_embed(lang, item, progress, mode))


def hint_lines(lang: str, result: Result) -> list[str]:
    """The captain's log's closing lines of a school flight: each mistake once, with its rule."""
    found = hints(result)
    if not found:
        return [tx(lang, "school.no_hints")]
    lines = [f"**{tx(lang, 'school.hints')}**"]
    for hint in found:
        lines.append("• " + tx(lang, "school.hint_line", text=hint_text(lang, hint), turn=hint.turn, count=hint.count))
    return lines


async def record_school_flight(storage: Any, record: Any, result: Result) -> list[str]:
    """Count a finished school flight for every human aboard; returns their names."""
    lesson_id = str(record.options.get(SCHOOL_OPTION) or "")
    if lesson_id not in LESSON_IDS:
        return []
    names = []
    counted = False

    def count(stored: Any) -> bool:
        """The flight added to the player's progress as stored now (one unit of work: load, this
        pure change, save with a version check; re-run on a fresh load if another flight of the
        same player was counted meanwhile)."""
        nonlocal counted
        progress = SchoolProgress.from_dict(stored.progress)
        counted = progress.is_open(lesson_id)
        if not counted:
            return False  # flew along on someone else's lesson: it counts once they reach it
        stored.progress = progress.record(lesson_id, result.outcome, result.score.total).to_dict()
        return True

    for member in record.crew:
        await School(storage).change(member.user_id, count)
        if counted:
            names.append(member.name)
    return names


class SchoolCog(commands.Cog, name="School"):
    """Listens for resolved school flights: progress, then the hints."""

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    async def flight_follow_ups(self, record: Any, result: Result) -> list[dict[str, Any]]:
        """A school flight ended: every human's progress, stored inside the flight's finishing
        transaction (`handoff`), and the "progress saved" post with the hints, returned as an
        outbox payload that goes out after the flight's result, exactly once."""
        if not record.options.get(SCHOOL_OPTION):
            return []
        names = await record_school_flight(self.bot.storage, record, result)
        lang = await server_language(self.bot.storage, record.guild_id, self.bot.settings.default_language)
        item = lesson(str(record.options[SCHOOL_OPTION]))
        lines = [
            tx(
                lang,
                "school.recorded",
                title=lesson_title(lang, item),
                outcome=t(lang, f"outcome.{result.outcome}"),
                names=", ".join(discord.utils.escape_mentions(n) for n in names) or "—",
            )
        ]
        if not record.options.get("hints_in_log"):  # the flight code did not close its log with them
            lines += hint_lines(lang, result)
        return [follow_up(record.channel_id, lang, content="\n".join(lines)[:2000])]

    async def on_flight_resolved(self, record: Any, result: Result) -> None:
        """The school's follow-ups of a flight resolved outside a flight's finish (tests, tools):
        progress at once, the post after the flight's result."""
        async with self.bot.storage.transaction():
            posts = await self.flight_follow_ups(record, result)
        channel: Any = self.bot.get_channel(record.channel_id)
        if not posts or channel is None:
            return
        await after_result(self.bot, record)  # progress is stored; the post follows the result
        for payload in posts:
            await send_follow_up(self.bot, channel, payload)
