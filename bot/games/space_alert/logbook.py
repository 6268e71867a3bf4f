"""Space Alert's logbook: what a server keeps of each finished flight, and the reads of /logbook,
/leaderboard, the careers and the web pages, written once over the platform's SQL core (both
backends: `storage.fetch` for reads, `tx.rows/run/many` in a unit of work).

Why here: the logbook is Space Alert's (its missions, difficulties, threat points and crews); the
platform's storage supplies the transaction and the SQL core and names no game's table.  The other
games keep their finished games in the platform's `game_results` (bot/platform/sessions.py).
Tables: `logbook`, `logbook_crew`, `logbook_threats` (migrations sqlite/0001, 0005-0009,
postgres/0001-0008; the `career_*` tables and `guild_totals` are kept from them by triggers).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

GAME = "space_alert"

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
COLUMNS = ", ".join(LOGBOOK_COLUMNS)


@dataclass
class LogbookCrew:
    name: str
    user_id: int | None = None  # None for androids
    roles: list[str] = field(default_factory=list)


@dataclass
class LogbookEntry:
    """What the logbook keeps of a finished flight (won or lost): what the logbook, the
    leaderboards and the careers read."""

    guild_id: int
    channel_id: int
    flown_at: str
    mission_id: str
    normal_difficulty: str
    serious_difficulty: str
    language: str
    outcome: str
    crew: list[LogbookCrew]
    result: dict[str, Any]
    flight_id: str | None = None
    generator: dict[str, Any] | None = None
    seed: int | None = None
    destroyed_by: str | None = None
    threat_points_destroyed: int = 0
    threat_points_survived: int = 0
    penalties: dict[str, int] = field(default_factory=dict)
    observation: int = 0
    total: int = 0
    id: int | None = None
    # the table's game column (every row is a Space Alert flight since ELITE left for game_results),
    # and the campaign a mission belongs to
    game: str = GAME
    campaign_id: str | None = None


@dataclass
class LeaderboardRow:
    mission_id: str
    normal_difficulty: str
    serious_difficulty: str
    total: int
    flown_at: str
    crew: list[str]
    logbook_id: int


def _json(value: Any) -> Any:
    return json.loads(value) if isinstance(value, str | bytes) else value


def entry_params(e: LogbookEntry) -> tuple[Any, ...]:
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


def entry_from_row(row: Sequence[Any], crew: list[LogbookCrew]) -> LogbookEntry:
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


# -- inside a unit of work (`tx` is the platform's transaction) -------------------------------------
async def add_entry(tx: Any, entry: LogbookEntry) -> int:
    """Insert the entry, its crew and its threat rows (the career triggers count them); a flight's
    entry is written once (a second call returns the first id).  A finishing flight's entry comes
    here from `Flights.finish_flight` (mission/storage.py), in the transaction that sets its status."""
    if entry.flight_id is not None:
        found = await tx.rows("SELECT id FROM logbook WHERE flight_id = ?", (entry.flight_id,))
        if found:  # a retried finish: the first entry stands
            tx.undo.assign(entry, id=int(found[0][0]))
            return int(found[0][0])
    names = ", ".join(LOGBOOK_COLUMNS[1:])
    inserted = await tx.rows(
        f"INSERT INTO logbook ({names}) VALUES ({', '.join('?' * (len(LOGBOOK_COLUMNS) - 1))}) RETURNING id",
        entry_params(entry),
    )
    entry_id = int(inserted[0][0])
    if entry.crew:
        await tx.many(
            "INSERT INTO logbook_crew (logbook_id, position, user_id, name, roles) VALUES (?, ?, ?, ?, ?)",
            [(entry_id, i, c.user_id, c.name, json.dumps(c.roles)) for i, c in enumerate(entry.crew)],
        )
    from bot.games.space_alert.stats.career import threat_rows  # the card catalogue, loaded when needed

    rows = threat_rows(entry_id, entry.result)
    if rows:
        await tx.many(
            "INSERT INTO logbook_threats (logbook_id, position, card_id, deck, fate) VALUES (?, ?, ?, ?, ?)", rows
        )
    tx.undo.assign(entry, id=entry_id)
    return entry_id


# -- the repository ---------------------------------------------------------------------------------
class Logbook:
    """The logbook's reads, and `add` as a unit of work of its own, over a platform storage."""

    def __init__(self, storage: Any) -> None:
        self.storage = storage

    async def _fetch(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        found: list[Sequence[Any]] = await self.storage.fetch(sql, params)
        return found

    async def add(self, entry: LogbookEntry) -> int:
        async with self.storage.transaction() as tx:
            return await add_entry(tx, entry)

    async def crews(self, ids: list[int]) -> dict[int, list[LogbookCrew]]:
        """Each entry's crew in seat order (androids included)."""
        if not ids:
            return {}
        crews: dict[int, list[LogbookCrew]] = {i: [] for i in ids}
        marks = ", ".join("?" * len(ids))
        found = await self._fetch(
            f"SELECT logbook_id, user_id, name, roles FROM logbook_crew WHERE logbook_id IN ({marks})"
            " ORDER BY logbook_id, position",
            ids,
        )
        for lid, uid, name, roles in found:
            crews[int(lid)].append(crew_from_row(uid, name, roles))
        return crews

    async def read(self, sql: str, params: Iterable[Any]) -> list[LogbookEntry]:
        """The entries a SELECT of LOGBOOK_COLUMNS finds, with their crews."""
        rows = await self._fetch(sql, params)
        crews = await self.crews([int(r[0]) for r in rows])
        return [entry_from_row(r, crews.get(int(r[0]), [])) for r in rows]

    async def entries(
        self,
        guild_id: int,
        *,
        user_id: int | None = None,
        mission_id: str | None = None,
        difficulty: str | None = None,
        limit: int = 10,
    ) -> list[LogbookEntry]:
        """A server's flights, newest first, as /logbook filters them."""
        where = ["guild_id = ?", f"game = '{GAME}'"]
        params: list[Any] = [guild_id]
        if user_id is not None:
            where.append("id IN (SELECT logbook_id FROM logbook_crew WHERE user_id = ?)")
            params.append(user_id)
        if mission_id:
            where.append("mission_id = ?")
            params.append(mission_id)
        if difficulty:
            where.append("(normal_difficulty = ? OR serious_difficulty = ?)")
            params.extend([difficulty, difficulty])
        params.append(limit)
        return await self.read(
            f"SELECT {COLUMNS} FROM logbook WHERE {' AND '.join(where)} ORDER BY flown_at DESC, id DESC LIMIT ?",
            params,
        )

    async def leaderboard(self, guild_id: int, *, limit: int = 25) -> list[LeaderboardRow]:
        """Best surviving flight per (mission, difficulty pair); ties go to the earliest flight."""
        rows = await self._fetch(
            """
            SELECT id, mission_id, normal_difficulty, serious_difficulty, total, flown_at FROM (
                SELECT id, mission_id, normal_difficulty, serious_difficulty, total, flown_at,
                    ROW_NUMBER() OVER (
                        PARTITION BY mission_id, normal_difficulty, serious_difficulty
                        ORDER BY total DESC, flown_at ASC, id ASC) AS rn
                FROM logbook WHERE guild_id = ? AND outcome = 'survived' AND game = 'space_alert') AS best
            WHERE rn = 1 ORDER BY mission_id, normal_difficulty, serious_difficulty LIMIT ?""",
            (guild_id, limit),
        )
        crews = await self.crews([int(r[0]) for r in rows])
        return [
            LeaderboardRow(
                logbook_id=r[0],
                mission_id=r[1],
                normal_difficulty=r[2],
                serious_difficulty=r[3],
                total=r[4],
                flown_at=str(r[5]),
                crew=[c.name for c in crews.get(int(r[0]), []) if c.user_id is not None],
            )
            for r in rows
        ]
