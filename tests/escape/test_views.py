"""Fog of war (D18): a player's view never holds an unopened tile or another player's mission."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.escape.policy import greedy
from engine.escape.rules import Applied, apply
from engine.escape.setup import new_digital_game
from engine.escape.views import player_view, public_view
from tests.escape.helpers import PACK


def _check(state, seat: int) -> None:  # type: ignore[no-untyped-def]
    view = player_view(state, seat)
    me = state.players[seat]
    for r in range(5):
        for c in range(5):
            if view["board"][r][c] is not None:
                assert (r, c) in me.seen
    text = json.dumps(view)
    for other, p in enumerate(state.players):
        if other != seat and p.mission.id != me.mission.id:
            assert f'"{p.mission.id}"' not in text
    public = json.dumps(public_view(state))
    assert all(f'"{p.mission.id}"' not in public for p in state.players)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**9), st.integers(2, 4))
def test_views_hide_unseen_tiles_and_rival_missions(seed: int, players: int) -> None:
    state = new_digital_game(PACK, seed, "hard", players)
    rng = random.Random(seed)
    for _ in range(200):
        for seat in range(players):
            _check(state, seat)
        if state.over:
            break
        result = apply(state, greedy(state, rng))
        assert isinstance(result, Applied)
        state = result.state


def test_a_fresh_game_shows_only_start_tile_to_each_player() -> None:
    state = new_digital_game(PACK, 3, "medium", 2)
    view = player_view(state, 0)
    shown = [(r, c) for r in range(5) for c in range(5) if view["board"][r][c] is not None]
    assert shown == [state.players[0].cell]
    assert view["mission"]["id"] == state.players[0].mission.id
