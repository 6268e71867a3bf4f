"""The crew before the flight: who joins, who holds which role, how many androids fly along.

The rules live here rather than in the bot so that the Discord lobby, a test or a command line
all refuse the same things: a crew has 1-5 humans (rulebook §1; solo and androids in §5), each
of the three roles belongs to one person while one person may hold several, and the androids
fill the crew to four.  Members are named by a key the caller chooses (the bot uses user ids).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, TypeAlias, get_args

from engine.flight.crew import androids_needed

MAX_CREW = 5
Role: TypeAlias = Literal["captain", "comms", "security"]
ROLES: tuple[Role, ...] = get_args(Role)
LobbyRejection: TypeAlias = Literal["full", "already_in", "not_in", "join_first", "need_crew"]
LOBBY_REJECTIONS: tuple[LobbyRejection, ...] = get_args(LobbyRejection)


@dataclass
class Seat:
    key: int | str
    name: str
    roles: list[Role] = field(default_factory=list)


def androids(humans: int, fifth: bool = False) -> int:
    """How many androids fly with `humans` people (none shown for an empty lobby)."""
    return androids_needed(humans, fifth) if humans else 0


def join(seats: list[Seat], seat: Seat) -> LobbyRejection | None:
    """Add `seat` to the crew, or say why not."""
    if any(s.key == seat.key for s in seats):
        return "already_in"
    if len(seats) >= MAX_CREW:
        return "full"
    seats.append(seat)
    return None


def leave(seats: list[Seat], key: int | str) -> LobbyRejection | None:
    seat = next((s for s in seats if s.key == key), None)
    if seat is None:
        return "not_in"
    seats.remove(seat)
    return None


def choose_roles(seats: list[Seat], key: int | str, chosen: list[str]) -> LobbyRejection | None:
    """`key` takes exactly the `chosen` roles; whoever held one of them gives it up."""
    seat = next((s for s in seats if s.key == key), None)
    if seat is None:
        return "join_first"
    wanted = [r for r in ROLES if r in chosen]
    for other in seats:
        if other is not seat:
            other.roles = [r for r in other.roles if r not in wanted]
    seat.roles = wanted
    return None


def ready(seats: list[Seat]) -> LobbyRejection | None:
    """Whether the flight may start with this crew."""
    return "need_crew" if not seats else None


def role_holder(seats: list[Seat], role: Role) -> str | None:
    """The name of who holds `role` (the flight defaults the roles it finds empty)."""
    return next((s.name for s in seats if role in s.roles), None)
