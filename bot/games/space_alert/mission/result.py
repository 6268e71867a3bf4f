"""The end of a flight: the logbook entry and the result post (embed, overview picture, thread,
captain's log).

Resolution itself is the engine's; this module runs it with the per-turn snapshots the pictures
need (`resolve_game`, in a worker thread), draws the overview (`overview_picture`, off the loop,
bounded in time), and turns the result into what the server keeps (a `LogbookEntry`) and what the
channel sees (one storable result job, sent after the flight's last intercom lines).

The picture is an extra: when the snapshots or the drawing fail, the result goes out without it
and the failure is logged.  The result itself never depends on the picture code.
"""

from __future__ import annotations

import asyncio
import base64
import io
import logging
from datetime import UTC, datetime
from typing import Any

import discord

from bot.games.space_alert.campaign.handoff import game_of
from bot.games.space_alert.campaign.school import hint_lines
from bot.games.space_alert.logbook import LogbookCrew, LogbookEntry
from bot.games.space_alert.mission._pause import duration_text, paused_total
from bot.games.space_alert.mission.render import captains_log, mission_label, result_embed, threat_points
from bot.games.space_alert.mission.storage import FlightRecord
from bot.games.space_alert.pictures import Replay, render_overview, resolve_with_states
from bot.games.space_alert.pictures.alt import overview_alt
from bot.games.space_alert.threat_names import threat_name
from bot.platform.i18n import t
from engine import resolve
from engine.flight.machine import Flight
from engine.model import Game, Result

log = logging.getLogger(__name__)

PICTURE_NAME = "overview.png"
# A picture takes ~60 ms; one that takes this long is stuck, and the result does not wait for it.
RENDER_TIMEOUT_S = 10.0


def resolve_game(game: Game) -> tuple[Result, Replay | None]:
    """The game's result with the captain's log, and its per-turn snapshots when they can be taken.

    Blocking (tens of ms): call it through `asyncio.to_thread`.  The snapshots' observer only
    reads, so the result is the one `engine.resolve(game, log=True)` gives; should the snapshot
    code fail, the game is resolved again without it, so a picture bug never costs the result.
    An error of the engine itself propagates (the caller reports it).
    """
    try:
        replay = resolve_with_states(game)
    except Exception:
        log.exception("per-turn snapshots failed; resolving without pictures")
        return resolve(game, log=True), None
    return replay.result, replay


def resolve_flight(flight: Flight, options: dict[str, Any] | None = None) -> tuple[Result, Replay | None]:
    """`resolve_game` for a finished flight: the same result as `flight.resolve(log=True)`, from
    the campaign's carried ship when the flight's options hold one."""
    return resolve_game(game_of(flight, options or {}))


def overview_description(replay: Replay | None, lang: str) -> str | None:
    """The overview picture's alt text (None without a picture)."""
    return overview_alt(replay, lang) if replay is not None else None


async def overview_picture(replay: Replay | None, lang: str) -> bytes | None:
    """The result post's PNG, drawn in a worker thread; None (logged) when it fails or hangs."""
    if replay is None:
        return None
    try:
        return await asyncio.wait_for(asyncio.to_thread(render_overview, replay, lang), RENDER_TIMEOUT_S)
    except Exception:  # TimeoutError included: the thread finishes on its own, unused
        log.exception("drawing the overview picture failed; the result goes out without it")
        return None


def picture_file(png: bytes, description: str | None = None) -> discord.File:
    """A PNG as the attachment an embed points to with `attachment://overview.png`."""
    return discord.File(io.BytesIO(png), filename=PICTURE_NAME, description=description)


def with_picture(embed: discord.Embed) -> discord.Embed:
    """The embed showing the attached overview picture."""
    return embed.set_image(url=f"attachment://{PICTURE_NAME}")


def generator_record(options: dict[str, Any], timeline: Any) -> dict[str, Any]:
    """What the logbook keeps of a random mission: seed, preset, every parameter, the timeline."""
    from engine.flight.generator import preset_params

    preset = options.get("preset", "mission")
    return {
        "seed": int(options["seed"]),
        "preset": preset,
        "params": preset_params(preset).model_dump(mode="json"),
        "timeline": timeline.to_json_dict(),
    }


def logbook_entry(record: FlightRecord, flight: Flight, data: dict[str, Any]) -> LogbookEntry:
    ids = {m.name: m for m in record.crew}
    crew = [
        LogbookCrew(
            name=name,
            user_id=ids[name].user_id if name in ids else None,
            roles=ids[name].roles if name in ids else ["android"] if android else [],
        )
        for name, android in ((m.name, m.android) for m in flight.members)
    ]
    destroyed, survived = threat_points(data)
    score = data["score"]
    mission = record.options["mission"]
    paused = {"paused_s": flight.paused_s} if flight.paused_s else {}  # the logbook says how long it stood still
    return LogbookEntry(
        flight_id=record.id,
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        flown_at=datetime.now(UTC).isoformat(timespec="seconds"),
        mission_id=mission,
        generator=generator_record(record.options, flight.timeline) if mission == "random" else None,
        seed=int(record.options["seed"]),
        normal_difficulty=record.options["normal"],
        serious_difficulty=record.options["serious"],
        language=record.language,
        outcome=data["outcome"],
        crew=crew,
        result={k: v for k, v in data.items() if k != "log"} | paused,
        destroyed_by=(data.get("lost") or {}).get("cause"),
        threat_points_destroyed=destroyed,
        threat_points_survived=survived,
        penalties={k: score[k] for k in ("damage", "worst_zone", "knocked_out", "battlebots")},
        observation=score["observation"],
        total=score["total"],
        campaign_id=record.options.get("campaign_id"),
    )


def result_payload(
    record: FlightRecord,
    data: dict[str, Any],
    picture: bytes | None = None,
    result: Result | None = None,
    picture_alt: str | None = None,
    lesson: str | None = None,
) -> dict[str, Any]:
    """The result as one storable job: the embed, the overview picture (base64, so a shutdown can
    store the job as JSON), the pictures button's flight, the thread's name, the captain's log (with
    a school flight's hints)."""
    lang = record.language
    names = {t_["id"]: threat_name(lang, t_["id"]) for t_ in data.get("threats", [])}
    title = t(lang, "result.title", mission=mission_label(record.options, lang))
    embed = result_embed(lang, data, title=title, names=names)
    if record.options.get("campaign_id"):  # which campaign mission this was, above the title
        embed.set_author(name=t(lang, "evening.result.campaign", n=record.options.get("campaign_mission", "?")))
    if paused := paused_total(record):  # how long the crew stopped the clock, once, under the outcome
        embed.description = f"{embed.description}\n{t(lang, 'pause.result', duration=duration_text(lang, paused))}"
    return {
        "op": "result",
        "channel_id": record.channel_id,
        "embed": embed.to_dict(),
        "flight_id": record.id,
        "language": lang,
        "picture": base64.b64encode(picture).decode("ascii") if picture else None,
        "picture_alt": picture_alt,  # the picture's description for screen readers
        "thread_name": t(lang, "result.log_thread")[:100],
        "chunks": captains_log(lang, data.get("log") or []) + school_hints(record, result, lesson),
        "thread_tried": record.options.get("log") == "channel",  # /settings log: channel, no thread
    }


def school_hints(record: FlightRecord, result: Result | None, lesson: str | None = None) -> list[str]:
    """A flight-school flight's log ends with what went wrong and which rule explains it, and, when
    it was lost, the one change that would have passed the lesson (`lesson_hindsight`)."""
    if result is None or not record.options.get("school"):
        return []
    lines = hint_lines(record.language, result) + ([lesson] if lesson else [])
    return ["\n".join(lines)[:1900]]


async def lesson_hindsight(record: FlightRecord, flight: Flight, result: Result) -> str | None:
    """A lost school flight's hint naming the one change that would have passed the lesson,
    searched in a worker thread; None for any other flight, or (logged) if the search fails."""
    if not record.options.get("school") or result.outcome != "destroyed":
        return None
    from bot.games.space_alert.hindsight.answer import lesson_line

    try:
        game = game_of(flight, record.options)
        return await asyncio.wait_for(asyncio.to_thread(lesson_line, flight, game, record.language), RENDER_TIMEOUT_S)
    except Exception:
        log.exception("flight %s: the lesson's hindsight failed; the hints go out without it", record.id)
        return None
