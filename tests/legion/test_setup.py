"""Setup, seed 3.1.1, step by step."""

from __future__ import annotations

import pytest

from engine.legion.setup import SetupError, new_voyage
from engine.legion.state import ROLE_ORDER
from tests.legion.helpers import CONTENT, voyage


def test_step_2_ship_card_gives_starting_modules_hull_supply_and_credits() -> None:
    state = voyage(ship="kestrel", mission="reconnaissance")
    assert state.ship.weapons == ["weapon_i"]
    assert state.ship.engines == ["engine_i"]
    assert state.ship.armour == "armour_i"
    assert state.ship.hull == CONTENT.ships["kestrel"].hull == state.ship.max_hull
    assert [c.kind for c in state.ship.hold].count("supply") == 1
    assert state.supply() == 10
    assert state.credits == 20


def test_delivery_mission_card_rides_in_a_hold_compartment() -> None:
    state = voyage(mission="delivery")
    assert [c.kind for c in state.ship.hold].count("mission") == 1


def test_mission_advance_is_paid_up_front() -> None:
    state = voyage(mission="destruction")
    assert state.credits == 20 + CONTENT.missions["destruction"].advance


@pytest.mark.parametrize("players", [3, 4])
def test_step_4_each_player_has_a_character_10_health_10_mental_and_5_cards(players: int) -> None:
    state = voyage(players=players)
    assert len({s.character for s in state.seats}) == players
    for who in state.seats:
        assert (who.health, who.mental, len(who.hand)) == (10, 10, 5)


@pytest.mark.parametrize("seed", range(30))
def test_step_5_exactly_one_legion_side_is_dealt(seed: int) -> None:
    state = voyage(players=3 + seed % 2, seed=seed)
    assert [s.side for s in state.seats].count("legion") == 1


def test_step_6_7_captain_by_roll_and_roles_by_player_count() -> None:
    three = voyage(players=3, seed=5)
    assert sorted(three.roles[three.captain]) == ["captain", "officer"]
    four = voyage(players=4, seed=5)
    assert four.roles[four.captain] == ["captain"]
    held = sorted(role for roles in four.roles.values() for role in roles)
    assert held == sorted(ROLE_ORDER)
    captains = {voyage(players=4, seed=s).captain for s in range(20)}
    assert len(captains) > 1  # the roll, not a fixed seat


def test_step_9_captain_draws_a_starting_shop_of_five() -> None:
    state = voyage()
    assert len(state.shop) == 5
    assert not set(state.shop) & set(CONTENT.pack.starting_modules)


@pytest.mark.parametrize("players", [2, 5])
def test_three_to_four_players_only(players: int) -> None:
    with pytest.raises(SetupError) as err:
        new_voyage(CONTENT, players, 1)
    assert err.value.code == "player_count"


def test_unknown_mission_is_refused() -> None:
    with pytest.raises(SetupError) as err:
        new_voyage(CONTENT, 3, 1, mission="nope")
    assert err.value.code == "unknown_mission"


def test_same_seed_same_voyage() -> None:
    a, b = voyage(seed=9), voyage(seed=9)
    assert (a.captain, a.flight_deck, [s.hand for s in a.seats]) == (
        b.captain,
        b.flight_deck,
        [s.hand for s in b.seats],
    )
