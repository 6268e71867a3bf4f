"""Property tests over whole voyages played by random legal commands and by the policies."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.legion.commands import Rejected
from engine.legion.policies import choose, play_out
from engine.legion.rules import apply, legal_commands, step
from engine.legion.setup import new_voyage
from engine.legion.snapshot import from_snapshot, to_snapshot
from engine.legion.state import State
from tests.legion.helpers import CONTENT

MISSIONS = [m.id for m in CONTENT.pack.missions]


def _invariants(state: State) -> None:
    """Supply, credits, Health, Mental never negative; exactly one captain, and it is the
    captain seat; every role held by someone."""
    assert state.supply() >= 0 and state.goods() >= 0 and state.credits >= 0
    assert all(0 <= c.amount <= 10 for c in state.ship.hold)
    assert 0 <= state.ship.hull <= state.ship.max_hull
    for who in state.seats:
        assert 0 <= who.health <= 10 and 0 <= who.mental <= 10
        assert len(who.hand) <= 5
    captains = [seat for seat, roles in state.roles.items() if "captain" in roles]
    assert captains == [state.captain]
    held = Counter(role for roles in state.roles.values() for role in roles)
    assert all(n == 1 for n in held.values()) and len(held) == 4


def _random_play(state: State, rng: random.Random, limit: int) -> tuple[list[str], list[str]]:
    """Random legal commands; returns the submitted and the drawn pool cards."""
    submitted: list[str] = []
    drawn: list[str] = []
    for _ in range(limit):
        if state.winner is not None:
            break
        options = [(seat, cmd) for seat in range(len(state.seats)) for cmd in legal_commands(state, seat)]
        assert options, f"no legal command in phase {state.phase}"
        _, command = rng.choice(options)
        before = dict(state.tour.submitted)
        result = step(state, command)
        assert not isinstance(result, Rejected), (command, result)
        submitted += [card for role, card in state.tour.submitted.items() if role not in before]
        if result and any(e.code == "pool_shuffled" for e in result) and not state.tour.submitted:
            pass
        drawn += [str(e.params["card"]) for e in result if e.code == "pool_card_drawn"]
        _invariants(state)
    return submitted, drawn


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(3, 4), mission=st.sampled_from(MISSIONS))
def test_random_legal_play_keeps_the_invariants_and_draws_no_card_twice(seed: int, players: int, mission: str) -> None:
    state, _ = new_voyage(CONTENT, players, seed, mission=mission)
    _invariants(state)
    submitted, drawn = _random_play(state, random.Random(seed), 80)
    missing = Counter(drawn) - Counter(submitted)
    assert not missing  # nothing is drawn that was not submitted, nothing twice


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(3, 4), mission=st.sampled_from(MISSIONS))
def test_policy_voyages_end_and_keep_the_invariants(seed: int, players: int, mission: str) -> None:
    state, _ = new_voyage(CONTENT, players, seed, mission=mission)
    play_out(state, random.Random(seed))
    assert state.winner in ("crew", "legion") and state.reason
    assert all(seat.revealed for seat in state.seats)
    _invariants(state)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(3, 4))
def test_determinism_by_seed(seed: int, players: int) -> None:
    one, _ = new_voyage(CONTENT, players, seed)
    two, _ = new_voyage(CONTENT, players, seed)
    play_out(one, random.Random(seed))
    play_out(two, random.Random(seed))
    assert to_snapshot(one) == to_snapshot(two)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 60))
def test_snapshot_round_trip_mid_voyage_resumes_the_same_dice(seed: int, steps: int) -> None:
    state, _ = new_voyage(CONTENT, 4, seed)
    rng = random.Random(seed)
    _random_play(state, rng, steps)
    stored = json.loads(json.dumps(to_snapshot(state)))
    restored = from_snapshot(stored, CONTENT)
    assert to_snapshot(restored) == to_snapshot(state)
    for seat in range(4):
        for command in legal_commands(state, seat)[:3]:
            a, b = apply(state, command), apply(restored, command)
            assert type(a) is type(b)
            if not isinstance(a, Rejected) and not isinstance(b, Rejected):
                assert to_snapshot(a.state) == to_snapshot(b.state) and a.events == b.events


EARLY_END = {"enemy_destroyed", "escaped", "tour_restarted", "voyage_over", "character_out"}


def test_every_submitted_card_is_drawn_exactly_once_when_a_tour_runs_its_turns() -> None:
    """Seed 3.1.5: over many policy voyages, each tour that runs all its turns draws its whole
    face-down pool back, each card once."""
    complete = 0
    for seed in range(60):
        state, _ = new_voyage(CONTENT, 3 + seed % 2, seed)
        rng = random.Random(seed)
        submitted: Counter[str] | None = None
        drawn: Counter[str] = Counter()
        early = False
        while state.winner is None:
            command = next(
                (
                    cmd
                    for s in sorted(range(len(state.seats)), key=lambda s: s == state.captain)
                    if (cmd := choose(state, s, rng)) is not None
                ),
                None,
            )
            if command is None:
                break
            result = step(state, command)
            assert not isinstance(result, Rejected)
            for event in result:
                if event.code == "pool_shuffled":
                    submitted, drawn, early = Counter(state.tour.submitted.values()), Counter(), False
                elif event.code == "pool_card_drawn":
                    drawn[str(event.params["card"])] += 1
                elif event.code in EARLY_END:
                    early = True
            if submitted is not None and state.phase in ("orders", "after", "over", "visit"):
                assert not drawn - submitted
                if not early:
                    assert drawn == submitted
                    complete += 1
                submitted = None
    assert complete > 100
