"""The turn loop of the resolution round (rulebook §3): turns 1-12, then turn 13 (§3.6).

Each turn: threats appear (§3.1), crew act in action order (§3.2), damage is computed (§3.3),
threats act (§3.4), the rocket moves up its track; after turns 2, 5 and 9 the computer is checked
(§3.5); at each phase end the best visual confirmation counts.  Turn 13: the turn-12 rocket hits,
a pilot in space comes back aboard, every threat moves once more.  Then scoring (§4).
"""

from __future__ import annotations

import _random
import itertools
from collections.abc import Callable, Mapping
from collections.abc import Set as AbstractSet
from operator import attrgetter
from typing import Any, Literal, NamedTuple

from engine import board
from engine.board import TRACKS
from engine.campaign.carried import apply_carried, end_state
from engine.model import Game, LogEntry, Lost, Result, Score, ThreatOutcome
from engine.resolution.card_actions import program
from engine.resolution.crew_effects import delay, enter
from engine.resolution.damage_step import damage_step
from engine.resolution.internal_threats import multi_station_bonus
from engine.resolution.player_actions import play_turn
from engine.resolution.scoring import disabled_squads, observation_points, score, threat_points
from engine.resolution.threat_actions import appear, threat_actions
from engine.state import Mission, Program, ShipDestroyed, enlist, new_mission, new_ship, place_threat
from engine.threats.catalog import ThreatCard
from engine.threats.catalog import card as card_of
from engine.vocab import DamageTokenKind, Fate, Station, Zone

_TOKEN_ORDERS = tuple(itertools.permutations(board.DAMAGE_TOKEN_KINDS))


def resolve(
    game: Game | dict[str, Any], *, log: bool = False, observer: Callable[[Mission], None] | None = None
) -> Result:
    """Resolve a whole mission.  Same game and seed, same result, always.

    `observer` (pictures, replay) is called with the live mission before turn 1, after each of turns
    1-12 and once at the end (after turn 13, or in the turn the ship was lost); it must only read.
    """
    if not isinstance(game, Game):
        game = Game.model_validate(game)
    m = build_mission(game, log=log)
    if observer is not None:
        observer(m)
    try:
        for turn in range(1, board.TURNS + 1):
            play_one_turn(m, turn)
            if observer is not None:
                observer(m)
        final_turn(m)
    except ShipDestroyed as lost:
        mission_lost(m, lost)
    if observer is not None:
        observer(m)
    result = build_result(m, log)
    if game.carried is not None:  # a campaign mission hands back the ship state to carry on
        result.carry = end_state(m)
    return result


def mission_lost(m: Mission, lost: ShipDestroyed) -> None:
    """The turn loop stopped: the ship was lost in the current turn."""
    # Its traceback holds the turn loop's frame, which holds the mission: a reference cycle that
    # only the garbage collector could free, and most random missions are lost.  Drop it.
    m.lost = lost.with_traceback(None)
    m.lost_turn = m.turn
    if m.log_enabled:
        m.emit("mission_lost", threat=lost.threat, zone=lost.zone)


def build_mission(game: Game, *, log: bool = False) -> Mission:
    rng = seeded_random(game.__dict__["seed"])
    # The validated model's fields, read from its __dict__ (where pydantic keeps them) once per
    # object: an attribute read on a pydantic model goes through its __getattr__ hook and costs
    # several times a dict lookup, and setup reads about fifty of them.
    fields = game.__dict__
    given = fields["damage_tokens"]
    # A seeded shuffle of the six tokens per zone, drawn as one of the 720 orders with
    # `rng.randrange(720)`, which is getrandbits(10) until below 720 (spelled out: one C call
    # a draw instead of three Python frames).  Every zone draws, given tokens or not, so fixing
    # one zone's order does not change the others.
    bits = rng.getrandbits
    piles: dict[Zone, list[DamageTokenKind]] = {}
    for zone in board.ZONES:
        draw = bits(_ORDER_BITS)
        while draw >= _ORDER_COUNT:
            draw = bits(_ORDER_BITS)
        pile = _TOKEN_ORDERS[draw]
        first = given.get(zone) if given else None
        piles[zone] = [*first, *(tok for tok in pile if tok not in first)] if first else list(pile)
    ship = new_ship(
        board.SHIELD_START.copy(),
        board.SHIELD_CAPACITY.copy(),
        board.REACTOR_START.copy(),
        board.REACTOR_CAPACITY.copy(),
        {"red": [], "white": [], "blue": []},  # damage taken: board.ZONES, spelled out
        piles,
        _DEPOTS_READY.copy(),
    )
    carried = fields["carried"]
    if carried is not None:
        apply_carried(ship, carried)
    # The model has validated every action against vocab.ACTION_CODES.
    crew = []
    for i, player in enumerate(fields["players"]):
        plan = player.__dict__
        crew.append(enlist(i, plan["name"], list(plan["actions"])))
    track_of = fields["tracks"].__dict__  # red, white, blue, internal -> trajectory id
    # A threat's trajectory by its zone; an internal threat has none (the model checks both).
    track_in = {
        "red": TRACKS[track_of["red"]],
        "white": TRACKS[track_of["white"]],
        "blue": TRACKS[track_of["blue"]],
        None: TRACKS[track_of["internal"]],
    }
    threats = []
    grouped = []  # the tokens whose cards belong to a role group (few missions have any)
    for i, placement in enumerate(fields["threats"]):
        place = placement.__dict__
        card_id = place["id"]
        try:  # (a subscript, not .get: no method call per token)
            setup = _SETUPS[card_id]
        except KeyError:
            setup = _setup(card_id)
        where = place["zone"]
        if where is not None:
            where = _ZONE_WORD[where]  # the zone word the rules compare with, as one object
        turn = place["turn"]
        # decision 13: by number; same number -> internal first, serious before common.
        t = place_threat(setup.state, turn, where, track_in[where], (turn, setup.internal_rank, setup.serious_rank, i))
        threats.append(t)
        if setup.groups:
            grouped.append(t)
    in_input_order = list(threats)
    threats.sort(key=_token_order)  # token order, used by every "lowest number first" rule
    m = new_mission(crew, ship, threats, rng, log)
    m.in_input_order = in_input_order
    if grouped:
        grouped.sort(key=_token_order)  # each group in token order too
        for t in grouped:
            for name in _SETUPS[t.card.id].groups:
                group = getattr(m, name)
                if not group:  # the first of its group: the group gets its own list
                    group = []
                    setattr(m, name, group)
                group.append(t)
    return m


def seeded_random(seed: int) -> _random.Random:
    """The Mersenne Twister of `random.Random(seed)`, in the same state and drawing the same
    numbers: `_random.Random` is the C generator that random.Random is built on, and setup draws
    only `getrandbits` from it (random.Random's own __init__ and seed() are Python frames around
    the same C seeding).  A test compares the two."""
    return _random.Random(seed)


_ORDER_COUNT = len(_TOKEN_ORDERS)
_DEPOTS_READY: dict[Station, Literal["ready", "disabled"] | None] = dict.fromkeys(board.BATTLEBOT_DEPOTS, "ready")
_ORDER_BITS = _ORDER_COUNT.bit_length()


_token_order = attrgetter("sort_key")
_ZONE_WORD: dict[str, Zone] = {zone: zone for zone in board.ZONES}


class _Setup(NamedTuple):
    """What a card's token starts with and asks of the turn loop, worked out once per card (not
    per mission)."""

    card: ThreatCard
    # ThreatState's leading fields, in its order: card, health, speed, shield, visible,
    # cryoshield, internal, immune (weapons that cannot aim at it), hides_far (range 3), program
    state: tuple[ThreatCard, int, int, int, bool, bool, bool, frozenset[str], bool, Program]
    internal_rank: int  # decision 13 after the number: internal first (0),
    serious_rank: int  # then serious first (0)
    groups: tuple[str, ...]  # the Mission role groups it belongs to (ROLE_GROUPS)


_SETUPS: dict[str, _Setup] = {}
# The threat groups of Mission that build_mission fills from the cards' roles.
ROLE_GROUPS = ("attack_auras", "shield_auras", "multi_station", "turn_counters", "end_of_step", "slimes")


def _setup(card_id: str) -> _Setup:
    """Work out (and keep in _SETUPS) what a card's token starts with."""
    card = card_of(card_id)
    member = {
        "attack_auras": "global_external_attack_bonus" in card.op_names,  # from the data
        "shield_auras": "global_external_shield_bonus" in card.op_names,  # from the data
        "multi_station": card.has("multi_station_bonus"),
        "turn_counters": card.has("multi_station_bonus") or card.has("needs_three"),
        "end_of_step": card.has("retaliates") or card.breakup_per_breakpoint > 0,
        "slimes": card.has("slime"),
    }
    assert tuple(member) == ROLE_GROUPS
    immune = frozenset(
        weapon
        for weapon, immune in (("heavy", card.has("heavy_laser_immune")), ("rocket", card.has("rocket_immune")))
        if immune
    )
    state = (
        card,
        card.health,
        card.speed,
        card.shield,
        not card.has("stealth_until_x"),
        card.has("cryoshield"),
        card.internal,
        immune,
        card.has("untargetable_at_range_3"),
        program(card),
    )
    groups = tuple(name for name, yes in member.items() if yes)
    setup = _SETUPS[card_id] = _Setup(card, state, 0 if card.internal else 1, 0 if card.serious else 1, groups)
    return setup


def play_one_turn(m: Mission, turn: int) -> None:
    m.turn = turn
    threats = m.threats  # in token order, so by T+ number
    k = m.next_token
    n = len(threats)
    if k < n and threats[k].number == turn:
        m.step = "appear"
        while True:
            appear(m, threats[k])
            k += 1
            if k == n or threats[k].number != turn:
                break
        m.next_token = k
    m.step = "actions"
    play_turn(m)
    if m.multi_station:
        multi_station_bonus(m)
    m.step = "damage"
    ship = m.ship
    if ship.cannons or ship.rocket_in_flight or ship.in_space is not None:  # (else nothing fires)
        damage_step(m)
    m.step = "threats"
    threat_actions(m)
    end_of_turn(m)
    if turn in board.COMPUTER_CHECK_TURNS:
        computer_check(m, turn)
    if turn in board.PHASE_LAST_TURNS:
        m.step = "phase_end"
        if m.log_enabled:
            phase = board.PHASE_OF[turn]
            m.emit("phase_end", phase=phase, observers=m.ship.observation_best[phase - 1])


def end_of_turn(m: Mission) -> None:
    ship = m.ship
    ship.rocket_in_flight = ship.rocket_launched  # the rocket moves to the second space (§3.4 end)
    ship.rocket_launched = False
    if ship.lifts_used:
        ship.lifts_used.clear()
    if ship.observers:
        phase = board.PHASE_OF[m.turn] - 1
        ship.observation_best[phase] = max(ship.observation_best[phase], ship.observers)
        ship.observers = 0
    for t in m.turn_counters:
        t.hits_this_turn = 0
        if t.stations_hit:  # (empty and immutable until the token appears)
            t.stations_hit.clear()


def computer_check(m: Mission, turn: int) -> None:
    """§3.5: no maintenance in the phase's first two turns -> everyone aboard is delayed next turn."""
    m.step = "computer"
    phase = board.PHASE_OF[turn]
    if phase in m.ship.maintained:
        if m.log_enabled:
            m.emit("computer_ok", phase=phase)
        return
    if m.log_enabled:
        m.emit("computer_not_maintained", phase=phase)
    for p in m.crew_aboard():
        delay(m, p, turn + 1, cause="computer")


def final_turn(m: Mission) -> None:
    """Turn 13 (§3.6): no actions; the turn-12 rocket hits; pilots return; threats move once more."""
    m.turn = 13
    m.step = "damage"
    damage_step(m, weapons=False)
    for p in m.crew:
        if p.station == board.SPACE:
            m.ship.in_space = None
            p.intercepting = False
            if p.knocked_out:
                p.station = "upper_red"
            else:
                enter(m, p, "upper_red", how="return")
    m.step = "threats"
    threat_actions(m)
    m.step = "jump"
    if m.log_enabled:
        m.emit("hyperspace_jump")


def code_line(event: Mapping[str, Any]) -> str:
    """An event as one line of codes, `kind key=value ...` (unset parameters left out): what the
    command line shows of it, and what a reader without the catalogue can still follow."""
    shown = (f"{key}={value}" for key, value in event.items() if key not in _LINE_SKIPS and _is_set(value))
    return " ".join((str(event["kind"]), *shown))


def _is_set(value: Any) -> bool:
    return value is not None and value is not False


_LINE_SKIPS = frozenset({"turn", "step", "kind"})


def build_result(m: Mission, log: bool) -> Result:
    lost = m.lost
    outcomes = []
    for t in m.in_input_order:
        card = t.card
        fate: Fate | None = t.fate
        if fate is None:
            fate = "active" if t.appeared else "not_appeared"
            pts = 0  # only a destroyed or survived threat scores
        elif lost is not None:
            pts = 0  # a lost mission scores nothing
        else:
            pts = threat_points(fate, card.points_survived, card.points_destroyed)
        # ThreatOutcome(card.id, t.number, t.zone, fate, pts), stored without its __init__ frame
        # (eight a mission; a test compares the two)
        outcome: ThreatOutcome = _new_object(ThreatOutcome)
        outcome.id = card.id
        outcome.turn = t.number
        outcome.zone = t.zone
        outcome.fate = fate
        outcome.points = pts
        outcomes.append(outcome)
    entries = None
    if log:
        # The public log format carries a `text` next to each event's code and parameters: the
        # event in codes, one line (the engine holds no words; the bot renders the captain's log
        # in the flight's language from the one text catalogue).
        entries = [LogEntry(**e, text=code_line(e)) for e in m.events]
    knocked_out = []
    for p in m.crew:
        if p.knocked_out:
            knocked_out.append(p.name)
    taken = m.ship.damage
    damage = {"red": len(taken["red"]), "white": len(taken["white"]), "blue": len(taken["blue"])}  # board.ZONES
    if lost is not None and lost.zone is not None:
        damage[lost.zone] += 1  # the destroyed zone reports the seventh token it could not take
    # Every field in the model's order, `carry` (resolve sets it for a campaign game) left unset.
    return trusted_result(
        {
            "outcome": "survived" if lost is None else "destroyed",
            "lost": None if lost is None else Lost(m.lost_turn, lost.cause),
            "damage": damage,
            "threats": outcomes,
            "knocked_out": knocked_out,
            "disabled_battlebots": disabled_squads(m),
            "observation": observation_points(m.ship.observation_best),
            "score": Score() if lost is not None else Score(**score(m)),
            "log": entries,
            "carry": None,
        },
        _BUILT_FIELDS,
    )


_new_object = object.__new__
_RESULT_FIELDS = Result.model_fields
_BUILT_FIELDS = frozenset(_RESULT_FIELDS) - {"carry"}  # the fields build_result gives


def trusted_result(values: dict[str, Any], fields_set: AbstractSet[str] | None = None) -> Result:
    """`Result.model_construct(**values)` (fields in the model's order, no aliases), minus pydantic's
    per-field alias and default lookups (a third of the cost of a short mission).  Fields left
    out get their defaults and stay out of the fields set, as with model_construct; the instance
    is the same to the attribute: a test compares the two.  `fields_set`: the caller passes every
    field in `values` (in order) and names those it counts as given, which skips the defaults."""
    if fields_set is not None:
        fields_set = set(fields_set)
    else:
        fields_set = set(values)
        if len(values) != len(_RESULT_FIELDS):
            values = {
                name: values[name] if name in values else field.get_default(call_default_factory=True)
                for name, field in _RESULT_FIELDS.items()
            }
    result = Result.__new__(Result)
    _set = object.__setattr__
    _set(result, "__dict__", values)
    _set(result, "__pydantic_fields_set__", fields_set)
    _set(result, "__pydantic_extra__", None)
    _set(result, "__pydantic_private__", None)
    return result
