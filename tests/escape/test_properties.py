"""Properties over whole seeded games played by the random and greedy policies: Health within its
bounds, charges never negative, at most one winner, the clock never runs backwards, determinism by
seed, and the snapshot round trip at every step."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.escape.policy import actor, greedy, random_legal
from engine.escape.rules import Applied, Command, apply, legal_commands
from engine.escape.setup import new_digital_game
from engine.escape.snapshot import from_dict, to_dict
from engine.escape.state import State
from tests.escape.helpers import PACK, referee


def _invariants(state: State, previous_hour: int) -> None:
    assert state.hour >= previous_hour  # the clock never runs backwards
    assert state.hour <= state.limit
    for seat, p in enumerate(state.players):
        assert 1 <= p.health <= state.character(seat).health
        assert p.ap >= 0 and p.aggression >= 0
        for item in p.items:
            card = state.gear(item.gear)
            assert 0 <= item.charges <= max(card.charges, 0)
            assert 0 <= item.armour <= card.armour
    assert -1 <= state.winner < len(state.players)
    assert not (state.winner >= 0 and state.timed_out)
    assert sum(p.escaped for p in state.players) <= 1


def _play(seed: int, players: int, wild: bool, steps: int, *, snapshots: bool = False) -> list[str]:
    state = new_digital_game(PACK, seed, "hard", players)
    rng = random.Random(seed)
    trace: list[str] = []
    for _ in range(steps):
        if state.over:
            break
        command = (random_legal if wild or rng.random() < 0.2 else greedy)(state, rng)
        hour = state.hour
        result = apply(state, command)
        assert isinstance(result, Applied), (command, result)
        state = result.state
        _invariants(state, hour)
        trace.append(f"{command.kind}:{[e.code for e in result.events]}")
        if snapshots:
            assert to_dict(from_dict(to_dict(state))) == to_dict(state)
    return trace


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 4), st.booleans())
def test_invariants_hold_in_any_game(seed: int, players: int, wild: bool) -> None:
    _play(seed, players, wild, 400)


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 4))
def test_same_seed_same_game(seed: int, players: int) -> None:
    assert _play(seed, players, False, 300) == _play(seed, players, False, 300)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10**9))
def test_snapshot_round_trip_at_every_step(seed: int) -> None:
    _play(seed, 3, False, 150, snapshots=True)


def test_snapshot_restores_a_game_that_plays_on_identically() -> None:
    state = new_digital_game(PACK, 42, "medium", 3)
    rng = random.Random(1)
    for _ in range(60):
        result = apply(state, greedy(state, rng))
        assert isinstance(result, Applied)
        state = result.state
    copy = from_dict(to_dict(state))
    for _ in range(80):
        if state.over:
            break
        command = greedy(state, random.Random(0))
        a, b = apply(state, command), apply(copy, command)
        assert isinstance(a, Applied) and isinstance(b, Applied)
        assert a.events == b.events
        state, copy = a.state, b.state


def _flags(rng: random.Random) -> tuple[int, ...]:
    return (rng.randint(0, 1), rng.randint(0, 1), rng.randint(0, 6), rng.randint(0, 4))


def _fill(command: Command, rng: random.Random) -> Command:
    """A referee template with numbers a crew could type off a card."""
    numbers = {
        "ref_encounter": (
            rng.randint(1, 9),
            rng.randint(0, 5),
            rng.randint(-1, 2),
            rng.randint(2, 4),
            rng.randint(1, 2),
        ),
        "ref_gear": (
            rng.randint(0, 5),
            rng.randint(0, 4),
            rng.randint(0, 6),
            rng.randint(1, 2),
            rng.randint(0, 4),
            *_flags(rng),
        ),
        "ref_damage": (rng.randint(0, 5),),
        "ref_guard": (rng.randint(1, 12), rng.randint(0, 4)),
        "ref_hold_fight": (rng.randint(1, 9), rng.randint(0, 4)),
    }.get(command.kind)
    if numbers is None or command.numbers:
        return command
    return Command(command.kind, command.player, command.target, command.cell, numbers)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 4))
def test_referee_games_keep_the_invariants(seed: int, players: int) -> None:
    rng = random.Random(seed)
    missions = tuple(rng.sample(["smuggler", "thief", "saboteur", "usurper"], players))
    state = referee(players, missions)
    for _ in range(300):
        if state.over:
            break
        seat = actor(state)
        command = _fill(rng.choice(legal_commands(state, seat)), rng)
        hour = state.hour
        result = apply(state, command)
        assert isinstance(result, Applied), (command, result)
        state = result.state
        _invariants(state, hour)
    assert to_dict(from_dict(to_dict(state))) == to_dict(state)
