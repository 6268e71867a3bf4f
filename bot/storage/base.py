"""The storage interface the bot talks to, and the plain records that cross it.

Why an interface: SQLite is right for one process on one machine, but a bot that outgrows that
(several shards on several hosts) needs PostgreSQL.  Everything the adapter persists goes through
the three groups below (flights, logbook, settings), so a second backend is one new class, not a
hunt through the cogs.  Records are dataclasses of JSON-able values; no discord or engine objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

ACTIVE_STATUSES: tuple[str, ...] = ("lobby", "flying")


class StorageError(Exception):
    """Base class for storage failures the bot reports to users instead of crashing."""


class MigrationError(StorageError):
    """A migration file failed; the bot must not start on a half-migrated database."""


class StaleWrite(StorageError):
    """The row changed since it was read (another writer); the caller should reload and retry."""


class ChannelBusy(StorageError):
    """The channel already has an active (lobby or flying) flight."""


@dataclass
class CrewMember:
    """A human crew member as the lobby collected them; roles are 'captain', 'comms', 'security'."""

    user_id: int
    name: str
    roles: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "name": self.name, "roles": list(self.roles)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CrewMember:
        return cls(user_id=int(data["user_id"]), name=str(data["name"]), roles=list(data.get("roles", [])))


@dataclass
class FlightRecord:
    """One row of `flights`: the lobby options and crew, then the live engine state as JSON."""

    id: str
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    language: str
    voice: bool
    time_scale: float
    options: dict[str, Any]
    crew: list[CrewMember]
    state: dict[str, Any] | None = None
    started_at: float | None = None
    lobby_message_id: int | None = None
    deck_message_id: int | None = None
    notes: dict[str, Any] = field(default_factory=dict)
    version: int = 0
    created_at: str = ""
    updated_at: str = ""

    @property
    def active(self) -> bool:
        return self.status in ACTIVE_STATUSES

    def member(self, user_id: int) -> CrewMember | None:
        return next((m for m in self.crew if m.user_id == user_id), None)


@dataclass
class LogbookCrew:
    name: str
    user_id: int | None = None  # None for androids
    roles: list[str] = field(default_factory=list)


@dataclass
class LogbookEntry:
    """What the logbook keeps of a finished flight (won or lost); see the issue's field list."""

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


@dataclass
class LeaderboardRow:
    mission_id: str
    normal_difficulty: str
    serious_difficulty: str
    total: int
    flown_at: str
    crew: list[str]
    logbook_id: int


class Storage(Protocol):
    """The one persistence interface of the bot.  All methods are coroutines and commit at once."""

    async def open(self) -> None:
        """Connect and apply pending migrations (raises MigrationError)."""

    async def close(self) -> None: ...

    # -- flights ---------------------------------------------------------------------------
    async def create_flight(self, record: FlightRecord) -> FlightRecord:
        """Insert a new flight; raises ChannelBusy when the channel already has an active one."""

    async def load_flight(self, flight_id: str) -> FlightRecord | None: ...

    async def save_flight(self, record: FlightRecord, event: dict[str, Any] | None = None) -> FlightRecord:
        """Write the record if its version is still current (else StaleWrite); append `event`."""

    async def active_flight_in_channel(self, channel_id: int) -> FlightRecord | None: ...

    async def active_flights(self) -> list[FlightRecord]: ...

    async def ended_flights_with_muted_members(self) -> list[FlightRecord]:
        """Flights no longer active whose notes still list members the bot server-muted: the bot
        stopped before their unmute went out, and nobody else will ever unmute them."""
        ...

    async def flight_events(self, flight_id: str) -> list[dict[str, Any]]: ...

    # -- logbook ---------------------------------------------------------------------------
    async def add_logbook_entry(self, entry: LogbookEntry) -> int: ...

    async def logbook(
        self,
        guild_id: int,
        *,
        user_id: int | None = None,
        mission_id: str | None = None,
        difficulty: str | None = None,
        limit: int = 10,
    ) -> list[LogbookEntry]: ...

    async def leaderboard(self, guild_id: int, *, limit: int = 25) -> list[LeaderboardRow]: ...

    # -- settings and custom missions --------------------------------------------------------
    async def get_setting(self, guild_id: int, key: str) -> Any | None: ...

    async def set_setting(self, guild_id: int, key: str, value: Any) -> None: ...

    async def save_custom_mission(
        self, guild_id: int, mission_id: str, name: str, timeline: dict[str, Any], created_by: int
    ) -> None: ...

    async def custom_missions(self, guild_id: int) -> dict[str, dict[str, Any]]:
        """mission_id -> {"name", "timeline"} for the server."""

    async def remove_custom_mission(self, guild_id: int, mission_id: str) -> bool:
        """Delete one custom mission; False when the server had none by that id."""

    # -- posts left unsent at shutdown ---------------------------------------------------------
    async def store_posts(self, flight_id: str, payloads: list[dict[str, Any]]) -> None:
        """Append unsent posts of a flight, in sending order."""

    async def update_post(self, post_id: int, payload: dict[str, Any]) -> None:
        """Replace what is left of a stored post (a result half sent before a second shutdown)."""

    async def pending_posts(self) -> list[tuple[int, str, dict[str, Any]]]:
        """(post id, flight id, payload) of every stored post, in sending order."""
        ...

    async def delete_post(self, post_id: int) -> None:
        """Forget a stored post once it has been sent (or given up)."""
