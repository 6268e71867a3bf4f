"""Rulebook §3.3 (damage), §3.4 (threat actions), §3.6 (turn 13), §4 (scoring), damage tokens."""

from __future__ import annotations

import json

import pytest

from engine import board, resolve
from engine.model import Game
from engine.resolution.mission import build_mission, final_turn, play_one_turn
from engine.resolution.scoring import score
from engine.resolution.ship_damage import damage_zone, threat_attack
from engine.state import ShipDestroyed
from tests.engine.helpers import ext, game, inn, kinds, mission_after, play

KEEPER = "c--c---c----"
HARMLESS_FIRST = {"red": ["structural", "lift", "shield", "reactor", "upper_cannon", "lower_cannon"]}


# --- §3.3 Расчёт повреждений ---------------------------------------------------------------------


def test_3_3_damage_is_summed_before_the_shield_is_subtracted_once() -> None:
    data = game("-<a" + "-" * 9, "^<a" + "-" * 9, KEEPER, threats=[ext("E1-05", 1, "red")], tokens=HARMLESS_FIRST)
    m = mission_after(data, 3)
    gunship = m.threats[0]
    assert gunship.damage == (4 + 2) - 2


def test_3_3_lasers_hit_the_threat_nearest_the_ship() -> None:
    data = game("-<a" + "-" * 9, KEEPER, threats=[ext("E1-07", 1, "red"), ext("E1-05", 2, "red")])
    m = mission_after(data, 3)
    fighter, gunship = m.threats
    assert (fighter.damage, gunship.damage) == (2, 0)


def test_3_3_same_space_goes_to_the_lowest_token_number() -> None:
    data = game(
        "-<-a" + "-" * 8, KEEPER, threats=[ext("E1-02", 1, "red"), ext("E1-07", 2, "red")], tokens=HARMLESS_FIRST
    )
    m = mission_after(data, 3)
    assert [t.position for t in m.threats] == [8, 8]
    with pytest.raises(ShipDestroyed):  # both then attack at Y: 1 + 2x2 + 2 = the seventh token
        play_one_turn(m, 4)
    hits = [e for e in kinds(m, "threat_damage") if e["turn"] == 4]
    assert [(e["threat"], e["number"], e["damage"]) for e in hits] == [("E1-02", 1, 2)]


def test_3_3_pulse_cannon_hits_everything_at_range_1_and_2_only() -> None:
    data = game(
        "^a" + "-" * 10,
        KEEPER,
        tracks=("T5", "T3", "T7", "T4"),
        threats=[ext("E1-09", 1, "white"), ext("E1-10", 1, "blue")],
    )
    m = mission_after(data, 2)
    hits = [(e["threat"], e["damage"]) for e in kinds(m, "threat_damage")]
    assert hits == [("E1-09", 1)]  # Amoeba at 10 (range 2) is hit; Meteoroid at 11 (range 3) is not


def test_1_ranges_are_five_spaces_each_and_the_rest() -> None:
    """§1: range 1 is the five spaces nearest the ship, range 2 the next five, range 3 the rest;
    RANGE_END (the weapons' reach) and distance() agree on every space of the longest track."""
    longest = max(t.length for t in board.TRACKS.values())
    assert [board.distance(s) for s in (1, 5, 6, 10, 11, longest)] == [1, 1, 2, 2, 3, 3]
    for r in (1, 2, 3):
        assert all((board.distance(s) <= r) == (s <= board.RANGE_END[r]) for s in range(1, longest + 1))


def test_3_3_lower_cannon_token_in_white_shrinks_the_pulse_range_to_1() -> None:
    def pulse_hits(tokens: dict[str, list[str]]) -> list[tuple[str, int]]:
        data = game("^a" + "-" * 10, KEEPER, tracks=("T5", "T3", "T7", "T4"), threats=[ext("E1-09", 1, "white")])
        m = mission_after({**data, "damage_tokens": tokens}, 1)
        damage_zone(m, "white", 1, "test")  # the first token of white's pile
        play_one_turn(m, 2)  # the Amoeba is at 10 (range 2) when the pulse cannon fires
        return [(e["threat"], e["damage"]) for e in kinds(m, "threat_damage")]

    assert pulse_hits({"white": ["structural"]}) == [("E1-09", 1)]
    assert pulse_hits({"white": ["lower_cannon"]}) == []


def test_3_3_upper_cannon_token_weakens_the_heavy_laser() -> None:
    data = game("a" + "-" * 11, KEEPER, threats=[ext("E1-05", 1, "white")], tokens={"white": ["upper_cannon"]})
    m = mission_after(data, 0)
    damage_zone(m, "white", 1, "test")
    play_one_turn(m, 1)
    assert m.threats[0].damage == (5 - 1) - 2


def test_3_3_lower_cannon_token_weakens_that_zones_light_laser_only() -> None:
    tokens = {"red": ["lower_cannon"], "blue": ["structural"]}
    data = game(
        "1a" + "-" * 10,  # heroic move to lower red, then its light laser
        "3a" + "-" * 10,  # heroic move to lower blue, then its light laser
        KEEPER,
        tracks=("T5", "T3", "T7", "T4"),
        threats=[ext("E1-01", 1, "red"), ext("E1-07", 1, "blue")],
    )
    m = mission_after({**data, "damage_tokens": tokens}, 0)
    damage_zone(m, "red", 1, "test")
    damage_zone(m, "blue", 1, "test")
    m = play(m, 2)
    fired = {e["threat"]: e["total"] for e in kinds(m, "threat_damage")}
    assert fired == {"E1-01": 2 - 1, "E1-07": 2}


def test_3_3_rocket_hits_in_the_next_turn_at_range_2() -> None:
    data = game("^>c" + "-" * 9, KEEPER, threats=[ext("E1-05", 1, "white")])
    m = mission_after(data, 3)
    assert m.threats[0].damage == 0 and m.ship.rockets == 2 and m.ship.rocket_in_flight
    play_one_turn(m, 4)
    assert m.threats[0].damage == 3 - 2
    assert not m.ship.rocket_in_flight


def test_3_3_rocket_without_a_target_in_range_is_lost() -> None:
    data = game("^>c" + "-" * 9, KEEPER, tracks=("T5", "T7", "T1", "T4"), threats=[ext("E1-05", 3, "white")])
    m = mission_after(data, 4)
    assert m.threats[0].damage == 0
    assert kinds(m, "no_target")[-1]["weapon"] == "rocket"
    assert m.ship.rockets == 2


# --- §3.4 Действия угроз -----------------------------------------------------------------------


def test_3_4_shield_absorbs_point_for_point_rest_is_damage() -> None:
    """Rulebook example: attack 4 against shield 3 -> shield emptied, 1 damage."""
    m = mission_after(game("-" * 12, threats=[ext("E1-01", 1, "white")]), 0)
    m.ship.shields["white"] = 3
    threat_attack(m, m.threats[0], ("white", 4, False, False))
    assert m.ship.shields["white"] == 0
    assert len(m.ship.damage["white"]) == 1


def test_3_4_internal_damage_ignores_shields() -> None:
    m = mission_after(game("-" * 12, threats=[inn("I1-01", 1)]), 0)
    threat_attack(m, m.threats[0], ("red", 2, False, False))
    assert m.ship.shields["red"] == 1
    assert len(m.ship.damage["red"]) == 2


def test_3_4_an_attack_that_ignores_shields_passes_a_full_shield() -> None:
    m = mission_after(game("-" * 12, threats=[ext("E1-01", 1, "blue")], tokens={"blue": ["structural", "lift"]}), 0)
    m.ship.shields["blue"] = 2
    threat_attack(m, m.threats[0], ("blue", 2, True, False))
    assert m.ship.shields["blue"] == 2
    assert len(m.ship.damage["blue"]) == 2


def test_3_4_seventh_damage_token_destroys_the_ship() -> None:
    res = resolve(game(KEEPER, tracks=("T1", "T3", "T2", "T4"), threats=[ext("SE2-06", 1, "red")]))
    assert res.outcome == "destroyed"
    assert res.lost is not None and (res.lost.turn, res.lost.cause) == (5, "zone red destroyed")
    assert res.score.total == 0 and res.score.threats == 0 and res.score.damage == 0
    assert res.damage["red"] == 7


def test_3_4_a_z_that_destroys_the_ship_names_the_threat() -> None:
    res = resolve(game(KEEPER, tracks=("T1", "T3", "T2", "T4"), threats=[ext("SE2-05", 1, "red")]))
    assert res.outcome == "destroyed"
    assert res.lost is not None and (res.lost.turn, res.lost.cause) == (3, "SE2-05")
    assert all(t.points == 0 for t in res.threats)


def test_3_4_letters_crossed_in_one_move_act_in_order() -> None:
    """Meteoroid (speed 5) on T6: turn 3 goes 5 -> 0, crossing Y (3) and then Z (1)."""
    data = game(KEEPER, tracks=("T6", "T3", "T1", "T4"), threats=[ext("E1-10", 1, "red")])
    m = mission_after(data, 3)
    letters = [(e["turn"], e["letter"]) for e in kinds(m, "threat_action")]
    assert letters == [(1, "X"), (2, "Y"), (3, "Y"), (3, "Z")]


def test_3_4_attacks_on_every_zone_go_red_white_blue() -> None:
    data = game(KEEPER, tracks=("T1", "T3", "T2", "T4"), threats=[ext("E1-01", 1, "white")])
    m = mission_after(data, 3)
    assert [e["zone"] for e in kinds(m, "attack")][:3] == ["red", "white", "blue"]


def test_3_4_same_number_internal_acts_before_external() -> None:
    """decision 13."""
    data = game(KEEPER, threats=[ext("E1-07", 1, "red"), inn("I1-01", 1)])
    m = mission_after(data, 1)
    movers = [e["threat"] for e in kinds(m, "threat_moved")]
    assert movers == ["I1-01", "E1-07"]


def test_3_4_threats_act_in_token_order() -> None:
    data = game(KEEPER, threats=[ext("E1-05", 3, "red"), ext("E1-07", 2, "blue")])
    m = mission_after(data, 3)
    assert [e["threat"] for e in kinds(m, "threat_moved") if e["turn"] == 3] == ["E1-07", "E1-05"]


# --- §3.6 turn 13 -------------------------------------------------------------------------------


def test_3_6_turn_12_rocket_hits_in_turn_13_and_threats_move_once_more() -> None:
    data = game("^>---------c", KEEPER, threats=[ext("E1-05", 8, "white")])
    res = resolve(data, log=True)
    assert res.log is not None
    hits = [e for e in res.log if e.turn == 13 and e.model_extra.get("kind") == "threat_damage"]
    assert hits and hits[0].model_extra["weapons"] == ["rocket"]
    assert res.threats[0].fate == "survived"  # its Z came in turn 13
    survived = [e for e in res.log if e.model_extra.get("kind") == "threat_survived"]
    assert survived[0].turn == 13


def test_3_6_a_pilot_in_space_returns_aboard_at_turn_13() -> None:
    g = Game.model_validate(game("<^c^c" + "x" * 7, KEEPER))
    m = build_mission(g)
    for turn in range(1, 13):
        play_one_turn(m, turn)
    assert m.crew[0].station == "space"
    final_turn(m)
    assert m.crew[0].station == "upper_red"


# --- §4 scoring -----------------------------------------------------------------------------------


def test_4_score_subtracts_every_penalty() -> None:
    """decision 6: damage, worst zone again, 2 per knocked out, 1 per disabled squad."""
    m = mission_after(game("-" * 12, "-" * 12), 0)
    m.crew[0].knocked_out = True
    m.crew[0].bots = "disabled"
    m.ship.depots["lower_red"] = "disabled"
    m.ship.damage["red"] = ["structural", "lift"]
    m.ship.damage["white"] = ["structural"]
    m.ship.observation_best = [2, 0, 4]
    parts = score(m)
    assert parts == {
        "threats": 0,
        "damage": -3,
        "worst_zone": -2,
        "knocked_out": -2,
        "battlebots": -2,
        "observation": 2 + 5,
        "total": -2,
    }


# --- damage tokens (decision 15) -------------------------------------------------------------


def test_damage_tokens_given_are_drawn_in_order_with_their_effects() -> None:
    tokens = {"red": ["shield", "reactor", "structural", "lift", "upper_cannon", "lower_cannon"]}
    m = mission_after(game(KEEPER, threats=[ext("E1-07", 5, "red")], tokens=tokens), 7)
    assert m.ship.damage["red"] == ["shield", "reactor"]
    assert m.ship.shield_cap["red"] == 1 and m.ship.reactor_cap["red"] == 2


def test_damage_token_reactor_loses_the_excess_energy() -> None:
    m = mission_after(game("-" * 12, tokens={"white": ["reactor"]}), 0)
    m.ship.reactors["white"] = 5
    damage_zone(m, "white", 1, "test")
    assert (m.ship.reactor_cap["white"], m.ship.reactors["white"]) == (4, 4)


def test_damage_tokens_are_a_seeded_shuffle() -> None:
    piles = {seed: mission_after(game("-" * 12, seed=seed), 0).ship.piles["red"] for seed in range(12)}
    assert piles[3] == mission_after(game("-" * 12, seed=3), 0).ship.piles["red"]
    assert len({tuple(p) for p in piles.values()}) > 1
    assert all(sorted(p) == sorted(piles[0]) for p in piles.values())


def test_ship_destroyed_is_raised_on_the_seventh_token() -> None:
    m = mission_after(game("-" * 12), 0)
    damage_zone(m, "blue", 6, "test")
    with pytest.raises(ShipDestroyed):
        damage_zone(m, "blue", 1, "test")


# --- determinism -----------------------------------------------------------------------------------


def test_same_game_and_seed_give_the_same_result() -> None:
    data = game("-^b^aaaaaa--", "<^c^-cxcxa--", threats=[ext("E1-02", 4, "blue"), inn("I2-01", 2)], seed=99)
    first = json.dumps(resolve(data, log=True).to_json_dict(with_log=True))
    second = json.dumps(resolve(data, log=True).to_json_dict(with_log=True))
    assert first == second


def test_7_1_scout_y_moves_only_other_external_threats() -> None:
    """Seed 001 §7.1 (Slovak): the Scout's Y advances all other *external* threats by one space.
    Scout on T3 does Y in turn 5; Gunship (T+2, red T5) is pushed 8 -> 7 then moves 7 -> 5;
    Hacked Shields (internal, T+1 on T7) is not pushed and stays at 6."""
    data = game(
        KEEPER,
        tracks=("T5", "T3", "T1", "T7"),
        tokens=HARMLESS_FIRST,
        threats=[ext("E2-02", 1, "white"), ext("E1-05", 2, "red"), inn("I1-05", 1)],
    )
    m = mission_after(data, 5)
    by_id = {t.card.id: t for t in m.threats}
    assert [e["letter"] for e in kinds(m, "threat_action") if e["threat"] == "E2-02"] == ["X", "Y"]
    assert by_id["E1-05"].position == 5
    assert by_id["I1-05"].position == 6
