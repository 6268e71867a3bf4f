"""The 24 base-game internal threat cards: X, Y, Z and the appendix special rule of each.

Card values: engine/data/threats.json; decisions and rulebook sections: docs/rules.md
(decision N).  Rulebook = the Russian edition: §3.2 player
actions (repair, battlebots, "стреляет в ответ"), §3.4 threat actions ("Наносит x повреждений" of
internal threats ignores shields; "без сознания"; "задерживаются"), §7.2 appendix.

Internal track T5 (14, X 11, Y 7) unless said otherwise; appearing in turn 1:
speed 2 -> X turn 2, Y turn 4, Z turn 7;  speed 3 -> X 1, Y 3, Z 5;  speed 4 -> X 1, Y 2, Z 4.
"""

from __future__ import annotations

import pytest

from engine.state import ShipDestroyed
from tests.engine.threat_helpers import (
    dmg,
    events,
    ext,
    game,
    inn,
    knocked_out,
    letters,
    play,
    player,
    reactors,
    run,
    shields,
    start,
    threat,
)

# --- I1: common white -------------------------------------------------------------------------------


def test_I1_01_skirmishers_move_blue_change_deck_attack_3() -> None:
    """Card data: Skirmishers (upper red, speed 3): X toward blue, Y change deck, Z 3 in its zone;
    §3.4: internal damage ignores shields."""
    m = start(game([inn("I1-01", 1)]))
    play(m, 1)
    assert threat(m, "I1-01").station == "upper_white"
    play(m, 3)
    assert threat(m, "I1-01").station == "lower_white"
    play(m, 5)
    assert dmg(m) == (0, 3, 0) and shields(m) == (1, 1, 1)


def test_I1_01_skirmishers_return_fire_disables_the_squad() -> None:
    """§3.2 "Атака с отрядом боевых роботов": an intruder that returns fire disables the attacking
    squad (also when the hit destroys it)."""
    m = start(game([inn("I1-01", 4)], "1c^x" + "-" * 8, keeper=True))
    play(m, 4)
    assert threat(m, "I1-01").fate == "destroyed"
    assert player(m, "P0").bots == "disabled"


def test_I1_02_skirmishers_move_red_change_deck_attack_3() -> None:
    """Card data: Skirmishers (upper blue): X toward red, Y change deck, Z attack 3."""
    m = start(game([inn("I1-02", 1)]))
    play(m, 1)
    assert threat(m, "I1-02").station == "upper_white"
    play(m, 3)
    assert threat(m, "I1-02").station == "lower_white"
    play(m, 5)
    assert dmg(m) == (0, 3, 0)


def test_I1_02_skirmishers_heroic_battlebots_are_not_disabled() -> None:
    """§3.2 heroic battlebots: even if the intruder returns fire the squad is not disabled."""
    m = start(game([inn("I1-02", 3)], ">cX" + "-" * 9, keeper=True))
    play(m, 3)
    assert threat(m, "I1-02").fate == "destroyed"
    assert player(m, "P0").bots == "active"


def test_I1_03_saboteur_moves_blue_drains_reactor_attacks_2() -> None:
    """Card data: Saboteur (lower white, speed 4): X toward blue, Y its zone's reactor loses 1,
    Z attack 2."""
    m = start(game([inn("I1-03", 1)]))
    play(m, 1)
    assert threat(m, "I1-03").station == "lower_blue"
    play(m, 2)
    assert reactors(m) == (2, 3, 1) and dmg(m) == (0, 0, 0)
    play(m, 4)
    assert dmg(m) == (0, 0, 2)


def test_I1_03_saboteur_does_not_return_fire() -> None:
    """Card data: Saboteur: no return fire -> the squad stays active after the hit (§3.2)."""
    m = start(game([inn("I1-03", 4)], "1c>x" + "-" * 8, keeper=True))
    play(m, 4)
    assert threat(m, "I1-03").fate == "destroyed"
    assert player(m, "P0").bots == "active"


def test_I1_04_saboteur_moves_red_drains_reactor_attacks_2() -> None:
    """Card data: Saboteur (lower white): X toward red, Y red reactor -1, Z attack 2."""
    m = start(game([inn("I1-04", 1)]))
    play(m, 1)
    assert threat(m, "I1-04").station == "lower_red"
    play(m, 2)
    assert reactors(m) == (1, 3, 2)
    play(m, 4)
    assert dmg(m) == (2, 0, 0)


def test_I1_04_saboteur_attacks_1_when_the_reactor_is_empty() -> None:
    """Card data: Saboteur Y: "if it had none, attack 1 instead".  T+2: X t2, Y t3, Z t5; the red
    heavy laser empties the red reactor in turns 2 and 3 (energy is spent even without a target)."""
    m = start(game([inn("I1-04", 2)], "<aa" + "-" * 9, keeper=True))
    play(m, 3)
    assert reactors(m)[0] == 0
    assert dmg(m) == (1, 0, 0) and shields(m)[0] == 1
    play(m, 5)
    assert dmg(m) == (3, 0, 0)


def test_I1_05_hacked_shields_blue_x_shield_y_reactor_z2() -> None:
    """Card data: Hacked Shields (upper blue): X blue shield emptied, Y blue reactor emptied, Z 2."""
    m = start(game([inn("I1-05", 1)]))
    play(m, 2)
    assert shields(m) == (1, 1, 0)
    play(m, 4)
    assert reactors(m) == (2, 3, 0)
    play(m, 7)
    assert dmg(m) == (0, 0, 2)


def test_I1_05_hacked_shields_b_repairs_instead_of_transferring() -> None:
    """§3.2 "Запуск системы или ремонт": B on the malfunctioning shield repairs it (1 cube) and moves
    no energy; three repairs destroy it before its Y."""
    m = start(game([inn("I1-05", 1)], ">bbb" + "-" * 8, keeper=True))
    play(m, 2)
    assert threat(m, "I1-05").damage == 1 and reactors(m)[2] == 2
    play(m, 4)
    assert threat(m, "I1-05").fate == "destroyed" and reactors(m)[2] == 2
    play(m, 7)
    assert dmg(m) == (0, 0, 0)


def test_I1_06_hacked_shields_red_x_shield_y_reactor_z2() -> None:
    """Card data: Hacked Shields (upper red): X red shield emptied, Y red reactor emptied, Z 2."""
    m = start(game([inn("I1-06", 1)]))
    play(m, 2)
    assert shields(m) == (0, 1, 1)
    play(m, 4)
    assert reactors(m) == (0, 3, 2)
    play(m, 7)
    assert dmg(m) == (2, 0, 0)


def test_I1_06_hacked_shields_system_stays_broken_after_z() -> None:
    """§3.4: after a malfunction's Z its oval token stays and the system cannot be repaired; §3.2: the
    action then has no effect.  Red reactor refilled in t8, B in upper red in t9 moves nothing."""
    m = start(game([inn("I1-06", 1)], "<" + "-" * 7 + "b---", "1" + "-" * 6 + "b----"))
    play(m, 9)
    assert threat(m, "I1-06").fate == "survived"
    assert reactors(m)[0] == 3 and shields(m)[0] == 0


def test_I1_06_a_new_malfunction_on_a_system_broken_for_good_is_repaired_there() -> None:
    """§3.2 "ремонт" and §3.4: the first Hacked Shields (red) reaches Z in turn 7 and breaks upper
    red's B for good; a second one appears in turn 8 on the same system.  B there repairs the new
    malfunction (3 repairs, turns 9-11); once it is gone, B in turn 12 does nothing."""
    m = start(game([inn("I1-06", 1), inn("I1-06", 8)], "<" + "-" * 7 + "bbbb", keeper=True))
    play(m, 8)
    first, second = threat(m, "I1-06", 0), threat(m, "I1-06", 1)
    assert first.fate == "survived" and second.present
    play(m, 11)
    assert second.fate == "destroyed" and second.fate_turn == 11
    assert [e["turn"] for e in events(m, "threat_hit", threat="I1-06")] == [9, 10, 11]
    play(m, 12)
    assert [e["turn"] for e in events(m, "no_effect", reason="system_broken")] == [12]
    assert not events(m, "energy", player="P0")


def test_two_malfunctions_on_one_system_the_lowest_number_is_repaired_first() -> None:
    """§3.2 "ремонт": Power System Overload (T+1) and Overheated Reactor (T+2) both cover lower
    white's B; B there in turn 2 repairs the one with the lower number, and refuels nothing."""
    m = start(game([inn("SI2-03", 1), inn("I2-06", 2)], "^b" + "-" * 10, keeper=True))
    play(m, 2)
    assert threat(m, "SI2-03").damage == 1 and threat(m, "I2-06").damage == 0
    assert not events(m, "refuel")


def test_I1_07_unstable_warheads_health_is_rockets_aboard() -> None:
    """§7.2 Нестабильные боеголовки / decision 10: one health per rocket aboard when it appears (the rocket
    in flight does not count); Z 3 x remaining health in blue.  Rocket fired t2, T+3: Z turn 7."""
    m = start(game([inn("I1-07", 3)], "3c" + "-" * 10, keeper=True))
    play(m, 3)
    assert threat(m, "I1-07").health == 2
    play(m, 7)
    assert letters(m, "I1-07") == [(3, "X"), (5, "Y"), (7, "Z")]
    assert dmg(m) == (0, 0, 6)


def test_I1_07_unstable_warheads_c_in_lower_blue_repairs() -> None:
    """decision 10: while present, C in lower blue repairs it instead of firing: Z 3 x (2 - 1) = 3."""
    m = start(game([inn("I1-07", 3)], "3c-c" + "-" * 8, keeper=True))
    play(m, 4)
    assert threat(m, "I1-07").damage == 1 and m.ship.rockets == 2
    play(m, 7)
    assert dmg(m) == (0, 0, 3)


def test_I1_07_unstable_warheads_destroyed_at_once_without_rockets() -> None:
    """§7.2: no rockets aboard when it appears -> destroyed at once, the captain takes the card."""
    res = run(game([inn("I1-07", 5)], "3ccc" + "-" * 8, keeper=True))
    assert res.threats[0].fate == "destroyed" and res.threats[0].points == 4
    assert res.damage == {"red": 0, "white": 0, "blue": 0}


def test_I1_07_unstable_warheads_lose_health_when_slime_destroys_a_rocket() -> None:
    """§7.2 Слизь: the blue slime's destroyed rocket lowers the warheads' health (decision 10).
    Warheads T+1 (health 3, Z turn 5), blue Slime T+1 X turn 2 -> Z 3 x 2 = 6."""
    m = start(game([inn("I1-07", 1), inn("I2-01", 1)]))
    play(m, 2)
    assert m.ship.rockets == 2 and threat(m, "I1-07").health == 2
    play(m, 5)
    assert dmg(m) == (0, 0, 6)


# --- SI1: serious white -----------------------------------------------------------------------------


def test_SI1_01_commandos_undamaged_attack_and_z_knocks_out() -> None:
    """Card data: Commandos (lower red): X change deck, Y (undamaged) attack 2, Z attack 4 and
    knock out everyone in its station."""
    m = start(game([inn("SI1-01", 1)], "<" + "-" * 11))
    play(m, 2)
    assert threat(m, "SI1-01").station == "upper_red"
    play(m, 4)
    assert dmg(m) == (2, 0, 0)
    play(m, 7)
    assert dmg(m) == (6, 0, 0) and knocked_out(m) == {"P0": 7}


def test_SI1_01_commandos_damaged_move_blue_and_return_fire() -> None:
    """Card data: Commandos Y: if damaged it moves toward blue instead of attacking; it returns
    fire (§3.2).  T+2: X t3 (upper red), Y t5 -> upper white, Z t8 there."""
    m = start(game([inn("SI1-01", 2)], "c1c^x" + "-" * 7))
    play(m, 5)
    assert threat(m, "SI1-01").damage == 1 and threat(m, "SI1-01").station == "upper_white"
    assert player(m, "P0").bots == "disabled" and dmg(m) == (0, 0, 0)
    play(m, 8)
    assert dmg(m) == (0, 4, 0) and knocked_out(m) == {}


def test_SI1_02_commandos_blue_side() -> None:
    """Card data: Commandos (upper blue): X change deck, Y attack 2, Z attack 4 + knock-out."""
    m = start(game([inn("SI1-02", 1)], "3" + "-" * 11))
    play(m, 2)
    assert threat(m, "SI1-02").station == "lower_blue"
    play(m, 4)
    assert dmg(m) == (0, 0, 2)
    play(m, 7)
    assert dmg(m) == (0, 0, 6) and knocked_out(m) == {"P0": 7}


def test_SI1_03_alien_grows_y_attacks_by_players_z_destroys_ship() -> None:
    """Card data: Alien (lower white): Y change deck then attack = players in its new station;
    Z: the ship is destroyed (§3.4)."""
    data = game([inn("SI1-03", 1)], "-" * 12, "-" * 12)
    m = start(data)
    play(m, 2)
    assert threat(m, "SI1-03").grown_up
    play(m, 4)
    assert threat(m, "SI1-03").station == "upper_white" and dmg(m) == (0, 2, 0)
    with pytest.raises(ShipDestroyed):
        play(m, 7)
    res = run(data)
    assert res.outcome == "destroyed" and res.lost is not None and res.lost.turn == 7


def test_SI1_03_alien_returns_fire_only_after_x() -> None:
    """§7.2 Чужой / decision 12: before its X it does not disable attacking battlebots, afterwards it does.
    T+3: X in turn 4 (after the turn-4 hit)."""
    m = start(game([inn("SI1-03", 3)], "1c>xx" + "-" * 7, keeper=True))
    play(m, 4)
    assert threat(m, "SI1-03").damage == 1 and player(m, "P0").bots == "active"
    play(m, 5)
    assert threat(m, "SI1-03").fate == "destroyed" and player(m, "P0").bots == "disabled"


def test_SI1_04_fissure_doubles_red_then_everything() -> None:
    """§7.2 Пробоина: after X every damage to red counts twice, after Y to every zone.
    Fissure T+1 (X t2, Y t4).  Fighters: red T+1 and white T+1 (Y t3), blue T+2 (Y t4, after the
    Fissure's Y: internal first, decision 13)."""
    m = start(game([inn("SI1-04", 1), ext("E1-07", 1, "red"), ext("E1-07", 1, "white"), ext("E1-07", 2, "blue")]))
    play(m, 4)
    assert dmg(m) == (4, 2, 4)


def test_SI1_04_fissure_z_destroys_the_ship() -> None:
    """Card data: Fissure Z: the ship is destroyed."""
    res = run(game([inn("SI1-04", 1)]))
    assert res.outcome == "destroyed" and res.lost is not None and res.lost.turn == 7


def test_SI1_04_fissure_repaired_by_two_interceptor_attacks() -> None:
    """§7.2 Пробоина: two interceptor attacks (launch turn included) repair it; while it is open the
    interceptors do not attack external threats; once repaired damage is no longer doubled
    (Amoeba red T1 T+2 at range 1 in turns 5-6, Z 5 in turn 6: 4 tokens, not 8)."""
    m = start(game([inn("SI1-04", 1), ext("E1-09", 2, "red")], ">c<<cx" + "-" * 6, keeper=True, red="T1"))
    play(m, 5)
    assert threat(m, "SI1-04").damage == 1 and threat(m, "E1-09").damage == 0
    play(m, 6)
    assert threat(m, "SI1-04").fate == "destroyed" and threat(m, "E1-09").damage == 0
    assert m.ship.multiplier == {"red": 1, "white": 1, "blue": 1}
    assert dmg(m) == (4, 0, 0)


def test_SI1_05_crossed_wires_x_y_z() -> None:
    """Card data: Crossed Wires (upper white, speed 3): X central reactor -> central shield, the
    excess hurts white; Y the central shield empties, 1 damage per unit; Z every reactor empties,
    each zone takes its reactor's energy as damage."""
    m = start(game([inn("SI1-05", 1)]))
    play(m, 1)
    assert shields(m) == (1, 3, 1) and reactors(m) == (2, 0, 2) and dmg(m) == (0, 1, 0)
    play(m, 3)
    assert shields(m) == (1, 0, 1) and dmg(m) == (0, 4, 0)
    play(m, 5)
    assert reactors(m) == (0, 0, 0) and dmg(m) == (2, 4, 2)


def test_SI1_05_crossed_wires_repaired_with_b_in_upper_white() -> None:
    """§3.2 heroic repair: 2 cubes; B in upper white repairs it -> destroyed in turn 2, no Y."""
    m = start(game([inn("SI1-05", 1)], "BB" + "-" * 10, keeper=True))
    play(m, 1)
    assert threat(m, "SI1-05").damage == 2
    play(m, 3)
    assert threat(m, "SI1-05").fate == "destroyed"
    assert dmg(m) == (0, 1, 0) and shields(m)[1] == 3


def test_SI1_06_battlebot_uprising_knock_outs() -> None:
    """§7.2 Восстание боевых роботов / decision 9: X knocks out squad leaders aboard, Y everyone in upper blue
    and lower red, Z everyone aboard except in upper white.  T+3: X t4, Y t6, Z t9."""
    data = game([inn("SI1-06", 3)], ">c" + "-" * 10, "1" + "-" * 11, "2" + "-" * 11, keeper=True)
    m = start(data)
    play(m, 4)
    assert knocked_out(m) == {"P0": 4}
    play(m, 6)
    assert knocked_out(m) == {"P0": 4, "P1": 6}
    play(m, 9)
    assert knocked_out(m) == {"P0": 4, "P1": 6, "P2": 9}


def test_SI1_06_battlebot_uprising_both_stations_same_turn_bonus() -> None:
    """§7.2: C in both stations in the same turn -> 1 extra cube at the end of the actions step."""
    m = start(game([inn("SI1-06", 1)], ">cc" + "-" * 9, "1c" + "-" * 10, keeper=True))
    play(m, 2)
    assert threat(m, "SI1-06").damage == 3
    play(m, 3)
    assert threat(m, "SI1-06").fate == "destroyed"


def test_SI1_06_battlebot_uprising_x_hits_disabled_squads_but_not_the_pilot_in_space() -> None:
    """§7.2 Восстание боевых роботов / decision 9: X knocks out players leading squads, active or disabled,
    except those in space.  P0's squad was disabled by the Skirmishers' return fire in turn 4; P1
    launches the interceptors in turn 5, when the Uprising (T+4) does its X."""
    data = game([inn("I1-01", 4), inn("SI1-06", 4)], "1c^x" + "-" * 8, ">c<<c" + "-" * 7, keeper=True)
    m = start(data)
    play(m, 4)
    assert player(m, "P0").bots == "disabled"
    play(m, 5)
    assert knocked_out(m) == {"P0": 5} and player(m, "P1").station == "space"


# --- I2: common yellow ------------------------------------------------------------------------------


def test_I2_01_slime_blue_destroys_rocket_spreads_red_attacks() -> None:
    """§7.2 Слизь (lower blue): X destroys a rocket, Y spreads toward red (lower
    white), Z each slime token attacks 2 in its zone; entering a slimed station delays your next
    action (heroic move into lower blue in turn 5)."""
    m = start(game([inn("I2-01", 1)], "----3c" + "-" * 6, keeper=True))
    play(m, 2)
    assert m.ship.rockets == 2
    play(m, 4)
    assert [tok[0] for tok in threat(m, "I2-01").slime] == ["lower_blue", "lower_white"]
    play(m, 5)
    assert "".join(player(m, "P0").actions) == "----3-c-----"
    play(m, 7)
    assert dmg(m) == (0, 2, 2)


def test_I2_02_slime_red_acceptance_case_3_and_4() -> None:
    """Traced games 3 and 4: red Slime T+3, one computer keeper.  Internal T1: red 2, stored
    lower-red squad disabled, survived.  Internal T6: spreads twice (the parent's 2nd Y is blocked,
    the progeny's Y reaches lower blue): 2 in every zone."""
    res = run(game([inn("I2-02", 3)], "c--c---c----", internal="T1"))
    assert res.damage == {"red": 2, "white": 0, "blue": 0}
    assert res.disabled_battlebots == 1 and res.threats[0].fate == "survived" and res.knocked_out == []
    res = run(game([inn("I2-02", 3)], "c--c---c----", internal="T6"))
    assert res.damage == {"red": 2, "white": 2, "blue": 2} and res.threats[0].fate == "survived"


def test_I2_02_slime_progeny_dies_to_one_hit_without_hurting_the_parent() -> None:
    """§7.2: a progeny has 1 health; battlebots removing it do not damage the parent."""
    m = start(game([inn("I2-02", 1)], ">c<^x" + "-" * 7, keeper=True))
    play(m, 2)
    assert m.ship.depots["lower_red"] == "disabled"
    play(m, 5)
    assert threat(m, "I2-02").slime == [["lower_red", 2, True]] and threat(m, "I2-02").damage == 0
    play(m, 7)
    assert dmg(m) == (2, 0, 0)


def test_I2_03_troopers_change_deck_move_blue_attack_4() -> None:
    """Card data: Troopers (upper red): X change deck, Y toward blue, Z attack 4."""
    m = start(game([inn("I2-03", 1)]))
    play(m, 2)
    assert threat(m, "I2-03").station == "lower_red"
    play(m, 4)
    assert threat(m, "I2-03").station == "lower_white"
    play(m, 7)
    assert dmg(m) == (0, 4, 0)


def test_I2_04_troopers_change_deck_move_red_attack_4() -> None:
    """Card data: Troopers (lower blue): X change deck, Y toward red, Z attack 4."""
    m = start(game([inn("I2-04", 1)]))
    play(m, 2)
    assert threat(m, "I2-04").station == "upper_blue"
    play(m, 4)
    assert threat(m, "I2-04").station == "upper_white"
    play(m, 7)
    assert dmg(m) == (0, 4, 0)


def test_I2_04_troopers_return_fire() -> None:
    """Card data: Troopers return fire: the attacking squad is disabled (§3.2)."""
    m = start(game([inn("I2-04", 2)], ">c-x" + "-" * 8, keeper=True))
    play(m, 4)
    assert threat(m, "I2-04").damage == 1 and player(m, "P0").bots == "disabled"


def test_I2_05_virus_drains_delays_attacks() -> None:
    """Card data: Virus (speed 3): X every reactor -1, Y everyone aboard delayed (decision 1: next turn),
    Z attack 1 in every zone."""
    m = start(game([inn("I2-05", 1)], "---a" + "-" * 8))
    play(m, 1)
    assert reactors(m) == (1, 2, 1)
    play(m, 3)
    assert "".join(player(m, "P0").actions) == "----a-------"
    play(m, 5)
    assert dmg(m) == (1, 1, 1)


def test_I2_05_virus_c_in_upper_white_repairs_instead_of_maintenance() -> None:
    """§3.2: C on the infected computer repairs; the maintenance is then not done (§3.5, decision 2)."""
    m = start(game([inn("I2-05", 1)], "cc-c" + "-" * 8))
    play(m, 2)
    assert threat(m, "I2-05").damage == 2
    assert events(m, "computer_not_maintained", phase=1)
    play(m, 5)
    assert threat(m, "I2-05").fate == "destroyed" and dmg(m) == (0, 0, 0)


def test_I2_06_overheated_reactor_x_y_z() -> None:
    """Card data: Overheated Reactor (lower white): X attack = energy in the central reactor,
    Y destroys a fuel capsule, decision 11: Z attack 3."""
    m = start(game([inn("I2-06", 1)]))
    play(m, 2)
    assert dmg(m) == (0, 3, 0)
    play(m, 4)
    assert m.ship.fuel == 2
    play(m, 7)
    assert dmg(m) == (0, 6, 0)


def test_I2_06_overheated_reactor_repair_knocks_out_lower_red_and_blue() -> None:
    """§7.2 Перегрев реактора: when it is destroyed, players in lower red and lower blue at that moment
    are knocked out; those who left earlier or enter later in the turn are not."""
    data = game([inn("I2-06", 1)], "1->" + "-" * 9, "2Bb" + "-" * 9, "1" + "-" * 11, "--3" + "-" * 9, keeper=True)
    m = start(data)
    play(m, 3)
    assert threat(m, "I2-06").fate == "destroyed"
    assert knocked_out(m) == {"P2": 3}


# --- SI2: serious yellow ----------------------------------------------------------------------------


def test_SI2_01_executioner_knocks_out_players_without_battlebots() -> None:
    """Card data: Executioner (upper blue): X toward red, Y change deck, each followed by knocking
    out players in its station without battlebots; Z attack 3.  T+3: X t4, Y t6, Z t9."""
    data = game([inn("SI2-01", 3)], "c" + "-" * 11, ">c<-^" + "-" * 7, "2" + "-" * 11)
    m = start(data)
    play(m, 4)
    assert threat(m, "SI2-01").station == "upper_white" and knocked_out(m) == {"P0": 4}
    play(m, 6)
    assert threat(m, "SI2-01").station == "lower_white" and knocked_out(m) == {"P0": 4, "P2": 6}
    play(m, 9)
    assert dmg(m) == (0, 3, 0)


def test_SI2_02_seeker_hunts_the_most_players() -> None:
    """§7.2 Охотник: moves to the adjacent station with the most players (its own station does not
    count); Z attack 5 and knock out its station."""
    data = game([inn("SI2-02", 1)], "<" + "-" * 11, "--1" + "-" * 9, "--1" + "-" * 9, keeper=True)
    m = start(data)
    play(m, 2)
    assert threat(m, "SI2-02").station == "upper_red"
    play(m, 4)
    assert threat(m, "SI2-02").station == "lower_red"
    play(m, 7)
    assert dmg(m) == (5, 0, 0) and knocked_out(m) == {"P1": 7, "P2": 7}


def test_SI2_02_seeker_tie_means_it_stays() -> None:
    """§7.2 Охотник: with a tie between adjacent stations it does not move."""
    m = start(game([inn("SI2-02", 1)], "<" + "-" * 11, ">" + "-" * 11))
    play(m, 2)
    assert threat(m, "SI2-02").station == "upper_white"


def test_SI2_02_seeker_destroyer_is_knocked_out() -> None:
    """§7.2 Охотник / decision 8: no return fire, but whoever destroys it is knocked out and his squad
    disabled; 15 points destroyed."""
    data = game([inn("SI2-02", 1)], ">cxx" + "-" * 8, keeper=True)
    m = start(data)
    play(m, 3)
    assert threat(m, "SI2-02").damage == 1 and player(m, "P0").bots == "active"
    play(m, 4)
    assert threat(m, "SI2-02").fate == "destroyed"
    assert knocked_out(m) == {"P0": 4} and player(m, "P0").bots == "disabled"
    assert run(data).threats[0].points == 15


def test_SI2_03_power_system_overload_x_y_z() -> None:
    """Card data: Power System Overload (speed 3): X central reactor -2, Y every reactor -1,
    Z attack 3 in every zone."""
    m = start(game([inn("SI2-03", 1)]))
    play(m, 1)
    assert reactors(m) == (2, 1, 2)
    play(m, 3)
    assert reactors(m) == (1, 0, 1)
    play(m, 5)
    assert dmg(m) == (3, 3, 3)


def test_SI2_03_power_system_overload_three_stations_same_turn_bonus() -> None:
    """§7.2 Перегрузка системы: B in all three lower stations in one turn -> 2 extra cubes."""
    m = start(game([inn("SI2-03", 1)], "1b" + "-" * 10, "2b" + "-" * 10, "3bB" + "-" * 9, keeper=True))
    play(m, 2)
    assert threat(m, "SI2-03").damage == 5
    play(m, 3)
    assert threat(m, "SI2-03").fate == "destroyed"


def test_SI2_04_contamination_delays_attacks_knocks_out() -> None:
    """§7.2 Заражение (upper/lower red and blue): X players in contaminated stations
    delayed (decision 1), Y attack 1 per contaminated station in its zone, Z knocks out players there; after
    Z anyone entering a contaminated station is knocked out."""
    m = start(game([inn("SI2-04", 1)], "<-x" + "-" * 9, "-------3----", keeper=True))
    play(m, 2)
    assert "".join(player(m, "P0").actions) == "<--x--------"
    play(m, 4)
    assert dmg(m) == (2, 0, 2)
    play(m, 7)
    assert knocked_out(m) == {"P0": 7}
    play(m, 8)
    assert knocked_out(m) == {"P0": 7, "P1": 8}


def test_SI2_04_contamination_tokens_removed_by_battlebots() -> None:
    """§7.2 Заражение: a battlebots action removes the token of its station; removing the third also
    removes the fourth (health 3); no return fire.  T+3: X t4, Y t6, Z t9."""
    m = start(game([inn("SI2-04", 3)], ">cx^-x<<x---", keeper=True))
    play(m, 3)
    assert threat(m, "SI2-04").stations == ["upper_red", "lower_red", "lower_blue"]
    play(m, 6)
    assert threat(m, "SI2-04").stations == ["upper_red", "lower_red"] and dmg(m) == (2, 0, 0)
    play(m, 9)
    c = threat(m, "SI2-04")
    assert c.fate == "destroyed" and c.stations == []
    assert player(m, "P0").bots == "active" and knocked_out(m) == {}


def test_SI2_05_nuclear_device_speeds_up_and_z_destroys_the_ship() -> None:
    """Card data: Nuclear Device (speed 4): X and Y speed +1; Z the ship is destroyed."""
    m = start(game([inn("SI2-05", 1)]))
    play(m, 1)
    assert threat(m, "SI2-05").speed == 5
    play(m, 2)
    assert threat(m, "SI2-05").speed == 6
    with pytest.raises(ShipDestroyed):
        play(m, 3)


def test_SI2_05_nuclear_device_needs_three_repairs_in_one_turn() -> None:
    """§7.2 Ядерный заряд: only three C actions in lower white in the same turn repair it; one or two
    do nothing.  Internal T7 (X t1, Y t2, Z t3 would follow)."""
    m = start(game([inn("SI2-05", 1)], "2cc" + "-" * 9, "2cc" + "-" * 9, "2-c" + "-" * 9, keeper=True, internal="T7"))
    play(m, 2)
    assert threat(m, "SI2-05").damage == 0 and threat(m, "SI2-05").fate is None
    play(m, 3)
    assert threat(m, "SI2-05").fate == "destroyed"
