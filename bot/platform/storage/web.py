"""The reads behind the web logbook (bot/web), on both backends.

Read-only, and public by construction: every query here answers only for servers whose admins set
`/settings set leaderboard public` (the `guild_settings` row that bot/platform/storage/careers.py reads
too), so a page cannot show a private server's flight even when handed its id.  Each query names
the index it is meant to use; bench/web.py measures the pages on 100,000 flights.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.platform.sessions import StoredResult
from bot.platform.storage.base import FlightRecord, LogbookCrew, LogbookEntry
from bot.platform.storage.careers import PUBLIC_GUILDS, PUBLIC_SETTING, PUBLIC_VALUE
from bot.platform.storage.comparisons import Comparison
from bot.platform.storage.rows import LOGBOOK_COLUMNS, logbook_from_row

# The guild_settings key where the bot keeps a public server's name as Discord showed it (written
# when an admin changes the `leaderboard` setting), so the web needs no Discord connection.
NAME_SETTING = "public_name"
_LOGBOOK = ", ".join(LOGBOOK_COLUMNS)


@dataclass(frozen=True, slots=True)
class PublicServer:
    guild_id: int
    name: str | None
    language: str | None
    flights: int
    last_flown: str | None


# A player's finished session games on public servers (index game_result_players_by_user): grows
# with a new game, and changes when one of those servers turns private or public.
PUBLIC_GAMES = (
    "(SELECT COUNT(*) FROM game_result_players gp JOIN game_results r ON r.session_id = gp.session_id"
    f" JOIN guild_settings q ON q.guild_id = r.guild_id AND q.key = '{PUBLIC_SETTING}'"
    f" AND q.value = '{PUBLIC_VALUE}' WHERE gp.user_id = ?)"
)


@dataclass(frozen=True, slots=True)
class ServerMark:
    """What a public server's pages depend on, read without counting anything: its settings, its
    newest logbook row (rows are only ever added, so a new flight changes it) and its ended
    campaigns' count and versions.  Hashable on purpose: bot/web/app.py keys cached pages by it,
    so a page is never older than the store.  Reading it is also the privacy check."""

    guild_id: int
    name: str | None
    language: str | None
    latest_id: int  # the server's newest logbook row (guild_totals): one primary-key read
    ended_campaigns: int
    campaign_versions: int  # SUM(version) of the ended campaigns: grows with any change
    results: tuple[str | None, ...] = ()  # newest game_results stamp per asked game (its index)
    games: int = 0  # the server's count the pages show (guild_totals): a game of another kind adds one


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


def _text(value: Any) -> str | None:
    """A setting's JSON value as text (SQLite hands back JSON text, PostgreSQL's JSONB a str too)."""
    if value is None:
        return None
    try:
        decoded = json.loads(value) if isinstance(value, str | bytes) else value
    except ValueError:
        return str(value)
    return str(decoded) if decoded is not None else None


class WebStore(Protocol):
    """What bot/web needs of the storage (SqliteStorage and PostgresStorage provide it)."""

    async def public_servers(self) -> list[PublicServer]: ...

    async def public_server(self, guild_id: int) -> PublicServer | None: ...

    async def public_servers_among(self, guild_ids: Iterable[int]) -> list[PublicServer]: ...

    async def public_marks(
        self, guild_ids: Iterable[int] | None = None, *, result_games: Sequence[str] = ()
    ) -> list[ServerMark]: ...

    async def session_results(
        self, *, game: str, guild_id: int | None = None, user_id: int | None = None, limit: int = 50
    ) -> list[StoredResult]: ...

    async def server_boards(self, guild_id: int, *, per_board: int = 3) -> list[BoardLine]: ...

    async def latest_entries(self, guild_id: int, *, limit: int = 20) -> list[LogbookEntry]: ...

    async def fetch(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        """The SQL core's read (a game's repository reads its own tables with it)."""
        ...

    async def public_flight(self, flight_id: str) -> tuple[LogbookEntry, FlightRecord | None] | None: ...

    async def flight_mark(self, flight_id: str) -> tuple[Any, ...] | None: ...

    async def player_mark(self, user_id: int) -> tuple[Any, ...] | None: ...

    async def comparisons(self, flight_id: str, *, limit: int = 50) -> list[Comparison]: ...

    async def player_totals(self, user_id: int) -> list[PlayerTotals]: ...

    async def player_entries(self, user_id: int, *, limit: int = 20) -> list[LogbookEntry]: ...

    async def player_name(self, user_id: int) -> str | None: ...


class WebReads:
    """The web logbook's reads of `SqlStorage` (a backend supplies `_fetch` and `_crew_of`)."""

    async def _fetch(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        raise NotImplementedError

    async def _crew_of(self, ids: list[int]) -> dict[int, list[LogbookCrew]]:
        raise NotImplementedError

    async def load_flight(self, flight_id: str) -> FlightRecord | None:
        raise NotImplementedError

    async def _crews(self, table: str, key: str, ids: Sequence[Any]) -> dict[Any, list[str]]:
        """The human crew's names per line (`key` -> names in seat order)."""
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        found = await self._fetch(
            f"SELECT {key}, name FROM {table} WHERE {key} IN ({marks}) AND user_id IS NOT NULL"
            f" ORDER BY {key}, position",
            ids,
        )
        out: dict[Any, list[str]] = {}
        for owner, name in found:
            out.setdefault(owner, []).append(name)
        return out

    async def _servers(self, where: str, params: list[Any]) -> list[PublicServer]:
        # guild_settings_by_key finds the public servers; their names and languages are two
        # primary-key reads each, their counts one (guild_totals, kept by a trigger: counting the
        # logbook cost a step per flight of every server listed).
        found = await self._fetch(
            "SELECT p.guild_id,"
            f" (SELECT value FROM guild_settings n WHERE n.guild_id = p.guild_id AND n.key = '{NAME_SETTING}'),"
            " (SELECT value FROM guild_settings n WHERE n.guild_id = p.guild_id AND n.key = 'language'),"
            " t.flights, t.last_flown"
            " FROM guild_settings p LEFT JOIN guild_totals t ON t.guild_id = p.guild_id"
            f" WHERE p.key = '{PUBLIC_SETTING}' AND p.value = '{PUBLIC_VALUE}'{where}"
            " ORDER BY p.guild_id",
            params,
        )
        return [
            PublicServer(int(g), _text(name), _text(lang), int(n or 0), str(last) if last else None)
            for g, name, lang, n, last in found
        ]

    async def _marks(self, where: str, params: list[Any], result_games: Sequence[str] = ()) -> list[ServerMark]:
        # the same settings reads as _servers, the newest row from guild_totals, the ended
        # campaigns from campaigns_by_guild (a server has a few dozen), the newest result per game
        results = "".join(
            ", (SELECT MAX(r.finished_at) FROM game_results r WHERE r.game = ? AND r.guild_id = p.guild_id)"
            for _ in result_games
        )
        found = await self._fetch(
            f"SELECT p.guild_id{results},"
            f" (SELECT value FROM guild_settings n WHERE n.guild_id = p.guild_id AND n.key = '{NAME_SETTING}'),"
            " (SELECT value FROM guild_settings n WHERE n.guild_id = p.guild_id AND n.key = 'language'),"
            " t.latest_id, t.flights,"
            " (SELECT COUNT(*) FROM campaigns c WHERE c.guild_id = p.guild_id AND c.status != 'running'),"
            " (SELECT SUM(version) FROM campaigns c WHERE c.guild_id = p.guild_id AND c.status != 'running')"
            " FROM guild_settings p LEFT JOIN guild_totals t ON t.guild_id = p.guild_id"
            f" WHERE p.key = '{PUBLIC_SETTING}' AND p.value = '{PUBLIC_VALUE}'{where}"
            " ORDER BY p.guild_id",
            [*result_games, *params],
        )
        n = len(result_games)
        marks = []
        for row in found:
            g, stamps, (name, lang, latest, games, ended, versions) = row[0], row[1 : 1 + n], row[1 + n :]
            marks.append(
                ServerMark(
                    int(g),
                    _text(name),
                    _text(lang),
                    int(latest or 0),
                    int(ended or 0),
                    int(versions or 0),
                    tuple(str(x) if x else None for x in stamps),
                    int(games or 0),
                )
            )
        return marks

    async def public_marks(
        self, guild_ids: Iterable[int] | None = None, *, result_games: Sequence[str] = ()
    ) -> list[ServerMark]:
        """The marks of every public server, or of those among `guild_ids` (unknown and private
        servers are simply absent).  `result_games`: the session games whose finished games the
        page lists; each adds its newest `game_results` stamp to the mark (index
        game_results_by_guild), so a new Legion voyage changes the server page's version."""
        if guild_ids is None:
            return await self._marks("", [], result_games)
        wanted = sorted(set(guild_ids))
        if not wanted:
            return []
        return await self._marks(f" AND p.guild_id IN ({', '.join('?' * len(wanted))})", wanted, result_games)

    async def public_servers(self) -> list[PublicServer]:
        """Every server whose records are public, with its flight count and last flight."""
        return await self._servers("", [])

    async def public_server(self, guild_id: int) -> PublicServer | None:
        """The server if it is public, else None (unknown and private look the same)."""
        found = await self._servers(" AND p.guild_id = ?", [guild_id])
        return found[0] if found else None

    async def public_servers_among(self, guild_ids: Iterable[int]) -> list[PublicServer]:
        """Those of `guild_ids` that are public (a career's servers, without counting every server)."""
        wanted = sorted(set(guild_ids))
        if not wanted:
            return []
        return await self._servers(f" AND p.guild_id IN ({', '.join('?' * len(wanted))})", wanted)

    async def server_boards(self, guild_id: int, *, per_board: int = 3) -> list[BoardLine]:
        """The best `per_board` surviving single flights of every mission and difficulty pair
        (index logbook_board_guild), ties to the older flight."""
        found = await self._fetch(
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
        rows = await self._fetch(sql, params)
        crews = await self._crew_of([int(r[0]) for r in rows])
        return [logbook_from_row(r, crews.get(int(r[0]), [])) for r in rows]

    async def latest_entries(self, guild_id: int, *, limit: int = 20) -> list[LogbookEntry]:
        """A server's latest logbook lines of every game, newest first (index logbook_by_guild)."""
        return await self._entries(
            f"SELECT {_LOGBOOK} FROM logbook WHERE guild_id = ? ORDER BY flown_at DESC, id DESC LIMIT ?",
            [guild_id, limit],
        )

    async def public_flight(self, flight_id: str) -> tuple[LogbookEntry, FlightRecord | None] | None:
        """A logged flight of a public server by its random id (logbook's UNIQUE flight_id), with
        its flight row (the final snapshot the captain's log and pictures are rebuilt from)."""
        entries = await self._entries(
            f"SELECT {_LOGBOOK} FROM logbook WHERE flight_id = ? AND guild_id IN ({PUBLIC_GUILDS})", [flight_id]
        )
        if not entries:
            return None
        return entries[0], await self.load_flight(flight_id)

    async def flight_mark(self, flight_id: str) -> tuple[Any, ...] | None:
        """What a public logged flight's page depends on, in one read: its server, the server's
        name, language and newest logbook row (the page shows its flight count), and the flight's
        newest comparison (0 for none); None when there is no such public flight.  The flight's
        own lines never change once logged."""
        found = await self._fetch(
            "SELECT l.guild_id, n.value, g.value, t.latest_id,"
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
        guild, name, lang, latest, newest = found[0]
        return int(guild), _text(name), _text(lang), int(latest or 0), int(newest or 0)

    async def player_mark(self, user_id: int) -> tuple[Any, ...] | None:
        """What a career page depends on, in one read: the player's newest logbook row
        (logbook_crew_career) and, for each public server they flew on (career_totals' primary
        key), its name and newest row (the page shows its flight count), and the count of their
        session games on public servers; None when they have neither."""
        found = await self._fetch(
            "SELECT c.guild_id, n.value, t.latest_id,"
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
            counted = await self._fetch(f"SELECT {PUBLIC_GAMES}", [user_id])
            return (0, int(counted[0][0]), ()) if counted and counted[0][0] else None
        newest = int(found[0][3] or 0)
        games = int(found[0][4] or 0)
        return newest, games, tuple((int(g), _text(name), int(latest or 0)) for g, name, latest, _n, _g in found)

    async def player_totals(self, user_id: int) -> list[PlayerTotals]:
        """A player's totals on public servers (career_totals' primary key): one row per server
        (difficulties "" ""), then one per difficulty pair (server 0), summed in SQL."""
        where = f" FROM career_totals WHERE user_id = ? AND guild_id IN ({PUBLIC_GUILDS})"
        by_server = await self._fetch(
            "SELECT guild_id, '', '', SUM(flights), SUM(survived), SUM(points)" + where + " GROUP BY guild_id",
            [user_id],
        )
        by_level = await self._fetch(
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
        found = await self._fetch(
            "SELECT c.name FROM logbook_crew c JOIN logbook l ON l.id = c.logbook_id"
            f" WHERE c.user_id = ? AND l.guild_id IN ({PUBLIC_GUILDS}) ORDER BY c.logbook_id DESC LIMIT 1",
            [user_id],
        )
        return str(found[0][0]) if found else None
