"""The turn loop of the resolution round (rulebook §3): turns 1-12, then turn 13 (§3.6).

Each turn: threats appear (§3.1), crew act in action order (§3.2), damage is computed (§3.3),
threats act (§3.4), the rocket moves up its track; after turns 2, 5 and 9 the computer is checked
(§3.5); at each phase end the best visual confirmation counts.  Turn 13: the turn-12 rocket hits,
a pilot in space comes back aboard, every threat moves once more.  Then scoring (§4).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from typing import Any

from engine import board
from engine.board import TRACKS
from engine.model import Game, LogEntry, Lost, Result, Score, ThreatOutcome
from engine.resolution.crew_effects import delay, enter
from engine.resolution.damage_step import damage_step
from engine.resolution.internal_threats import multi_station_bonus
from engine.resolution.player_actions import play_turn
from engine.resolution.scoring import disabled_squads, observation_points, score, threat_points
from engine.resolution.threat_actions import appear, threat_actions
from engine.state import CrewMember, Mission, Ship, ShipDestroyed, ThreatState
from engine.threats.catalog import card as card_of

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
        m.lost = (m.turn, lost.cause)
        m.lost_zone = lost.zone
        m.emit("mission_lost", cause=lost.cause)
    if observer is not None:
        observer(m)
    return build_result(m, log)


def build_mission(game: Game, *, log: bool = False) -> Mission:
    rng = random.Random(game.seed)
    given = game.damage_tokens or {}
    piles: dict[str, list[str]] = {}
    for zone in board.ZONES:
        # A seeded shuffle of the six tokens, drawn as one of the 720 orders.  Every zone draws,
        # given tokens or not, so fixing one zone's order does not change the others.
        pile = list(_TOKEN_ORDERS[rng.randrange(len(_TOKEN_ORDERS))])
        first = list(given.get(zone, []))
        piles[zone] = first + [tok for tok in pile if tok not in first]
    ship = Ship(
        shields=dict(board.SHIELD_START),
        shield_cap=dict(board.SHIELD_CAPACITY),
        reactors=dict(board.REACTOR_START),
        reactor_cap=dict(board.REACTOR_CAPACITY),
        damage={z: [] for z in board.ZONES},
        piles=piles,
        depots=dict.fromkeys(board.BATTLEBOT_DEPOTS, "ready"),
    )
    crew = [CrewMember(index=i, name=p.name, actions=list(p.actions)) for i, p in enumerate(game.players)]
    threats = []
    for i, placement in enumerate(game.threats):
        card = card_of(placement.id)
        track_id = game.tracks.internal if card.internal else getattr(game.tracks, placement.zone or "white")
        t = ThreatState(
            card=card,
            number=placement.turn,
            order=i,
            zone=placement.zone,
            track=TRACKS[track_id],
            health=card.health,
            speed=card.speed,
            shield=card.shield,
            visible=not card.has("stealth_until_x"),
            cryoshield=card.has("cryoshield"),
            internal=card.internal,
        )
        # rules-decisions 13: by number; same number -> internal first, serious before common.
        t.sort_key = (placement.turn, 0 if card.internal else 1, 0 if card.serious else 1, i)
        threats.append(t)
    threats.sort(key=lambda t: t.sort_key)  # token order, used by every "lowest number first" rule
    m = Mission(crew=crew, ship=ship, threats=threats, rng=rng, log_enabled=log)
    for t in threats:
        card = t.card
        if card.id == "E2-02":
            m.scouts.append(t)
        elif card.id == "E2-06":
            m.marauders.append(t)
        if card.has("multi_station_bonus"):
            m.multi_station.append(t)
        if card.has("multi_station_bonus") or card.has("needs_three"):
            m.turn_counters.append(t)
        if card.has("retaliates") or card.breakup_per_breakpoint:
            m.end_of_step.append(t)
    return m


def play_one_turn(m: Mission, turn: int) -> None:
    m.turn = turn
    m.step = "appear"
    for t in m.threats:
        if t.number == turn and not t.appeared:
            appear(m, t)
    m.step = "actions"
    play_turn(m)
    multi_station_bonus(m)
    m.step = "damage"
    damage_step(m)
    m.step = "threats"
    threat_actions(m)
    end_of_turn(m)
    if turn in board.COMPUTER_CHECK_TURNS:
        computer_check(m, turn)
    if turn in board.PHASE_LAST_TURNS:
        m.step = "phase_end"
        m.emit("phase_end", phase=board.phase_of(turn), observers=m.ship.observation_best[board.phase_of(turn) - 1])


def end_of_turn(m: Mission) -> None:
    ship = m.ship
    ship.rocket_in_flight = ship.rocket_launched  # the rocket moves to the second space (§3.4 end)
    ship.rocket_launched = False
    ship.lifts_used.clear()
    phase = board.phase_of(m.turn) - 1
    ship.observation_best[phase] = max(ship.observation_best[phase], ship.observers)
    ship.observers = 0
    for t in m.turn_counters:
        t.hits_this_turn = 0
        t.stations_hit.clear()


def computer_check(m: Mission, turn: int) -> None:
    """§3.5: no maintenance in the phase's first two turns -> everyone aboard is delayed next turn."""
    m.step = "computer"
    phase = board.phase_of(turn)
    if phase in m.ship.maintained:
        m.emit("computer_ok", phase=phase)
        return
    m.emit("computer_not_maintained", phase=phase)
    for p in m.crew_aboard():
        delay(m, p, turn + 1, cause="computer not maintained")


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
                enter(m, p, "upper_red", how="return from space")
    m.step = "threats"
    threat_actions(m)
    m.step = "jump"
    m.emit("hyperspace_jump")


def build_result(m: Mission, log: bool) -> Result:
    lost = m.lost is not None
    outcomes = []
    for t in sorted(m.threats, key=lambda t: t.order):  # the input's order
        if t.fate is not None:
            fate = t.fate
        elif t.appeared:
            fate = "active"
        else:
            fate = "not_appeared"
        pts = 0 if lost else threat_points(fate, t.card.points_survived, t.card.points_destroyed)
        outcomes.append(ThreatOutcome(id=t.card.id, turn=t.number, zone=t.zone, fate=fate, points=pts))
    parts = Score() if lost else Score(**score(m))
    entries = None
    if log:
        from engine.log_text import describe

        entries = [LogEntry(**e, text=describe(e)) for e in m.events]
    return Result.model_construct(
        outcome="destroyed" if lost else "survived",
        lost=Lost(turn=m.lost[0], cause=m.lost[1]) if m.lost else None,
        # the destroyed zone reports the seventh token it could not take
        damage={z: len(m.ship.damage[z]) + (z == m.lost_zone) for z in board.ZONES},
        threats=outcomes,
        knocked_out=[p.name for p in m.crew if p.knocked_out],
        disabled_battlebots=disabled_squads(m),
        observation=observation_points(m.ship.observation_best),
        score=parts,
        log=entries,
    )
