"""Persistence behind one small interface (`Storage`): SQLite embedded, PostgreSQL shared."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.platform.storage.base import (
    ChannelBusy,
    DatabaseUnavailable,
    MigrationError,
    SchemaTooNew,
    StaleWrite,
    Storage,
    StorageError,
    Transaction,
)
from bot.platform.storage.sqlite import SqliteStorage

if TYPE_CHECKING:
    from bot.platform.settings import Settings


async def open_storage(settings: Settings) -> Storage:
    """The configured backend, opened and migrated: PostgreSQL when DATABASE_URL is set, else
    the SQLite file.  Raises StorageError (one line) with nothing left open."""
    storage: Storage
    if settings.database_url:
        from bot.platform.storage.postgres import PostgresStorage

        storage = PostgresStorage(settings.database_url)
    else:
        storage = SqliteStorage(settings.database_path)
    try:
        await storage.open()
    except StorageError:
        raise
    except Exception as exc:  # anything unforeseen opening it: still one line
        await storage.close()
        raise StorageError(f"database: {str(exc).splitlines()[0] if str(exc) else type(exc).__name__}") from exc
    return storage


__all__ = [
    "ChannelBusy",
    "DatabaseUnavailable",
    "MigrationError",
    "SchemaTooNew",
    "SqliteStorage",
    "StaleWrite",
    "Storage",
    "StorageError",
    "Transaction",
    "open_storage",
]
