"""A game session as the platform keeps it: one versioned document per game played in a channel.

Why one shape for every game: the platform owns seats, restarts, "one game per channel" and the
unit of work (load, pure change, save with a version check, retry), so a game that stores its
state here gets all of them without a table or a lock of its own.  The game decides what goes in
`state` (its engine snapshot plus whatever its adapter needs to redraw its messages); the platform
never looks inside.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

# A session in one of these holds its channel: a second game there is refused (ChannelBusy).
ACTIVE = ("lobby", "running")
STATUSES = (*ACTIVE, "finished", "abandoned")


def new_session_id() -> str:
    """An id that is not a guessable sequence (it reaches URLs and component ids)."""
    return secrets.token_urlsafe(9)


@dataclass
class SessionResult:
    """How a game ended, for records and careers: `outcome` is the game's own word ("crew",
    "legion", "escaped", "time_out", ...), `players` one dict per seat, `details` anything the
    game's records page wants (JSON)."""

    outcome: str
    players: list[dict[str, Any]] = field(default_factory=list)
    details: dict[str, Any] = field(default_factory=dict)


@dataclass
class GameSession:
    """One row of `game_sessions`.  `version` is 0 before it is stored; every save of a stored
    session checks it, so two writers never both win (StaleWrite, then the unit of work retries)."""

    id: str
    game: str
    guild_id: int
    channel_id: int
    host_id: int
    status: str
    state: dict[str, Any] = field(default_factory=dict)
    version: int = 0
    created_at: str = ""
    updated_at: str = ""
    # Set by the change that ends the game (finished, or abandoned when the game keeps a record of
    # that too, as ELITE does): `save_session` then also writes its `game_results` row in the same
    # unit of work (outcome, and per player {"user_id", "name", "won", "role"}).
    result: SessionResult | None = None
    # The posts and edits this change makes due (bot/platform/session_posts.py builds them): plain
    # JSON payloads, written to `session_outbox` in the change's own unit of work and sent by the
    # platform after the commit.  Never stored in `state`; a fresh load starts with none.
    posts: list[dict[str, Any]] = field(default_factory=list, compare=False, repr=False)
    # The outbox rows the save wrote (what `SessionPosts.deliver` sends, up to the last of them).
    staged: list[int] = field(default_factory=list, compare=False, repr=False)

    @property
    def active(self) -> bool:
        return self.status in ACTIVE

    def stage(self, *payloads: dict[str, Any]) -> None:
        """Make posts due with this change (they commit with it, or not at all)."""
        self.posts.extend(payloads)


@dataclass
class StoredResult:
    """One row of `game_results`, newest first from `session_results`."""

    session_id: str
    game: str
    guild_id: int
    channel_id: int
    finished_at: str
    outcome: str
    players: list[dict[str, Any]]
    details: dict[str, Any]


class SessionStore(Protocol):
    """What a game may call on `bot.storage` for its sessions."""

    async def open_session(
        self, game: str, guild_id: int, channel_id: int, host_id: int, state: dict[str, Any]
    ) -> GameSession: ...

    async def load_session(self, session_id: str) -> GameSession | None: ...

    async def session_in_channel(self, channel_id: int) -> GameSession | None: ...

    async def active_sessions(self, game: str) -> list[GameSession]: ...

    async def change_session(
        self, session_id: str, change: Callable[[GameSession], bool], *, attempts: int = 5
    ) -> GameSession | None: ...

    async def session_results(
        self, *, game: str, guild_id: int | None = None, user_id: int | None = None, limit: int = 50
    ) -> list[StoredResult]: ...
