"""Apply the numbered SQL files in `migrations/` in order, once each, recorded in schema_version.

Why a hand-rolled runner: the project has a handful of plain SQL files and one backend; an ORM
migration tool would be more code to learn than this.  Each file runs in its own transaction
together with its schema_version row, so a failure leaves the database at the previous version
and the bot stops with the file name and the SQLite message (it never runs half-migrated).
"""

from __future__ import annotations

import contextlib
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import aiosqlite

from bot.storage.base import MigrationError

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def load_migrations(directory: Path | None = None) -> list[Migration]:
    """The migration files sorted by number; duplicates or gaps in numbering are errors."""
    if directory is None:
        root = resources.files("migrations")
        files = [(p.name, p.read_text(encoding="utf-8")) for p in root.iterdir() if p.name.endswith(".sql")]
    else:
        files = [(p.name, p.read_text(encoding="utf-8")) for p in Path(directory).glob("*.sql")]
    found: list[Migration] = []
    for name, sql in files:
        match = _NAME.match(name)
        if not match:
            raise MigrationError(f"migration file {name!r} is not named NNNN_description.sql")
        found.append(Migration(int(match.group(1)), name, sql))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise MigrationError(f"migration numbers must run 0001, 0002, ... without gaps; found {migration.name}")
    return found


async def applied_versions(conn: aiosqlite.Connection) -> set[int]:
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL DEFAULT (datetime('now')))"
    )
    await conn.commit()
    async with conn.execute("SELECT version FROM schema_version") as cur:
        return {row[0] async for row in cur}


async def apply_migrations(conn: aiosqlite.Connection, directory: Path | None = None) -> list[str]:
    """Apply what is missing; return the names applied (empty when already up to date)."""
    migrations = load_migrations(directory)
    done = await applied_versions(conn)
    applied: list[str] = []
    for migration in migrations:
        if migration.version in done:
            continue
        name_sql = migration.name.replace("'", "''")
        script = (
            "BEGIN;\n"
            f"{migration.sql}\n;\n"
            f"INSERT INTO schema_version (version, name) VALUES ({migration.version}, '{name_sql}');\n"
            "COMMIT;"
        )
        try:
            await conn.executescript(script)
        except Exception as exc:  # sqlite3.Error and friends: report, never half-apply
            with contextlib.suppress(Exception):  # no transaction open: nothing to undo
                await conn.execute("ROLLBACK")
            raise MigrationError(
                f"database migration {migration.name} failed: {exc}. "
                "The database was left at the previous version; fix the file or restore a backup."
            ) from exc
        applied.append(migration.name)
    return applied
