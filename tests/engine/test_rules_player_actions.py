"""Rulebook §3.2 "Действия игроков": moves, delays, systems, battlebots, interceptors, heroics."""

from __future__ import annotations

from engine.resolution.crew_effects import delay
from engine.state import CrewMember, Mission
from tests.engine.helpers import ext, game, kinds, mission_after

KEEPER = "c--c---c----"  # keeps the computer maintained so no §3.5 delay interferes


def _crew(actions: str) -> tuple[Mission, CrewMember]:
    m = mission_after(game(actions), 0)
    return m, m.crew[0]


# --- Задержка (delay) ---------------------------------------------------------------------------


def test_3_2_delay_pushes_cards_right_and_the_last_falls_off() -> None:
    m, p = _crew("abxc^aaaaaaa")
    delay(m, p, 3, cause="computer")
    assert "".join(p.actions) == "ab-xc^aaaaaa"


def test_3_2_delay_stops_at_the_first_blank() -> None:
    m, p = _crew("abx-c^aaaaaa")
    delay(m, p, 3, cause="computer")
    assert "".join(p.actions) == "ab-xc^aaaaaa"


def test_3_2_delay_of_a_blank_turn_changes_nothing() -> None:
    m, p = _crew("ab-c^-------")
    delay(m, p, 3, cause="computer")
    assert "".join(p.actions) == "ab-c^-------"


def test_3_2_two_delays_in_the_same_turn_do_not_add_up() -> None:
    """Rulebook Slime note; decision 3."""
    m, p = _crew("abxc^aaaaaaa")
    delay(m, p, 3, cause="computer")
    delay(m, p, 3, cause="lift_busy")
    assert "".join(p.actions) == "ab-xc^aaaaaa"


def test_3_2_delays_in_consecutive_turns_each_count() -> None:
    m, p = _crew("abc^A-------")
    delay(m, p, 3, cause="computer")
    delay(m, p, 4, cause="lift_busy")
    assert "".join(p.actions) == "ab--c^A-----"


# --- moves ------------------------------------------------------------------------------------


def test_3_2_red_arrow_moves_one_station_and_stops_at_the_red_end() -> None:
    m = mission_after(game("<<" + "-" * 10, KEEPER), 2)
    assert m.crew[0].station == "upper_red"
    assert kinds(m, "no_effect")[0]["reason"] == "hull_end"


def test_3_2_blue_arrow_and_gravolift() -> None:
    m = mission_after(game(">^" + "-" * 10, KEEPER), 2)
    assert m.crew[0].station == "lower_blue"


def test_3_2_second_gravolift_user_in_a_turn_is_delayed() -> None:
    m = mission_after(game("^" + "-" * 11, "^b" + "-" * 10), 1)
    first, second = m.crew
    assert first.station == second.station == "lower_white"
    assert "".join(first.actions) == "^" + "-" * 11
    assert "".join(second.actions) == "^-b" + "-" * 9


def test_3_2_damaged_gravolift_delays_its_user() -> None:
    """Damage token 'lift' (decision 15): using that lift delays the next action."""
    m = mission_after(game("^b" + "-" * 10), 0)
    m.ship.damage["white"].append("lift")
    from engine.resolution.mission import play_one_turn

    play_one_turn(m, 1)
    assert "".join(m.crew[0].actions[:3]) == "^-b"


def test_3_2_heroic_move_goes_straight_there_without_a_lift() -> None:
    m = mission_after(game("^" + "-" * 11, "1" + "-" * 11), 1)
    assert m.crew[1].station == "lower_red"
    assert m.crew[1].delayed_turns == set()


# --- A: cannons ------------------------------------------------------------------------------


def test_3_2_heavy_laser_takes_one_energy_and_fires_once_per_turn() -> None:
    m = mission_after(game("a" + "-" * 11, "a" + "-" * 11, KEEPER), 1)
    assert m.ship.reactors["white"] == 2
    assert len(kinds(m, "fire")) == 1


def test_3_2_heavy_laser_without_reactor_energy_does_nothing() -> None:
    m = mission_after(game("<aaa" + "-" * 8, KEEPER), 4)
    assert m.ship.reactors["red"] == 0
    assert len(kinds(m, "fire")) == 2
    assert kinds(m, "no_effect")[0]["reason"] == "no_energy"


def test_3_2_light_laser_uses_its_own_battery() -> None:
    m = mission_after(game("^<a" + "-" * 9, KEEPER), 3)
    assert m.ship.reactors["red"] == 2
    assert [e["station"] for e in kinds(m, "fire")] == ["lower_red"]


# --- B: energy -----------------------------------------------------------------------------------


def test_3_2_shield_fills_to_capacity_from_its_reactor() -> None:
    m = mission_after(game("b" + "-" * 11, KEEPER), 1)
    assert m.ship.shields["white"] == 3
    assert m.ship.reactors["white"] == 1


def test_3_2_shield_takes_what_the_reactor_has() -> None:
    m = mission_after(game("<ab" + "-" * 9, KEEPER), 3)  # red reactor 2 -> 1 after the shot
    assert m.ship.shields["red"] == 2
    assert m.ship.reactors["red"] == 0


def test_3_2_heroic_b_adds_one_past_capacity_only_if_something_moved() -> None:
    m = mission_after(game("BB" + "-" * 10, KEEPER), 2)
    assert m.ship.shields["white"] == 4  # 2 moved + 1; the second B moves nothing, adds nothing
    assert m.ship.reactors["white"] == 1
    assert [e["heroic_bonus"] for e in kinds(m, "energy")] == [1]
    # the second B's card still shows in the log, saying why it did nothing
    assert [(e["action"], e["reason"]) for e in kinds(m, "no_effect")] == [("B", "already_full")]


def test_3_2_a_b_from_an_empty_reactor_says_why_it_did_nothing() -> None:
    m = mission_after(game("<aab" + "-" * 8, KEEPER), 4)  # two shots empty the red reactor; the shield has room
    assert kinds(m, "energy") == []
    assert [(e["player"], e["action"], e["reason"]) for e in kinds(m, "no_effect")] == [("P0", "B", "no_energy")]


def test_3_2_side_reactor_fills_from_the_central_reactor() -> None:
    m = mission_after(game("^<b" + "-" * 9, KEEPER), 3)
    assert m.ship.reactors["red"] == 3
    assert m.ship.reactors["white"] == 2


def test_3_2_refuelling_spends_a_capsule_even_when_full() -> None:
    m = mission_after(game("^bb" + "-" * 9, KEEPER), 3)
    assert m.ship.reactors["white"] == 5
    assert m.ship.fuel == 1


def test_3_2_heroic_refuelling_adds_one_more() -> None:
    m = mission_after(game("^B" + "-" * 10, KEEPER), 2)
    assert m.ship.reactors["white"] == 6
    assert m.ship.fuel == 2


# --- C: specials -------------------------------------------------------------------------------


def test_3_2_battlebots_pick_up_once_per_depot() -> None:
    m = mission_after(game("^<c" + "-" * 9, "^<c" + "-" * 9, KEEPER), 3)
    assert m.crew[0].bots == "active"
    assert m.crew[1].bots is None
    assert m.ship.depots["lower_red"] is None


def test_3_2_battlebots_c_reactivates_a_disabled_squad() -> None:
    m = mission_after(game(">c-c" + "-" * 8, KEEPER), 2)
    m.crew[0].bots = "disabled"
    from engine.resolution.mission import play_one_turn

    play_one_turn(m, 3)
    play_one_turn(m, 4)
    assert m.crew[0].bots == "active"


def test_3_2_rocket_one_per_turn_and_three_aboard() -> None:
    m = mission_after(game("^>c" + "-" * 9, "^>c" + "-" * 9, KEEPER), 3)
    assert m.ship.rockets == 2
    assert len(kinds(m, "rocket_launched")) == 1


def test_3_2_visual_confirmation_counts_the_best_turn_per_phase() -> None:
    """decision 5: 1 observer 1 point, 2 -> 2, 3 -> 3, 4 -> 5, 5 -> 7."""
    from engine import resolve

    res = resolve(game("^-c" + "-" * 9, "^-c" + "-" * 9, "^-c" + "-" * 9, "^-c" + "-" * 9, KEEPER))
    assert res.observation == [5, 0, 0]  # 4 observers in turn 3
    assert res.score.observation == 5


def test_3_2_computer_maintained_in_the_first_two_turns_prevents_the_delay() -> None:
    m = mission_after(game("-c" + "a" * 10), 3)
    assert kinds(m, "computer_ok")[0]["phase"] == 1
    assert "".join(m.crew[0].actions[:3]) == "-ca"


def test_3_5_computer_maintained_too_late_delays_everyone_aboard() -> None:
    """§3.5 / decision 2: maintenance in turn 3 is too late for phase 1."""
    m = mission_after(game("--c" + "-" * 9, "a" * 12), 3)
    assert kinds(m, "computer_not_maintained")[0]["phase"] == 1
    assert "".join(m.crew[0].actions[:4]) == "---c"
    assert m.crew[1].delayed_turns == {3}


# --- interceptors ---------------------------------------------------------------------------------


def test_3_2_interceptors_need_active_battlebots() -> None:
    m = mission_after(game("<c" + "-" * 10, KEEPER), 2)
    assert m.crew[0].station == "upper_red"
    assert kinds(m, "no_effect")[0]["reason"] == "no_active_bots"


def test_3_2_interceptors_single_target_takes_three_then_stay_out_with_battlebots() -> None:
    data = game("<^c^cx" + "-" * 6, KEEPER, tracks=("T1", "T3", "T2", "T4"), threats=[ext("E1-09", 2, "red")])
    m = mission_after(data, 5)
    amoeba = m.threats[0]
    assert m.crew[0].station == "space"
    assert amoeba.damage == 3
    m = mission_after(data, 6)
    assert m.threats[0].damage == 6  # 8 health: it survives, doing Z the same turn
    assert m.threats[0].fate == "survived"


def test_3_2_heroic_battlebots_in_space_give_the_interceptors_plus_one() -> None:
    """§3.2 "Героическая атака боевых роботов": in space the interceptors deal +1 (3 -> 4)."""
    data = game("<^c^cX" + "-" * 6, KEEPER, tracks=("T1", "T3", "T2", "T4"), threats=[ext("E1-09", 2, "red")])
    m = mission_after(data, 6)
    assert m.threats[0].damage == 3 + 4


def test_3_2_interceptors_several_targets_take_one_each() -> None:
    data = game(
        "<^c^c" + "-" * 7,
        KEEPER,
        tracks=("T1", "T2", "T3", "T4"),
        threats=[ext("E1-09", 2, "red"), ext("E1-09", 2, "white")],
    )
    m = mission_after(data, 5)
    assert [t.position for t in m.threats] == [2, 3]  # after moving; both were at range 1
    assert [t.damage for t in m.threats] == [1, 1]


def test_3_2_blank_in_space_returns_the_pilot_other_cards_are_delayed() -> None:
    m = mission_after(game("<^c^c-a" + "-" * 5, KEEPER), 6)
    assert m.crew[0].station == "upper_red"
    assert m.ship.in_space is None
    m = mission_after(game("<^c^cab" + "-" * 5, KEEPER), 6)
    assert m.crew[0].station == "upper_red"
    assert "".join(m.crew[0].actions[4:8]) == "c-ab"


def test_3_2_players_in_space_are_not_delayed_by_the_computer() -> None:
    m = mission_after(game("<^c^cx" + "-" * 6, "c" + "-" * 11), 5)
    assert m.crew[0].station == "space"
    assert 6 not in m.crew[0].delayed_turns
    assert 6 in m.crew[1].delayed_turns


# --- heroic actions ------------------------------------------------------------------------------


def test_3_2_heroic_a_adds_one_damage() -> None:
    data = game("A" + "-" * 11, KEEPER, threats=[ext("E1-05", 1, "white")])
    m = mission_after(data, 1)
    hit = kinds(m, "threat_damage")[0]
    assert hit["total"] == 6 and hit["damage"] == 4


def test_3_2_heroic_pulse_cannon_adds_one_damage_to_each_target() -> None:
    data = game(
        "^A" + "-" * 10,
        KEEPER,
        tracks=("T1", "T1", "T1", "T4"),
        threats=[ext("E1-09", 1, "red"), ext("E1-09", 1, "blue")],
    )
    m = mission_after(data, 2)
    assert [t.damage for t in m.threats] == [2, 2]


def test_3_2_knocked_out_crew_do_nothing() -> None:
    m = mission_after(game("a" * 12, KEEPER), 0)
    m.crew[0].knocked_out = True
    from engine.resolution.mission import play_one_turn

    play_one_turn(m, 1)
    assert m.ship.reactors["white"] == 3
    # the card is not played, and the log says so (issue 24: the captain's log shows every card)
    assert [(e["action"], e["reason"]) for e in kinds(m, "no_effect")] == [("a", "knocked_out")]
