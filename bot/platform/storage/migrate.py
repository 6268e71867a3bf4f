"""Find the numbered SQL files of a backend and apply them in order, once each.

Why a hand-rolled runner: the project has a handful of plain SQL files per backend; an ORM
migration tool would be more code to learn than this.  Files live in `migrations/<backend>/` and
are named `NNNN_description.sql`, numbered from 0001 without gaps.  Each file runs in its own
transaction together with its schema_version row, so a failure leaves the database at the
previous version and the bot stops with the file name and the database's message (it never runs
half-migrated).  A database migrated further than this bot knows is refused outright: an older
bot writing to a newer schema is how data gets lost quietly.
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import aiosqlite

from bot.platform.storage.base import MigrationError, SchemaTooNew

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def _files(directory: Path | None, backend: str) -> list[tuple[str, str]]:
    if directory is not None:
        if not Path(directory).is_dir():
            raise MigrationError(f"the migrations folder {directory} does not exist")
        return [(p.name, p.read_text(encoding="utf-8")) for p in Path(directory).glob("*.sql")]
    try:
        # A folder inside the `migrations` package, not an import of `migrations.<backend>`: an
        # editable install's finder would resolve the subpackage from the source tree even when the
        # `migrations` package on the path (a broken install) lacks it.
        root = resources.files("migrations").joinpath(backend)
        if not root.is_dir():
            raise FileNotFoundError(backend)
        return [(p.name, p.read_text(encoding="utf-8")) for p in root.iterdir() if p.name.endswith(".sql")]
    except (ModuleNotFoundError, FileNotFoundError, NotADirectoryError):
        raise MigrationError(
            f"the migrations/{backend} package is missing; reinstall the bot (its SQL files are part of it)"
        ) from None


def load_migrations(directory: Path | None = None, *, backend: str = "sqlite") -> list[Migration]:
    """The migration files sorted by number; none at all, duplicates or gaps are errors."""
    found: list[Migration] = []
    for name, sql in _files(directory, backend):
        match = _NAME.match(name)
        if not match:
            raise MigrationError(f"migration file {name!r} is not named NNNN_description.sql")
        found.append(Migration(int(match.group(1)), name, sql))
    if not found:
        where = directory if directory is not None else f"migrations/{backend}"
        raise MigrationError(f"no migration files in {where}; reinstall the bot (its SQL files are part of it)")
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise MigrationError(f"migration numbers must run 0001, 0002, ... without gaps; found {migration.name}")
    return found


def check_not_newer(applied: set[int], migrations: list[Migration]) -> None:
    """Raise SchemaTooNew when the database has versions this bot has no file for."""
    latest = migrations[-1].version if migrations else 0
    newest = max(applied, default=0)
    if newest > latest:
        raise SchemaTooNew(f"database schema {newest} is newer than this bot ({latest}); upgrade the bot")


def statements(sql: str) -> list[str]:
    """A migration file cut into single statements (sqlite3 decides where one is complete)."""
    found: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            found.append(buffer.strip())
            buffer = ""
    if buffer.strip():
        found.append(buffer.strip())  # a trailing comment, or a last statement without ';'
    return found


async def applied_versions(conn: aiosqlite.Connection) -> set[int]:
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT (datetime('now')))"
    )
    rows = await conn.execute_fetchall("SELECT version FROM schema_version")
    return {row[0] for row in rows}


async def apply_migrations(conn: aiosqlite.Connection, directory: Path | None = None) -> list[str]:
    """Apply what is missing; return the names applied (empty when already up to date).

    `conn` must be in autocommit mode (isolation_level=None).  Each file runs inside BEGIN
    IMMEDIATE, which also re-reads what is applied: two processes opening one new database at
    once then migrate it once, the second waiting for the first and finding nothing to do."""
    migrations = load_migrations(directory)
    check_not_newer(await applied_versions(conn), migrations)
    applied: list[str] = []
    for migration in migrations:
        await conn.execute("BEGIN IMMEDIATE")
        try:
            done = await applied_versions(conn)
            check_not_newer(done, migrations)
            if migration.version in done:
                await conn.execute("ROLLBACK")
                continue
            for statement in statements(migration.sql):
                await conn.execute(statement)
            await conn.execute(
                "INSERT INTO schema_version (version, name) VALUES (?, ?)", (migration.version, migration.name)
            )
            await conn.execute("COMMIT")
        except BaseException as exc:
            with contextlib.suppress(Exception):
                await conn.execute("ROLLBACK")
            if isinstance(exc, MigrationError) or not isinstance(exc, Exception):
                raise
            raise MigrationError(
                f"database migration {migration.name} failed: {exc}. "
                "The database was left at the previous version; fix the file or restore a backup."
            ) from exc
        applied.append(migration.name)
    return applied


async def apply_postgres_migrations(conn: Any) -> list[str]:
    """The PostgreSQL set, applied on an asyncpg connection under an advisory lock (per schema),
    so several processes starting at once migrate once: the first applies, the others wait and
    then find nothing left to do."""
    migrations = load_migrations(backend="postgres")
    key = "space-alert-bot migrations:" + str(await conn.fetchval("SELECT current_schema()"))
    await conn.execute("SELECT pg_advisory_lock(hashtext($1))", key)
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
            " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
        )
        done = {int(r[0]) for r in await conn.fetch("SELECT version FROM schema_version")}
        check_not_newer(done, migrations)
        applied: list[str] = []
        for migration in migrations:
            if migration.version in done:
                continue
            try:
                async with conn.transaction():
                    await conn.execute(migration.sql)
                    await conn.execute(
                        "INSERT INTO schema_version (version, name) VALUES ($1, $2)", migration.version, migration.name
                    )
            except Exception as exc:  # asyncpg.PostgresError and friends: report, never half-apply
                raise MigrationError(
                    f"database migration {migration.name} failed: {str(exc).splitlines()[0]}. "
                    "The database was left at the previous version; fix the file or restore a backup."
                ) from exc
            applied.append(migration.name)
        return applied
    finally:
        await conn.execute("SELECT pg_advisory_unlock(hashtext($1))", key)
