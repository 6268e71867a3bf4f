"""The web pages' reads of Space Alert's logbook (bot/web's server, flight and career pages), over
the platform's SQL core (`storage.fetch`), on both backends.

Read-only, and public by construction: every query here answers only for servers whose admins made
their records public (PUBLIC_GUILDS, the platform's `guild_settings`), so a page cannot show a
private server's flight even when handed its id.  Each query names the index it is meant to use;
bench/web.py measures the pages on 100,000 flights.  The servers themselves (which are public,
their counts, the marks a cached page is keyed by) are the platform's (bot/platform/storage/web.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.space_alert.logbook import COLUMNS, LOGBOOK_COLUMNS, Logbook, LogbookEntry
from bot.games.space_alert.mission.storage import FlightRecord, Flights
from bot.games.space_alert.stats.storage import crew_names
from bot.platform.storage.careers import PUBLIC_GUILDS, PUBLIC_SETTING, PUBLIC_VALUE
from bot.platform.storage.web import NAME_SETTING, text_value


@dataclass(frozen=True, slots=True)
class BoardLine:
    """One place on a server's board of a mission and difficulty pair."""

    mission_id: str
    normal: str
    serious: str
    rank: int
    total: int
    flown_at: str
    flight_id: str | None
    crew: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PlayerTotals:
    """A player's figures on public servers (career_totals, kept by triggers)."""

    guild_id: int
    normal: str
    serious: str
    flights: int
    survived: int
    points: int


# A player's finished session games on public servers (index game_result_players_by_user): grows
# with a new game, and changes when one of those servers turns private or public.
PUBLIC_GAMES = (
    "(SELECT COUNT(*) FROM game_result_players gp JOIN game_results r ON r.session_id = gp.session_id"
    f" JOIN guild_settings q ON q.guild_id = r.guild_id AND q.key = '{PUBLIC_SETTING}'"
    f" AND q.value = '{PUBLIC_VALUE}' WHERE gp.user_id = ?)"
)


class PublicLogbook:
    """The web pages' reads of the logbook, over a platform storage (a `WebStore`)."""

    def __init__(self, storage: Any) -> None:
        self.storage = storage

    async def _crews(self, table: str, key: str, ids: Sequence[Any]) -> dict[Any, list[str]]:
        """The human crew's names per line (`key` -> names in seat order)."""
        return await crew_names(self.storage.fetch, table, key, ids)

    async def server_boards(self, guild_id: int, *, per_board: int = 3) -> list[BoardLine]:
        """The best `per_board` surviving single flights of every mission and difficulty pair
        (index logbook_board_guild), ties to the older flight."""
        found = await self.storage.fetch(
            "SELECT id, mission_id, normal_difficulty, serious_difficulty, rn, total, flown_at, flight_id FROM ("
            " SELECT id, mission_id, normal_difficulty, serious_difficulty, total, flown_at, flight_id,"
            "  ROW_NUMBER() OVER (PARTITION BY mission_id, normal_difficulty, serious_difficulty"
            "   ORDER BY total DESC, id) AS rn"
            " FROM logbook WHERE guild_id = ? AND outcome = 'survived' AND campaign_id IS NULL"
            " AND game = 'space_alert') AS best"
            " WHERE rn <= ? ORDER BY mission_id, normal_difficulty, serious_difficulty, rn",
            [guild_id, per_board],
        )
        crews = await self._crews("logbook_crew", "logbook_id", [int(r[0]) for r in found])
        return [
            BoardLine(
                mission_id=str(r[1]),
                normal=str(r[2]),
                serious=str(r[3]),
                rank=int(r[4]),
                total=int(r[5]),
                flown_at=str(r[6]),
                flight_id=r[7],
                crew=tuple(crews.get(int(r[0]), [])),
            )
            for r in found
        ]

    async def _entries(self, sql: str, params: list[Any]) -> list[LogbookEntry]:
        return await Logbook(self.storage).read(sql, params)

    async def latest_entries(self, guild_id: int, *, limit: int = 20) -> list[LogbookEntry]:
        """A server's latest logbook lines of every game, newest first (index logbook_by_guild)."""
        return await self._entries(
            f"SELECT {COLUMNS} FROM logbook WHERE guild_id = ? ORDER BY flown_at DESC, id DESC LIMIT ?",
            [guild_id, limit],
        )

    async def public_flight(self, flight_id: str) -> tuple[LogbookEntry, FlightRecord | None] | None:
        """A logged flight of a public server by its random id (logbook's UNIQUE flight_id), with
        its flight row (the final snapshot the captain's log and pictures are rebuilt from), read
        through the flights' repository."""
        entries = await self._entries(
            f"SELECT {COLUMNS} FROM logbook WHERE flight_id = ? AND guild_id IN ({PUBLIC_GUILDS})", [flight_id]
        )
        if not entries:
            return None
        return entries[0], await Flights(self.storage).load_flight(flight_id)

    async def flight_mark(self, flight_id: str) -> tuple[Any, ...] | None:
        """What a public logged flight's page depends on, in one read: its server, the server's
        name, language, newest flight and count (the page shows the count, which a game of another
        kind changes too), and the flight's
        newest comparison (0 for none); None when there is no such public flight.  The flight's
        own lines never change once logged."""
        found = await self.storage.fetch(
            "SELECT l.guild_id, n.value, g.value, t.latest_id, t.flights,"
            " (SELECT MAX(w.id) FROM flight_comparisons w WHERE w.flight_id = l.flight_id)"
            " FROM logbook l"
            f" JOIN guild_settings p ON p.guild_id = l.guild_id AND p.key = '{PUBLIC_SETTING}'"
            f" AND p.value = '{PUBLIC_VALUE}'"
            f" LEFT JOIN guild_settings n ON n.guild_id = l.guild_id AND n.key = '{NAME_SETTING}'"
            " LEFT JOIN guild_settings g ON g.guild_id = l.guild_id AND g.key = 'language'"
            " LEFT JOIN guild_totals t ON t.guild_id = l.guild_id"
            " WHERE l.flight_id = ?",
            [flight_id],
        )
        if not found:
            return None
        guild, name, lang, latest, count, newest = found[0]
        return int(guild), text_value(name), text_value(lang), int(latest or 0), int(count or 0), int(newest or 0)

    async def player_mark(self, user_id: int) -> tuple[Any, ...] | None:
        """What a career page depends on, in one read: the player's newest logbook row
        (logbook_crew_career) and, for each public server they flew on (career_totals' primary
        key), its name, newest flight and count (the page shows the count), and the count of their
        session games on public servers; None when they have neither."""
        found = await self.storage.fetch(
            "SELECT c.guild_id, n.value, t.latest_id, t.flights,"
            " (SELECT MAX(logbook_id) FROM logbook_crew WHERE user_id = ?),"
            f" {PUBLIC_GAMES}"
            " FROM (SELECT DISTINCT guild_id FROM career_totals WHERE user_id = ?) c"
            f" JOIN guild_settings p ON p.guild_id = c.guild_id AND p.key = '{PUBLIC_SETTING}'"
            f" AND p.value = '{PUBLIC_VALUE}'"
            f" LEFT JOIN guild_settings n ON n.guild_id = c.guild_id AND n.key = '{NAME_SETTING}'"
            " LEFT JOIN guild_totals t ON t.guild_id = c.guild_id"
            " ORDER BY c.guild_id",
            [user_id, user_id, user_id],
        )
        if not found:  # no flight on a public server: a career of session games alone, or a 404
            counted = await self.storage.fetch(f"SELECT {PUBLIC_GAMES}", [user_id])
            return (0, int(counted[0][0]), ()) if counted and counted[0][0] else None
        newest = int(found[0][4] or 0)
        games = int(found[0][5] or 0)
        return (
            newest,
            games,
            tuple((int(g), text_value(name), int(latest or 0), int(n or 0)) for g, name, latest, n, _n, _g in found),
        )

    async def player_totals(self, user_id: int) -> list[PlayerTotals]:
        """A player's totals on public servers (career_totals' primary key): one row per server
        (difficulties "" ""), then one per difficulty pair (server 0), summed in SQL."""
        where = f" FROM career_totals WHERE user_id = ? AND guild_id IN ({PUBLIC_GUILDS})"
        by_server = await self.storage.fetch(
            "SELECT guild_id, '', '', SUM(flights), SUM(survived), SUM(points)" + where + " GROUP BY guild_id",
            [user_id],
        )
        by_level = await self.storage.fetch(
            "SELECT 0, normal, serious, SUM(flights), SUM(survived), SUM(points)"
            + where
            + " GROUP BY normal, serious ORDER BY normal, serious",
            [user_id],
        )
        return [
            PlayerTotals(int(g), str(n), str(s), int(f), int(v), int(p)) for g, n, s, f, v, p in by_server + by_level
        ]

    async def player_entries(self, user_id: int, *, limit: int = 20) -> list[LogbookEntry]:
        """A player's latest flights on public servers (index logbook_crew_career)."""
        cols = ", ".join(f"l.{c}" for c in LOGBOOK_COLUMNS)
        return await self._entries(
            f"SELECT {cols} FROM logbook_crew c JOIN logbook l ON l.id = c.logbook_id"
            f" WHERE c.user_id = ? AND l.guild_id IN ({PUBLIC_GUILDS}) ORDER BY c.logbook_id DESC LIMIT ?",
            [user_id, limit],
        )

    async def player_name(self, user_id: int) -> str | None:
        """The name the player last flew under on a public server."""
        found = await self.storage.fetch(
            "SELECT c.name FROM logbook_crew c JOIN logbook l ON l.id = c.logbook_id"
            f" WHERE c.user_id = ? AND l.guild_id IN ({PUBLIC_GUILDS}) ORDER BY c.logbook_id DESC LIMIT 1",
            [user_id],
        )
        return str(found[0][0]) if found else None
