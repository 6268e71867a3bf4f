"""Decisions 16-19 of docs/rules.md, one test each, traced by hand from the rulebooks.

Rulebook = the Russian edition (§7.1 "Мститель", §7.2 "Слизь", §7.1 "Энергетическое облако") and
the Slovak one where it words the same rule.  Internal track T4 (13, X 9, Y 5): a speed-2 threat
appearing in turn N does X in N+1, Y in N+3, Z in N+5.  External T1 (10, X 5): speed 2 appearing in
turn 1 stands on space 8 after turn 1 (range 2).
"""

from __future__ import annotations

from engine.resolution.crew_effects import knock_out
from tests.engine.threat_helpers import dmg, events, ext, game, inn, play, player, start, threat


def test_decision_16_nemesis_retaliates_in_the_damage_step_that_destroys_it() -> None:
    """§7.1 Мститель: it attacks every zone at the end of any damage step in which it took at least one
    damage; no survival condition.  Nemesis (SE2-05: shield 1, health 9, speed 3) on red T5 does X in
    turn 1 (attack 1, 1 damage to itself).  Turn 2: heavy red 4 - 1 = 3 (total 4).  Turn 3: heavy red
    4 and light red 2 hit together, 6 - 1 = 5 (total 9 = health): destroyed in that damage step, and
    it still attacks all three zones for 1 before its Y would have come."""
    data = game([ext("SE2-05", 1, "red")], "<aa" + "-" * 9, "^<a" + "-" * 9, keeper=True)
    m = start(data)
    play(m, 2)
    nemesis = threat(m, "SE2-05")
    assert nemesis.fate is None and nemesis.damage == 4
    before = len(events(m, "retaliation"))
    play(m, 3)
    assert nemesis.fate == "destroyed" and nemesis.fate_turn == 3 and nemesis.damage == 9
    assert len(events(m, "retaliation")) == before + 1
    attacks = [e for e in events(m, "attack", source="SE2-05") if e["turn"] == 3]
    assert sorted(e["zone"] for e in attacks) == ["blue", "red", "white"]
    assert all(e["amount"] == 1 for e in attacks)


def test_decision_17_slime_does_not_spread_onto_another_slimes_token() -> None:
    """§7.2 Слизь: "Слизь не будет распространяться на отсек, в котором и так уже есть жетон слизи".
    Red slime (I2-02, lower red) T+1 spreads blue-ward into lower white in turn 4 (its Y); blue slime
    (I2-01, lower blue) T+2 tries to spread red-ward into lower white in turn 5 and cannot."""
    m = start(game([inn("I2-02", 1), inn("I2-01", 2)], internal="T4"))
    play(m, 4)
    assert [tok[0] for tok in threat(m, "I2-02").slime] == ["lower_red", "lower_white"]
    play(m, 5)
    assert [tok[0] for tok in threat(m, "I2-01").slime] == ["lower_blue"]
    assert events(m, "slime_blocked", threat="I2-01")


def test_decision_17_a_slime_token_left_after_z_still_blocks_spreading() -> None:
    """§7.2: a slime that did its Z leaves its tokens on the ship for the rest of the mission.  Red
    slime T+1: Y turn 4 (into lower white), Z turn 6, survived.  Blue slime T+4: Y in turn 7 would
    spread into lower white, which still holds the red slime's token."""
    m = start(game([inn("I2-02", 1), inn("I2-01", 4)], internal="T4"))
    play(m, 6)
    red = threat(m, "I2-02")
    assert red.fate == "survived" and [tok[0] for tok in red.slime] == ["lower_red", "lower_white"]
    play(m, 7)
    assert [tok[0] for tok in threat(m, "I2-01").slime] == ["lower_blue"]
    assert events(m, "slime_blocked", threat="I2-01")


def test_decision_18_knocked_out_crew_are_not_counted_by_the_alien() -> None:
    """§7.2 Чужой: Y changes deck (lower white -> upper white) and deals damage equal to the players
    in its station.  P0 and P1 stay on the bridge; P1 is knocked out before turn 4 (Alien T+1 on T4:
    Y in turn 4), so the attack is 1, not 2 (internal damage ignores shields)."""
    m = start(game([inn("SI1-03", 1)], "-" * 12, "-" * 12, internal="T4"))
    play(m, 3)
    knock_out(m, player(m, "P1"), cause="SI1-03")
    play(m, 4)
    assert threat(m, "SI1-03").station == "upper_white"
    assert dmg(m) == (0, 1, 0)


def test_decision_18_knocked_out_crew_do_not_draw_the_seeker() -> None:
    """§7.2 Ищейка: it moves to the adjacent station with strictly the most players.  P0 and P1 go to
    upper red, P2 to upper blue in turn 1; P0 and P1 are knocked out before turn 2 (Seeker T+1 on T4:
    X in turn 2), so upper blue (1 player) beats upper red (0 counted)."""
    m = start(game([inn("SI2-02", 1)], "<" + "-" * 11, "<" + "-" * 11, ">" + "-" * 11, internal="T4"))
    play(m, 1)
    knock_out(m, player(m, "P0"), cause="SI2-02")
    knock_out(m, player(m, "P1"), cause="SI2-02")
    play(m, 2)
    assert threat(m, "SI2-02").station == "upper_blue"


def test_decision_19_a_pulse_stripped_shield_stays_zero_under_the_marauders_bonus() -> None:
    """§7.1 Энергетическое облако: in range of the pulse cannon that fired this turn its shield "равны
    0".  Marauder (E2-06, speed 3, red T5) does its X in turn 1: every external threat +1 shield.  The
    Energy Cloud (E1-04, white T1) is on space 8 (range 2) in turn 2, when P0 fires the pulse cannon
    from lower white: shield 0, not 1, so the pulse's 1 damage lands."""
    data = game([ext("E2-06", 1, "red"), ext("E1-04", 1, "white")], "^a" + "-" * 10, white="T1")
    m = start(data)
    play(m, 2)
    assert threat(m, "E2-06").shield_aura == 1
    hit = events(m, "threat_damage", threat="E1-04")
    assert [(e["shield"], e["damage"]) for e in hit] == [(0, 1)]
    assert threat(m, "E1-04").damage == 1
