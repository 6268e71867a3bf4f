"""Seeded random missions that keep the habits of the 16 official soundtracks.

The constraints (threat counts per difficulty, T+ slot rules, zones, data operations per phase,
phase lengths) are the ones every official track obeys, so a generated mission feels like one.

The pipeline follows mkalus/JSpaceAlertMissionGenerator (the best community generator, Dec 2025
version): threat numbers -> T+ slots by backtracking -> zones -> data operations -> white-noise
bursts -> phase lengths -> placing everything on a seconds timeline where every announcement keeps
its reserved length (timeline.RESERVED_S).  Any step that cannot be satisfied restarts the attempt;
the same seed and parameters always give the same mission because every draw goes through one
`random.Random(seed)`.

`check_constraints` re-derives every rule from the finished timeline.  The tests run it over a
thousand seeds, so the rules are documented twice: as parameters here, as checks there.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from engine.flight.timeline import (
    COMM_RESTORED_RESERVED_S,
    RESERVED_S,
    Timeline,
    TimelineError,
    TimelineEvent,
    derived_slots,
    first_problem,
)

Preset = Literal["test_run", "simulation", "advanced_simulation", "mission"]
PRESETS: tuple[str, ...] = ("test_run", "simulation", "advanced_simulation", "mission")
Range = tuple[int, int]
ZONES = ("red", "white", "blue")
THREAT_GAP_S = 25  # official tracks: >= 25 s between two threat announcements
AMBUSH_WINDOW = (55, 40)  # an ambush starts 55..40 s before its phase ends (after the one-minute warning)
NO_THREAT_TAIL_S = 50  # apart from an ambush, no threat in a phase's last 50 s


class GeneratorError(ValueError):
    """Parameters that cannot be satisfied (after many attempts) or are inconsistent."""


class GeneratorParams(BaseModel):
    """Every knob, with its default (the 'mission' preset) and its allowed range.

    Threat units count a normal threat 1 and a serious one 2, unconfirmed reports included.
    Per-phase lists have one (min, max) pair per phase.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    phases: Literal[2, 3] = 3
    threat_level: int = Field(8, ge=1, le=14)  # total threat units incl. unconfirmed
    unconfirmed_level: int = Field(1, ge=0, le=2)  # units that are unconfirmed reports
    min_internal_level: int = Field(1, ge=0, le=6)
    max_internal_level: int = Field(3, ge=0, le=6)
    max_internal_threats: int = Field(2, ge=0, le=4)
    max_normal_threats: int = Field(7, ge=0, le=8)
    max_serious_threats: int = Field(3, ge=0, le=4)
    window_normal_external: Range = (1, 8)  # allowed T+ numbers per kind
    window_serious_external: Range = (2, 7)
    window_normal_internal: Range = (2, 7)
    window_serious_internal: Range = (3, 6)
    max_externals_per_zone: int = Field(2, ge=2, le=3)
    phase_length_s: list[Range] = [(205, 240), (180, 225), (140, 155)]  # each 100-400
    first_threat_s: list[Range] = [(10, 20), (10, 40)]  # first threat after the phase start
    threats_within_percent: int = Field(70, ge=50, le=90)  # non-ambush threats start in this part of a phase
    ambush_percent: list[int] = [40, 40]  # chance that T+4 / T+8 (normal external) becomes an ambush
    incoming_data: list[Range] = [(1, 2), (0, 2), (0, 1)]
    data_transfers: list[Range] = [(0, 1), (1, 2), (1, 2)]
    data_operations: list[Range] = [(2, 3), (2, 3), (1, 2)]  # incoming + transfers per phase
    min_incoming_total: int = Field(2, ge=0, le=6)
    min_transfers_total: int = Field(3, ge=0, le=6)
    first_transfer_min_s: int = Field(70, ge=10, le=200)
    comm_total_s: Range = (45, 60)  # total communications-down time, 0-120
    comm_burst_s: Range = (9, 20)  # one burst, 3-60
    comm_max_bursts: int = Field(5, ge=0, le=8)
    comm_in_last_phase: bool = True  # the last phase always has a burst (official habit)

    @model_validator(mode="after")
    def _consistent(self) -> GeneratorParams:
        n = self.phases
        for name in ("phase_length_s", "incoming_data", "data_transfers", "data_operations"):
            if len(getattr(self, name)) != n:
                raise ValueError(f"{name} needs one (min, max) per phase ({n})")
        for name, rng in self._ranges():
            lo, hi = rng
            if lo > hi:
                raise ValueError(f"{name}: min {lo} > max {hi}")
        for lo, hi in self.phase_length_s:
            if lo < 100 or hi > 400:
                raise ValueError("phase lengths must lie in 100-400 s")
        for name in (
            "window_normal_external",
            "window_serious_external",
            "window_normal_internal",
            "window_serious_internal",
        ):
            lo, hi = getattr(self, name)
            if lo < 1 or hi > 8:
                raise ValueError(f"{name} must lie in T+1..T+8")
        if self.min_internal_level > self.max_internal_level:
            raise ValueError("min_internal_level > max_internal_level")
        if self.unconfirmed_level > self.threat_level:
            raise ValueError("unconfirmed_level exceeds threat_level")
        lo, hi = self.serious_range()
        if lo > hi:
            raise ValueError(f"no serious-threat count fits level {self.threat_level} with these caps")
        if self.comm_total_s[1] > 120 or self.comm_burst_s[0] < 3 or self.comm_burst_s[1] > 60:
            raise ValueError("communications failures: total 0-120 s, bursts 3-60 s")
        if len(self.first_threat_s) < 2 or len(self.ambush_percent) < 2:
            raise ValueError("first_threat_s and ambush_percent need values for phases 1 and 2")
        return self

    def _ranges(self) -> list[tuple[str, Range]]:
        out: list[tuple[str, Range]] = [
            ("comm_total_s", self.comm_total_s),
            ("comm_burst_s", self.comm_burst_s),
        ]
        for name in (
            "phase_length_s",
            "first_threat_s",
            "incoming_data",
            "data_transfers",
            "data_operations",
        ):
            out += [(f"{name}[{i}]", r) for i, r in enumerate(getattr(self, name))]
        return out

    def serious_range(self) -> Range:
        """Serious threats allowed: enough that normals stay under their cap, at most half the level."""
        lo = max(0, math.ceil((self.threat_level - self.max_normal_threats) / 2))
        hi = min(self.threat_level // 2, self.max_serious_threats)
        return lo, hi

    def window(self, serious: bool, internal: bool) -> Range:
        if internal:
            return self.window_serious_internal if serious else self.window_normal_internal
        return self.window_serious_external if serious else self.window_normal_external


_PRESETS: dict[str, dict[str, Any]] = {
    "mission": {},
    # training CD, tracks 1-2: two phases, three normal external threats, no failures
    "test_run": {
        "phases": 2,
        "threat_level": 3,
        "unconfirmed_level": 0,
        "min_internal_level": 0,
        "max_internal_level": 0,
        "max_internal_threats": 0,
        "max_serious_threats": 0,
        "max_normal_threats": 3,
        "phase_length_s": [(220, 250), (170, 200)],
        "ambush_percent": [0, 0],
        "incoming_data": [(1, 2), (0, 1)],
        "data_transfers": [(1, 2), (1, 1)],
        "data_operations": [(1, 3), (1, 3)],
        "min_incoming_total": 1,
        "min_transfers_total": 2,
        "comm_total_s": (0, 0),
        "comm_max_bursts": 0,
        "comm_in_last_phase": False,
    },
    # tracks 3-5: six units (4-5 threats), one unconfirmed, external only
    "simulation": {
        "threat_level": 6,
        "min_internal_level": 0,
        "max_internal_level": 0,
        "max_internal_threats": 0,
        "max_normal_threats": 4,
        "max_serious_threats": 2,
        "phase_length_s": [(220, 240), (210, 230), (145, 155)],
        "comm_total_s": (25, 40),
        "comm_max_bursts": 4,
    },
    # tracks 6-8: six units with internal threats
    "advanced_simulation": {
        "threat_level": 6,
        "min_internal_level": 1,
        "max_internal_level": 2,
        "max_internal_threats": 2,
        "max_normal_threats": 4,
        "max_serious_threats": 2,
        "phase_length_s": [(240, 250), (200, 210), (140, 150)],
        "comm_total_s": (40, 55),
        "comm_max_bursts": 4,
    },
}


def preset_params(preset: str = "mission", **overrides: Any) -> GeneratorParams:
    """The parameters of a difficulty preset (the official groups), with optional overrides."""
    if preset not in _PRESETS:
        raise GeneratorError(f"unknown preset {preset!r}: use one of {', '.join(PRESETS)}")
    try:
        return GeneratorParams.model_validate({**_PRESETS[preset], **overrides})
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(x) for x in first["loc"])
        msg = first["msg"].removeprefix("Value error, ")
        raise GeneratorError(f"{where}: {msg}" if where else msg) from None


class _Retry(Exception):
    pass


@dataclass
class _Threat:
    serious: bool
    unconfirmed: bool = False
    internal: bool = False
    turn: int = 0
    zone: str | None = None
    t: int = 0
    ambush: bool = False

    @property
    def units(self) -> int:
        return 2 if self.serious else 1


def generate(
    seed: int, preset: str = "mission", params: GeneratorParams | None = None, mission_id: str | None = None
) -> Timeline:
    """A random mission; the same (seed, params) always gives the same timeline."""
    params = params or preset_params(preset)
    rng = random.Random(seed)
    for _ in range(300):
        try:
            return _attempt(rng, params, mission_id or f"G-{preset}-{seed}", preset)
        except _Retry:
            continue
    raise GeneratorError("no mission satisfies these parameters (300 attempts)")


# --- step 1: threat numbers ------------------------------------------------------------------------------
def _threats(rng: random.Random, p: GeneratorParams) -> list[_Threat]:
    lo, hi = p.serious_range()
    serious = rng.randint(lo, hi)
    normal = p.threat_level - 2 * serious
    while serious + normal > 8:  # only eight T+ slots: merge two normals into a serious threat
        if serious + 1 > p.max_serious_threats or normal < 2:
            raise _Retry
        serious, normal = serious + 1, normal - 2
    threats = [_Threat(True) for _ in range(serious)] + [_Threat(False) for _ in range(normal)]
    # unconfirmed reports: serious ones take 2 units, the rest are normal
    u = p.unconfirmed_level
    su = rng.randint(0, min(u // 2, serious))
    nu = u - 2 * su
    if nu > normal:
        raise _Retry
    for t in [t for t in threats if t.serious][:su] + [t for t in threats if not t.serious][:nu]:
        t.unconfirmed = True
    # internal: each threat becomes internal with probability (internal units left) / (units left)
    target = rng.randint(p.min_internal_level, min(p.max_internal_level, p.threat_level))
    left_int, left_all = target, p.threat_level
    order = list(range(len(threats)))
    rng.shuffle(order)
    for i in order:
        t = threats[i]
        if left_int >= t.units and rng.random() < left_int / left_all:
            t.internal = True
            left_int -= t.units
        left_all -= t.units
    internal_units = sum(t.units for t in threats if t.internal)
    if not p.min_internal_level <= internal_units <= p.max_internal_level:
        raise _Retry
    if sum(t.internal for t in threats) > p.max_internal_threats:
        raise _Retry
    return threats


# --- step 2: T+ slots ------------------------------------------------------------------------------------
class _Slotted(Protocol):
    """What the slot rules read of a threat, generated (`_Threat`) or from a timeline (`TimelineEvent`)."""

    @property
    def turn(self) -> int | None: ...
    @property
    def internal(self) -> bool | None: ...
    @property
    def serious(self) -> bool | None: ...


def slots_ok(threats: Sequence[_Slotted], half: int = 4) -> str | None:
    """The T+ slot rules of the official tracks on a complete assignment: distinct numbers, no adjacent
    internal threats, serious internal ones three apart, an external one between two internals, and
    the threats split evenly between the two halves of the mission."""
    by_turn = sorted(threats, key=lambda t: int(t.turn or 0))
    turns = [int(t.turn or 0) for t in by_turn]
    if len(set(turns)) != len(turns):
        return "two threats share a T+ number"
    internals = [t for t in by_turn if t.internal]
    for a, b in itertools.pairwise(internals):
        if int(b.turn or 0) - int(a.turn or 0) == 1:
            return f"internal threats on adjacent T+{a.turn} and T+{b.turn}"
        if a.serious and b.serious and int(b.turn or 0) - int(a.turn or 0) < 3:
            return "two serious internal threats less than 3 slots apart"
    for a, b in itertools.pairwise(by_turn):
        if a.internal and b.internal:
            return f"no external threat between internal T+{a.turn} and T+{b.turn}"
    first = [t for t in by_turn if int(t.turn or 0) <= half]
    second = [t for t in by_turn if int(t.turn or 0) > half]
    if abs(len(first) - len(second)) > 1:
        return f"unbalanced phases: {len(first)} vs {len(second)} threats"

    def units(ts: list[Any]) -> int:
        return sum(2 if t.serious else 1 for t in ts)

    if abs(units(first) - units(second)) > 2:
        return f"unbalanced phases: {units(first)} vs {units(second)} threat units"
    return None


def _assign_slots(rng: random.Random, p: GeneratorParams, threats: list[_Threat]) -> None:
    order = sorted(threats, key=lambda t: (not (t.serious and t.internal), not t.internal, not t.serious))
    budget = [4000]

    def search(i: int, used: set[int]) -> bool:
        budget[0] -= 1
        if budget[0] < 0:
            return False
        if i == len(order):
            return slots_ok(threats) is None
        t = order[i]
        lo, hi = p.window(t.serious, t.internal)
        cands = [s for s in range(lo, hi + 1) if s not in used]
        rng.shuffle(cands)
        for s in cands:
            if t.internal and any(o.internal and o.turn and abs(o.turn - s) <= 1 for o in order[:i]):
                continue
            t.turn = s
            used.add(s)
            if search(i + 1, used):
                return True
            used.discard(s)
            t.turn = 0
        return False

    if not search(0, set()):
        raise _Retry


def _assign_zones(rng: random.Random, p: GeneratorParams, threats: list[_Threat]) -> None:
    externals = sorted((t for t in threats if not t.internal), key=lambda t: t.turn)
    for _ in range(30):
        counts = dict.fromkeys(ZONES, 0)
        prev: str | None = None
        ok = True
        for t in externals:
            choices = [z for z in ZONES if counts[z] < p.max_externals_per_zone and z != prev]
            if not choices:
                ok = False
                break
            t.zone = rng.choice(choices)
            counts[t.zone] += 1
            prev = t.zone
        if ok:
            return
    raise _Retry


# --- steps 3-4: data operations and white noise -------------------------------------------------------
def _data_ops(rng: random.Random, p: GeneratorParams) -> list[tuple[int, int]]:
    for _ in range(200):
        plan = [(rng.randint(*p.incoming_data[i]), rng.randint(*p.data_transfers[i])) for i in range(p.phases)]
        if any(not p.data_operations[i][0] <= a + b <= p.data_operations[i][1] for i, (a, b) in enumerate(plan)):
            continue
        if sum(a for a, _ in plan) < p.min_incoming_total or sum(b for _, b in plan) < p.min_transfers_total:
            continue
        return plan
    raise _Retry


def _bursts(rng: random.Random, p: GeneratorParams) -> list[int]:
    total = rng.randint(*p.comm_total_s)
    if total == 0 or p.comm_max_bursts == 0:
        return []
    lo, hi = p.comm_burst_s
    k_min, k_max = math.ceil(total / hi), min(p.comm_max_bursts, total // lo)
    if k_min > k_max:
        raise _Retry
    k = rng.randint(k_min, k_max)
    parts = [lo] * k
    for _ in range(total - lo * k):  # hand out the rest a second at a time to bursts not yet full
        open_ = [i for i in range(k) if parts[i] < hi]
        parts[rng.choice(open_)] += 1
    return parts


# --- step 5: placing on the timeline --------------------------------------------------------------------
class _Board:
    """Occupied intervals of the intercom; refuses anything that would overlap."""

    def __init__(self, ends: list[int]) -> None:
        self.end = ends[-1]
        self.busy: list[tuple[int, int]] = [(s, s + n) for s, n, _ in derived_slots(ends)]

    def fits(self, t: int, length: int) -> bool:
        if t < 1 or t + length > self.end:
            return False
        return all(t >= b or t + length <= a for a, b in self.busy)

    def take(self, t: int, length: int) -> None:
        self.busy.append((t, t + length))


def _attempt(rng: random.Random, p: GeneratorParams, mission_id: str, preset: str) -> Timeline:
    threats = _threats(rng, p)
    _assign_slots(rng, p, threats)
    _assign_zones(rng, p, threats)
    ops = _data_ops(rng, p)
    bursts = _bursts(rng, p)
    lengths = [rng.randint(*r) for r in p.phase_length_s]
    ends = [sum(lengths[: i + 1]) for i in range(p.phases)]
    starts = [0, *ends[:-1]]
    board = _Board(ends)
    events: list[TimelineEvent] = []

    # ambush: a normal external T+4 (else T+8) right after the one-minute warning
    by_turn = {t.turn: t for t in threats}
    for phase, turn in ((1, 4), (2, 8)):
        t = by_turn.get(turn)
        if t and not t.serious and not t.internal and rng.randint(1, 100) <= p.ambush_percent[phase - 1]:
            at = rng.randint(ends[phase - 1] - AMBUSH_WINDOW[0], ends[phase - 1] - AMBUSH_WINDOW[1])
            if board.fits(at, RESERVED_S["threat"]):
                t.t, t.ambush = at, True
                board.take(at, RESERVED_S["threat"])
                break

    for phase in (1, 2):
        queue = sorted((t for t in threats if (t.turn <= 4) == (phase == 1) and not t.ambush), key=lambda t: t.turn)
        start, length = starts[phase - 1], lengths[phase - 1]
        limit = start + (length * p.threats_within_percent) // 100
        at = start + rng.randint(*p.first_threat_s[phase - 1])
        for t in queue:
            while not board.fits(at, RESERVED_S["threat"]):
                at += 1
                if at > limit:
                    raise _Retry
            if at > limit:
                raise _Retry
            t.t = at
            board.take(at, RESERVED_S["threat"])
            at += THREAT_GAP_S + rng.randint(0, max(0, (limit - at - THREAT_GAP_S) // 2))

    for t in threats:
        events.append(
            TimelineEvent(
                t=t.t,
                event="threat",
                turn=t.turn,
                zone=t.zone,
                internal=t.internal,
                serious=t.serious,
                unconfirmed=t.unconfirmed,
            )
        )

    def place(kind: str, length: int, lo: int, hi: int) -> int:
        for _ in range(60):
            at = rng.randint(lo, hi) if hi >= lo else lo
            if board.fits(at, length):
                board.take(at, length)
                return at
        raise _Retry

    # communications failures first (they are long), then data operations
    phase_of_burst = [rng.randrange(p.phases) for _ in bursts]
    if bursts and p.comm_in_last_phase and p.phases - 1 not in phase_of_burst:
        phase_of_burst[rng.randrange(len(bursts))] = p.phases - 1
    for d, ph in sorted(zip(bursts, phase_of_burst, strict=True), key=lambda x: -x[0]):
        reserve = d + COMM_RESTORED_RESERVED_S
        at = place("comm_down", reserve, starts[ph] + 10, ends[ph] - reserve)
        events.append(TimelineEvent(t=at, event="comm_down", duration_s=d))
    for ph, (incoming, transfers) in enumerate(ops):
        lo = starts[ph] + 5
        for _ in range(transfers):
            at = place(
                "data_transfer",
                RESERVED_S["data_transfer"],
                max(lo, p.first_transfer_min_s),
                ends[ph] - RESERVED_S["data_transfer"],
            )
            events.append(TimelineEvent(t=at, event="data_transfer"))
        for _ in range(incoming):
            at = place("incoming_data", RESERVED_S["incoming_data"], lo, ends[ph] - RESERVED_S["incoming_data"])
            events.append(TimelineEvent(t=at, event="incoming_data"))

    events.sort(key=lambda e: (e.t, e.event))
    try:
        return Timeline(
            id=mission_id,
            phases=p.phases,
            phase_end_s=ends,
            events=events,
            name=f"Generated {preset.replace('_', ' ')}",
            group=preset,
        )
    except ValueError as err:  # pragma: no cover - the board already prevents overlaps
        raise _Retry from err


# --- the checker ------------------------------------------------------------------------------------------
def check_constraints(tl: Timeline, p: GeneratorParams) -> list[str]:
    """Every generator rule, re-derived from a finished timeline; empty when all hold."""
    problems: list[str] = []
    try:
        problem = first_problem(tl)
    except TimelineError as err:  # pragma: no cover
        problem = str(err)
    if problem:
        problems.append(problem)
    threats = tl.threats()
    units = sum(e.units for e in threats)
    if units != p.threat_level:
        problems.append(f"{units} threat units, expected {p.threat_level}")
    if sum(e.units for e in threats if e.unconfirmed) != p.unconfirmed_level:
        problems.append("wrong unconfirmed units")
    internal_units = sum(e.units for e in threats if e.internal)
    if not p.min_internal_level <= internal_units <= p.max_internal_level:
        problems.append(f"{internal_units} internal units")
    if sum(bool(e.internal) for e in threats) > p.max_internal_threats:
        problems.append("too many internal threats")
    if sum(bool(e.serious) for e in threats) > p.max_serious_threats:
        problems.append("too many serious threats")
    if sum(not e.serious for e in threats) > p.max_normal_threats:
        problems.append("too many normal threats")
    for e in threats:
        lo, hi = p.window(bool(e.serious), bool(e.internal))
        assert e.turn is not None
        if not lo <= e.turn <= hi:
            problems.append(f"T+{e.turn} outside its window {lo}-{hi}")
        phase = tl.phase_at(e.t)
        if phase != (1 if e.turn <= 4 else 2):
            problems.append(f"T+{e.turn} announced in phase {phase}")
    slot_problem = slots_ok(threats)
    if slot_problem:
        problems.append(slot_problem)
    externals = sorted((e for e in threats if not e.internal), key=lambda e: e.turn or 0)
    for z in ZONES:
        if sum(e.zone == z for e in externals) > p.max_externals_per_zone:
            problems.append(f"more than {p.max_externals_per_zone} threats in zone {z}")
    for a, b in itertools.pairwise(externals):
        if a.zone == b.zone:
            problems.append(f"consecutive external threats T+{a.turn}, T+{b.turn} share zone {a.zone}")
    starts = [0, *tl.phase_end_s[:-1]]
    for i, (start_s, end_s) in enumerate(zip(starts, tl.phase_end_s, strict=True)):
        lo, hi = p.phase_length_s[i]
        if not lo <= end_s - start_s <= hi:
            problems.append(f"phase {i + 1} lasts {end_s - start_s} s")
    ambushes = 0
    for e in threats:
        ph = tl.phase_at(e.t)
        s, end = starts[ph - 1], tl.phase_end_s[ph - 1]
        if e.t > s + ((end - s) * p.threats_within_percent) // 100:
            if (
                e.turn in (4, 8)
                and not e.serious
                and not e.internal
                and end - AMBUSH_WINDOW[0] <= e.t <= end - AMBUSH_WINDOW[1]
            ):
                ambushes += 1
            else:
                problems.append(f"threat T+{e.turn} at {e.t} s is late in its phase")
        elif e.t > end - NO_THREAT_TAIL_S:
            problems.append(f"threat T+{e.turn} in the last {NO_THREAT_TAIL_S} s of its phase")
    if ambushes > 1:
        problems.append("more than one ambush")
    ordered = sorted(threats, key=lambda e: e.t)
    for a, b in itertools.pairwise(ordered):
        if b.t - a.t < THREAT_GAP_S:
            problems.append(f"threats {b.t - a.t} s apart")
        if tl.phase_at(a.t) == tl.phase_at(b.t) and (b.turn or 0) <= (a.turn or 0):
            problems.append("T+ numbers do not rise within a phase")
    incoming = [tl.phase_at(e.t) for e in tl.events if e.event == "incoming_data"]
    transfers = [tl.phase_at(e.t) for e in tl.events if e.event == "data_transfer"]
    for ph in range(1, tl.phases + 1):
        n_in, n_tr = incoming.count(ph), transfers.count(ph)
        if not p.incoming_data[ph - 1][0] <= n_in <= p.incoming_data[ph - 1][1]:
            problems.append(f"phase {ph}: {n_in} incoming data")
        if not p.data_transfers[ph - 1][0] <= n_tr <= p.data_transfers[ph - 1][1]:
            problems.append(f"phase {ph}: {n_tr} data transfers")
        if not p.data_operations[ph - 1][0] <= n_in + n_tr <= p.data_operations[ph - 1][1]:
            problems.append(f"phase {ph}: {n_in + n_tr} data operations")
    if len(incoming) < p.min_incoming_total or len(transfers) < p.min_transfers_total:
        problems.append("too few data operations in total")
    if any(e.t < p.first_transfer_min_s for e in tl.events if e.event == "data_transfer"):
        problems.append("data transfer too early")
    comm = [e for e in tl.events if e.event == "comm_down"]
    total = sum(e.duration_s or 0 for e in comm)
    if not p.comm_total_s[0] <= total <= p.comm_total_s[1]:
        problems.append(f"{total} s of communications failures")
    if len(comm) > p.comm_max_bursts:
        problems.append(f"{len(comm)} communications failures")
    for e in comm:
        if not p.comm_burst_s[0] <= (e.duration_s or 0) <= p.comm_burst_s[1]:
            problems.append(f"a {e.duration_s}-s communications failure")
    if comm and p.comm_in_last_phase and not any(tl.phase_at(e.t) == tl.phases for e in comm):
        problems.append("no communications failure in the last phase")
    return problems
