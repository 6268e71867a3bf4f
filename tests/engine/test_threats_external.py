"""The 31 base-game external threat cards: X, Y, Z and the appendix special rule of each.

Card values: engine/data/threats.json; decisions and rulebook sections: docs/rules.md
(decision N below).  Rulebook = the Russian edition:
§3.3 damage step, §3.4 threat actions ("Атака x", shields absorb point for point), §7.1 appendix.

Track timings used below (positions counted from the ship, Z = 1, rulebook §3.4, engine/board.py TRACKS):
T5 (14, X 11, Y 7): speed 2 appearing in turn 1 -> X turn 2, Y turn 4, Z turn 7;
                    speed 3 -> X turn 1, Y turn 3, Z turn 5.
Unless said otherwise nobody raises a shield, so the first attack point on each zone is absorbed by
its starting shield of 1.
"""

from __future__ import annotations

import pytest

from engine.state import ShipDestroyed
from tests.engine.threat_helpers import (
    BLANK,
    dmg,
    events,
    ext,
    game,
    knocked_out,
    letters,
    play,
    player,
    reactors,
    rocket_ignores,
    run,
    shields,
    start,
    threat,
)

# --- E1: common white -------------------------------------------------------------------------------


def test_E1_01_pulse_ball_attacks_every_zone_x1_y1_z2() -> None:
    """Card data: Pulse Ball; decision 7 (Y = attack 1 in every zone); §3.4 "Атака x по всем секторам"."""
    m = start(game([ext("E1-01", 1, "white")]))
    play(m, 2)
    assert letters(m, "E1-01") == [(2, "X")]
    assert dmg(m) == (0, 0, 0) and shields(m) == (0, 0, 0)  # X: 1 each, all absorbed
    play(m, 4)
    assert dmg(m) == (1, 1, 1)  # Y: attack 1 each
    play(m, 7)
    assert letters(m, "E1-01")[-1] == (7, "Z")
    assert dmg(m) == (3, 3, 3)  # Z: attack 2 each
    assert threat(m, "E1-01").fate == "survived"


def test_E1_02_destroyer_two_tokens_per_damage_through_the_shield() -> None:
    """§7.1 Эсминец: 2 damage tokens for every damage that gets past the shield (X 1, Y 2, Z 2).
    T3 blue (12, X 8, Y 3): X turn 2, Y turn 5, Z turn 6.  P0 recharges the blue shield in turn 2."""
    m = start(game([ext("E1-02", 1, "blue")], ">b" + "-" * 10, blue="T3"))
    play(m, 2)
    assert shields(m)[2] == 1 and dmg(m) == (0, 0, 0)  # shield 2, X attack 1 absorbed
    play(m, 5)
    assert dmg(m) == (0, 0, 2)  # Y attack 2: 1 absorbed, 1 through -> 2 tokens
    play(m, 6)
    assert dmg(m) == (0, 0, 6)  # Z attack 2, shield 0 -> 4 tokens
    assert threat(m, "E1-02").fate == "survived"


def test_E1_03_stealth_fighter_untargetable_until_x() -> None:
    """§7.1 Невидимый истребитель: every weapon ignores it until its X; X itself attacks nothing.
    T7 red (16, X 12, Y 8 and 5): turn 1 at 13, X in turn 2, Y in turns 3 and 4, Z in turn 5."""
    m = start(game([ext("E1-03", 1, "red")], "<aa" + "-" * 9, keeper=True, red="T7"))
    play(m, 2)
    assert events(m, "no_target", weapon="heavy", zone="red")  # turn-2 shot: still invisible
    assert threat(m, "E1-03").damage == 0
    assert letters(m, "E1-03") == [(2, "X")]
    assert dmg(m) == (0, 0, 0) and shields(m)[0] == 1  # X is no attack
    play(m, 3)
    assert threat(m, "E1-03").damage == 4 - 2  # visible now: heavy laser 4 - shield 2
    assert dmg(m)[0] == 1  # first Y: attack 2, 1 absorbed
    play(m, 5)
    assert letters(m, "E1-03") == [(2, "X"), (3, "Y"), (4, "Y"), (5, "Z")]
    assert dmg(m) == (1 + 2 + 2, 0, 0)  # second Y 2, Z 2


def test_E1_04_energy_cloud_drains_shields_and_hits_the_other_zones() -> None:
    """Card data: Energy Cloud: X every shield loses all energy, Y attack 1 / Z attack 2 in each
    of the other two zones."""
    m = start(game([ext("E1-04", 1, "white")]))
    play(m, 2)
    assert shields(m) == (0, 0, 0) and dmg(m) == (0, 0, 0)
    play(m, 4)
    assert dmg(m) == (1, 0, 1)
    play(m, 7)
    assert dmg(m) == (3, 0, 3)


def test_E1_04_energy_cloud_pulse_cannon_strips_its_shield_for_that_turn() -> None:
    """§7.1 Энергооблако: hit by the firing pulse cannon its shield is 0 that turn; later turns the
    printed shield 3 counts again.  Turn 3: pulse 1 at range 2 -> 1 damage; turn 4: heavy 5 - 3 = 2."""
    m = start(game([ext("E1-04", 1, "white")], "2-a" + "-" * 9, "c--ac-------"))
    play(m, 3)
    assert threat(m, "E1-04").damage == 1
    play(m, 4)
    assert threat(m, "E1-04").damage == 1 + 2


def test_E1_05_gunship_x2_y2_z3() -> None:
    """Card data: Gunship: X attack 2, Y attack 2, Z attack 3 (§3.4 shield absorbs first)."""
    m = start(game([ext("E1-05", 1, "red")]))
    play(m, 2)
    assert dmg(m) == (1, 0, 0)
    play(m, 4)
    assert dmg(m) == (3, 0, 0)
    play(m, 7)
    assert dmg(m) == (6, 0, 0)
    assert threat(m, "E1-05").fate == "survived"


def test_E1_06_cryoshield_fighter_x1_y2_z2() -> None:
    """Card data: Cryoshield Fighter (speed 3): X 1 (absorbed), Y 2, Z 2."""
    m = start(game([ext("E1-06", 1, "red")]))
    play(m, 1)
    assert letters(m, "E1-06") == [(1, "X")] and dmg(m) == (0, 0, 0) and shields(m)[0] == 0
    play(m, 3)
    assert dmg(m) == (2, 0, 0)
    play(m, 5)
    assert dmg(m) == (4, 0, 0)


def test_E1_06_cryoshield_fighter_first_targeted_step_does_nothing() -> None:
    """§7.1 Истребитель с криощитом: the first damage step in which it is targeted it takes no
    damage at all; afterwards normal (heavy laser 4 - shield 1 = 3)."""
    m = start(game([ext("E1-06", 1, "red")], "<aa" + "-" * 9, keeper=True))
    play(m, 2)
    assert threat(m, "E1-06").damage == 0 and not threat(m, "E1-06").cryoshield
    play(m, 3)
    assert threat(m, "E1-06").damage == 3


def test_E1_07_fighter_x1_y2_z3_acceptance_case_1() -> None:
    """Traced game 1 (JustAFighterNoActions): Fighter T+5 red on T5, nobody acts:
    red 5 damage (X 1 absorbed, Y 2, Z 3), survived."""
    data = game([ext("E1-07", 5, "red")])
    res = run(data)
    assert res.outcome == "survived"
    assert res.damage == {"red": 5, "white": 0, "blue": 0}
    assert res.threats[0].fate == "survived" and res.threats[0].points == 2
    assert [(e.turn, e.letter) for e in res.log if getattr(e, "kind", None) == "threat_action"] == [
        (5, "X"),
        (7, "Y"),
        (9, "Z"),
    ]


def test_E1_08_armored_grappler_y_repairs_one() -> None:
    """Card data: Armored Grappler: X attack 1, Y repairs 1 damage (§3.4 "Восстанавливает"), Z 4.
    Central heavy laser in turn 2: 5 - shield 3 = 2 damage."""
    m = start(game([ext("E1-08", 1, "white")], "ca" + "-" * 10))
    play(m, 2)
    assert threat(m, "E1-08").damage == 2
    assert dmg(m) == (0, 0, 0) and shields(m)[1] == 0  # X attack 1 absorbed
    play(m, 4)
    assert threat(m, "E1-08").damage == 1
    play(m, 7)
    assert dmg(m) == (0, 4, 0)


def test_E1_09_amoeba_repairs_two_at_x_and_y_z5() -> None:
    """Card data: Amoeba: X repairs 2, Y repairs 2, Z attack 5 (the printed value)."""
    m = start(game([ext("E1-09", 1, "blue")], "6a-a" + "-" * 8))
    play(m, 2)
    assert threat(m, "E1-09").damage == 4 - 2  # blue heavy laser 4 (shield 0), X repairs 2
    play(m, 4)
    assert threat(m, "E1-09").damage == 2 + 4 - 2
    play(m, 7)
    assert dmg(m) == (0, 0, 4)  # Z 5, 1 absorbed


def test_E1_09_amoeba_rockets_cannot_target_it() -> None:
    """Card data: Amoeba: rockets cannot target it (§3.3 rocket finds no valid target)."""
    m = rocket_ignores("E1-09")
    assert events(m, "no_target", weapon="rocket") and threat(m, "E1-09").damage == 0


def test_E1_10_meteoroid_z_is_its_remaining_health() -> None:
    """Card data: Meteoroid (speed 5): X and Y do nothing, Z attack = remaining health
    (§3.4 "Атака соответственно оставшимся очкам прочности").  Light laser 2 in turn 2 -> Z 3."""
    m = start(game([ext("E1-10", 1, "red")], "1a" + "-" * 10))
    play(m, 2)
    assert letters(m, "E1-10") == [(1, "X"), (2, "Y")]
    assert dmg(m) == (0, 0, 0) and shields(m) == (1, 1, 1)
    assert threat(m, "E1-10").damage == 2
    play(m, 3)
    assert dmg(m) == (3 - 1, 0, 0)


def test_E1_10_meteoroid_rockets_cannot_target_it() -> None:
    """Card data: Meteoroid: rockets cannot target it."""
    m = rocket_ignores("E1-10")
    assert events(m, "no_target", weapon="rocket") and threat(m, "E1-10").damage == 0


# --- E2: common yellow ------------------------------------------------------------------------------


def test_E2_01_kamikaze_speeds_up_and_drops_its_shield() -> None:
    """Card data: Kamikaze (speed 4): X speed +1 and shield 1, Y speed +1 and shield 0, Z 6.
    T5: turn 1 14->10 (X), turn 2 10->5 (Y), turn 3 Z."""
    m = start(game([ext("E2-01", 1, "red")]))
    play(m, 1)
    k = threat(m, "E2-01")
    assert (k.speed, k.shield, k.position) == (5, 1, 10)
    play(m, 2)
    assert (k.speed, k.shield, k.position) == (6, 0, 5)
    play(m, 3)
    assert dmg(m) == (5, 0, 0) and k.fate == "survived"


def test_E2_02_scout_z_ignores_shields() -> None:
    """Card data: Scout: Z attack 3 ignoring shields (decision 7); alone, X and Y affect nothing."""
    m = start(game([ext("E2-02", 1, "white")]))
    play(m, 6)
    assert dmg(m) == (0, 0, 0)
    play(m, 7)
    assert dmg(m) == (0, 3, 0) and shields(m) == (1, 1, 1)


def test_E2_02_scout_x_bonus_and_y_moves_the_others() -> None:
    """§7.1 Разведчик: after its X every other external threat attacks +1 (a higher number gets it in
    the same turn); its Y moves every other threat 1 space, doing the X/Y/Z it crosses.
    Scout red T+1 (X t2, Y t4); Fighter white T+2 speed 3 (X t2 at 11, t3 at 8; Scout's Y in t4
    pushes it onto 7 = Y, then it moves 7 -> 4 itself)."""
    m = start(game([ext("E2-02", 1, "red"), ext("E1-07", 2, "white")]))
    play(m, 2)
    assert dmg(m) == (0, 1, 0)  # Fighter X: 1 + 1 = 2, 1 absorbed
    play(m, 4)
    assert letters(m, "E1-07") == [(2, "X"), (4, "Y")]
    assert dmg(m) == (0, 1 + 3, 0)  # Fighter Y: 2 + 1
    assert threat(m, "E1-07").position == 4


def test_E2_02_scout_heavy_lasers_ignore_it_light_lasers_do_not() -> None:
    """§7.1 Разведчик: the heavy laser ignores the Scout; decision 7: light lasers can target it.
    Turn 2: heavy red finds no target, light red 2 - shield 1 = 1."""
    m = start(game([ext("E2-02", 1, "red")], "<a" + "-" * 10, "1a" + "-" * 10))
    play(m, 2)
    assert events(m, "no_target", weapon="heavy", zone="red")
    assert threat(m, "E2-02").damage == 1


def test_E2_02_scout_bonus_ends_when_destroyed_and_stays_when_survived() -> None:
    """§7.1 Разведчик: +1 lasts "пока разведчик не уничтожен"; if it does its Z the bonus stays to the
    end.  (a) Scout red T5 T+1 (X t2) dies in turn 3 (rocket 3 + light 2 - 1); a white Fighter T+4:
    its X attack 1 is absorbed, no bonus.  (b) Scout blue T1 T+1 (X t3, Z t5) survives; a red Fighter
    T+6: X 1 + 1 = 2 vs shield 1."""
    m = start(game([ext("E2-02", 1, "red"), ext("E1-07", 4, "white")], "3c" + "-" * 10, "1-a" + "-" * 9, keeper=True))
    play(m, 3)
    assert threat(m, "E2-02").fate == "destroyed"
    play(m, 4)
    assert dmg(m) == (0, 0, 0) and shields(m)[1] == 0

    m = start(game([ext("E2-02", 1, "blue"), ext("E1-07", 6, "red")], blue="T1"))
    play(m, 5)
    assert threat(m, "E2-02").fate == "survived" and dmg(m) == (0, 0, 3)
    play(m, 6)
    assert dmg(m) == (1, 0, 3)


def test_E2_03_phantom_fighter_x_reveal_y2_z3() -> None:
    """Card data: Phantom Fighter (speed 3): X becomes visible, Y attack 2, Z attack 3."""
    m = start(game([ext("E2-03", 1, "red")]))
    play(m, 1)
    assert dmg(m) == (0, 0, 0) and shields(m)[0] == 1
    play(m, 3)
    assert dmg(m) == (1, 0, 0)
    play(m, 5)
    assert dmg(m) == (4, 0, 0)


def test_E2_03_phantom_fighter_invisible_until_x_and_rockets_fizzle() -> None:
    """§7.1 Истребитель-фантом: weapons ignore it until X; a rocket that targets it (after X) is
    destroyed without effect.  T7 red: X in turn 2.  Heavy laser t2: no target; t3: 4 - 3 = 1;
    rocket fired t3 hits in t4 at range 2: nothing."""
    m = start(game([ext("E2-03", 1, "red")], "<aa" + "-" * 9, "3-c" + "-" * 9, keeper=True, red="T7"))
    play(m, 2)
    assert events(m, "no_target", weapon="heavy", zone="red") and threat(m, "E2-03").damage == 0
    play(m, 3)
    assert threat(m, "E2-03").damage == 1
    play(m, 4)
    assert threat(m, "E2-03").damage == 1 and m.ship.rockets == 2
    assert events(m, "rocket_fizzles")


def test_E2_04_swarm_hits_its_zone_and_the_others() -> None:
    """Card data: Swarm: X 1; Y 2 own + 1 each other zone; Z 3 own + 2 each other zone."""
    m = start(game([ext("E2-04", 1, "white")]))
    play(m, 2)
    assert dmg(m) == (0, 0, 0)
    play(m, 4)
    assert dmg(m) == (0, 2, 0)  # red and blue 1 absorbed
    play(m, 7)
    assert dmg(m) == (2, 5, 2)


def test_E2_04_swarm_takes_one_damage_per_step() -> None:
    """§7.1 Рой: destroyed only when hit in three different turns, whatever the weapon's damage."""
    m = start(game([ext("E2-04", 1, "white")], "-aa" + "-" * 9, keeper=True))
    play(m, 2)
    assert threat(m, "E2-04").damage == 1  # heavy laser 5 -> 1
    play(m, 3)
    assert threat(m, "E2-04").damage == 2


def test_E2_04_swarm_rockets_cannot_target_it() -> None:
    """Card data: Swarm: rockets cannot target it."""
    m = rocket_ignores("E2-04")
    assert events(m, "no_target", weapon="rocket") and threat(m, "E2-04").damage == 0


def test_E2_05_jellyfish_attacks_all_zones() -> None:
    """Card data: Jellyfish: X/Y attack 1 in every zone (then repair half), Z attack 2 every zone."""
    m = start(game([ext("E2-05", 1, "white")]))
    play(m, 2)
    assert dmg(m) == (0, 0, 0) and shields(m) == (0, 0, 0)
    play(m, 4)
    assert dmg(m) == (1, 1, 1)
    play(m, 7)
    assert dmg(m) == (3, 3, 3)


def test_E2_05_jellyfish_negative_shield_and_half_repair() -> None:
    """§7.1 Медуза: shield -2 adds 2 to the damage of a hit; card data: X/Y repair half the damage
    taken (rounded down).  Heavy laser t1: 5 + 2 = 7; X t2 repairs 3 -> 4; Y t4 repairs 2 -> 2."""
    m = start(game([ext("E2-05", 1, "white")], "ac" + "-" * 10))
    play(m, 1)
    assert threat(m, "E2-05").damage == 7
    play(m, 2)
    assert threat(m, "E2-05").damage == 4
    play(m, 4)
    assert threat(m, "E2-05").damage == 2


def test_E2_05_jellyfish_rockets_cannot_target_it() -> None:
    """Card data: Jellyfish: rockets cannot target it."""
    m = rocket_ignores("E2-05")
    assert events(m, "no_target", weapon="rocket") and threat(m, "E2-05").damage == 0


def test_E2_06_marauder_y_drains_one_from_each_shield_z4() -> None:
    """Card data: Marauder (speed 3): X shield aura, Y every shield loses 1, Z attack 4."""
    m = start(game([ext("E2-06", 1, "red")]))
    play(m, 3)
    assert shields(m) == (0, 0, 0) and dmg(m) == (0, 0, 0)
    play(m, 5)
    assert dmg(m) == (4, 0, 0)


def test_E2_06_marauder_shield_bonus_for_all_until_destroyed() -> None:
    """§7.1 Мародёр: after its X every external threat (itself included, later ones too) has +1
    shield until the Marauder is destroyed.  t2: red heavy 4 - (1+1) = 2 on it, central 5 - (2+1) = 2
    on a white Fighter T+2; t3: heavy 4 + rocket 3 - 2 destroy it; t4: Fighter 5 - 2 = 3."""
    data = game([ext("E2-06", 1, "red"), ext("E1-07", 2, "white")], "<aa" + "-" * 9, "3c" + "-" * 10, "ca-a" + "-" * 8)
    m = start(data)
    play(m, 2)
    assert threat(m, "E2-06").damage == 2 and threat(m, "E1-07").damage == 2
    play(m, 3)
    assert threat(m, "E2-06").fate == "destroyed"
    play(m, 4)
    assert threat(m, "E1-07").damage == 2 + 3


def test_E2_07_minor_asteroid_z_is_remaining_health() -> None:
    """Card data: Minor Asteroid (health 7, speed 4): X/Y nothing, Z attack = remaining health."""
    m = start(game([ext("E2-07", 1, "red")]))
    play(m, 3)
    assert letters(m, "E2-07") == [(1, "X"), (2, "Y")] and dmg(m) == (0, 0, 0)
    play(m, 4)
    assert dmg(m) == (6, 0, 0)


def test_E2_07_minor_asteroid_breaks_up_when_destroyed() -> None:
    """§7.1 Маленький астероид: at the end of the damage step that destroys it, attack 1 x X/Y
    spaces passed.  Heavy red 4 in t2 and t3 (after X and Y) -> destroyed, attack 2 vs shield 1."""
    m = start(game([ext("E2-07", 1, "red")], "<aa" + "-" * 9, keeper=True))
    play(m, 3)
    assert threat(m, "E2-07").fate == "destroyed"
    assert dmg(m) == (1, 0, 0) and shields(m)[0] == 0


def test_E2_07_minor_asteroid_rockets_cannot_target_it() -> None:
    """Card data: Minor Asteroid: rockets cannot target it."""
    m = rocket_ignores("E2-07")
    assert events(m, "no_target", weapon="rocket") and threat(m, "E2-07").damage == 0


# --- SE1: serious white -----------------------------------------------------------------------------


def test_SE1_01_frigate_x2_y3_z4() -> None:
    """Card data: Frigate: X 2, Y 3, Z 4.  P0 fills the red shield (2) in turns 2 and 5."""
    m = start(game([ext("SE1-01", 1, "red")], "<b--b" + "-" * 7))
    play(m, 2)
    assert dmg(m) == (0, 0, 0) and shields(m)[0] == 0
    play(m, 4)
    assert dmg(m) == (3, 0, 0)
    play(m, 7)
    assert dmg(m) == (3 + 3, 0, 0)


def test_SE1_02_man_of_war_speeds_up_at_x_shields_up_at_y() -> None:
    """Card data: Man-of-War (speed 1): X attack 2 then speed +1, Y attack 3 then shield +1,
    decision 7: Z attack 5.  T5: X t3 (at 11), then 9, Y t5 (at 7), 5, 3, Z t8.
    Heroic B in upper red (§3.2) puts the red shield to 3 in turns 2 and 4."""
    m = start(game([ext("SE1-02", 1, "red")], "<B-B" + "-" * 8))
    play(m, 3)
    mow = threat(m, "SE1-02")
    assert (mow.speed, mow.position) == (2, 11) and dmg(m) == (0, 0, 0) and shields(m)[0] == 1
    play(m, 5)
    assert (mow.shield, mow.position) == (3, 7) and dmg(m) == (0, 0, 0) and shields(m)[0] == 0
    play(m, 8)
    assert letters(m, "SE1-02")[-1] == (8, "Z")
    assert dmg(m) == (5, 0, 0)


def test_SE1_03_leviathan_tanker_y_attacks_then_repairs_two() -> None:
    """Card data: Leviathan Tanker: X 2, Y 2 then repairs 2, Z 2.  Heavy red t3: 4 - 3 = 1."""
    m = start(game([ext("SE1-03", 1, "red")], "<-a" + "-" * 9, keeper=True))
    play(m, 3)
    assert dmg(m) == (1, 0, 0) and threat(m, "SE1-03").damage == 1
    play(m, 4)
    assert dmg(m) == (3, 0, 0) and threat(m, "SE1-03").damage == 0
    play(m, 7)
    assert dmg(m) == (5, 0, 0)


def test_SE1_03_leviathan_tanker_death_damages_every_other_external_threat() -> None:
    """§7.1 Мамонт: when destroyed every external threat gets a damage cube whatever its shield or
    special ability (even invisible ones and the Swarm).  t2: heavy 4 + light 2 - 3 = 3; t3: heavy 4
    + light 2 + rocket 3 - 3 = 6 -> 9 >= 8.  Swarm white T+2 and invisible Stealth Fighter blue T7."""
    data = game(
        [ext("SE1-03", 1, "red"), ext("E2-04", 2, "white"), ext("E1-03", 2, "blue")],
        "<aa" + "-" * 9,
        "1aa" + "-" * 9,
        "3c" + "-" * 10,
        keeper=True,
        blue="T7",
    )
    m = start(data)
    play(m, 3)
    assert threat(m, "SE1-03").fate == "destroyed"
    assert threat(m, "E2-04").damage == 1
    assert threat(m, "E1-03").damage == 1 and letters(m, "E1-03") == [(3, "X")]  # X after the step


def test_SE1_04_pulse_satellite_attacks_every_zone() -> None:
    """Card data: Pulse Satellite (speed 3): X 1, Y 2, Z 3 in every zone."""
    m = start(game([ext("SE1-04", 1, "white")]))
    play(m, 1)
    assert dmg(m) == (0, 0, 0)
    play(m, 3)
    assert dmg(m) == (2, 2, 2)
    play(m, 5)
    assert dmg(m) == (5, 5, 5)


def test_SE1_04_pulse_satellite_untargetable_at_distance_3() -> None:
    """§7.1 Импульсный спутник: at distance 3 every weapon ignores it.  T5 white: 14 (t1), 11 (t2),
    8 (t3): central heavy laser hits only in turn 3 (5 - 2 = 3)."""
    m = start(game([ext("SE1-04", 1, "white")], "aaa" + "-" * 9, keeper=True))
    play(m, 2)
    assert threat(m, "SE1-04").damage == 0
    assert len(events(m, "no_target", weapon="heavy", zone="white")) == 2
    play(m, 3)
    assert threat(m, "SE1-04").damage == 3


def test_SE1_05_cryoshield_frigate_x2_y3_z4() -> None:
    """Card data: Cryoshield Frigate: X 2, Y 3, Z 4.  Heroic B makes the red shield 3 in t2, t4."""
    m = start(game([ext("SE1-05", 1, "red")], "<B-B" + "-" * 8))
    play(m, 2)
    assert dmg(m) == (0, 0, 0) and shields(m)[0] == 1
    play(m, 4)
    assert dmg(m) == (0, 0, 0) and shields(m)[0] == 0
    play(m, 7)
    assert dmg(m) == (4, 0, 0)


def test_SE1_05_cryoshield_frigate_first_targeted_step_does_nothing() -> None:
    """§7.1 Фрегат с криощитом: no damage the first step it is targeted, then normal (4 - 1 = 3)."""
    m = start(game([ext("SE1-05", 1, "red")], "<aa" + "-" * 9, keeper=True))
    play(m, 2)
    assert threat(m, "SE1-05").damage == 0
    play(m, 3)
    assert threat(m, "SE1-05").damage == 3


def test_SE1_06_interstellar_octopus_x_y_only_when_damaged() -> None:
    """Card data: Interstellar Octopus: X / Y only if it has taken damage."""
    m = start(game([ext("SE1-06", 1, "white")]))
    play(m, 4)
    assert letters(m, "SE1-06") == [(2, "X"), (4, "Y")]
    assert dmg(m) == (0, 0, 0) and shields(m) == (1, 1, 1)


def test_SE1_06_interstellar_octopus_damaged_attacks_and_z_twice_remaining_health() -> None:
    """Card data: Interstellar Octopus: damaged -> X 1 all zones, Y 2 all zones; Z 2 x remaining
    health in its zone.  Red heavy 4 - 1 = 3 in t2 and t3 -> remaining 2 -> Z 4."""
    m = start(game([ext("SE1-06", 1, "red")], "<aa" + "-" * 9, keeper=True))
    play(m, 2)
    assert threat(m, "SE1-06").damage == 3 and dmg(m) == (0, 0, 0) and shields(m) == (0, 0, 0)
    play(m, 4)
    assert threat(m, "SE1-06").damage == 6 and dmg(m) == (2, 2, 2)
    play(m, 7)
    assert dmg(m) == (6, 2, 2)


def test_SE1_06_interstellar_octopus_rockets_cannot_target_it() -> None:
    """Card data: Interstellar Octopus: rockets cannot target it."""
    m = rocket_ignores("SE1-06")
    assert events(m, "no_target", weapon="rocket") and threat(m, "SE1-06").damage == 0


def test_SE1_07_maelstrom_drains_shields_and_hits_the_other_zones() -> None:
    """Card data: Maelstrom: X every shield emptied, Y 2 / Z 3 in each other zone."""
    m = start(game([ext("SE1-07", 1, "white")]))
    play(m, 2)
    assert shields(m) == (0, 0, 0) and dmg(m) == (0, 0, 0)
    play(m, 4)
    assert dmg(m) == (2, 0, 2)
    play(m, 7)
    assert dmg(m) == (5, 0, 5)


def test_SE1_07_maelstrom_pulse_cannon_strips_its_shield_for_that_turn() -> None:
    """§7.1 Вихрь: in range of the firing pulse cannon its shield is 0 that turn (pulse 1 -> 1),
    next turn the printed 3 again (central heavy 5 - 3 = 2)."""
    m = start(game([ext("SE1-07", 1, "white")], "2-a" + "-" * 9, "c--ac-------"))
    play(m, 3)
    assert threat(m, "SE1-07").damage == 1
    play(m, 4)
    assert threat(m, "SE1-07").damage == 3


def test_SE1_08_asteroid_z_is_remaining_health() -> None:
    """Card data: Asteroid (health 9, speed 3): X/Y nothing, Z remaining health.
    Red heavy 4 in t2 -> Z 5, 1 absorbed."""
    m = start(game([ext("SE1-08", 1, "red")], "<a" + "-" * 10))
    play(m, 3)
    assert letters(m, "SE1-08") == [(1, "X"), (3, "Y")] and dmg(m) == (0, 0, 0)
    play(m, 5)
    assert dmg(m) == (4, 0, 0)


def test_SE1_08_asteroid_breaks_up_two_per_breakpoint() -> None:
    """§7.1 Астероид: destroyed -> attack 2 x X/Y spaces passed, at the end of that damage step.
    Heavy 4 (t2) + light 2 (t2, t3, t4) = 10 >= 9 in t4, after X (t1) and Y (t3): attack 4."""
    m = start(game([ext("SE1-08", 1, "red")], "<a" + "-" * 10, "1aaa" + "-" * 8, keeper=True))
    play(m, 3)
    assert threat(m, "SE1-08").damage == 8 and dmg(m) == (0, 0, 0)
    play(m, 4)
    assert threat(m, "SE1-08").fate == "destroyed"
    assert dmg(m) == (3, 0, 0)


def test_SE1_08_asteroid_rockets_cannot_target_it() -> None:
    """Card data: Asteroid: rockets cannot target it."""
    m = rocket_ignores("SE1-08")
    assert events(m, "no_target", weapon="rocket") and threat(m, "SE1-08").damage == 0


# --- SE2: serious yellow ----------------------------------------------------------------------------


def test_SE2_01_behemoth_attacks_while_little_damaged() -> None:
    """Card data: Behemoth: X attack 2 (unless 2+ damage), Y attack 3 (unless 3+)."""
    m = start(game([ext("SE2-01", 1, "white")]))
    play(m, 2)
    assert dmg(m) == (0, 1, 0)
    play(m, 4)
    assert dmg(m) == (0, 4, 0)


def test_SE2_01_behemoth_x_and_y_silenced_by_damage() -> None:
    """Card data: Behemoth: central heavy 5 - 4 = 1 per turn; 2 damage before X, 3 before Y
    -> neither attacks."""
    m = start(game([ext("SE2-01", 1, "white")], "aaa" + "-" * 9, "c" + "-" * 11))
    play(m, 4)
    assert threat(m, "SE2-01").damage == 3
    assert dmg(m) == (0, 0, 0) and shields(m) == (1, 1, 1)


def test_SE2_01_behemoth_interceptors_deal_9_and_knock_out_the_pilot() -> None:
    """§7.1 Бегемот: interceptors targeting only it deal 9; the pilot is knocked out when its damage is
    computed and his squad disabled.  1 (t2 laser) + 9 - 4 = 6 -> Z "unless 6+ damage" does nothing."""
    m = start(game([ext("SE2-01", 1, "white")], ">c<<-c" + "-" * 6, "ca--c" + "-" * 7))
    play(m, 6)
    b = threat(m, "SE2-01")
    assert b.damage == 6 and b.fate is None
    assert knocked_out(m) == {"P0": 6} and player(m, "P0").bots == "disabled"
    play(m, 7)
    assert b.fate == "survived" and dmg(m) == (0, 4, 0)  # X 2 (1 absorbed) + Y 3; Z nothing


def test_SE2_02_juggernaut_speeds_up_by_two_x2_y3_z7() -> None:
    """Card data: Juggernaut (speed 1): X speed +2 attack 2, Y speed +2 attack 3, Z 7.
    T5: 13, 12, X t3 (11), 8, Y t5 (5), Z t6.  Heroic B in upper red and a refilled red reactor keep
    the shield at 3 before each attack."""
    m = start(game([ext("SE2-02", 1, "red")], "<B-B-B" + "-" * 6, "1b" + "-" * 10, keeper=True))
    play(m, 3)
    j = threat(m, "SE2-02")
    assert (j.speed, j.position) == (3, 11) and dmg(m) == (0, 0, 0) and shields(m)[0] == 1
    play(m, 5)
    assert (j.speed, j.position) == (5, 5) and dmg(m) == (0, 0, 0) and shields(m)[0] == 0
    play(m, 6)
    assert dmg(m) == (7 - 3, 0, 0) and j.fate == "survived"


def test_SE2_02_juggernaut_draws_every_rocket_and_gains_shield() -> None:
    """§7.1 Джаггернаут: rockets always target it, even beyond their range, and it gets +1 shield
    after the rocket's damage.  t3: Juggernaut at 12 (range 3), a Fighter at range 2; heavy 4 +
    rocket 3 - 3 = 4, shield 4; t4: heavy 4 - 4 = 0."""
    data = game(
        [ext("SE2-02", 1, "red"), ext("E1-07", 1, "blue")], "3c" + "-" * 10, "<-aa" + "-" * 8, keeper=True, blue="T3"
    )
    m = start(data)
    play(m, 3)
    assert threat(m, "SE2-02").damage == 4 and threat(m, "SE2-02").shield == 4
    assert threat(m, "E1-07").damage == 0
    play(m, 4)
    assert threat(m, "SE2-02").damage == 4


def test_SE2_03_psionic_satellite_delays_then_knocks_out() -> None:
    """Card data: Psionic Satellite; decision 1 (a threat's delay hits the NEXT turn): X delays the
    players in its zone, Y everyone aboard, Z knocks out everyone aboard; §3.2: a player in space
    is not affected."""
    data = game([ext("SE2-03", 1, "red")], "<-x-x" + "-" * 7, "c--cx" + "-" * 7, ">c<<--c-----")
    m = start(data)
    play(m, 2)
    assert "".join(player(m, "P0").actions) == "<--xx-------"  # red zone: delayed in turn 3
    assert "".join(player(m, "P1").actions) == "c--cx-------"
    play(m, 4)
    assert "".join(player(m, "P0").actions) == "<--x-x------"
    assert "".join(player(m, "P1").actions) == "c--c-x------"
    play(m, 7)
    assert knocked_out(m) == {"P0": 7, "P1": 7}
    assert player(m, "P2").station == "space"


def test_SE2_03_psionic_satellite_untargetable_at_distance_3() -> None:
    """§7.1 Пси-спутник: weapons ignore it at distance 3.  Turn 2 at 12: no target; X delays the red
    laser gunner to turn 4 (at 8): 4 - 2 = 2."""
    m = start(game([ext("SE2-03", 1, "red")], "<aa" + "-" * 9, keeper=True))
    play(m, 3)
    assert events(m, "no_target", weapon="heavy", zone="red") and threat(m, "SE2-03").damage == 0
    play(m, 4)
    assert threat(m, "SE2-03").damage == 2


def test_SE2_04_nebula_crab_shield_changes_and_z_hits_red_and_blue() -> None:
    """Card data: Nebula Crab: X shield 4; Y speed +2, shield 2; Z attack 5 red and 5 blue.
    T5 white: X t2 (10), Y t4 (6), 2, Z t6."""
    m = start(game([ext("SE2-04", 1, "white")]))
    play(m, 2)
    c = threat(m, "SE2-04")
    assert c.shield == 4
    play(m, 4)
    assert (c.shield, c.speed, c.position) == (2, 4, 6)
    play(m, 6)
    assert c.fate == "survived" and dmg(m) == (4, 0, 4)


def test_SE2_04_nebula_crab_rockets_cannot_target_it() -> None:
    """Card data: Nebula Crab: rockets cannot target it."""
    m = rocket_ignores("SE2-04")
    assert events(m, "no_target", weapon="rocket") and threat(m, "SE2-04").damage == 0


def test_SE2_05_nemesis_hurts_itself_and_z_destroys_the_ship() -> None:
    """§7.1 Мститель: X attack 1 then 1 damage to itself, Y attack 2 then 2 to
    itself; Z: the ship is destroyed (§3.4 "уничтожение корабля")."""
    data = game([ext("SE2-05", 1, "red")])
    m = start(data)
    play(m, 1)
    assert dmg(m) == (0, 0, 0) and threat(m, "SE2-05").damage == 1
    play(m, 3)
    assert dmg(m) == (2, 0, 0) and threat(m, "SE2-05").damage == 3
    with pytest.raises(ShipDestroyed):
        play(m, 5)
    res = run(data)
    assert res.outcome == "destroyed" and res.lost is not None and res.lost.turn == 5


def test_SE2_05_nemesis_retaliates_on_every_zone_when_damaged() -> None:
    """§7.1 Мститель: at the end of a damage step in which it took damage it attacks every zone.
    t2: heavy red 4 - 1 = 3; retaliation 1 per zone: red shield already spent by X -> 1 damage."""
    m = start(game([ext("SE2-05", 1, "red")], "<a" + "-" * 10))
    play(m, 2)
    assert threat(m, "SE2-05").damage == 1 + 3
    assert dmg(m) == (1, 0, 0) and shields(m) == (0, 0, 0)


def test_SE2_05_nemesis_destroyed_by_its_own_y_counts_as_destroyed() -> None:
    """§7.1 Мститель: damage from its own X/Y passes its shield; if that destroys it, it still counts as
    destroyed (trophy).  Heavy red 3 in t2 and t3 (1 + 3 + 3 = 7), Y in t3 adds 2 -> 9."""
    data = game([ext("SE2-05", 1, "red")], "<aa" + "-" * 9, keeper=True)
    m = start(data)
    play(m, 3)
    assert threat(m, "SE2-05").fate == "destroyed" and threat(m, "SE2-05").fate_turn == 3
    res = run(data)
    assert res.outcome == "survived" and res.threats[0].fate == "destroyed" and res.threats[0].points == 12


def test_SE2_05_nemesis_rockets_can_target_it() -> None:
    """Card data: Nemesis is not rocket-immune (rocket 3 - shield 1 = 2; it then retaliates)."""
    m = rocket_ignores("SE2-05")
    assert threat(m, "SE2-05").damage >= 2
    assert not events(m, "no_target", weapon="rocket")


def test_SE2_06_major_asteroid_z_is_remaining_health() -> None:
    """Card data: Major Asteroid (health 11): Z remaining health.  Central heavy 5 in t1 -> Z 6."""
    m = start(game([ext("SE2-06", 1, "white")], "ac" + "-" * 10))
    play(m, 4)
    assert letters(m, "SE2-06") == [(2, "X"), (4, "Y")] and dmg(m) == (0, 0, 0)
    play(m, 7)
    assert dmg(m) == (0, 5, 0)


def test_SE2_06_major_asteroid_breaks_up_three_per_breakpoint() -> None:
    """§7.1 Большой астероид: destroyed after X and Y -> attack 3 x 2 = 6 (1 absorbed)."""
    m = start(game([ext("SE2-06", 1, "white")], "a-a-a" + "-" * 7, keeper=True))
    play(m, 4)
    assert threat(m, "SE2-06").damage == 10
    play(m, 5)
    assert threat(m, "SE2-06").fate == "destroyed"
    assert dmg(m) == (0, 5, 0)


def test_SE2_06_major_asteroid_rockets_cannot_target_it() -> None:
    """Card data: Major Asteroid: rockets cannot target it."""
    m = rocket_ignores("SE2-06")
    assert events(m, "no_target", weapon="rocket") and threat(m, "SE2-06").damage == 0


def test_blank_players_change_nothing() -> None:
    """Sanity: the helper's passive crew does nothing to the ship."""
    m = start(game([], BLANK))
    play(m, 12)
    assert dmg(m) == (0, 0, 0) and reactors(m) == (2, 3, 2)
