"""Hidden Exploration tokens: dealt from the 12-token mix, a peek seen by the peeker only, reveals."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.elite import tables
from engine.elite.exploration import EFFECTS, ExplorationError, ExplorationTokens


def test_six_players_deal_the_whole_mix_and_fewer_deal_a_random_part() -> None:
    tokens = ExplorationTokens(tuple(range(1, 13)), random.Random(1))
    assert Counter(t.kind for t in tokens._tokens.values()) == Counter(tables.EXPLORATION_MIX)
    assert sum(tables.EXPLORATION_MIX.values()) == 12
    deals = {
        tuple(t.kind for t in ExplorationTokens((4, 7, 10, 12), random.Random(s))._tokens.values()) for s in range(50)
    }
    assert len(deals) > 10
    with pytest.raises(ValueError):
        ExplorationTokens(tuple(range(13)), random.Random(1))


def test_a_peek_is_seen_only_by_the_peeker() -> None:
    tokens = ExplorationTokens((1, 3, 4), random.Random(2))
    view = tokens.peek(3, viewer=111)
    assert view.viewer == 111 and view.cell == 3
    assert view.kind == tokens._tokens[3].kind
    public = {t.cell: t for t in tokens.public_view()}
    assert public[3].state == "hidden" and public[3].kind is None and public[3].peeked == 1
    assert all(t.kind is None for t in public.values())  # nothing hidden leaks into the public status
    assert view.kind not in repr(tokens.public_view())
    assert tokens.viewers(3) == (111,)
    tokens.peek(3, viewer=222)
    assert tokens.viewers(3) == (111, 222)


def test_reveal_makes_it_public_and_carries_its_effect() -> None:
    tokens = ExplorationTokens(tuple(range(1, 13)), random.Random(3))
    for cell in range(1, 13):
        kind = tokens._tokens[cell].kind
        result = tokens.reveal(cell)
        assert result.kind == kind and result.modifiers == EFFECTS[kind]
        assert result.stays_face_up == (kind == "alien_relic")
        with pytest.raises(ExplorationError):
            tokens.peek(cell, viewer=1)
        with pytest.raises(ExplorationError):
            tokens.reveal(cell)
    public = tokens.public_view()
    assert all(t.kind is not None for t in public)
    relics = [t.cell for t in public if t.state == "face_up"]
    assert len(relics) == 3 and not tokens.all_resolved()
    for cell in relics:
        tokens.remove_relic(cell)
    assert tokens.all_resolved()
    with pytest.raises(ExplorationError):
        tokens.remove_relic(relics[0])


def test_effects_are_the_rulebook_list() -> None:
    assert EFFECTS["boss_alarm"].extra_boss == 1
    assert EFFECTS["scattered_alarm"].extra_boss == -1
    assert EFFECTS["swarm_alarm"].extra_swarm == 1
    assert EFFECTS["smell_of_battle"].extra_move == 1
    assert EFFECTS["lucky_debris"].search_cards == 1
    assert EFFECTS["debris"] == EFFECTS["alien_relic"] == type(EFFECTS["debris"])()
