"""What the backends share about rows: the timestamp every write stamps.

The games keep their records' rows with their own tables (Space Alert's flights in
bot/games/space_alert/mission/storage.py).
JSON documents are stored as text in SQLite and as JSONB in PostgreSQL; both hand back a `str`
(asyncpg without a JSON codec), so one decoder serves.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value
