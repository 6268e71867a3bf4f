"""Persistence behind one small interface (`Storage`); SQLite is the only backend for now."""

from bot.storage.base import (
    ChannelBusy,
    CrewMember,
    FlightRecord,
    LeaderboardRow,
    LogbookCrew,
    LogbookEntry,
    MigrationError,
    StaleWrite,
    Storage,
    StorageError,
)
from bot.storage.sqlite import SqliteStorage

__all__ = [
    "ChannelBusy",
    "CrewMember",
    "FlightRecord",
    "LeaderboardRow",
    "LogbookCrew",
    "LogbookEntry",
    "MigrationError",
    "SqliteStorage",
    "StaleWrite",
    "Storage",
    "StorageError",
]
