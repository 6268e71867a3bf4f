"""The engine resolves a fixed corpus of 1,029 random games exactly as it did before the speed work
of the speed work (results, Python values and the log, to the byte).

A rules change that is meant to change results changes this digest too: check the differences
game by game first (tests/engine/resolve_corpus.py explains how), then put the new value here.
"""

from __future__ import annotations

import random

from engine import resolve
from engine.model import MAX_SEED, Game, Result, ThreatOutcome
from engine.resolution.mission import seeded_random
from tests.engine.resolve_corpus import corpus_digest, corpus_game

# The first 1,000 games, then later ones with what the first 1,000 lack or hold rarely (found by
# scanning 30,000 games' logs): the Nuclear Device's repairs, a multi-station bonus, Unstable
# Warheads without rockets, a rocket already fired or none left, the Phantom Fighter's fizzled
# rocket, asteroids breaking up, Nemesis hurting itself, interceptors repairing the Fissure, two
# Scouts (5306: one Scout's Y moves the other, whose Y moves the first while it is moving).
RARE = (1070, 1076, 1145, 1216, 1247, 1316, 1333, 1351, 1424, 1439, 1605, 1606, 1733, 1746, 1831, 1900)
RARE += (2100, 2220, 2287, 2435, 2670, 2742, 5306, 7760, 9346, 13638, 13958, 16382, 17732)
GAMES = (*range(1000), *RARE)
# sha256 of those games' fingerprints, computed with the engine of main before the speed work of
# the speed work (dc31d49 plus the campaign's `carry` field of the result, at 5ad291f), then the
# log's `no_effect` lines for a B that moved nothing and a knocked-out crew member's cards (issue
# 24: every result the same, checked game by game without the log; only the log changed), then
# each log line's `text` in codes rather than English (issue 24, one text layer: the corpus with
# every `text` left out hashes alike before and after, 1b4d5d8f...).
DIGEST = "c36e0d5ada435c0503e3422368a941538d59511f1dab3c542f3558905a12283f"


def test_corpus_resolves_exactly_as_before() -> None:
    assert corpus_digest(GAMES) == DIGEST


def test_a_validated_game_and_its_dict_resolve_alike() -> None:
    """resolve() skips validating a Game it is handed; the result is the dict's to the byte."""
    for index in range(50):
        data = corpus_game(index)
        from_dict = resolve(data, log=True).to_json_dict(with_log=True)
        assert resolve(Game.model_validate(data), log=True).to_json_dict(with_log=True) == from_dict


def test_trusted_result_is_what_model_construct_builds() -> None:
    """build_result skips pydantic's model_construct; the instance must not differ in any slot."""
    for index in (0, 1, 2, 7):
        fast = resolve(corpus_game(index), log=index % 2 == 0)
        given = {name: value for name, value in fast.__dict__.items() if name in fast.model_fields_set}
        slow = Result.model_construct(**given)
        assert list(fast.__dict__.items()) == list(slow.__dict__.items())
        assert fast.model_fields_set == slow.model_fields_set
        assert fast.__pydantic_extra__ == slow.__pydantic_extra__
        assert fast.__pydantic_private__ == slow.__pydantic_private__
        assert fast == slow
        # the outcomes are stored without ThreatOutcome's __init__: every field set, nothing more
        for outcome in fast.threats:
            built = ThreatOutcome(outcome.id, outcome.turn, outcome.zone, outcome.fate, outcome.points)
            assert outcome == built and fields_of(outcome) == fields_of(built)


def fields_of(outcome: ThreatOutcome) -> dict[str, object]:
    return {name: getattr(outcome, name) for name in ThreatOutcome.__slots__}


def test_seeded_random_is_random_random() -> None:
    """build_mission seeds the C generator under random.Random; its state and its draws must be
    Random(seed)'s."""
    for seed in (0, 1, 5, 2**31, 2**32 + 7, 123456789012345678, MAX_SEED):
        fast, slow = seeded_random(seed), random.Random(seed)
        _version, state, _gauss_next = slow.getstate()
        assert fast.getstate() == state
        assert [fast.getrandbits(10) for _ in range(20)] == [slow.getrandbits(10) for _ in range(20)]
        assert fast.random() == slow.random()
