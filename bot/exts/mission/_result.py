"""The end of a flight: the logbook entry and the result post (embed, thread, captain's log).

Resolution itself is the engine's (`Flight.resolve`); this module turns its result into what the
server keeps (a `LogbookEntry`) and what the channel sees (one storable result job, sent after
the flight's last intercom lines).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bot.exts.campaign.school import hint_lines
from bot.exts.mission._render import captains_log, mission_label, result_embed, threat_points
from bot.i18n import t, threat_name
from bot.storage import FlightRecord, LogbookCrew, LogbookEntry
from engine.flight.machine import Flight
from engine.model import Result


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
        result={k: v for k, v in data.items() if k != "log"},
        destroyed_by=(data.get("lost") or {}).get("cause"),
        threat_points_destroyed=destroyed,
        threat_points_survived=survived,
        penalties={k: score[k] for k in ("damage", "worst_zone", "knocked_out", "battlebots")},
        observation=score["observation"],
        total=score["total"],
        campaign_id=record.options.get("campaign_id"),
    )


def result_payload(record: FlightRecord, data: dict[str, Any], result: Result | None = None) -> dict[str, Any]:
    """The result as one storable job: the embed, the thread's name, the captain's log in chunks."""
    lang = record.language
    names = {t_["id"]: threat_name(lang, t_["id"]) for t_ in data.get("threats", [])}
    title = t(lang, "result.title", mission=mission_label(record.options, lang))
    embed = result_embed(lang, data, title=title, names=names)
    return {
        "op": "result",
        "channel_id": record.channel_id,
        "embed": embed.to_dict(),
        "thread_name": t(lang, "result.log_thread")[:100],
        "chunks": captains_log(lang, data.get("log") or []) + school_hints(record, result),
        "thread_tried": record.options.get("log") == "channel",  # /settings log: channel, no thread
    }


def school_hints(record: FlightRecord, result: Result | None) -> list[str]:
    """A flight-school flight's log ends with what went wrong and which rule explains it."""
    if result is None or not record.options.get("school"):
        return []
    return ["\n".join(hint_lines(record.language, result))[:1900]]
