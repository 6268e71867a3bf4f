"""The SQLite backend of `Storage` (aiosqlite, WAL journal).

WAL because the flight runner writes every few seconds while commands read the logbook; readers
never block the writer.  `synchronous=NORMAL` in WAL mode still survives a process crash (only
an OS crash may lose the last commit), which is the failure a restart-safe bot has to survive.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.base import (
    ACTIVE_STATUSES,
    ChannelBusy,
    CrewMember,
    FlightRecord,
    LeaderboardRow,
    LogbookCrew,
    LogbookEntry,
    StaleWrite,
    StorageError,
)
from bot.storage.migrate import apply_migrations


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


_FLIGHT_COLUMNS = (
    "id, guild_id, channel_id, host_id, status, language, voice, time_scale, options, crew, state,"
    " started_at, lobby_message_id, deck_message_id, notes, version, created_at, updated_at"
)


def _flight_from_row(row: sqlite3.Row | tuple[Any, ...]) -> FlightRecord:
    (
        fid,
        guild_id,
        channel_id,
        host_id,
        status,
        language,
        voice,
        time_scale,
        options,
        crew,
        state,
        started_at,
        lobby_message_id,
        deck_message_id,
        notes,
        version,
        created_at,
        updated_at,
    ) = row
    return FlightRecord(
        id=fid,
        guild_id=guild_id,
        channel_id=channel_id,
        host_id=host_id,
        status=status,
        language=language,
        voice=bool(voice),
        time_scale=time_scale,
        options=json.loads(options),
        crew=[CrewMember.from_dict(m) for m in json.loads(crew)],
        state=json.loads(state) if state else None,
        started_at=started_at,
        lobby_message_id=lobby_message_id,
        deck_message_id=deck_message_id,
        notes=json.loads(notes or "{}"),
        version=version,
        created_at=created_at,
        updated_at=updated_at,
    )


class SqliteStorage:
    """`Storage` over one aiosqlite connection (one writer thread, serialised by aiosqlite)."""

    def __init__(self, path: Path | str, *, migrations_dir: Path | None = None) -> None:
        self.path = Path(path) if str(path) != ":memory:" else path
        self._migrations_dir = migrations_dir
        self._conn: aiosqlite.Connection | None = None

    @property
    def conn(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise StorageError("storage is not open")
        return self._conn

    async def open(self) -> None:
        if isinstance(self.path, Path):
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = await aiosqlite.connect(str(self.path))
        await self._conn.execute("PRAGMA journal_mode=WAL")
        await self._conn.execute("PRAGMA synchronous=NORMAL")
        await self._conn.execute("PRAGMA foreign_keys=ON")
        await self._conn.execute("PRAGMA busy_timeout=5000")
        await apply_migrations(self._conn, self._migrations_dir)

    async def close(self) -> None:
        if self._conn is not None:
            await self._conn.close()
            self._conn = None

    async def schema_versions(self) -> list[int]:
        async with self.conn.execute("SELECT version FROM schema_version ORDER BY version") as cur:
            return [r[0] async for r in cur]

    # -- flights -----------------------------------------------------------------------------
    async def create_flight(self, record: FlightRecord) -> FlightRecord:
        now = _now()
        record.created_at = record.created_at or now
        record.updated_at = now
        record.version = 1
        try:
            await self.conn.execute(
                f"INSERT INTO flights ({_FLIGHT_COLUMNS}) VALUES ({', '.join('?' * 18)})",
                self._flight_params(record),
            )
            await self.conn.commit()
        except sqlite3.IntegrityError as exc:
            await self.conn.rollback()
            if "channel_id" in str(exc) or "flights_one_active" in str(exc):
                raise ChannelBusy("this channel already has an active flight") from exc
            raise
        return record

    @staticmethod
    def _flight_params(r: FlightRecord) -> tuple[Any, ...]:
        return (
            r.id,
            r.guild_id,
            r.channel_id,
            r.host_id,
            r.status,
            r.language,
            int(r.voice),
            r.time_scale,
            json.dumps(r.options),
            json.dumps([m.to_dict() for m in r.crew]),
            json.dumps(r.state) if r.state is not None else None,
            r.started_at,
            r.lobby_message_id,
            r.deck_message_id,
            json.dumps(r.notes),
            r.version,
            r.created_at,
            r.updated_at,
        )

    async def load_flight(self, flight_id: str) -> FlightRecord | None:
        async with self.conn.execute(f"SELECT {_FLIGHT_COLUMNS} FROM flights WHERE id = ?", (flight_id,)) as cur:
            row = await cur.fetchone()
        return _flight_from_row(row) if row else None

    async def save_flight(self, record: FlightRecord, event: dict[str, Any] | None = None) -> FlightRecord:
        expected = record.version
        record.version = expected + 1
        record.updated_at = _now()
        params = self._flight_params(record)
        try:
            cur = await self.conn.execute(
                "UPDATE flights SET guild_id=?, channel_id=?, host_id=?, status=?, language=?, voice=?,"
                " time_scale=?, options=?, crew=?, state=?, started_at=?, lobby_message_id=?,"
                " deck_message_id=?, notes=?, version=?, created_at=?, updated_at=?"
                " WHERE id=? AND version=?",
                (*params[1:], record.id, expected),
            )
            if cur.rowcount != 1:
                await self.conn.rollback()
                record.version = expected
                raise StaleWrite(f"flight {record.id} changed since it was read")
            if event is not None:
                await self.conn.execute(
                    "INSERT INTO flight_events (flight_id, seq, at, actor_id, kind, payload)"
                    " VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM flight_events WHERE flight_id = ?),"
                    " ?, ?, ?, ?)",
                    (
                        record.id,
                        record.id,
                        _now(),
                        event.get("actor_id"),
                        str(event.get("kind", "?")),
                        json.dumps(event.get("payload", {})),
                    ),
                )
            await self.conn.commit()
        except sqlite3.IntegrityError as exc:
            await self.conn.rollback()
            record.version = expected
            raise ChannelBusy("this channel already has an active flight") from exc
        return record

    async def active_flight_in_channel(self, channel_id: int) -> FlightRecord | None:
        marks = ", ".join("?" * len(ACTIVE_STATUSES))
        async with self.conn.execute(
            f"SELECT {_FLIGHT_COLUMNS} FROM flights WHERE channel_id = ? AND status IN ({marks})",
            (channel_id, *ACTIVE_STATUSES),
        ) as cur:
            row = await cur.fetchone()
        return _flight_from_row(row) if row else None

    async def active_flights(self) -> list[FlightRecord]:
        marks = ", ".join("?" * len(ACTIVE_STATUSES))
        async with self.conn.execute(
            f"SELECT {_FLIGHT_COLUMNS} FROM flights WHERE status IN ({marks}) ORDER BY created_at",
            ACTIVE_STATUSES,
        ) as cur:
            return [_flight_from_row(r) async for r in cur]

    async def ended_flights_with_muted_members(self) -> list[FlightRecord]:
        marks = ", ".join("?" * len(ACTIVE_STATUSES))
        async with self.conn.execute(
            f"SELECT {_FLIGHT_COLUMNS} FROM flights WHERE status NOT IN ({marks})"
            " AND json_array_length(json_extract(notes, '$.muted')) > 0 ORDER BY created_at",
            ACTIVE_STATUSES,
        ) as cur:
            return [_flight_from_row(r) async for r in cur]

    async def flight_events(self, flight_id: str) -> list[dict[str, Any]]:
        async with self.conn.execute(
            "SELECT seq, at, actor_id, kind, payload FROM flight_events WHERE flight_id = ? ORDER BY seq",
            (flight_id,),
        ) as cur:
            return [
                {"seq": s, "at": at, "actor_id": a, "kind": k, "payload": json.loads(p)} async for s, at, a, k, p in cur
            ]

    # -- logbook -----------------------------------------------------------------------------
    async def add_logbook_entry(self, entry: LogbookEntry) -> int:
        cur = await self.conn.execute(
            "INSERT INTO logbook (flight_id, guild_id, channel_id, flown_at, mission_id, generator, seed,"
            " normal_difficulty, serious_difficulty, language, outcome, destroyed_by, threat_points_destroyed,"
            " threat_points_survived, penalties, observation, total, result)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                entry.flight_id,
                entry.guild_id,
                entry.channel_id,
                entry.flown_at,
                entry.mission_id,
                json.dumps(entry.generator) if entry.generator is not None else None,
                entry.seed,
                entry.normal_difficulty,
                entry.serious_difficulty,
                entry.language,
                entry.outcome,
                entry.destroyed_by,
                entry.threat_points_destroyed,
                entry.threat_points_survived,
                json.dumps(entry.penalties),
                entry.observation,
                entry.total,
                json.dumps(entry.result),
            ),
        )
        entry_id = int(cur.lastrowid or 0)
        await self.conn.executemany(
            "INSERT INTO logbook_crew (logbook_id, position, user_id, name, roles) VALUES (?, ?, ?, ?, ?)",
            [(entry_id, i, c.user_id, c.name, json.dumps(c.roles)) for i, c in enumerate(entry.crew)],
        )
        await self.conn.commit()
        entry.id = entry_id
        return entry_id

    async def _crew_of(self, ids: list[int]) -> dict[int, list[LogbookCrew]]:
        if not ids:
            return {}
        marks = ", ".join("?" * len(ids))
        crews: dict[int, list[LogbookCrew]] = {i: [] for i in ids}
        async with self.conn.execute(
            f"SELECT logbook_id, user_id, name, roles FROM logbook_crew WHERE logbook_id IN ({marks})"
            " ORDER BY logbook_id, position",
            ids,
        ) as cur:
            async for lid, uid, name, roles in cur:
                crews[lid].append(LogbookCrew(name=name, user_id=uid, roles=json.loads(roles)))
        return crews

    async def logbook(
        self,
        guild_id: int,
        *,
        user_id: int | None = None,
        mission_id: str | None = None,
        difficulty: str | None = None,
        limit: int = 10,
    ) -> list[LogbookEntry]:
        where = ["guild_id = ?"]
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
        sql = (
            "SELECT id, flight_id, guild_id, channel_id, flown_at, mission_id, generator, seed, normal_difficulty,"
            " serious_difficulty, language, outcome, destroyed_by, threat_points_destroyed, threat_points_survived,"
            f" penalties, observation, total, result FROM logbook WHERE {' AND '.join(where)}"
            " ORDER BY flown_at DESC, id DESC LIMIT ?"
        )
        params.append(limit)
        async with self.conn.execute(sql, params) as cur:
            rows = await cur.fetchall()
        crews = await self._crew_of([r[0] for r in rows])
        out = []
        for r in rows:
            out.append(
                LogbookEntry(
                    id=r[0],
                    flight_id=r[1],
                    guild_id=r[2],
                    channel_id=r[3],
                    flown_at=r[4],
                    mission_id=r[5],
                    generator=json.loads(r[6]) if r[6] else None,
                    seed=r[7],
                    normal_difficulty=r[8],
                    serious_difficulty=r[9],
                    language=r[10],
                    outcome=r[11],
                    destroyed_by=r[12],
                    threat_points_destroyed=r[13],
                    threat_points_survived=r[14],
                    penalties=json.loads(r[15]),
                    observation=r[16],
                    total=r[17],
                    result=json.loads(r[18]),
                    crew=crews.get(r[0], []),
                )
            )
        return out

    async def leaderboard(self, guild_id: int, *, limit: int = 25) -> list[LeaderboardRow]:
        # Best surviving flight per (mission, difficulty pair); ties go to the earliest flight.
        sql = """
            SELECT id, mission_id, normal_difficulty, serious_difficulty, total, flown_at FROM (
                SELECT *, ROW_NUMBER() OVER (
                    PARTITION BY mission_id, normal_difficulty, serious_difficulty
                    ORDER BY total DESC, flown_at ASC, id ASC) AS rn
                FROM logbook WHERE guild_id = ? AND outcome = 'survived')
            WHERE rn = 1 ORDER BY mission_id, normal_difficulty, serious_difficulty LIMIT ?"""
        async with self.conn.execute(sql, (guild_id, limit)) as cur:
            rows = await cur.fetchall()
        crews = await self._crew_of([r[0] for r in rows])
        return [
            LeaderboardRow(
                logbook_id=r[0],
                mission_id=r[1],
                normal_difficulty=r[2],
                serious_difficulty=r[3],
                total=r[4],
                flown_at=r[5],
                crew=[c.name for c in crews.get(r[0], []) if c.user_id is not None],
            )
            for r in rows
        ]

    # -- settings and custom missions ------------------------------------------------------------
    async def get_setting(self, guild_id: int, key: str) -> Any | None:
        async with self.conn.execute(
            "SELECT value FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key)
        ) as cur:
            row = await cur.fetchone()
        return json.loads(row[0]) if row else None

    async def set_setting(self, guild_id: int, key: str, value: Any) -> None:
        await self.conn.execute(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
            (guild_id, key, json.dumps(value)),
        )
        await self.conn.commit()

    async def save_custom_mission(
        self, guild_id: int, mission_id: str, name: str, timeline: dict[str, Any], created_by: int
    ) -> None:
        await self.conn.execute(
            "INSERT INTO custom_missions (guild_id, mission_id, name, timeline, created_by, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, mission_id) DO UPDATE SET"
            " name = excluded.name, timeline = excluded.timeline, created_by = excluded.created_by,"
            " created_at = excluded.created_at",
            (guild_id, mission_id, name, json.dumps(timeline), created_by, _now()),
        )
        await self.conn.commit()

    async def custom_missions(self, guild_id: int) -> dict[str, dict[str, Any]]:
        async with self.conn.execute(
            "SELECT mission_id, name, timeline FROM custom_missions WHERE guild_id = ? ORDER BY mission_id",
            (guild_id,),
        ) as cur:
            return {mid: {"name": name, "timeline": json.loads(tl)} async for mid, name, tl in cur}

    async def remove_custom_mission(self, guild_id: int, mission_id: str) -> bool:
        cur = await self.conn.execute(
            "DELETE FROM custom_missions WHERE guild_id = ? AND mission_id = ?", (guild_id, mission_id)
        )
        await self.conn.commit()
        return (cur.rowcount or 0) > 0

    # -- posts left unsent at shutdown -----------------------------------------------------------
    async def store_posts(self, flight_id: str, payloads: list[dict[str, Any]]) -> None:
        now = _now()
        await self.conn.executemany(
            "INSERT INTO outbox (flight_id, payload, created_at) VALUES (?, ?, ?)",
            [(flight_id, json.dumps(p, ensure_ascii=False), now) for p in payloads],
        )
        await self.conn.commit()

    async def update_post(self, post_id: int, payload: dict[str, Any]) -> None:
        await self.conn.execute(
            "UPDATE outbox SET payload = ? WHERE id = ?", (json.dumps(payload, ensure_ascii=False), post_id)
        )
        await self.conn.commit()

    async def pending_posts(self) -> list[tuple[int, str, dict[str, Any]]]:
        async with self.conn.execute("SELECT id, flight_id, payload FROM outbox ORDER BY id") as cur:
            return [(r[0], r[1], json.loads(r[2])) async for r in cur]

    async def delete_post(self, post_id: int) -> None:
        await self.conn.execute("DELETE FROM outbox WHERE id = ?", (post_id,))
        await self.conn.commit()
