"""The campaign rules one by one: carried state at the start (§6.2), repairs, votes with ties."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine.campaign.carried import Carried
from engine.campaign.repairs import NOTHING, RECOVER, SQUAD, Repair, default_repair, repair, repair_options
from engine.campaign.vote import continue_vote, difficulty_vote
from engine.model import Game
from engine.resolution.mission import build_mission, resolve
from engine.state import Ship

PLAIN = {
    "tracks": {"red": "T5", "white": "T3", "blue": "T1", "internal": "T4"},
    "players": [{"name": "A", "actions": "------------"}],
}


def ship_with(carried: dict[str, object]) -> Ship:
    return build_mission(Game.model_validate({**PLAIN, "carried": carried})).ship


def test_carried_reactor_and_shield_lose_capacity_and_one_cube() -> None:
    ship = ship_with({"damage": {"white": ["reactor", "shield"], "red": ["shield"]}})
    assert ship.reactor_cap["white"] == 4 and ship.reactors["white"] == 2  # 5 - 1, 3 - 1
    assert ship.shield_cap["white"] == 2 and ship.shields["white"] == 0  # 3 - 1, 1 - 1
    assert ship.shield_cap["red"] == 1 and ship.shields["red"] == 0
    assert ship.reactors["blue"] == 2 and ship.shields["blue"] == 1  # untouched


def test_carried_tokens_lie_on_the_ship_and_leave_the_pile() -> None:
    ship = ship_with({"damage": {"blue": ["lift", "structural"]}})
    assert ship.damage["blue"] == ["lift", "structural"]
    assert sorted(ship.piles["blue"]) == ["lower_cannon", "reactor", "shield", "upper_cannon"]
    assert ship.multiplier == {"red": 1, "white": 1, "blue": 2}  # structural from before: doubled


def test_carried_cannon_tokens_weaken_the_cannons_from_the_start() -> None:
    """§6.2: unrepaired damage tokens lie in their zone at the start of the next mission and act as
    in a single mission: a cannon token weakens its laser, white's lower one the pulse range."""
    ship = ship_with({"damage": {"red": ["upper_cannon", "lower_cannon"], "white": ["lower_cannon"]}})
    assert ship.cannon_damage == {
        "upper_red": 4 - 1,
        "upper_white": 5,
        "upper_blue": 4,
        "lower_red": 2 - 1,
        "lower_white": 1,
        "lower_blue": 2,
    }
    assert ship.pulse_reach == 5  # the white lower-cannon token: range 1 only


def test_unrepaired_squad_is_not_placed() -> None:
    ship = ship_with({"battlebots": ["lower_red"]})
    assert ship.depots == {"upper_blue": None, "lower_red": "ready"}


def test_without_carried_block_nothing_changes_and_no_carry_is_returned() -> None:
    plain = resolve(PLAIN)
    empty = resolve({**PLAIN, "carried": {}})
    assert plain.carry is None and "carry" not in plain.to_json_dict()
    assert empty.carry == Carried()
    assert plain.score == empty.score


def test_carried_block_is_validated() -> None:
    with pytest.raises(ValidationError):
        Carried.model_validate({"damage": {"red": ["lift", "lift"]}})
    with pytest.raises(ValidationError):
        Carried.model_validate({"damage": {"green": ["lift"]}})
    with pytest.raises(ValidationError):
        Carried.model_validate({"battlebots": ["upper_red"]})


START = Carried(
    damage={"red": ["lift", "reactor", "structural"], "white": ["upper_cannon"]},
    battlebots=["upper_blue"],
)


def test_knocked_out_members_only_recover() -> None:
    done = repair(START, ["A", "B"], knocked_out={"A"}, choices={"A": Repair.of_token("red", "lift")})
    assert done.steps[0].repair == RECOVER
    assert done.steps[1].repair == Repair.of_token("red", "structural")  # B's default


def test_at_most_two_tokens_per_zone() -> None:
    choices = {
        name: Repair.of_token("red", tok) for name, tok in zip("ABC", ["lift", "reactor", "structural"], strict=True)
    }
    done = repair(START, ["A", "B", "C"], knocked_out=(), choices=choices)
    assert [s.chosen for s in done.steps] == [True, True, False]
    assert done.steps[2].repair != Repair.of_token("red", "structural")
    assert done.carried.tokens("red") == ["structural"]
    assert Repair.of_token("red", "structural") not in repair_options(START, [s.repair for s in done.steps[:2]])


def test_squad_repair_and_single_squad_depot() -> None:
    both = repair(START, ["A"], (), {"A": SQUAD})
    assert both.carried.battlebots == ["upper_blue", "lower_red"]
    none_left = Carried(battlebots=[])
    one = repair(none_left, ["A"], (), {"A": SQUAD}, squad_depot="lower_red")
    assert one.carried.battlebots == ["lower_red"]


def test_default_repairs_in_the_documented_order() -> None:
    assert default_repair(START) == Repair.of_token("red", "structural")
    assert default_repair(Carried(damage={"blue": ["lift"]}, battlebots=[])) == SQUAD
    big = Carried(damage={"red": ["lower_cannon", "lift", "upper_cannon", "shield"], "blue": ["structural"]})
    assert default_repair(big) == Repair.of_token("red", "shield")  # a zone of 4 comes first
    assert default_repair(Carried()) == NOTHING


def test_votes_unanimous_majority_and_ties() -> None:
    assert difficulty_vote({1: "yellow", 2: "yellow"}) == "yellow"
    assert difficulty_vote({1: "yellow", 2: "yellow", 3: "white"}) == "yellow"  # majority
    assert difficulty_vote({1: "yellow", 2: "mixed"}) == "mixed"  # tie: the more cautious
    assert difficulty_vote({1: "yellow", 2: "white", 3: "mixed", 4: "yellow", 5: "white"}) == "white"
    assert continue_vote({1: "continue", 2: "end"}) == "end"
    assert continue_vote({1: "continue", 2: "continue", 3: "end"}) == "continue"
    assert continue_vote({}) == "end"


def test_a_squad_left_in_its_depot_stays_there() -> None:
    carry = resolve({**PLAIN, "carried": {"battlebots": ["lower_red"]}}).carry
    assert carry is not None and carry.battlebots == ["lower_red"]
    taken = resolve({**PLAIN, "players": [{"name": "A", "actions": ">c----------"}], "carried": {}}).carry
    assert taken is not None and taken.battlebots == ["upper_blue", "lower_red"]  # picked up, still working
