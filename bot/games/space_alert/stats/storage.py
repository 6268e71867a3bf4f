"""The reads behind /stats, /leaderboard and /logbook: Space Alert's careers over the platform's
SQL core (`storage.fetch`), on both backends.

One SQL text, `?` placeholders, the schema of migrations sqlite/0005 and postgres/0003.  Each
query names the index it is meant to use; bench/records.py measures them on 100,000 flights.
Results are raw rows and small records; `career.py` and `queries.py` turn them into figures.
The `career_*` tables are kept by triggers from `logbook_threats`, whose rows the game adds to
each logbook entry through the platform's hook (bot/games/space_alert/__init__.py).

Visibility: a player's career is their flights everywhere, but a server shows only its own
flights plus those of servers whose leaderboard is public.  `guild_id=None` is "everywhere" (the
player looking at their own career privately); a guild id is what that server may show.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.platform.storage.careers import PUBLIC_GUILDS

PAGE_SIZE = 10
HISTORY_POINTS = 200  # the score chart shows the newest flights only


def scope_where(guild_id: int | None, column: str = "l.guild_id") -> tuple[str, list[Any]]:
    """The filter of what a server may show (nothing for "everywhere")."""
    if guild_id is None:
        return "", []
    return f" AND ({column} = ? OR {column} IN ({PUBLIC_GUILDS}))", [guild_id]


# The figures come from the career_* tables the triggers keep (a few dozen rows per player); only
# the history reads flights, the newest 200 through logbook_crew_career.
_CAREER_WHERE = " WHERE user_id = ?{scope}"
SQL_BY_DIFFICULTY = (
    "SELECT normal, serious, SUM(flights), SUM(survived), SUM(points) FROM career_totals"
    + _CAREER_WHERE
    + " GROUP BY normal, serious"
)
SQL_ROLES = "SELECT roles, SUM(n) FROM career_roles" + _CAREER_WHERE + " GROUP BY roles"
SQL_DECKS = "SELECT deck, SUM(n) FROM career_decks" + _CAREER_WHERE + " GROUP BY deck"
SQL_KILLER = (
    "SELECT threat, SUM(n) AS total FROM career_killers"
    + _CAREER_WHERE
    + " GROUP BY threat ORDER BY total DESC, threat LIMIT 1"
)
_CAREER_FROM = " FROM logbook_crew c JOIN logbook l ON l.id = c.logbook_id WHERE c.user_id = ?"
SQL_HISTORY = "SELECT l.flown_at, l.total, l.outcome" + _CAREER_FROM + "{scope} ORDER BY c.logbook_id DESC LIMIT ?"


async def crew_names(
    fetch: Callable[[str, Sequence[Any]], Awaitable[Sequence[Sequence[Any]]]],
    table: str,
    key: str,
    ids: Sequence[Any],
) -> dict[Any, list[str]]:
    """The human crew's names per board or logbook line (`key` -> names in seat order), one query
    for all the lines: the boards, careers and the web's lists all name crews this way."""
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    found = await fetch(
        f"SELECT {key}, name FROM {table} WHERE {key} IN ({marks}) AND user_id IS NOT NULL ORDER BY {key}, position",
        ids,
    )
    out: dict[Any, list[str]] = {}
    for owner, name in found:
        out.setdefault(owner, []).append(name)
    return out


@dataclass(frozen=True, slots=True)
class CareerRows:
    """The five row sets a career is computed from (bot/games/space_alert/stats/career.build_career)."""

    by_difficulty: list[tuple[str, str, int, int, int | None]]
    roles: list[tuple[str, int]]
    decks: list[tuple[str, int]]
    killer: tuple[str, int] | None
    history: list[tuple[str, int, str]]  # newest first


@dataclass(frozen=True, slots=True)
class BoardRow:
    rank: int
    logbook_id: int
    total: int
    flown_at: str
    guild_id: int
    crew: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class BoardPage:
    rows: tuple[BoardRow, ...]
    page: int
    pages: int
    count: int


# (id, flown_at, mission_id, outcome, total, campaign_id): a logbook line as /logbook lists it
LineRow = tuple[int, str, str, str, int, str | None]


def _page_bounds(count: int, page: int, size: int) -> tuple[int, int]:
    pages = max(1, -(-count // size))
    return min(max(0, page), pages - 1), pages


def _roles_text(value: Any) -> str:
    """The roles JSON list as text (SQLite hands back text, PostgreSQL's JSONB a str too; a
    decoded list is re-encoded so both look the same to the caller)."""
    return value if isinstance(value, str) else json.dumps(value)


class Careers:
    """The statistics reads, over a platform storage's SQL core."""

    def __init__(self, storage: Any) -> None:
        self.storage = storage

    async def _fetch(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        found: list[Sequence[Any]] = await self.storage.fetch(sql, params)
        return found

    async def career_rows(self, user_id: int, guild_id: int | None = None) -> CareerRows:
        """Every /stats figure's rows for one player, as far as `guild_id` may show."""
        where, extra = scope_where(guild_id, "guild_id")
        params = [user_id, *extra]
        by_difficulty = await self._fetch(SQL_BY_DIFFICULTY.format(scope=where), params)
        roles = await self._fetch(SQL_ROLES.format(scope=where), params)
        decks = await self._fetch(SQL_DECKS.format(scope=where), params)
        killer = await self._fetch(SQL_KILLER.format(scope=where), params)
        history_where, _ = scope_where(guild_id)
        history = await self._fetch(SQL_HISTORY.format(scope=history_where), [*params, HISTORY_POINTS])
        return CareerRows(
            by_difficulty=[
                (str(a), str(b), int(c), int(d), None if e is None else int(e)) for a, b, c, d, e in by_difficulty
            ],
            roles=[(_roles_text(r), int(n)) for r, n in roles],
            decks=[(str(d), int(n)) for d, n in decks],
            killer=(str(killer[0][0]), int(killer[0][1])) if killer else None,
            history=[(str(a), int(b), str(c)) for a, b, c in history],
        )

    async def _crews(self, table: str, key: str, ids: Sequence[Any]) -> dict[Any, list[str]]:
        return await crew_names(self._fetch, table, key, ids)

    async def _board(
        self, table: str, crew: tuple[str, str], columns: str, where: str, params: list[Any], page: int, size: int
    ) -> BoardPage:
        count = int((await self._fetch(f"SELECT COUNT(*) FROM {table} WHERE {where}", params))[0][0])
        page, pages = _page_bounds(count, page, size)
        found = await self._fetch(
            f"SELECT {columns} FROM {table} WHERE {where} ORDER BY total DESC, id LIMIT ? OFFSET ?",
            [*params, size, page * size],
        )
        crews = await self._crews(crew[0], crew[1], [r[0] for r in found])
        rows = tuple(
            BoardRow(
                rank=page * size + i + 1,
                logbook_id=r[0] if isinstance(r[0], int) else 0,
                total=int(r[1]),
                flown_at=str(r[2] or ""),
                guild_id=int(r[3]),
                crew=tuple(crews.get(r[0], [])),
            )
            for i, r in enumerate(found)
        )
        return BoardPage(rows, page, pages, count)

    async def leaderboard_page(
        self,
        mission_id: str,
        normal: str,
        serious: str,
        *,
        guild_id: int | None,
        page: int = 0,
        size: int = PAGE_SIZE,
    ) -> BoardPage:
        """Surviving single Space Alert flights of one mission and difficulty pair, best first
        (ties: older first).  `guild_id` None: every public server (index logbook_board_all);
        else that server (logbook_board_guild).  No top-N cap: any page can be asked for."""
        where = (
            "mission_id = ? AND normal_difficulty = ? AND serious_difficulty = ?"
            " AND outcome = 'survived' AND campaign_id IS NULL AND game = 'space_alert'"
        )
        params: list[Any] = [mission_id, normal, serious]
        if guild_id is None:
            where += f" AND guild_id IN ({PUBLIC_GUILDS})"
        else:
            where = "guild_id = ? AND " + where
            params.insert(0, guild_id)
        return await self._board(
            "logbook", ("logbook_crew", "logbook_id"), "id, total, flown_at, guild_id", where, params, page, size
        )

    async def campaign_leaderboard_page(
        self, *, guild_id: int | None, page: int = 0, size: int = PAGE_SIZE
    ) -> BoardPage:
        """Finished campaigns, best total first: a board of their own."""
        where = "status = 'finished'"
        params: list[Any] = []
        if guild_id is None:
            where += f" AND guild_id IN ({PUBLIC_GUILDS})"
        else:
            where = "guild_id = ? AND " + where
            params.append(guild_id)
        return await self._board(
            "campaigns", ("campaign_crew", "campaign_id"), "id, total, finished_at, guild_id", where, params, page, size
        )

    async def player_logbook_lines(
        self, user_id: int, guild_id: int | None = None, *, page: int = 0, size: int = PAGE_SIZE
    ) -> list[LineRow]:
        """A player's flights, newest first (campaign lines included)."""
        where, extra = scope_where(guild_id)
        found = await self._fetch(
            "SELECT l.id, l.flown_at, l.mission_id, l.outcome, l.total, l.campaign_id"
            + _CAREER_FROM
            + where
            + " ORDER BY c.logbook_id DESC LIMIT ? OFFSET ?",
            [user_id, *extra, size, page * size],
        )
        return [_line(r) for r in found]

    async def guild_logbook_lines(self, guild_id: int, *, page: int = 0, size: int = PAGE_SIZE) -> list[LineRow]:
        """A server's Space Alert flights, newest first (index logbook_by_game)."""
        found = await self._fetch(
            "SELECT id, flown_at, mission_id, outcome, total, campaign_id FROM logbook"
            " WHERE guild_id = ? AND game = 'space_alert' ORDER BY flown_at DESC, id DESC LIMIT ? OFFSET ?",
            [guild_id, size, page * size],
        )
        return [_line(r) for r in found]


def _line(r: Sequence[Any]) -> LineRow:
    return (int(r[0]), str(r[1]), str(r[2]), str(r[3]), int(r[4]), r[5])
