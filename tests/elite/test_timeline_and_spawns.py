"""The event timeline per difficulty, spawn counts per difficulty and players, and the boss deck."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from engine.common.clock import ManualClock
from engine.elite import tables
from engine.elite.decks import BossDeck
from engine.elite.game import EliteGame
from engine.elite.setup import EliteConfig, event_timeline
from engine.elite.vocab import BOSSES, HEROES, EliteDifficulty

# The rulebook's setup step 9: cards drawn from each pile (1-16, 17-21, 22-23, 24, 25).
TIMELINE_TABLE: dict[str, dict[str, int]] = {
    "easy": {"1-16": 0, "17-21": 5, "22-23": 2, "24": 1, "25": 0},
    "medium": {"1-16": 3, "17-21": 2, "22-23": 2, "24": 1, "25": 0},
    "hard": {"1-16": 4, "17-21": 0, "22-23": 2, "24": 1, "25": 1},
}


def pile(number: int) -> str:
    if number <= 16:
        return "1-16"
    if number <= 21:
        return "17-21"
    return "22-23" if number <= 23 else str(number)


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard"])
def test_timeline_draws_per_difficulty(difficulty: EliteDifficulty) -> None:
    for seed in range(50):
        row = event_timeline(difficulty, random.Random(seed))
        assert len(row) == 8 and len(set(row)) == 8
        counts = Counter(pile(n) for n in row)
        assert {k: counts.get(k, 0) for k in TIMELINE_TABLE[difficulty]} == TIMELINE_TABLE[difficulty]
        assert {22, 23, 24} <= set(row)


def test_timeline_is_shuffled_and_uses_the_whole_piles() -> None:
    rows = [event_timeline("medium", random.Random(seed)) for seed in range(300)]
    assert len({r[0] for r in rows}) > 10  # any card can lead
    assert {n for r in rows for n in r if n <= 16} == set(range(1, 17))
    assert {n for r in rows for n in r if 17 <= n <= 21} == set(range(17, 22))


def game(difficulty: EliteDifficulty = "medium", players: int = 3, seed: int = 5) -> EliteGame:
    heroes = HEROES[: 2 if players == 1 else players]
    cfg = EliteConfig(map="crash_site", mission="recon", difficulty=difficulty, players=players, heroes=heroes)
    return EliteGame(cfg, seed, ManualClock())


@pytest.mark.parametrize(
    ("difficulty", "players", "swarm", "boss"),
    [
        ("easy", 1, 2, 1),
        ("easy", 4, 4, 1),
        ("medium", 1, 2, 2),
        ("medium", 3, 3, 2),  # the rulebook's example: 3 players, Medium -> 3 swarm cards
        ("hard", 2, 3, 2),
        ("hard", 6, 7, 2),
    ],
)
def test_spawn_counts(difficulty: EliteDifficulty, players: int, swarm: int, boss: int) -> None:
    g = game(difficulty, players)
    g.begin_round()
    report = g.spawn()
    assert (report.swarm_cards, report.boss_cards) == (swarm, boss)
    assert report.swarm_draws == ()  # no pack: the crew draws physical cards
    assert len(report.bosses) == boss


def test_boss_deck_has_twenty_cards_eight_bosses_and_is_never_reshuffled() -> None:
    deck = BossDeck.shuffled(random.Random(1))
    assert len(deck) == tables.BOSS_DECK_SIZE == 20
    assert sorted(c for c in deck.cards if c is not None) == sorted(BOSSES)
    assert deck.cards.count(None) == 12
    for _ in range(20):
        assert deck.draw()[0]
    assert deck.draw() == (False, None)
    assert len(deck) == 0 and len(deck.drawn) == 20


def hypergeometric(draws: int, k: int) -> float:
    return math.comb(8, k) * math.comb(12, draws - k) / math.comb(20, draws)


# The spec's rounded distributions of bosses seen over a full game (§1.1.13).
SPEC_EASY = {0: 0.004, 1: 0.050, 2: 0.205, 3: 0.352, 4: 0.275, 5: 0.098, 6: 0.015}
SPEC_MEDIUM = {4: 0.014, 5: 0.139, 6: 0.381, 7: 0.363, 8: 0.102}


def test_boss_math_matches_the_spec() -> None:
    for draws, spec, mean in ((8, SPEC_EASY, 3.2), (16, SPEC_MEDIUM, 6.4)):
        assert sum(k * hypergeometric(draws, k) for k in range(9)) == pytest.approx(mean)
        for k, p in spec.items():
            assert hypergeometric(draws, k) == pytest.approx(p, abs=0.0015)
    assert hypergeometric(1, 1) == pytest.approx(0.40)
    assert 1 - hypergeometric(2, 0) == pytest.approx(0.65, abs=0.005)


@pytest.mark.parametrize(("difficulty", "mean"), [("easy", 3.2), ("medium", 6.4), ("hard", 6.4)])
def test_bosses_over_whole_games_match_the_expectation(difficulty: EliteDifficulty, mean: float) -> None:
    totals = []
    for seed in range(400):
        g = game(difficulty, seed=seed)
        seen = 0
        for _ in range(8):
            g.begin_round()
            seen += sum(1 for b in g.spawn().bosses if b.boss is not None)
            g.open_action()
            g.activate(force=True)
            g.end_round()
        totals.append(seen)
        assert len(g.boss_deck.drawn) == (8 if difficulty == "easy" else 16)
    assert sum(totals) / len(totals) == pytest.approx(mean, abs=0.2)


def test_bosses_get_a_d6_cluster_roll() -> None:
    g = game(seed=11)
    rolls = []
    for _ in range(8):
        g.begin_round()
        for b in g.spawn().bosses:
            if b.boss is not None:
                assert b.roll is not None and b.cluster == tables.cluster_for_roll(b.roll)
                assert b.health is None  # no pack: the printed Health is on the card
                rolls.append(b.roll)
        g.open_action()
        g.activate(force=True)
        g.end_round()
    assert rolls and len(rolls) == sum(1 for c in g.boss_deck.drawn if c is not None)
