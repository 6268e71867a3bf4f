"""The seed's rules (seed 003, other-seed-games.md §2) and our decisions (docs/escape-rules.md),
one test a rule, each named for the rule it checks."""

from __future__ import annotations

from engine.escape.rules import Command, Rejected, apply, legal_commands
from engine.escape.state import HOURS
from tests.escape.helpers import codes, digital, give, mission, ok, place, rig


def test_clock_by_difficulty_seed_2_1_3_step_5() -> None:
    assert HOURS == {"easy": 20, "medium": 15, "hard": 10}
    assert digital().limit == 15


def test_general_event_on_even_hours_and_the_storm_at_the_limit_seed_2_1_4() -> None:
    s = digital()
    s.limit = 4
    seen: dict[int, list[str]] = {}
    while not s.over:
        s, events = ok(s, Command("end_turn", s.turn))
        if "hour" in codes(events):
            seen[s.hour] = codes(events)
    assert "general_event" not in seen[1] and "general_event" in seen[2]
    assert "general_event" not in seen[3]
    assert "station_stormed" in seen[4] and s.timed_out and s.winner == -1
    assert isinstance(apply(s, Command("end_turn", s.turn)), Rejected)


def test_turns_go_clockwise_with_the_characters_ap_seed_2_1_4() -> None:
    s = digital(players=3)
    first = s.turn
    assert s.players[first].ap == s.character(first).ap
    s, _ = ok(s, Command("end_turn", first))
    assert s.turn == (first + 1) % 3
    assert apply(s, Command("end_turn", first)) == Rejected("not_your_turn")


def test_moves_are_orthogonal_and_cost_one_ap_seed_2_1_4() -> None:
    s = digital()
    t = s.turn
    place(s, t, (1, 1), "corridor")
    ap = s.players[t].ap
    s, events = ok(s, Command("move", t, target=1))
    assert s.players[t].cell == (1, 2) and s.players[t].ap == ap - 1
    assert "local_event" in codes(events)  # every step draws a local event (seed §2.1.4)
    place(s, t, (0, 2))
    assert apply(s, Command("move", t, target=0)) == Rejected("off_station")
    assert apply(s, Command("move", t, target=7)) == Rejected("bad_direction")


def test_between_levels_only_through_a_lift_d6() -> None:
    s = digital()
    t = s.turn
    place(s, t, (0, 2), "corridor")
    assert apply(s, Command("move", t, target=2)) == Rejected("needs_lift")
    s.grid[0][2] = "lift"
    s, _ = ok(s, Command("move", t, target=2))
    assert s.players[t].cell == (1, 2)


def test_opening_an_airlock_is_one_ap_and_draws_a_local_event_d5() -> None:
    s = digital()
    t = s.turn
    place(s, t, (0, 2), "corridor")
    s.opened.discard((0, 3))
    s.players[t].seen.discard((0, 3))
    ap = s.players[t].ap
    s, events = ok(s, Command("move", t, target=1))
    assert codes(events)[:2] == ["airlock_opened", "moved"] and "local_event" in codes(events)
    assert s.players[t].ap == ap - 1 and (0, 3) in s.opened and (0, 3) in s.players[t].seen


def test_medbay_heals_three_per_ap_up_to_the_maximum_seed_2_1_4() -> None:
    s = digital()
    t = s.turn
    place(s, t, (1, 1), "medbay")
    top = s.character(t).health
    s.players[t].health = top - 4
    s, _ = ok(s, Command("heal", t))
    assert s.players[t].health == top - 1
    s, _ = ok(s, Command("heal", t))
    assert s.players[t].health == top
    assert apply(s, Command("heal", t)) == Rejected("full_health")


def test_armoury_full_reload_costs_three_ap_and_requisition_one_seed_2_1_4() -> None:
    s = digital()
    t = s.turn
    place(s, t, (1, 1), "armoury")
    slot = give(s, t, "pistol")
    s.players[t].items[slot].charges = 1
    s.players[t].ap = 4
    s, _ = ok(s, Command("reload", t, target=slot))
    assert s.players[t].items[slot].charges == 6 and s.players[t].ap == 1
    s, events = ok(s, Command("requisition", t))
    assert "gear_gained" in codes(events) and s.players[t].ap == 0
    assert s.players[t].items[-1].gear in {g.id for g in s.pack.gear_inner}


def test_hyperportal_jump_needs_two_unlocked_portals_seed_2_1_5() -> None:
    s = digital()
    t = s.turn
    place(s, t, (0, 2), "hyperportal")
    s.grid[1][1] = "hyperportal"
    s, _ = ok(s, Command("unlock_portal", t))
    assert not [c for c in legal_commands(s, t) if c.kind == "jump"]
    s.portals_unlocked.add((1, 1))
    s, _ = ok(s, Command("jump", t, cell=(1, 1)))
    assert s.players[t].cell == (1, 1)


def test_crate_is_looted_once_per_entry_seed_2_1_5() -> None:
    s = digital()
    t = s.turn
    place(s, t, (0, 2), "crate")
    s, _ = ok(s, Command("loot", t))
    assert len(s.players[t].items) == 1
    assert apply(s, Command("loot", t)) == Rejected("not_here")
    s, _ = ok(s, Command("move", t, target=1))
    s, _ = ok(s, Command("move", t, target=3))
    s, _ = ok(s, Command("loot", t))


def test_trap_bands_seed_2_1_5() -> None:
    for face, loss in ((6, 0), (4, 0), (3, 2), (2, 2), (1, 4)):
        s = digital()
        t = s.turn
        place(s, t, (0, 1), "corridor")
        s.grid[0][2] = "trap"
        before = s.players[t].health
        rig(s, face)
        s, events = ok(s, Command("move", t, target=1))
        assert s.players[t].health == before - loss, face
        assert "trap" in codes(events)


def test_zero_health_means_one_health_and_no_ap_left_d9() -> None:
    s = digital()
    t = s.turn
    place(s, t, (0, 1), "corridor")
    s.grid[0][2] = "trap"
    s.players[t].health = 3
    rig(s, 1)
    s, events = ok(s, Command("move", t, target=1))
    assert "knocked_out" in codes(events) and s.players[t].health == 1 and s.players[t].ap == 0


def test_reactor_radiation_by_kind_seed_2_1_5() -> None:
    s = digital()
    t = s.turn
    mission(s, t, "saboteur")
    place(s, t, (1, 1), "reactor")
    human = s.character(t).kind == "human"
    before = s.players[t].health
    rig(s, 3)
    s, events = ok(s, Command("reactor", t))
    assert "reactor_radiation" in codes(events)
    assert s.players[t].health == max(before - (4 if human else 2), 1)
    assert not s.gravity_off


def test_reactor_shutdown_gravity_alarm_docks_seed_2_1_5() -> None:
    s = digital()
    t = s.turn
    mission(s, t, "saboteur")
    place(s, t, (1, 1), "reactor")
    rig(s, 6)
    s, events = ok(s, Command("reactor", t))
    assert "reactor_shut_down" in codes(events)
    assert s.gravity_off and s.alarm and s.docks_unlocked and s.docks_depressurised
    assert apply(s, Command("reactor", t)) == Rejected("reactor_down")


def test_reactor_only_for_its_mission_seed_2_1_5() -> None:
    s = digital()
    t = s.turn
    mission(s, t, "thief")
    place(s, t, (1, 1), "reactor")
    assert apply(s, Command("reactor", t)) == Rejected("not_your_target")


def test_gravity_off_costs_two_ap_without_boots_seed_2_1_8_step_6() -> None:
    s = digital()
    s.gravity_off = True
    t = s.turn
    nxt = 1 - t
    give(s, nxt, "boots")
    s, _ = ok(s, Command("end_turn", t))
    assert s.players[nxt].ap == s.character(nxt).ap  # boots
    s, _ = ok(s, Command("end_turn", nxt))
    assert s.players[t].ap == s.character(t).ap - 2


def test_gravity_off_lowers_combat_rolls_without_auto_aim_seed_2_1_8_step_6() -> None:
    from engine.escape.rules import strike

    s = digital()
    s.gravity_off = True
    rig(s, 4)
    assert strike(s, 4, False) == (4, 2)  # the 4 counts as a 3: half
    rig(s, 4)
    assert strike(s, 4, True) == (4, 4)  # auto-aim: full


def test_weight_limit_and_none_without_gravity_seed_2_1_3_step_8() -> None:
    s = digital()
    t = s.turn
    place(s, t, (0, 2), "crate")
    while sum(s.gear(i.gear).weight for i in s.players[t].items) <= s.character(t).max_weight - 2:
        give(s, t, "suit")
    s.decks["gear1"] = ["shotgun"]
    s, events = ok(s, Command("loot", t))
    assert "overweight" in codes(events) and s.overweight == t
    assert apply(s, Command("end_turn", t)) == Rejected("overweight_pending")
    s, _ = ok(s, Command("drop", t, target=len(s.players[t].items) - 1))
    assert s.overweight == -1
    s.gravity_off = True
    s.players[t].looted_here = False
    s.decks["gear1"] = ["shotgun"]
    s, events = ok(s, Command("loot", t))
    assert "overweight" not in codes(events)


def test_dialogue_check_is_die_minus_aggression_seed_2_1_6() -> None:
    s = digital()
    t = s.turn
    place(s, t, (0, 1), "corridor")
    s.decks["local1"] = ["o_merc"]  # fight at 1 or less, part ways at 4 or less, else negotiate
    s.players[t].aggression = 2
    rig(s, 3)
    s, events = ok(s, Command("move", t, target=1))
    dialogue = next(e for e in events if e.code == "dialogue")
    assert dialogue.get("value") == 1 and dialogue.get("outcome") == 0 and s.fight is not None


def test_dialogue_skipped_in_alarm_mode_seed_2_1_8_step_1() -> None:
    s = digital()
    t = s.turn
    s.alarm = True
    place(s, t, (0, 1), "corridor")
    s.decks["local1"] = ["o_merc"]
    s, events = ok(s, Command("move", t, target=1))
    assert "dialogue_skipped" in codes(events) and s.fight is not None


def _fight(enemy_health: int = 20, enemy_damage: int = 2):  # type: ignore[no-untyped-def]
    s = digital()
    t = s.turn
    place(s, t, (0, 1), "corridor")
    s.alarm = True
    s.decks["local1"] = ["o_merc"]
    s, _ = ok(s, Command("move", t, target=1))
    assert s.fight is not None
    s.fight.enemy_health = enemy_health
    s.fight.enemy_damage = enemy_damage
    return s, t


def test_flee_on_five_or_six_seed_2_1_8_step_3() -> None:
    s, t = _fight()
    rig(s, 5)
    s, events = ok(s, Command("flee", t))
    assert s.fight is None and s.players[t].aggression == 1
    s, t = _fight()
    rig(s, 4, 1)
    s, events = ok(s, Command("flee", t))
    assert s.fight is not None and "enemy_strike" in codes(events)


def test_damage_table_half_rounds_up_d4() -> None:
    from engine.escape.rules import strike

    s = digital()
    for face, dmg in zip(range(1, 7), (0, 3, 3, 5, 5, 10), strict=True):
        rig(s, face)
        assert strike(s, 5, False) == (face, dmg)


def test_weapon_or_unarmed_never_both_seed_2_1_8_step_3() -> None:
    s, t = _fight()
    slot = give(s, t, "pipe")  # damage 3, melee; unarmed is the character's
    rig(s, 4, 1)
    s, events = ok(s, Command("attack", t, numbers=(slot,)))
    assert [(e.get("slot"), e.get("damage")) for e in events if e.code == "strike"] == [(slot, 3)]
    assert s.fight is not None and s.fight.enemy_health == 17


def test_two_one_handed_weapons_roll_separately_seed_2_1_8_step_3() -> None:
    s, t = _fight()
    a = give(s, t, "pistol")
    b = give(s, t, "revolver")
    rig(s, 4, 6, 1)
    s, events = ok(s, Command("attack", t, numbers=(a, b)))
    strikes = [e for e in events if e.code == "strike"]
    assert [e.get("damage") for e in strikes] == [3, 8]
    assert s.players[t].items[a].charges == 5 and s.players[t].items[b].charges == 3
    c = give(s, t, "shotgun")
    assert apply(s, Command("attack", t, numbers=(a, c))) == Rejected("two_handed_pair")


def test_double_shot_uses_two_charges_d10() -> None:
    s, t = _fight()
    slot = give(s, t, "smg")  # damage 2, double shot, 8 charges
    rig(s, 4, 1)
    s, events = ok(s, Command("attack", t, numbers=(slot,)))
    assert [e.get("damage") for e in events if e.code == "strike"] == [4]  # 2 rolled once, dealt twice
    assert s.players[t].items[slot].charges == 6 and s.fight is not None and s.fight.enemy_health == 16
    s.players[t].items[slot].charges = 0
    assert apply(s, Command("attack", t, numbers=(slot,))) == Rejected("no_charges")


def test_armour_before_health_seed_2_1_8_step_4() -> None:
    s, t = _fight(enemy_damage=3)
    give(s, t, "vest")  # 4 sections
    before = s.players[t].health
    rig(s, 1, 6)  # our miss, their double: 6
    s, _ = ok(s, Command("attack", t))
    assert s.players[t].items[-1].armour == 0 and s.players[t].health == before - 2


def test_loser_drops_to_one_health_and_loses_ap_seed_2_1_8_step_5() -> None:
    s, t = _fight(enemy_damage=20)
    rig(s, 1, 6)
    s, events = ok(s, Command("attack", t))
    assert "fight_lost" in codes(events) and s.fight is None
    assert s.players[t].health == 1 and s.players[t].ap == 0 and s.players[t].aggression == 1


def test_winner_draws_gear_and_takes_aggression_seed_2_1_8_step_5() -> None:
    s, t = _fight(enemy_health=1)
    rig(s, 6)
    s, events = ok(s, Command("attack", t))
    assert "fight_won" in codes(events) and "gear_gained" in codes(events)
    assert s.players[t].aggression == 1


def test_aggression_discarded_after_a_round_without_a_fight_seed_2_1_7() -> None:
    s = digital()
    t = s.turn
    s.players[t].aggression = 3
    s.players[t].fought_this_round = True
    s, _ = ok(s, Command("end_turn", s.turn))
    s, _ = ok(s, Command("end_turn", s.turn))
    assert s.players[t].aggression == 3  # fought in that round: kept
    s, _ = ok(s, Command("end_turn", s.turn))
    s, events = ok(s, Command("end_turn", s.turn))
    assert s.players[t].aggression == 0 and "aggression_discarded" in codes(events)


def test_warehouse_guard_gives_the_cargo_only_to_its_target_seed_2_1_5() -> None:
    s = digital()
    t = s.turn
    place(s, t, (0, 2), "warehouse")
    mission(s, t, "thief")
    assert apply(s, Command("assault", t)) == Rejected("not_your_target")
    mission(s, t, "smuggler")
    s, events = ok(s, Command("assault", t))
    assert "guard_fight" in codes(events) and "dialogue" not in codes(events)
    assert s.fight is not None
    s.fight.enemy_health = 1
    rig(s, 6)
    s, events = ok(s, Command("attack", t))
    assert "story_item_taken" in codes(events) and s.cargo_taken
    assert any(i.gear == "cargo" for i in s.players[t].items)


def test_control_center_unlocks_docks_and_starts_the_hold_seed_2_1_5() -> None:
    s = digital()
    t = s.turn
    o = 1 - t
    place(s, t, (2, 2))
    mission(s, t, "usurper")
    s, _ = ok(s, Command("assault", t))
    assert s.fight is not None
    s.fight.enemy_health = 1
    rig(s, 6)
    s, events = ok(s, Command("attack", t))
    assert "center_taken" in codes(events) and s.alarm and s.docks_unlocked
    assert s.players[t].hold_left == 2
    s, _ = ok(s, Command("end_turn", t))
    s, _ = ok(s, Command("end_turn", o))
    # the hold fight: the enemy strikes first (seed §2.1.5 Control Center)
    assert s.fight is not None and s.fight.purpose == "hold"
    s.fight.enemy_damage = 50
    rig(s, 1, 6)
    s, events = ok(s, Command("attack", t))
    assert "hold_extended" in codes(events) and s.players[t].hold_left == 4  # a loss adds two hours


def test_hold_won_twice_completes_the_mission_seed_2_1_5() -> None:
    s = digital()
    t = s.turn
    place(s, t, (2, 2))
    mission(s, t, "usurper")
    s.players[t].won_center = True
    s.players[t].hold_left = 1
    s.players[t].ap = 0
    s, _ = ok(s, Command("end_turn", t))
    s, _ = ok(s, Command("end_turn", s.turn))
    assert s.fight is not None and s.fight.purpose == "hold"
    s.fight.enemy_health = 1
    s.fight.enemy_damage = 0
    rig(s, 6)
    s, events = ok(s, Command("attack", t))
    assert s.winner == t and "mission_completed" in codes(events)


def test_player_against_player_same_tile_spoils_never_story_seed_2_1_8_step_7() -> None:
    s = digital()
    t = s.turn
    o = 1 - t
    place(s, t, (0, 2))
    place(s, o, (0, 3))
    assert apply(s, Command("challenge", t, target=o)) == Rejected("not_same_tile")
    place(s, o, (0, 2))
    give(s, o, "pistol")
    give(s, o, "disk")
    ap = s.players[t].ap
    s, _ = ok(s, Command("challenge", t, target=o))
    assert s.players[t].ap == ap - 1 and s.fight is not None and s.fight.opponent == o
    s.players[o].health = 1
    rig(s, 6)
    s, events = ok(s, Command("attack", t))
    assert "fight_won" in [e.code for e in events] and s.spoils == (t, o)
    assert apply(s, Command("take_spoil", t, target=1)) == Rejected("bad_slot")  # the disk is a story item
    s, _ = ok(s, Command("take_spoil", t, target=0))
    assert [i.gear for i in s.players[t].items] == ["pistol"]
    assert s.players[o].aggression == 1 and s.players[t].aggression == 1


def test_escape_needs_open_docks_helmet_and_the_mission_done_seed_2_1_5() -> None:
    s = digital()
    t = s.turn
    mission(s, t, "smuggler")
    place(s, t, (0, 2), "docks")
    assert apply(s, Command("escape", t)) == Rejected("docks_locked")
    s.docks_unlocked = s.docks_depressurised = True
    assert apply(s, Command("escape", t)) == Rejected("needs_helmet")
    give(s, t, "o2_helmet")
    assert apply(s, Command("escape", t)) == Rejected("mission_not_ready")
    give(s, t, "cargo")
    s, events = ok(s, Command("escape", t))
    assert s.winner == t and codes(events)[-1] == "mission_completed"
    assert apply(s, Command("end_turn", s.turn)) == Rejected("game_over")


def test_repair_drone_restores_three_armour_seed_2_1_4() -> None:
    s = digital()
    t = s.turn
    slot = give(s, t, "suit")
    s.players[t].items[slot].armour = 1
    place(s, t, (0, 1))
    s.decks["local1"] = ["o_drone1"]
    s, _ = ok(s, Command("move", t, target=1))
    s, _ = ok(s, Command("repair", t))
    assert s.players[t].items[slot].armour == 4
    assert apply(s, Command("repair", t)) == Rejected("no_drone")
