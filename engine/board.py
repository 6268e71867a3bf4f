"""The ship and its surroundings as fixed data (rulebook §1 picture, §3 "Поле корабля").

Three zones (red, white, blue) by two decks give six stations.  Every system's capacity and
starting value lives here, so a rule that says "heavy laser 4" has exactly one place to look.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from engine.vocab import (
    ACTION_CODES,
    DAMAGE_TOKEN_KINDS,
    SHIP_DECKS,
    STATIONS,
    TRACK_IDS,
    ZONES,
    ActionCode,
    Letter,
    Position,
    Station,
    TrackId,
    Zone,
)

__all__ = ["ACTION_CODES", "DAMAGE_TOKEN_KINDS", "DECKS", "STATIONS", "TRACK_IDS", "ZONES"]

DECKS = SHIP_DECKS
SPACE: Final = "space"  # a crew member flying the interceptors is in no station at all

# Station geometry as lookup tables, built once: the rules ask these questions every turn.
_ZONE_OF: dict[Station, Zone] = {st: st.split("_", 1)[1] for st in STATIONS}  # type: ignore[misc]
_OTHER_DECK: dict[Station, Station] = {
    st: f"{'lower' if st.startswith('upper') else 'upper'}_{_ZONE_OF[st]}"  # type: ignore[misc]
    for st in STATIONS
}
_NEIGHBOUR: dict[tuple[Station, Literal["red", "blue"]], Station | None] = {}
for _st in STATIONS:
    _deck, _zone = _st.split("_", 1)
    for _direction, _step in (("red", -1), ("blue", 1)):
        _i = ZONES.index(_ZONE_OF[_st]) + _step
        _NEIGHBOUR[(_st, _direction)] = f"{_deck}_{ZONES[_i]}" if 0 <= _i < len(ZONES) else None  # type: ignore[index,assignment]


ZONE_OF: Final[dict[Station, Zone]] = _ZONE_OF  # zone_of as a table, for loops that ask every turn


def zone_of(st: Station) -> Zone:
    return _ZONE_OF[st]


def other_deck(st: Station) -> Station:
    return _OTHER_DECK[st]


def neighbour(st: Station, direction: Literal["red", "blue"]) -> Station | None:
    """The station one door toward `direction` on the same deck, or None at the hull."""
    return _NEIGHBOUR[(st, direction)]


def aboard(position: Position) -> Station | None:
    """The station of a crew member's position, None in space (narrows `Position` to `Station`)."""
    return None if position == SPACE else position


# --- action codes (the community resolvers' convention; vocab.ActionCode) ----------------------
HEROIC_MOVES: dict[ActionCode, Station] = {
    "1": "lower_red",
    "2": "lower_white",
    "3": "lower_blue",
    "4": "upper_red",
    "5": "upper_white",
    "6": "upper_blue",
}
BLANK: Final = "-"

# --- systems ----------------------------------------------------------------------------------
SHIELD_CAPACITY: dict[Zone, int] = {"red": 2, "white": 3, "blue": 2}
SHIELD_START: dict[Zone, int] = {"red": 1, "white": 1, "blue": 1}
REACTOR_CAPACITY: dict[Zone, int] = {"red": 3, "white": 5, "blue": 3}
REACTOR_START: dict[Zone, int] = {"red": 2, "white": 3, "blue": 2}
FUEL_CAPSULES = 3
ROCKETS = 3
HEAVY_LASER_DAMAGE: dict[Zone, int] = {"red": 4, "white": 5, "blue": 4}
LIGHT_LASER_DAMAGE = 2
PULSE_DAMAGE = 1
PULSE_RANGE = 2  # ranges 1-2; a lower-cannon damage token in white shrinks it to 1
ROCKET_DAMAGE = 3
ROCKET_RANGE = 2
INTERCEPTOR_SINGLE_DAMAGE = 3
INTERCEPTOR_SPREAD_DAMAGE = 1
BATTLEBOT_DEPOTS: tuple[Station, ...] = ("upper_blue", "lower_red")
# What the cannon of each station deals, undamaged: heavy lasers upstairs, light lasers in lower
# red and blue, the pulse cannon in lower white.  A cannon damage token in a zone takes 1 off the
# laser of that deck; in white the lower-cannon token shortens the pulse cannon's range instead.
CANNON_DAMAGE: dict[Station, int] = {
    "upper_red": HEAVY_LASER_DAMAGE["red"],
    "upper_white": HEAVY_LASER_DAMAGE["white"],
    "upper_blue": HEAVY_LASER_DAMAGE["blue"],
    "lower_red": LIGHT_LASER_DAMAGE,
    "lower_white": PULSE_DAMAGE,
    "lower_blue": LIGHT_LASER_DAMAGE,
}

# --- damage tokens (§3.4 "Атака"; decision 15: vocab.DAMAGE_TOKEN_KINDS) ----------------------
MAX_ZONE_DAMAGE = 6  # a seventh token destroys the ship

# --- mission structure --------------------------------------------------------------------------
TURNS = 12
PHASE_LAST_TURNS = (3, 7, 12)  # phase 1 = turns 1-3, phase 2 = 4-7, phase 3 = 8-12
COMPUTER_CHECK_TURNS = (2, 5, 9)  # §3.5; decision 2: a miss delays turns 3, 6, 10
OBSERVATION_POINTS = (0, 1, 2, 3, 5, 7)  # decision 5: best single turn per phase


def phase_of(turn: int) -> int:
    """Phase number 1..3 of a turn 1..12 (turn 13 counts to phase 3)."""
    for phase, last in enumerate(PHASE_LAST_TURNS, start=1):
        if turn <= last:
            return phase
    return len(PHASE_LAST_TURNS)


PHASE_OF: tuple[int, ...] = tuple(phase_of(turn) for turn in range(TURNS + 2))  # by turn, 0..13


# --- trajectories (the seven printed trajectory boards) ------------------------------------------
# A lettered space a move reaches: (the space, its letter, how many spaces of the move are left
# once there).  The count left lets a move go on from elsewhere when the token was moved meanwhile.
Crossing = tuple[int, Letter, int]
# Where a move of so many spaces from a given space ends, and the lettered spaces it crosses or
# stops on, nearest to the start first (a Z always ends the list: the token leaves the track).
Route = tuple[int, tuple[Crossing, ...]]


@dataclass(frozen=True, slots=True)
class Track:
    """A trajectory board: spaces are counted from the ship, Z is space 1, a threat starts on `length`."""

    id: TrackId
    length: int
    x: tuple[int, ...]
    y: tuple[int, ...]
    letters: tuple[Letter | None, ...] = ()  # letters[space], filled in __post_init__
    # routes[spaces][space]: every move a token can make on this board, worked out once (§3.4
    # "движение"), so that moving a token is one table read (a move of `length` spaces or more
    # reaches Z from anywhere, so longer moves share that row: `routes_for`)
    routes: tuple[tuple[Route, ...], ...] = ()
    # passed[space]: the X and Y spaces a token on `space` has passed (0 off the board): a token
    # only ever moves toward the ship and does the X or Y of every one it reaches
    passed: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        marks: list[Letter | None] = [None] * (self.length + 1)
        marks[1] = "Z"
        for s in self.x:
            marks[s] = "X"
        for s in self.y:
            marks[s] = "Y"
        object.__setattr__(self, "letters", tuple(marks))
        rows = tuple(
            tuple(_route(marks, space, spaces) for space in range(self.length + 1)) for spaces in range(self.length + 1)
        )
        object.__setattr__(self, "routes", rows)
        passed = [0] * (self.length + 1)
        for space in range(self.length - 1, 0, -1):
            passed[space] = passed[space + 1] + (marks[space] in ("X", "Y"))
        object.__setattr__(self, "passed", tuple(passed))

    def routes_for(self, spaces: int) -> tuple[Route, ...]:
        """The routes of a move of `spaces` (a token's speed), from every space of the board."""
        return self.routes[min(max(spaces, 0), self.length)]


def _route(marks: list[Letter | None], start: int, spaces: int) -> Route:
    """A move of `spaces` from `start` toward the ship, space by space (space 0: not on the board)."""
    crossings: list[Crossing] = []
    at = start
    left = spaces
    while at > 1 and left > 0:
        at -= 1
        left -= 1
        letter = marks[at]
        if letter is not None:
            crossings.append((at, letter, left))
            if letter == "Z":
                break
    return at, tuple(crossings)


# Range 1 = the five spaces nearest the ship, range 2 the next five, range 3 the rest.
RANGE_END = (0, 5, 10, 1 << 30)  # RANGE_END[r]: the farthest space at range r (so `distance(s) <= r`)


def distance(space: int) -> int:
    """The range of a space (RANGE_END's bounds)."""
    return 1 if space <= RANGE_END[1] else 2 if space <= RANGE_END[2] else 3


TRACKS: dict[TrackId, Track] = {
    t.id: t
    for t in (
        Track("T1", 10, (5,), ()),
        Track("T2", 11, (8,), ()),
        Track("T3", 12, (8,), (3,)),
        Track("T4", 13, (9,), (5,)),
        Track("T5", 14, (11,), (7,)),
        Track("T6", 15, (10,), (7, 3)),
        Track("T7", 16, (12,), (8, 5)),
    )
}
assert tuple(TRACKS) == TRACK_IDS
_TRACKS_BY_TEXT: dict[str, Track] = {tid: t for tid, t in TRACKS.items()}


def track(track_id: str) -> Track:
    """A trajectory by an id read from outside (a game's JSON, a stored flight); KeyError if unknown."""
    return _TRACKS_BY_TEXT[track_id]
