"""Persistence behind one small interface (`Storage`); SQLite is the embedded backend."""

from bot.storage.base import (
    ChannelBusy,
    CrewMember,
    DatabaseUnavailable,
    FlightRecord,
    LeaderboardRow,
    LogbookCrew,
    LogbookEntry,
    MigrationError,
    SchemaTooNew,
    StaleWrite,
    Storage,
    StorageError,
    Transaction,
)
from bot.storage.sqlite import SqliteStorage

__all__ = [
    "ChannelBusy",
    "CrewMember",
    "DatabaseUnavailable",
    "FlightRecord",
    "LeaderboardRow",
    "LogbookCrew",
    "LogbookEntry",
    "MigrationError",
    "SchemaTooNew",
    "SqliteStorage",
    "StaleWrite",
    "Storage",
    "StorageError",
    "Transaction",
]
