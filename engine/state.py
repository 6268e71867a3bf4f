"""Mutable state of one mission while it is resolved: crew, ship and threats.

Plain slotted dataclasses (no pydantic inside the hot loop); a `Mission` is created from a
validated `Game`, mutated turn by turn by engine.resolution, and read once for the result.
"""

from __future__ import annotations

import _random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias

from engine import board
from engine.board import Route, Track
from engine.threats.catalog import ThreatCard
from engine.vocab import ActionCode, DamageTokenKind, EventKind, Letter, Position, Station, Zone

# A card's X, Y and Z as steps ready to run (engine.resolution.card_actions.program): each step an
# op's function and the argument it takes.
Step: TypeAlias = tuple[Callable[["Mission", "ThreatState", Any], None], Any]
Program: TypeAlias = dict[Letter, tuple[Step, ...]]

# The state classes are slotted dataclasses without a generated __init__: each is built by one
# function here (enlist, place_threat, new_ship, new_mission) that calls the bare class, which is
# object's own C constructor, and stores every field.  Setup builds some twenty of these objects a
# mission, and the dataclass __init__ (or object.__new__(cls)) costs about twice as much.  The
# defaults written on the fields are what those functions set; a test checks every field.

# An empty container no rule may fill: what a list or set field holds until the object it belongs
# to needs one of its own (typed Any so that it can stand for the list or set it will become).
NOT_YET: Any = ()


class ShipDestroyed(Exception):
    """Raised the moment the mission is lost; the turn loop stops there (rulebook §3.4, "уничтожение")."""

    def __init__(self, *, threat: str | None = None, zone: Zone | None = None) -> None:
        # (Exception.__init__ is not called: `cause` is worked out when it is read, and most
        # random missions end here.)
        self.threat = threat  # the card whose action destroyed the ship, or
        self.zone = zone  # the zone that needed a seventh damage token

    @property
    def cause(self) -> str:
        """The result's `lost.cause`: a threat id or "zone <colour> destroyed" (the public contract)."""
        return self.threat if self.threat is not None else f"zone {self.zone} destroyed"

    def __str__(self) -> str:
        return self.cause

    def __repr__(self) -> str:
        return f"ShipDestroyed({self.cause!r})"


@dataclass(slots=True, init=False)
class CrewMember:
    """A crew member or android at the table (built by `enlist`)."""

    index: int
    name: str
    actions: list[ActionCode]  # the 12 cards of the action board; delays shift them right
    station: Position = "upper_white"  # rulebook §3: everybody starts on the bridge
    bots: str | None = None  # None, "active" or "disabled" (a squad follows its leader)
    knocked_out: bool = False
    knocked_out_turn: int | None = None
    delayed_turns: set[int] = field(default_factory=set)
    intercepting: bool = False  # in space and attacking this turn
    intercept_heroic: bool = False

    @property
    def aboard(self) -> bool:
        return self.station != board.SPACE

    @property
    def post(self) -> Station:
        """The station of a crew member the rules know to be aboard (a player's own action aboard,
        a threat's effect on the crew aboard); in space that is a bug, so it raises."""
        st = self.station
        if st == "space":
            raise RuntimeError(f"{self.name} is in space, not in a station")
        return st

    @property
    def active(self) -> bool:
        return not self.knocked_out


def enlist(index: int, name: str, actions: list[ActionCode]) -> CrewMember:
    """A crew member in seat `index` with the 12 cards of their action board, on the bridge.
    Every field is set here (a test checks each one against the class's defaults)."""
    p = CrewMember()
    p.index = index
    p.name = name
    p.actions = actions
    p.station = "upper_white"
    p.bots = None
    p.knocked_out = False
    p.knocked_out_turn = None
    p.delayed_turns = set()
    p.intercepting = False
    p.intercept_heroic = False
    return p


@dataclass(slots=True, eq=False, init=False)  # identity equality: threats are dict keys in the damage step
class ThreatState:
    """One threat card on a track: where its token is and what has been done to it (built by
    `place_threat`)."""

    # What the card sets (mission.build_mission passes these first, from one tuple per card):
    card: ThreatCard
    health: int
    speed: int
    shield: int
    visible: bool  # stealth threats are invisible until their X
    cryoshield: bool
    internal: bool  # copied from the card: read on every targeting decision
    immune: frozenset[str]  # weapons that cannot aim at it (from its traits)
    hides_far: bool  # untargetable at range 3 (from its traits)
    program: Program  # the card's X, Y and Z as prepared steps (card_actions.program)
    # What the placement sets:
    number: int  # T+ turn, the number on its token
    zone: Zone | None  # external threats: the zone of their trajectory
    track: Track
    # token order (decision 13): number, internal first, serious first, then the input order
    sort_key: tuple[int, int, int, int]
    # its track's routes at its speed (set_speed keeps it so): a move is one read of this table
    routes: tuple[Route, ...] = field(init=False, repr=False)
    # What happens to it:
    position: int = 0  # space counted from the ship (Z = 1); 0 = not on the track
    appeared: bool = False
    fate: Literal["destroyed", "survived"] | None = None  # None while present
    fate_turn: int | None = None
    damage: int = 0
    attack_aura: int = 0  # Scout: + this to external threats' attacks while it is not destroyed
    aura_others_only: bool = False  # the attack aura spares the card itself
    shield_aura: int = 0  # Marauder: + this to every external threat's shield
    grown_up: bool = False  # Alien after X
    # An internal threat's tokens on the ship.  The containers are empty and immutable until the
    # threat appears, when appear() gives its token lists of its own (no allocation for the many
    # tokens that never need them).
    station: Station | None = None  # intruders: the station of the oval token
    stations: list[Station] = NOT_YET  # malfunctions / contamination tokens
    slime: list[list[Any]] = NOT_YET  # [[station, health, is_parent], ...] parent first
    hits_this_turn: int = 0  # Nuclear Device: repairs this turn
    stations_hit: set[Station] = NOT_YET  # the stations that repaired it this turn
    damage_this_step: int = 0
    present: bool = False  # on its track and still a threat; kept by appear() and Mission.retire()

    def set_speed(self, speed: int) -> None:
        """A new speed, and the routes of moves that long (a card's X/Y may speed it up)."""
        self.speed = speed
        self.routes = self.track.routes_for(speed)

    @property
    def breakpoints(self) -> int:
        """The X and Y spaces it has passed (the asteroids' break-up attack counts them)."""
        return self.track.passed[self.position]

    @property
    def remaining_health(self) -> int:
        return max(0, self.health - self.damage)


def place_threat(
    state: tuple[ThreatCard, int, int, int, bool, bool, bool, frozenset[str], bool, Program],
    number: int,
    zone: Zone | None,
    track: Track,
    sort_key: tuple[int, int, int, int],
) -> ThreatState:
    """A threat's token, not yet on its track: `state` is what the card sets (mission._Setup), then
    its T+ number, zone, track and place in token order.  Every field is set here, the rest to the
    class's defaults (`_FRESH`); a test checks each one."""
    t = ThreatState()
    t.card, t.health, t.speed, t.shield, t.visible, t.cryoshield, t.internal, t.immune, t.hides_far, t.program = state
    t.number = number
    t.zone = zone
    t.track = track
    t.sort_key = sort_key
    t.routes = track.routes[t.speed]  # (a card's speed is below every track's length)
    (
        t.position,
        t.appeared,
        t.fate,
        t.fate_turn,
        t.damage,
        t.attack_aura,
        t.aura_others_only,
        t.shield_aura,
        t.grown_up,
        t.station,
        t.stations,
        t.slime,
        t.hits_this_turn,
        t.stations_hit,
        t.damage_this_step,
        t.present,
    ) = _FRESH
    return t


# What happens to a token, as it starts (ThreatState's defaults, in the order place_threat sets them).
_FRESH = (0, False, None, None, 0, 0, False, 0, False, None, NOT_YET, NOT_YET, 0, NOT_YET, 0, False)


def own_zone(t: ThreatState) -> Zone:
    """External: its trajectory's zone.  Internal: the zone of the station its token is in."""
    if t.zone is not None:
        return t.zone
    if t.station is not None:
        return board.ZONE_OF[t.station]
    if t.stations:
        return board.ZONE_OF[t.stations[0]]
    if t.slime:
        return board.ZONE_OF[t.slime[0][0]]
    return "white"


@dataclass(slots=True, init=False)
class Ship:
    """The ship's systems and damage (built by `new_ship`)."""

    shields: dict[Zone, int]
    shield_cap: dict[Zone, int]
    reactors: dict[Zone, int]
    reactor_cap: dict[Zone, int]
    damage: dict[Zone, list[DamageTokenKind]]  # tokens taken, in order
    piles: dict[Zone, list[DamageTokenKind]]  # tokens still to draw, next first
    fuel: int = board.FUEL_CAPSULES
    rockets: int = board.ROCKETS  # aboard, in lower blue
    rocket_launched: bool = False  # on the first space of the rocket track (fired this turn)
    rocket_in_flight: bool = False  # on the second space: hits in this turn's damage step
    depots: dict[Station, Literal["ready", "disabled"] | None] = field(default_factory=dict)  # None: taken
    lifts_used: set[Zone] = field(default_factory=set)
    cannons: dict[Station, int] = field(default_factory=dict)  # station -> heroic bonus, fired this turn
    maintained: set[int] = field(default_factory=set)  # phases whose computer was maintained
    observers: int = 0  # visual confirmations this turn
    observation_best: list[int] = field(default_factory=[0, 0, 0].copy)  # best per phase
    broken: set[tuple[Station, str]] = field(default_factory=set)  # (station, letter) after a malfunction's Z
    multiplier: dict[Zone, int] = field(default_factory=dict.fromkeys(board.ZONES, 1).copy)
    contaminated_entry: dict[Station, str] = field(default_factory=dict)  # Contamination after Z: its card id
    in_space: CrewMember | None = None  # only one crew member may fly the interceptors
    # The cannons as damage tokens have left them (weaken_cannon, below): what each station's
    # cannon deals, and the farthest space the pulse cannon reaches.
    cannon_damage: dict[Station, int] = field(default_factory=board.CANNON_DAMAGE.copy)
    pulse_reach: int = board.RANGE_END[board.PULSE_RANGE]

    def weaken_cannon(self, zone: Zone, token: DamageTokenKind) -> None:
        """A cannon damage token (§3.4, damage tokens): the laser of that deck in the zone deals 1
        less; in white the lower-cannon token shortens the pulse cannon's reach to range 1."""
        if token == "lower_cannon" and zone == "white":
            self.pulse_reach = board.RANGE_END[1]
        else:
            self.cannon_damage[_CANNON_HIT[token][zone]] -= 1


_MULTIPLIER_START: dict[Zone, int] = dict.fromkeys(board.ZONES, 1)
# The station whose cannon a cannon damage token hits: token -> zone -> station.
_CANNON_HIT: dict[str, dict[Zone, Station]] = {
    token: {zone: f"{deck}_{zone}" for zone in board.ZONES}  # type: ignore[misc]
    for token, deck in (("upper_cannon", "upper"), ("lower_cannon", "lower"))
}


def new_ship(
    shields: dict[Zone, int],
    shield_cap: dict[Zone, int],
    reactors: dict[Zone, int],
    reactor_cap: dict[Zone, int],
    damage: dict[Zone, list[DamageTokenKind]],
    piles: dict[Zone, list[DamageTokenKind]],
    depots: dict[Station, Literal["ready", "disabled"] | None],
) -> Ship:
    """A new ship with these systems, damage taken and piles, and battlebot depots.  Every field is
    set here, the rest to the class's defaults (a test checks each one)."""
    s = Ship()
    s.shields = shields
    s.shield_cap = shield_cap
    s.reactors = reactors
    s.reactor_cap = reactor_cap
    s.damage = damage
    s.piles = piles
    s.fuel = board.FUEL_CAPSULES
    s.rockets = board.ROCKETS
    s.rocket_launched = False
    s.rocket_in_flight = False
    s.depots = depots
    s.lifts_used = set()
    s.cannons = {}
    s.maintained = set()
    s.observers = 0
    s.observation_best = [0, 0, 0]
    s.broken = set()
    s.multiplier = _MULTIPLIER_START.copy()
    s.contaminated_entry = {}
    s.in_space = None
    s.cannon_damage = board.CANNON_DAMAGE.copy()
    s.pulse_reach = board.RANGE_END[board.PULSE_RANGE]
    return s


@dataclass(slots=True, init=False)
class Mission:
    """One mission being resolved: crew, ship, threats and what the turn loop keeps (built by
    `new_mission`)."""

    crew: list[CrewMember]
    ship: Ship
    threats: list[ThreatState]
    rng: _random.Random  # the mission's seeded generator (mission.seeded_random)
    log_enabled: bool = False
    events: list[dict[str, Any]] = field(default_factory=list)
    turn: int = 0
    step: str = "setup"
    lost: ShipDestroyed | None = None
    lost_turn: int = 0
    # Threats grouped by the rules that need them, built once by build_mission so the hot loop
    # does not ask every card about every trait every turn (in token order; most missions have
    # no card of most groups, and an empty group stays the immutable NOT_YET).
    attack_auras: list[ThreatState] = NOT_YET  # cards that can raise attacks
    shield_auras: list[ThreatState] = NOT_YET  # cards that can raise shields
    multi_station: list[ThreatState] = NOT_YET
    turn_counters: list[ThreatState] = NOT_YET  # reset at the end of each turn
    end_of_step: list[ThreatState] = NOT_YET  # Nemesis, asteroids
    slimes: list[ThreatState] = NOT_YET  # Slime: tokens that spread and delay
    # Tokens appear in token order (§3.1: on their T+ turn): threats[next_token] is the next to come.
    next_token: int = 0
    in_input_order: list[ThreatState] = NOT_YET  # the game's order, for the result (build_mission)
    # The tokens that have appeared, in token order (appear() adds them; gone ones stay, not
    # present): the per-turn loops walk these, not every card still to come (a list for speed).
    on_board: list[ThreatState] = field(default_factory=list)
    # The external threats on their tracks now, in token order (what the weapons aim at):
    # appear() adds a token, retire() takes it off.
    externals: list[ThreatState] = field(default_factory=list)
    # The A/B/C systems that do not work as printed, (station, letter) -> the malfunctions covering
    # it now, in token order: an A/B/C action there repairs the first one (rulebook §3.2); an empty
    # list: broken for good by a malfunction's Z (Ship.broken), the action does nothing.
    systems_out: dict[tuple[Station, str | None], list[ThreatState]] = field(default_factory=dict)

    def retire(self, t: ThreatState, fate: Literal["destroyed", "survived"]) -> None:
        """The threat leaves play, destroyed or survived, this turn."""
        t.fate = fate
        t.fate_turn = self.turn
        t.present = False
        if not t.internal:
            self.externals.remove(t)
        elif t.card.internal_type == "malfunction":
            for st in t.stations:
                system = (st, t.card.damaged_by)
                covering = self.systems_out[system]
                covering.remove(t)
                if not covering and system not in self.ship.broken:
                    del self.systems_out[system]

    def emit(self, kind: EventKind, **data: Any) -> None:
        """Record a structured event; a no-op when nobody asked for the log.  The rules call it
        under `if m.log_enabled:` all the same: the call builds its keyword dict first (speed)."""
        if self.log_enabled:
            self.events.append({"turn": self.turn, "step": self.step, "kind": kind, **data})

    # --- queries used all over the rules --------------------------------------------------
    def crew_in(self, st: Position) -> list[CrewMember]:
        return [p for p in self.crew if p.station == st and not p.knocked_out]

    def crew_aboard(self) -> list[CrewMember]:
        return [p for p in self.crew if p.station != "space" and not p.knocked_out]  # (aboard, inline)


def new_mission(
    crew: list[CrewMember], ship: Ship, threats: list[ThreatState], rng: _random.Random, log: bool
) -> Mission:
    """A mission before turn 1, its threats in token order.  Every field is set here, the rest to
    the class's defaults (a test checks each one)."""
    m = Mission()
    m.crew = crew
    m.ship = ship
    m.threats = threats
    m.rng = rng
    m.log_enabled = log
    m.events = []
    m.turn = 0
    m.step = "setup"
    m.lost = None
    m.lost_turn = 0
    m.attack_auras = m.shield_auras = m.multi_station = m.turn_counters = m.end_of_step = m.slimes = NOT_YET
    m.systems_out = {}
    m.next_token = 0
    m.in_input_order = NOT_YET
    m.on_board = []
    m.externals = []
    return m
