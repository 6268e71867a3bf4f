"""The traced example games of docs/rules.md ("Traced games"), end to end, with the
project's decisions (decision 6: the score includes every penalty)."""

from __future__ import annotations

from engine import resolve
from engine.model import Game
from engine.resolution.mission import build_mission, play_one_turn
from tests.engine.helpers import ext, game, inn


def test_case1_just_a_fighter_no_actions() -> None:
    """Traced game 1: X absorbed by the red shield, Y 2, Z 3 -> 5 red; 2 points - 5 - 5 worst zone."""
    res = resolve(game("-" * 12, threats=[ext("E1-07", 5, "red")]))
    assert res.outcome == "survived"
    assert res.damage == {"red": 5, "white": 0, "blue": 0}
    assert [t.fate for t in res.threats] == ["survived"]
    assert res.score.threats == 2
    assert res.score.total == 2 - 5 - 5


def test_case2_six_basic_threats() -> None:
    """Traced game 2: Fissure repaired by interceptors, Nuclear Device by three C in one turn,
    computer missed in phase 3.  Threat points 30; penalties 10 damage + 4 worst zone."""
    data = game(
        "-^b^aaaaaa--",
        "<^c^-cxcxa--",
        "-c--c^c-----",
        "^-----c-----",
        "-^----c-----",
        tracks=("T2", "T3", "T1", "T4"),
        threats=[
            ext("E1-02", 4, "blue"),
            ext("E1-07", 5, "red"),
            ext("E1-07", 6, "white"),
            inn("I1-01", 4),
            inn("SI1-04", 2),
            inn("SI2-05", 6),
        ],
    )
    res = resolve(data)
    assert res.outcome == "survived"
    assert res.damage == {"red": 3, "white": 3, "blue": 4}
    fates = {(t.id, t.turn): t.fate for t in res.threats}
    assert fates == {
        ("E1-02", 4): "survived",
        ("E1-07", 5): "survived",
        ("E1-07", 6): "destroyed",
        ("I1-01", 4): "survived",
        ("SI1-04", 2): "destroyed",
        ("SI2-05", 6): "destroyed",
    }
    assert res.score.threats == 30
    assert res.score.total == 30 - 10 - 4


def test_case3_red_slime_single_player_t1() -> None:
    """Traced game 3: slime X disables the stored lower-red squad, Z attacks 2 red; -1 for the squad."""
    res = resolve(game("c--c---c----", tracks=("T1", "T2", "T3", "T1"), threats=[inn("I2-02", 3)]))
    assert res.damage == {"red": 2, "white": 0, "blue": 0}
    assert res.threats[0].fate == "survived"
    assert res.knocked_out == []
    assert res.disabled_battlebots == 1
    assert res.score.threats == 3
    assert res.score.total == 3 - 2 - 2 - 1


def test_case4_red_slime_spreading_twice_t6() -> None:
    """Traced game 4: progeny in lower white at the first Y; at the second Y the parent is blocked but
    the progeny spreads to lower blue; three tokens attack at Z."""
    res = resolve(game("c--c---c----", tracks=("T1", "T2", "T3", "T6"), threats=[inn("I2-02", 3)]))
    assert res.damage == {"red": 2, "white": 2, "blue": 2}
    assert res.threats[0].fate == "survived"
    assert res.score.total == 3 - 6 - 2 - 1


def test_case4_variant_t4() -> None:
    res = resolve(game("c--c---c----", tracks=("T1", "T2", "T3", "T4"), threats=[inn("I2-02", 3)]))
    assert res.damage == {"red": 2, "white": 2, "blue": 0}
    assert res.score.threats == 3


def test_case5_interceptor_station_turns_1_to_5_and_invalid_action_in_space() -> None:
    """Traced game 5, base rules only (decision 4): a C in space returns the pilot and is
    delayed, so he launches again from upper red one turn later."""
    g = Game.model_validate(game("<^c^cc>^----", "c--c---c----", tracks=("T1", "T2", "T3", "T4")))
    m = build_mission(g)
    stations = []
    for turn in range(1, 13):
        play_one_turn(m, turn)
        stations.append(m.crew[0].station)
    assert stations[:5] == ["upper_red", "lower_red", "lower_red", "upper_red", "space"]
    assert stations[5:] == [
        "upper_red",
        "space",
        "upper_red",
        "upper_white",
        "lower_white",
        "lower_white",
        "lower_white",
    ]


def test_llks10_standard_mission_score_41() -> None:
    """Traced game: LLks10's full base mission, penalty-inclusive score 41."""
    data = game(
        "^cb>cc>-c<-c",
        "bx-c<aa-^->c",
        "c>aa--<b^--c",
        ">-cxcx<xa^c-",
        tracks=("T7", "T6", "T4", "T3"),
        threats=[
            ext("E1-09", 1, "blue"),
            ext("SE2-03", 3, "red"),
            inn("SI2-01", 4),
            ext("E1-06", 5, "white"),
            ext("E1-01", 7, "red"),
            ext("E2-02", 8, "white"),
        ],
    )
    res = resolve(data)
    assert res.outcome == "survived"
    assert res.score.total == 41
