"""The SQL behind /stats, /leaderboard and /logbook (SQLite; schema: migrations 0001 + the
proposed 0004_careers.sql).  Each query names the index it is meant to use; bench/records.py
measures them on 100,000 flights.

Visibility (issue 14): a player's career is their flights everywhere, but a server shows only its
own flights plus those of servers whose leaderboard is public.  `Scope(None)` is "everywhere"
(the player looking at their own career privately); `Scope(guild_id)` is what that server may show.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import aiosqlite

from bot.exts.stats.career import Career, LogbookLine, build_career

PUBLIC_SETTING = "leaderboard"  # guild_settings key; the JSON value "public" opens the server's records
PUBLIC_VALUE = '"public"'
PAGE_SIZE = 10
HISTORY_POINTS = 200  # the score chart shows the newest flights only

_PUBLIC_GUILDS = f"SELECT guild_id FROM guild_settings WHERE key = '{PUBLIC_SETTING}' AND value = '{PUBLIC_VALUE}'"


@dataclass(frozen=True, slots=True)
class Scope:
    guild_id: int | None = None

    def where(self, column: str = "l.guild_id") -> tuple[str, list[Any]]:
        if self.guild_id is None:
            return "", []
        return f" AND ({column} = ? OR {column} IN ({_PUBLIC_GUILDS}))", [self.guild_id]


# --- careers (/stats) -------------------------------------------------------------------------
# The figures come from the career_* tables the triggers of migration 0004 keep (a few dozen rows
# per player); only the history reads flights, the newest 200 through logbook_crew_career.
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


async def _rows(conn: aiosqlite.Connection, sql: str, params: Sequence[Any]) -> list[Any]:
    async with conn.execute(sql, params) as cur:
        return list(await cur.fetchall())


async def career(conn: aiosqlite.Connection, user_id: int, scope: Scope = Scope()) -> Career:
    """Every /stats figure of one player, as far as `scope` may show."""
    where, extra = scope.where("guild_id")
    params = [user_id, *extra]
    by_difficulty = await _rows(conn, SQL_BY_DIFFICULTY.format(scope=where), params)
    roles = await _rows(conn, SQL_ROLES.format(scope=where), params)
    decks = await _rows(conn, SQL_DECKS.format(scope=where), params)
    killer = await _rows(conn, SQL_KILLER.format(scope=where), params)
    history_where, _ = scope.where()
    history = await _rows(conn, SQL_HISTORY.format(scope=history_where), [*params, HISTORY_POINTS])
    return build_career(by_difficulty, roles, decks, killer[0] if killer else None, history)


# --- leaderboards -------------------------------------------------------------------------------
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


def _page_bounds(count: int, page: int, size: int) -> tuple[int, int]:
    pages = max(1, -(-count // size))
    page = min(max(0, page), pages - 1)
    return page, pages


async def _crews(conn: aiosqlite.Connection, table: str, key: str, ids: Sequence[Any]) -> dict[Any, list[str]]:
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    rows = await _rows(
        conn,
        f"SELECT {key}, name FROM {table} WHERE {key} IN ({marks}) AND user_id IS NOT NULL ORDER BY {key}, position",
        ids,
    )
    out: dict[Any, list[str]] = {}
    for owner, name in rows:
        out.setdefault(owner, []).append(name)
    return out


async def leaderboard(
    conn: aiosqlite.Connection,
    mission_id: str,
    normal: str,
    serious: str,
    *,
    guild_id: int | None,
    page: int = 0,
    size: int = PAGE_SIZE,
) -> BoardPage:
    """Surviving single flights of one mission and difficulty pair, best first (ties: older
    first).  `guild_id` None: every public server (index logbook_board_all); else that server
    (logbook_board_guild).  No top-N cap: any page can be asked for."""
    where = (
        "mission_id = ? AND normal_difficulty = ? AND serious_difficulty = ?"
        " AND outcome = 'survived' AND campaign_id IS NULL"
    )
    params: list[Any] = [mission_id, normal, serious]
    if guild_id is None:
        where += f" AND guild_id IN ({_PUBLIC_GUILDS})"
    else:
        where = "guild_id = ? AND " + where
        params.insert(0, guild_id)
    count = (await _rows(conn, f"SELECT COUNT(*) FROM logbook WHERE {where}", params))[0][0]
    page, pages = _page_bounds(count, page, size)
    rows = await _rows(
        conn,
        f"SELECT id, total, flown_at, guild_id FROM logbook WHERE {where} ORDER BY total DESC, id LIMIT ? OFFSET ?",
        [*params, size, page * size],
    )
    crews = await _crews(conn, "logbook_crew", "logbook_id", [r[0] for r in rows])
    return BoardPage(
        tuple(
            BoardRow(page * size + i + 1, r[0], r[1], r[2], r[3], tuple(crews.get(r[0], [])))
            for i, r in enumerate(rows)
        ),
        page,
        pages,
        count,
    )


async def campaign_leaderboard(
    conn: aiosqlite.Connection, *, guild_id: int | None, page: int = 0, size: int = PAGE_SIZE
) -> BoardPage:
    """Finished campaigns, best total first: a board of their own (issue 14)."""
    where = "status = 'finished'"
    params: list[Any] = []
    if guild_id is None:
        where += f" AND guild_id IN ({_PUBLIC_GUILDS})"
    else:
        where = "guild_id = ? AND " + where
        params.append(guild_id)
    count = (await _rows(conn, f"SELECT COUNT(*) FROM campaigns WHERE {where}", params))[0][0]
    page, pages = _page_bounds(count, page, size)
    rows = await _rows(
        conn,
        f"SELECT id, total, finished_at, guild_id FROM campaigns WHERE {where}"
        " ORDER BY total DESC, id LIMIT ? OFFSET ?",
        [*params, size, page * size],
    )
    crews = await _crews(conn, "campaign_crew", "campaign_id", [r[0] for r in rows])
    return BoardPage(
        tuple(
            BoardRow(page * size + i + 1, 0, r[1], r[2] or "", r[3], tuple(crews.get(r[0], [])))
            for i, r in enumerate(rows)
        ),
        page,
        pages,
        count,
    )


# --- logbook ------------------------------------------------------------------------------------
async def player_logbook(
    conn: aiosqlite.Connection, user_id: int, scope: Scope = Scope(), *, page: int = 0, size: int = PAGE_SIZE
) -> list[LogbookLine]:
    """A player's flights, newest first (campaign lines included: group them with group_campaigns)."""
    where, extra = scope.where()
    rows = await _rows(
        conn,
        "SELECT l.id, l.flown_at, l.mission_id, l.outcome, l.total, l.campaign_id"
        + _CAREER_FROM
        + where
        + " ORDER BY c.logbook_id DESC LIMIT ? OFFSET ?",
        [user_id, *extra, size, page * size],
    )
    return [LogbookLine(*r) for r in rows]


async def guild_logbook(
    conn: aiosqlite.Connection, guild_id: int, *, page: int = 0, size: int = PAGE_SIZE
) -> list[LogbookLine]:
    """A server's flights, newest first (index logbook_by_guild)."""
    rows = await _rows(
        conn,
        "SELECT id, flown_at, mission_id, outcome, total, campaign_id FROM logbook WHERE guild_id = ?"
        " ORDER BY flown_at DESC, id DESC LIMIT ? OFFSET ?",
        [guild_id, size, page * size],
    )
    return [LogbookLine(*r) for r in rows]
