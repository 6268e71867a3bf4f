"""The ship and its surroundings as fixed data (rulebook §1 picture, §3 "Поле корабля").

Three zones (red, white, blue) by two decks give six stations.  Every system's capacity and
starting value lives here, so a rule that says "heavy laser 4" has exactly one place to look.
"""

from __future__ import annotations

from dataclasses import dataclass

ZONES: tuple[str, ...] = ("red", "white", "blue")
DECKS: tuple[str, ...] = ("upper", "lower")
STATIONS: tuple[str, ...] = tuple(f"{deck}_{zone}" for deck in DECKS for zone in ZONES)
SPACE = "space"  # a crew member flying the interceptors is in no station at all


def zone_of(st: str) -> str:
    return st.split("_", 1)[1]


def other_deck(st: str) -> str:
    deck, zone = st.split("_", 1)
    return f"{'lower' if deck == 'upper' else 'upper'}_{zone}"


def neighbour(st: str, direction: str) -> str | None:
    """The station one door toward `direction` ('red' or 'blue') on the same deck, or None at the hull."""
    deck, zone = st.split("_", 1)
    i = ZONES.index(zone) + (-1 if direction == "red" else 1)
    if 0 <= i < len(ZONES):
        return f"{deck}_{ZONES[i]}"
    return None


# --- action codes (community resolvers' convention, see the engine issue) -------------------
HEROIC_MOVES: dict[str, str] = {
    "1": "lower_red",
    "2": "lower_white",
    "3": "lower_blue",
    "4": "upper_red",
    "5": "upper_white",
    "6": "upper_blue",
}
ACTION_CODES: tuple[str, ...] = ("a", "b", "c", "x", "<", ">", "^", "-", "A", "B", "X", *HEROIC_MOVES)
BLANK = "-"

# --- systems ----------------------------------------------------------------------------------
SHIELD_CAPACITY = {"red": 2, "white": 3, "blue": 2}
SHIELD_START = {"red": 1, "white": 1, "blue": 1}
REACTOR_CAPACITY = {"red": 3, "white": 5, "blue": 3}
REACTOR_START = {"red": 2, "white": 3, "blue": 2}
FUEL_CAPSULES = 3
ROCKETS = 3
HEAVY_LASER_DAMAGE = {"red": 4, "white": 5, "blue": 4}
LIGHT_LASER_DAMAGE = 2
PULSE_DAMAGE = 1
PULSE_RANGE = 2  # ranges 1-2; a lower-cannon damage token in white shrinks it to 1
ROCKET_DAMAGE = 3
ROCKET_RANGE = 2
INTERCEPTOR_SINGLE_DAMAGE = 3
INTERCEPTOR_SPREAD_DAMAGE = 1
BATTLEBOT_DEPOTS = ("upper_blue", "lower_red")

# --- damage tokens (§3.4 "Атака"; rules-decisions 15) -----------------------------------------
DAMAGE_TOKEN_KINDS: tuple[str, ...] = ("structural", "lift", "shield", "reactor", "upper_cannon", "lower_cannon")
MAX_ZONE_DAMAGE = 6  # a seventh token destroys the ship

# --- mission structure --------------------------------------------------------------------------
TURNS = 12
PHASE_LAST_TURNS = (3, 7, 12)  # phase 1 = turns 1-3, phase 2 = 4-7, phase 3 = 8-12
COMPUTER_CHECK_TURNS = (2, 5, 9)  # §3.5; rules-decisions 2: a miss delays turns 3, 6, 10
OBSERVATION_POINTS = (0, 1, 2, 3, 5, 7)  # rules-decisions 5: best single turn per phase


def phase_of(turn: int) -> int:
    """Phase number 1..3 of a turn 1..12 (turn 13 counts to phase 3)."""
    for phase, last in enumerate(PHASE_LAST_TURNS, start=1):
        if turn <= last:
            return phase
    return len(PHASE_LAST_TURNS)


# --- trajectories (threats.md §2) ----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Track:
    """A trajectory board: spaces are counted from the ship, Z is space 1, a threat starts on `length`."""

    id: str
    length: int
    x: tuple[int, ...]
    y: tuple[int, ...]
    letters: tuple[str | None, ...] = ()  # letters[space], filled in __post_init__

    def __post_init__(self) -> None:
        marks = [None] * (self.length + 1)
        marks[1] = "Z"
        for s in self.x:
            marks[s] = "X"
        for s in self.y:
            marks[s] = "Y"
        object.__setattr__(self, "letters", tuple(marks))


def distance(space: int) -> int:
    """Range 1 = the five spaces nearest the ship, range 2 the next five, range 3 the rest."""
    return 1 if space <= 5 else 2 if space <= 10 else 3


TRACKS: dict[str, Track] = {
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
TRACK_IDS: tuple[str, ...] = tuple(TRACKS)
