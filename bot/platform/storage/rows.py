"""Records to and from database rows, shared by the backends (the SQL differs, the shapes not).

JSON documents (options, crew, state, notes, results) are stored as text in SQLite and as JSONB
in PostgreSQL; both hand back a `str` here (asyncpg without a JSON codec), so one decoder serves.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from bot.platform.storage.base import CrewMember, FlightRecord

FLIGHT_COLUMNS: tuple[str, ...] = (
    "id",
    "guild_id",
    "channel_id",
    "host_id",
    "status",
    "language",
    "voice",
    "time_scale",
    "options",
    "crew",
    "state",
    "started_at",
    "lobby_message_id",
    "deck_message_id",
    "notes",
    "version",
    "created_at",
    "updated_at",
)

# notes keys that live in tables of their own and are filled in on load
DERIVED_NOTES: tuple[str, ...] = ("muted",)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


def flight_from_row(row: Sequence[Any], muted: list[int] | None = None) -> FlightRecord:
    data = dict(zip(FLIGHT_COLUMNS, row, strict=True))
    notes = _json(data["notes"]) or {}
    notes["muted"] = list(muted or [])
    state = data["state"]
    return FlightRecord(
        id=data["id"],
        guild_id=int(data["guild_id"]),
        channel_id=int(data["channel_id"]),
        host_id=int(data["host_id"]),
        status=data["status"],
        language=data["language"],
        voice=bool(data["voice"]),
        time_scale=float(data["time_scale"]),
        options=_json(data["options"]),
        crew=[CrewMember.from_dict(m) for m in _json(data["crew"])],
        state=_json(state) if state else None,
        started_at=data["started_at"],
        lobby_message_id=data["lobby_message_id"],
        deck_message_id=data["deck_message_id"],
        notes=notes,
        version=int(data["version"]),
        created_at=str(data["created_at"]),
        updated_at=str(data["updated_at"]),
    )


def flight_params(r: FlightRecord, *, version: int, updated_at: str, created_at: str) -> tuple[Any, ...]:
    """The values of FLIGHT_COLUMNS for `r` (JSON as text), with the version and times to write."""
    notes = {k: v for k, v in r.notes.items() if k not in DERIVED_NOTES}
    return (
        r.id,
        r.guild_id,
        r.channel_id,
        r.host_id,
        r.status,
        r.language,
        bool(r.voice),
        r.time_scale,
        json.dumps(r.options),
        json.dumps([m.to_dict() for m in r.crew]),
        json.dumps(r.state) if r.state is not None else None,
        r.started_at,
        r.lobby_message_id,
        r.deck_message_id,
        json.dumps(notes),
        version,
        created_at,
        updated_at,
    )


def muted_of(record: FlightRecord) -> list[int] | None:
    """The muted ids the record carries in notes (None when it carries none: leave the table)."""
    muted = record.notes.get("muted")
    if muted is None:
        return None
    seen: list[int] = []
    for user_id in muted:
        if int(user_id) not in seen:
            seen.append(int(user_id))
    return seen


def event_from_row(seq: int, at: Any, actor_id: int | None, kind: str, payload: Any) -> dict[str, Any]:
    return {"seq": seq, "at": str(at), "actor_id": actor_id, "kind": kind, "payload": _json(payload)}
