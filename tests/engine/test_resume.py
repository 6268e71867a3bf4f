"""Resolution from the middle (engine/resolution/resume.py): a mission resumed from its copy at
the start of turn k, with or without plans changed from turn k on, gives the very result a full
resolution gives, field by field, on 10,000 random games (`RESUME_GAMES` sets another count, e.g.
a quick 1,000 while working on the engine).
"""

from __future__ import annotations

import dataclasses
import os
import random
from typing import Any

import pytest

from engine import Game, Result, resolve
from engine.random_game import random_game
from engine.resolution.mission import build_mission
from engine.resolution.resume import (
    CREW_FIELDS,
    MISSION_FIELDS,
    SHIP_FIELDS,
    THREAT_FIELDS,
    copy_mission,
    replay_delays,
    resolve_with_checkpoints,
    resume,
    resume_if_survived,
    resume_with_checkpoints,
)
from engine.state import CrewMember, Mission, Ship, ThreatState

GAMES = int(os.environ.get("RESUME_GAMES", "10000"))
_CODES = "abcx<>^-ABX123456"


def fields_of(result: Result) -> dict[str, Any]:
    return {name: getattr(result, name) for name in Result.model_fields}


def assert_same(resumed: Result, full: Result, context: str) -> None:
    a, b = fields_of(resumed), fields_of(full)
    for name in b:
        assert a[name] == b[name], f"{context}: field {name} differs: {a[name]!r} != {b[name]!r}"


def changed_from(plan: list[str], turn: int, rng: random.Random) -> list[str]:
    """The plan with one to three of its cards from `turn` on replaced (a take-back, a move, ...)."""
    new = list(plan)
    for _ in range(rng.randrange(1, 4)):
        new[rng.randrange(turn - 1, 12)] = rng.choice(_CODES)
    return new


def test_the_copier_knows_every_field_of_the_state() -> None:
    assert tuple(f.name for f in dataclasses.fields(CrewMember)) == CREW_FIELDS
    assert tuple(f.name for f in dataclasses.fields(Ship)) == SHIP_FIELDS
    assert tuple(f.name for f in dataclasses.fields(Mission)) == MISSION_FIELDS
    assert tuple(f.name for f in dataclasses.fields(ThreatState)) == THREAT_FIELDS


def _mutables(obj: Any, seen: dict[int, Any], path: str, out: dict[int, str]) -> None:
    """Every list, dict and set reachable from a mission's state objects (cards and tracks are
    shared data, not state), by id."""
    if id(obj) in seen:
        return
    seen[id(obj)] = obj
    if isinstance(obj, list | dict | set):
        out[id(obj)] = path
        items = obj.items() if isinstance(obj, dict) else enumerate(obj)
        for key, value in items:
            _mutables(value, seen, f"{path}[{key!r}]", out)
    elif type(obj).__name__ in ("Mission", "Ship", "CrewMember", "ThreatState"):
        for f in dataclasses.fields(obj):
            if f.name not in ("card", "track", "program", "routes"):
                _mutables(getattr(obj, f.name), seen, f"{path}.{f.name}", out)


def test_a_copy_shares_no_mutable_state_and_draws_the_same_numbers() -> None:
    rng = random.Random(5)
    for _ in range(200):
        game = Game.model_validate(random_game(rng, crew=rng.randint(1, 5)))
        points = resolve_with_checkpoints(game)
        for turn in range(1, points.last_turn + 1):
            m = points.at(turn)
            c = copy_mission(m)
            a: dict[int, str] = {}
            b: dict[int, str] = {}
            _mutables(m, {}, "m", a)
            _mutables(c, {}, "m", b)
            assert sorted(a.values()) == sorted(b.values())  # the same shape...
            shared = set(a) & set(b)
            assert not shared, [a[i] for i in shared]  # ...and nothing in common
            assert c.rng.getrandbits(32) == m.rng.getrandbits(32)


def test_a_resumed_run_draws_what_the_full_run_draws() -> None:
    """Today the turn loop draws nothing after setup; if a rule ever does, a copy still draws the
    numbers the live mission would, and two copies do not share a generator."""
    game = Game.model_validate(random_game(random.Random(8)))
    live = build_mission(game)
    points = resolve_with_checkpoints(game)
    first, second = copy_mission(points.at(1)), copy_mission(points.at(1))
    expected = [live.rng.getrandbits(32) for _ in range(5)]
    assert [first.rng.getrandbits(32) for _ in range(5)] == expected
    assert [second.rng.getrandbits(32) for _ in range(5)] == expected
    assert first.rng.getstate() == live.rng.getstate()
    assert copy_mission(first).rng.random() == live.rng.random()


def test_replaying_delays_pushes_cards_as_the_rules_do() -> None:
    assert "".join(replay_delays(list("ab-cdefghijk"), {1})) == "-abcdefghijk"
    assert "".join(replay_delays(list("abcdefghijkl"), {3})) == "ab-cdefghijk"  # l falls off
    assert "".join(replay_delays(list("abcdefghijkl"), {3, 4})) == "ab--cdefghij"


@pytest.mark.parametrize("crew", [1, 2, 3, 4, 5])
def test_resumed_resolution_equals_full_resolution(crew: int) -> None:
    rng = random.Random(1000 + crew)
    lost = 0
    for n in range(GAMES // 5):
        raw = random_game(rng, crew=crew, threats=rng.randint(4, 8))
        game = Game.model_validate(raw)
        full = resolve(game)
        points = resolve_with_checkpoints(game)
        assert_same(points.result, full, f"game {n}: with checkpoints")
        lost += full.outcome == "destroyed"
        assert points.last_turn == (min(full.lost.turn, 12) if full.lost else 12)
        turn = rng.randint(1, points.last_turn)
        assert_same(resume(points, turn), full, f"game {n}: resumed at turn {turn}")
        survived = resume_if_survived(points, turn)
        if full.outcome == "destroyed":
            assert survived is None
        else:
            assert survived is not None
            assert_same(survived, full, f"game {n}: resumed if survived")
        # A changed plan from turn `turn` on: resumed = the changed game resolved from the start.
        seat = rng.randrange(crew)
        plan = changed_from(raw["players"][seat]["actions"], turn, rng)
        raw["players"][seat]["actions"] = "".join(plan)
        changed = resolve(raw)
        assert_same(resume(points, turn, {seat: plan}), changed, f"game {n}: {seat} changed at turn {turn}")
        # ...and a second change on the first one's checkpoints.
        again = resume_with_checkpoints(points, turn, {seat: plan})
        assert_same(again.result, changed, f"game {n}: with checkpoints after a change")
        later = rng.randint(turn, again.last_turn)
        other = rng.randrange(crew)
        plan2 = changed_from(raw["players"][other]["actions"], later, rng)
        raw["players"][other]["actions"] = "".join(plan2)
        assert_same(resume(again, later, {other: plan2}), resolve(raw), f"game {n}: second change at {later}")
    assert 0 < lost < GAMES // 5  # both kinds of mission were compared


def test_resuming_with_the_log_gives_the_full_log() -> None:
    rng = random.Random(3)
    for _ in range(100):
        game = Game.model_validate(random_game(rng))
        full = resolve(game, log=True)
        points = resolve_with_checkpoints(game, log=True)
        turn = rng.randint(1, points.last_turn)
        assert resume(points, turn, log=True).log == full.log


def test_no_checkpoint_after_the_turn_of_loss() -> None:
    rng = random.Random(11)
    while True:
        points = resolve_with_checkpoints(Game.model_validate(random_game(rng)))
        if points.result.lost:
            break
    with pytest.raises(ValueError):
        resume(points, points.last_turn + 1)
