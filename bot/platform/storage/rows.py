"""Records to and from database rows, shared by the backends (the SQL differs, the shapes not).
(Space Alert's flights have theirs in bot/games/space_alert/mission/storage.py.)

JSON documents (results, penalties, roles) are stored as text in SQLite and as JSONB
in PostgreSQL; both hand back a `str` here (asyncpg without a JSON codec), so one decoder serves.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from bot.platform.storage.base import LogbookCrew, LogbookEntry

LOGBOOK_COLUMNS: tuple[str, ...] = (
    "id",
    "flight_id",
    "guild_id",
    "channel_id",
    "flown_at",
    "mission_id",
    "generator",
    "seed",
    "normal_difficulty",
    "serious_difficulty",
    "language",
    "outcome",
    "destroyed_by",
    "threat_points_destroyed",
    "threat_points_survived",
    "penalties",
    "observation",
    "total",
    "result",
    "game",
    "campaign_id",
)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


def logbook_params(e: LogbookEntry) -> tuple[Any, ...]:
    """The values of LOGBOOK_COLUMNS without `id`."""
    return (
        e.flight_id,
        e.guild_id,
        e.channel_id,
        e.flown_at,
        e.mission_id,
        json.dumps(e.generator) if e.generator is not None else None,
        e.seed,
        e.normal_difficulty,
        e.serious_difficulty,
        e.language,
        e.outcome,
        e.destroyed_by,
        e.threat_points_destroyed,
        e.threat_points_survived,
        json.dumps(e.penalties),
        e.observation,
        e.total,
        json.dumps(e.result),
        e.game,
        e.campaign_id,
    )


def logbook_from_row(row: Sequence[Any], crew: list[LogbookCrew]) -> LogbookEntry:
    d = dict(zip(LOGBOOK_COLUMNS, row, strict=True))
    return LogbookEntry(
        id=int(d["id"]),
        flight_id=d["flight_id"],
        guild_id=int(d["guild_id"]),
        channel_id=int(d["channel_id"]),
        flown_at=str(d["flown_at"]),
        mission_id=d["mission_id"],
        generator=_json(d["generator"]) if d["generator"] else None,
        seed=d["seed"],
        normal_difficulty=d["normal_difficulty"],
        serious_difficulty=d["serious_difficulty"],
        language=d["language"],
        outcome=d["outcome"],
        destroyed_by=d["destroyed_by"],
        threat_points_destroyed=d["threat_points_destroyed"],
        threat_points_survived=d["threat_points_survived"],
        penalties=_json(d["penalties"]),
        observation=d["observation"],
        total=d["total"],
        result=_json(d["result"]),
        crew=crew,
        game=d["game"],
        campaign_id=d["campaign_id"],
    )


def crew_from_row(user_id: int | None, name: str, roles: Any) -> LogbookCrew:
    return LogbookCrew(name=name, user_id=int(user_id) if user_id is not None else None, roles=_json(roles))
