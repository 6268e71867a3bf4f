"""The seeded mission generator: every constraint over 1,000 seeds, determinism, presets, the checker."""

from __future__ import annotations

import collections

import pytest

from engine.flight.generator import (
    PRESETS,
    GeneratorError,
    check_constraints,
    generate,
    preset_params,
)
from engine.flight.timeline import load_official, parse_timeline


def test_thousand_missions_satisfy_every_constraint() -> None:
    params = preset_params("mission")
    serious = collections.Counter()
    ambushes = 0
    internal = collections.Counter()
    for seed in range(1000):
        tl = generate(seed)
        problems = check_constraints(tl, params)
        assert problems == [], (seed, problems)
        threats = tl.threats()
        serious[sum(bool(e.serious) for e in threats)] += 1
        internal[sum(bool(e.internal) for e in threats)] += 1
        ambushes += any(tl.phase_end_s[tl.phase_at(e.t) - 1] - e.t <= 55 for e in threats)
    # the official spread: 1-3 serious threats, 1-2 internal threats, an occasional ambush
    assert set(serious) == {1, 2, 3}
    assert set(internal) <= {1, 2} and internal[1] and internal[2]
    assert 100 < ambushes < 700


@pytest.mark.parametrize("preset", [p for p in PRESETS if p != "mission"])
def test_other_presets_satisfy_their_constraints(preset: str) -> None:
    params = preset_params(preset)
    for seed in range(200):
        tl = generate(seed, preset)
        assert check_constraints(tl, params) == [], (preset, seed)
        assert tl.phases == params.phases and tl.group == preset


def test_presets_resemble_the_official_groups() -> None:
    test_run = generate(5, "test_run")
    assert test_run.phases == 2 and len(test_run.threats()) == 3
    assert not [e for e in test_run.events if e.event == "comm_down"]
    assert all(not e.serious and not e.internal for e in test_run.threats())
    sim = generate(5, "simulation")
    assert sum(e.units for e in sim.threats()) == 6 and not [e for e in sim.threats() if e.internal]
    # every official track of a group passes its own preset's threat rules
    for mission_id, preset in (("S2-1", "mission"), ("S2-4", "mission"), ("S1-3", "simulation")):
        tl = load_official(mission_id)
        assert sum(e.units for e in tl.threats()) == preset_params(preset).threat_level


def test_same_seed_same_mission_other_seed_other_mission() -> None:
    assert generate(42) == generate(42)
    assert generate(42).to_json_dict() == generate(42).to_json_dict()
    assert generate(42) != generate(43)
    custom = preset_params("mission", threat_level=10, max_serious_threats=4)
    tl = generate(42, params=custom)
    assert sum(e.units for e in tl.threats()) == 10 and check_constraints(tl, custom) == []
    assert tl != generate(42)


def test_generated_timeline_survives_the_custom_validator() -> None:
    tl = generate(7)
    assert parse_timeline(tl.to_json_dict()) == tl


def _mutate_event(tl, index: int, **update):
    events = list(tl.events)
    events[index] = events[index].model_copy(update=update)
    return tl.model_copy(update={"events": events})


def test_checker_notices_broken_rules() -> None:
    params = preset_params("mission")
    tl = generate(3)
    threats = [i for i, e in enumerate(tl.events) if e.event == "threat"]
    externals = [i for i in threats if not tl.events[i].internal]
    # one more serious threat: wrong unit total
    first_normal = next(i for i in threats if not tl.events[i].serious)
    assert any("threat units" in p for p in check_constraints(_mutate_event(tl, first_normal, serious=True), params))
    # two consecutive externals in the same zone
    a, b = sorted(externals, key=lambda i: tl.events[i].turn)[:2]
    same = _mutate_event(tl, b, zone=tl.events[a].zone)
    assert any("share zone" in p for p in check_constraints(same, params))
    # a shorter phase 3
    short = tl.model_copy(update={"phase_end_s": [*tl.phase_end_s[:2], tl.phase_end_s[1] + 100]})
    assert any("phase 3 lasts" in p for p in check_constraints(short, params))
    # communications failures that are too long in total
    comm = next(i for i, e in enumerate(tl.events) if e.event == "comm_down")
    longer = _mutate_event(tl, comm, duration_s=tl.events[comm].duration_s + 30)
    assert any("communications failure" in p for p in check_constraints(longer, params))
    # a threat outside its T+ window (serious external on T+1)
    serious_ext = [i for i in externals if tl.events[i].serious]
    if serious_ext:
        bad = _mutate_event(tl, serious_ext[0], turn=1)
        assert any("outside its window" in p for p in check_constraints(bad, params))


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"threat_level": 30}, "threat_level"),
        ({"min_internal_level": 3, "max_internal_level": 1}, "min_internal_level > max_internal_level"),
        ({"phase_length_s": [(205, 240), (180, 225)]}, "one \\(min, max\\) per phase"),
        ({"comm_burst_s": (20, 9)}, "min 20 > max 9"),
        ({"threat_level": 14, "max_serious_threats": 3}, "no serious-threat count"),
    ],
)
def test_bad_parameters(overrides: dict, message: str) -> None:
    with pytest.raises(GeneratorError, match=message):
        preset_params("mission", **overrides)
    with pytest.raises(GeneratorError, match="unknown preset"):
        preset_params("nightmare")


def test_unsatisfiable_parameters_fail_cleanly() -> None:
    params = preset_params("mission", comm_total_s=(60, 60), comm_burst_s=(9, 10), comm_max_bursts=3)
    with pytest.raises(GeneratorError, match="no mission satisfies"):
        generate(1, params=params)
