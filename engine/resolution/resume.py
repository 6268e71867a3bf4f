"""Resolution from the middle: the mission as it stood at the start of turn k, kept and resumed.

The hindsight search (engine.hindsight) asks "what if this card had been elsewhere?" thousands of
times.  A change whose first affected turn is k leaves turns 1..k-1 exactly as they were, so the
search resumes from a copy of the mission at the start of turn k instead of resolving from turn 1.

Why a plain copy is enough: everything a mission holds is in its slotted state objects (crew, ship,
threat tokens, the turn loop's bookkeeping) and its seeded generator, whose state is copied with
it, so the resumed turns draw the same numbers a full resolution would.  Cards, tracks and threat
programs are shared: the rules never change them.

Why a changed plan can be put in at turn k: a delay pushes cards right (crew_effects.delay), so
what a crew member plays in turns 1..k-1 depends only on the first k-1 cards of the plan; the
delays already applied are replayed, in turn order (the order the rules apply them in), on the
changed plan to give the board as it lies at turn k.  A test compares resumed and full resolutions
field by field on thousands of random games, with and without changes.
"""

from __future__ import annotations

import _random
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from operator import attrgetter
from typing import Any, TypeVar, cast

from engine import board
from engine.campaign.carried import end_state
from engine.model import Game, Result
from engine.resolution.mission import build_mission, build_result, final_turn, mission_lost, play_one_turn
from engine.state import NOT_YET, CrewMember, Mission, Ship, ShipDestroyed, ThreatState
from engine.vocab import ActionCode

# The fields of each state class the copies below know about; a test checks them against the
# classes, so a field added to the state without a line here fails it.
CREW_FIELDS = (
    "index",
    "name",
    "actions",
    "station",
    "bots",
    "knocked_out",
    "knocked_out_turn",
    "delayed_turns",
    "intercepting",
    "intercept_heroic",
)
SHIP_FIELDS = (
    "shields",
    "shield_cap",
    "reactors",
    "reactor_cap",
    "damage",
    "piles",
    "fuel",
    "rockets",
    "rocket_launched",
    "rocket_in_flight",
    "depots",
    "lifts_used",
    "cannons",
    "maintained",
    "observers",
    "observation_best",
    "broken",
    "multiplier",
    "contaminated_entry",
    "in_space",
    "cannon_damage",
    "pulse_reach",
)
THREAT_FIELDS = (
    "card",
    "health",
    "speed",
    "shield",
    "visible",
    "cryoshield",
    "internal",
    "immune",
    "hides_far",
    "program",
    "number",
    "zone",
    "track",
    "sort_key",
    "routes",
    "position",
    "appeared",
    "fate",
    "fate_turn",
    "damage",
    "attack_aura",
    "aura_others_only",
    "shield_aura",
    "grown_up",
    "station",
    "stations",
    "slime",
    "hits_this_turn",
    "stations_hit",
    "damage_this_step",
    "present",
)
_threat_fields = attrgetter(*THREAT_FIELDS)
MISSION_FIELDS = (
    "crew",
    "ship",
    "threats",
    "rng",
    "log_enabled",
    "events",
    "turn",
    "step",
    "lost",
    "lost_turn",
    "attack_auras",
    "shield_auras",
    "multi_station",
    "turn_counters",
    "end_of_step",
    "slimes",
    "next_token",
    "in_input_order",
    "on_board",
    "externals",
    "systems_out",
)
_GROUPS = ("attack_auras", "shield_auras", "multi_station", "turn_counters", "end_of_step", "slimes")
# A threat token's mutable containers (the rest of its fields are immutable values or shared data).
_THREAT_LISTS = ("stations",)
_Code = TypeVar("_Code", bound=str)  # an action code, typed as a code or as a plain string


def copy_mission(m: Mission) -> Mission:
    """An independent copy of a mission between two turns: changing one never touches the other."""
    crew_of: dict[int, CrewMember] = {}
    crew = []
    for p in m.crew:
        q = CrewMember()
        q.index = p.index
        q.name = p.name
        q.actions = p.actions.copy()
        q.station = p.station
        q.bots = p.bots
        q.knocked_out = p.knocked_out
        q.knocked_out_turn = p.knocked_out_turn
        q.delayed_turns = p.delayed_turns.copy()
        q.intercepting = p.intercepting
        q.intercept_heroic = p.intercept_heroic
        crew.append(q)
        crew_of[id(p)] = q
    threat_of: dict[int, ThreatState] = {}
    threats = []
    for t in m.threats:
        u = ThreatState()
        (
            u.card,
            u.health,
            u.speed,
            u.shield,
            u.visible,
            u.cryoshield,
            u.internal,
            u.immune,
            u.hides_far,
            u.program,
            u.number,
            u.zone,
            u.track,
            u.sort_key,
            u.routes,
            u.position,
            u.appeared,
            u.fate,
            u.fate_turn,
            u.damage,
            u.attack_aura,
            u.aura_others_only,
            u.shield_aura,
            u.grown_up,
            u.station,
            u.stations,
            u.slime,
            u.hits_this_turn,
            u.stations_hit,
            u.damage_this_step,
            u.present,
        ) = _threat_fields(t)  # (one C call for the 31 reads; the containers are copied below)
        if t.appeared:  # (a token still to come holds the shared empty NOT_YET containers)
            if t.stations is not NOT_YET:
                u.stations = t.stations.copy()
            if t.slime is not NOT_YET:
                u.slime = [tok.copy() for tok in t.slime]
            if t.stations_hit is not NOT_YET:
                u.stations_hit = t.stations_hit.copy()
        threats.append(u)
        threat_of[id(t)] = u
    s = m.ship
    ship = Ship()
    ship.shields = s.shields.copy()
    ship.shield_cap = s.shield_cap.copy()
    ship.reactors = s.reactors.copy()
    ship.reactor_cap = s.reactor_cap.copy()
    ship.damage = {zone: taken.copy() for zone, taken in s.damage.items()}
    ship.piles = {zone: pile.copy() for zone, pile in s.piles.items()}
    ship.fuel = s.fuel
    ship.rockets = s.rockets
    ship.rocket_launched = s.rocket_launched
    ship.rocket_in_flight = s.rocket_in_flight
    ship.depots = s.depots.copy()
    ship.lifts_used = s.lifts_used.copy()
    ship.cannons = s.cannons.copy()
    ship.maintained = s.maintained.copy()
    ship.observers = s.observers
    ship.observation_best = s.observation_best.copy()
    ship.broken = s.broken.copy()
    ship.multiplier = s.multiplier.copy()
    ship.contaminated_entry = s.contaminated_entry.copy()
    ship.in_space = None if s.in_space is None else crew_of[id(s.in_space)]
    ship.cannon_damage = s.cannon_damage.copy()
    ship.pulse_reach = s.pulse_reach
    c = Mission()
    c.crew = crew
    c.ship = ship
    c.threats = threats
    # The generator where it stands: resumed draws are the same as the full resolution's.
    c.rng = cast(_random.Random, SavedRandom(m.rng.getstate()))
    c.log_enabled = m.log_enabled
    c.events = m.events.copy()  # (events are never changed once emitted)
    c.turn = m.turn
    c.step = m.step
    c.lost = m.lost
    c.lost_turn = m.lost_turn
    for name in _GROUPS:
        group = getattr(m, name)
        setattr(c, name, [threat_of[id(t)] for t in group] if group is not NOT_YET else NOT_YET)
    c.next_token = m.next_token
    c.in_input_order = [threat_of[id(t)] for t in m.in_input_order]
    c.on_board = [threat_of[id(t)] for t in m.on_board]
    c.externals = [threat_of[id(t)] for t in m.externals]
    c.systems_out = {system: [threat_of[id(t)] for t in covering] for system, covering in m.systems_out.items()}
    return c


class SavedRandom:
    """A copied mission's generator, kept as the state it was in: a real generator is made from
    that state on the first draw.  Capturing and restoring a Mersenne Twister costs more than
    copying the rest of a mission, and the turn loop draws nothing today (only setup shuffles the
    damage tokens), so most copies never need one; a rule that draws later still gets exactly the
    numbers a full resolution draws (a test checks it)."""

    __slots__ = ("_generator", "_state")

    def __init__(self, state: tuple[Any, ...]) -> None:
        self._state = state
        self._generator: _random.Random | None = None

    def _real(self) -> _random.Random:
        if self._generator is None:
            self._generator = _random.Random()
            self._generator.setstate(self._state)
        return self._generator

    def getstate(self) -> tuple[Any, ...]:
        return self._state if self._generator is None else self._generator.getstate()

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._real().setstate(state)

    def getrandbits(self, k: int, /) -> int:
        return self._real().getrandbits(k)

    def random(self) -> float:
        return self._real().random()

    def seed(self, n: object = None, /) -> None:
        self._real().seed(n)


class Checkpoints:
    """A resolved mission and copies of it at the start of each turn it reached.

    `at(k)` is the mission as it stood at the start of turn k (1 <= k <= last_turn, where
    last_turn is the turn of loss, or 12 for a survived mission).  Never changed: resume copies.
    """

    __slots__ = ("_states", "carried", "last_turn", "result")

    def __init__(self, result: Result, states: list[Mission], carried: bool) -> None:
        self.result = result
        self._states = states
        self.last_turn = len(states)
        self.carried = carried

    def at(self, turn: int) -> Mission:
        return self._states[turn - 1]


def resolve_with_checkpoints(game: Game, *, log: bool = False) -> Checkpoints:
    """Resolve `game` (as engine.resolve does) keeping a copy of the mission before each turn."""
    m = build_mission(game, log=log)
    m.rng = cast(_random.Random, SavedRandom(m.rng.getstate()))  # captured once, not at every turn
    return _run(m, 1, [], game.carried is not None)


def resume(
    points: Checkpoints, turn: int, plans: Mapping[int, Sequence[str]] | None = None, *, log: bool = False
) -> Result:
    """Resolve on from the start of `turn`, with the plans of some crew members (by seat) changed.

    A changed plan must agree with the played one on turns 1..turn-1 (those turns are over).
    The result is the one a full resolution of the changed game gives.
    """
    m = _resumed(points, turn, plans, log)
    try:
        for t in range(turn, board.TURNS + 1):
            play_one_turn(m, t)
        final_turn(m)
    except ShipDestroyed as lost:
        mission_lost(m, lost)
    return _result(m, log, points.carried)


def resume_if_survived(
    points: Checkpoints, turn: int, plans: Mapping[int, Sequence[str]] | None = None
) -> Result | None:
    """As `resume`, None when the ship is lost: a search that only wants missions survived skips
    building the result of every lost one."""
    m = _resumed(points, turn, plans, False)
    try:
        for t in range(turn, board.TURNS + 1):
            play_one_turn(m, t)
        final_turn(m)
    except ShipDestroyed:
        return None
    return _result(m, False, points.carried)


def resume_with_checkpoints(
    points: Checkpoints, turn: int, plans: Mapping[int, Sequence[str]] | None = None
) -> Checkpoints:
    """As `resume`, keeping the checkpoints of the resumed run (turns before `turn` shared with
    `points`): a second change can then resume from the first one's run."""
    m = _resumed(points, turn, plans, False)
    return _run(m, turn, points._states[: turn - 1], points.carried)


def _resumed(points: Checkpoints, turn: int, plans: Mapping[int, Sequence[str]] | None, log: bool) -> Mission:
    if not 1 <= turn <= points.last_turn:
        raise ValueError(f"no checkpoint at turn {turn} (1..{points.last_turn})")
    m = copy_mission(points.at(turn))
    if log and not m.log_enabled:
        raise ValueError("the checkpoints were taken without the log")
    if plans:
        for seat, plan in plans.items():
            p = m.crew[seat]
            p.actions = replay_delays(cast(list[ActionCode], list(plan)), p.delayed_turns)
    return m


def _run(m: Mission, turn: int, states: list[Mission], carried: bool) -> Checkpoints:
    """Resolve from `turn` on, appending a copy of the mission before each turn to `states`."""
    try:
        for t in range(turn, board.TURNS + 1):
            states.append(copy_mission(m))
            play_one_turn(m, t)
        final_turn(m)
    except ShipDestroyed as lost:
        mission_lost(m, lost)
    return Checkpoints(_result(m, m.log_enabled, carried), states, carried)


def replay_delays(plan: list[_Code], delayed: AbstractSet[int]) -> list[_Code]:
    """The action board as it lies after the delays of these turns, applied in turn order (the
    push of crew_effects.delay: the card moves right until a card lands on an empty turn)."""
    blank = cast(_Code, board.BLANK)
    for turn in sorted(delayed):
        i = turn - 1
        gap = plan.index(blank, i) if blank in plan[i:] else board.TURNS - 1
        del plan[gap]
        plan.insert(i, blank)
    return plan


def _result(m: Mission, log: bool, carried: bool) -> Result:
    result = build_result(m, log)
    if carried:
        result.carry = end_state(m)
    return result
