"""The careers' part of the platform: which servers' records are public, and the logbook's threat
rows a game adds to each entry.

The reads behind /stats, /leaderboard and /logbook are Space Alert's and live with the game
(bot/games/space_alert/stats/storage.py, a repository over the SQL core).  What stays here is what
the platform itself needs: the server setting that makes records public (the web logbook reads it
too), and the hook through which a game adds `logbook_threats` rows inside the unit of work that
writes its logbook entry (the career triggers count them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

PUBLIC_SETTING = "leaderboard"  # guild_settings key; the JSON value "public" opens the server's records
PUBLIC_VALUE = '"public"'
PUBLIC_GUILDS = f"SELECT guild_id FROM guild_settings WHERE key = '{PUBLIC_SETTING}' AND value = '{PUBLIC_VALUE}'"


# (logbook id, the entry's result JSON) -> its `logbook_threats` rows
# (logbook_id, position, card_id, deck, fate)
ThreatRows = Callable[[int, Mapping[str, Any]], list[tuple[int, int, str, str, str]]]
_THREAT_ROWS: dict[str, ThreatRows] = {}


def register_threat_rows(game: str, rows: ThreatRows) -> None:
    """A game says which `logbook_threats` rows a logbook entry of its own adds.

    Why a hook: which deck a card is from is the game's knowledge (its card catalogue), and the
    platform imports no game; the game registers this when it is imported, before any of its
    entries can be written.  An entry of a game that registered nothing adds no such rows."""
    _THREAT_ROWS[game] = rows


class CareerWrites:
    """What careers add to writing a logbook entry (inside its unit of work)."""

    async def many(self, sql: str, params: list[tuple[Any, ...]]) -> None:
        raise NotImplementedError

    async def add_threat_rows(self, logbook_id: int, result: Mapping[str, Any], game: str = "space_alert") -> None:
        """The `logbook_threats` rows of a logged flight (the career triggers count them), as
        the entry's game computes them (`register_threat_rows`)."""
        threat_rows = _THREAT_ROWS.get(game)
        rows = threat_rows(logbook_id, result) if threat_rows is not None else []
        if rows:
            await self.many(
                "INSERT INTO logbook_threats (logbook_id, position, card_id, deck, fate) VALUES (?, ?, ?, ?, ?)", rows
            )
