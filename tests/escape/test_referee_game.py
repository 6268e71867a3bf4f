"""A referee-mode game for a crew with the box, driven to a winner: a trap, a fight against the
warehouse guard played by the engine, the reactor shut down, and the escape through the docks."""

from __future__ import annotations

from engine.escape.rules import Command, Rejected, apply, legal_commands
from tests.escape.helpers import codes, ok, referee, rig


def test_a_referee_game_to_a_winner() -> None:
    s = referee(3, ("smuggler", "saboteur", "usurper"))
    assert s.mode == "referee" and s.limit == 10 and s.turn == 0
    assert apply(s, Command("move", 0, target=1)) == Rejected("digital_only")

    # Seat 0 (smuggler, human, 10 Health) walks onto a trap: a 1 costs 4 Health (seed §2.1.5).
    s, events = ok(s, Command("ref_step", 0))
    assert "local_event_due" in codes(events)
    rig(s, 1)
    s, events = ok(s, Command("ref_trap", 0))
    assert s.players[0].health == 6 and events[0].get("loss") == 4

    # The warehouse guard: the crew types its numbers, the engine plays it (D8).
    assert Command("ref_guard", 0, target=0) in legal_commands(s, 0)
    assert apply(s, Command("ref_guard", 0, target=1, numbers=(6, 2))) == Rejected("not_your_target")
    s, events = ok(s, Command("ref_guard", 0, target=0, numbers=(6, 2)))
    assert s.fight is not None and s.fight.enemy_health == 6
    rig(s, 4, 4)  # we hit full (2), the guard hits full (2)
    s, events = ok(s, Command("attack", 0))
    assert codes(events)[:2] == ["strike", "enemy_strike"] and s.fight.enemy_health == 4
    assert s.players[0].health == 4
    rig(s, 6)  # double: 4, the guard falls
    s, events = ok(s, Command("attack", 0))
    assert "story_item_taken" in codes(events) and "gear_due" in codes(events)
    assert s.players[0].aggression == 1 and s.cargo_taken
    s, _ = ok(s, Command("end_turn", 0))

    # Seat 1 (saboteur, mutant): radiation on a 3 (−2 for a mutant), shutdown on a 6.
    rig(s, 3)
    s, events = ok(s, Command("reactor", 1))
    assert s.players[1].health == 10 and "reactor_radiation" in codes(events)
    rig(s, 6)
    s, events = ok(s, Command("reactor", 1))
    assert s.gravity_off and s.alarm and s.docks_unlocked and s.docks_depressurised
    s, _ = ok(s, Command("end_turn", 1))
    s, events = ok(s, Command("end_turn", 2))
    assert s.hour == 1 and s.turn == 0
    assert s.players[0].ap == 7 - 2  # no gravity, no anti-grav boots (seed §2.1.8 step 6)
    assert s.players[0].aggression == 1  # fought this round: kept

    # Seat 0 escapes: the docks are open but depressurised, so only with a helmet.
    assert apply(s, Command("escape", 0)) == Rejected("needs_helmet")
    s, _ = ok(s, Command("ref_gear", 0, numbers=(3, 2, 0, 1, 0, 0, 0, 0, 0)))
    s, events = ok(s, Command("escape", 0))
    assert s.winner == 0 and codes(events)[-2:] == ["escaped", "mission_completed"]
    assert legal_commands(s, 1) == []


def test_referee_numbers_are_checked() -> None:
    s = referee()
    assert apply(s, Command("ref_encounter", 0, numbers=(0, 2, 1, 3, 1))) == Rejected("bad_numbers")
    assert apply(s, Command("ref_encounter", 0, numbers=(5, 2, 1))) == Rejected("bad_numbers")
    assert apply(s, Command("ref_gear", 1, numbers=(9, 0, 0, 1, 0, 0, 0, 0, 0))) == Rejected("bad_numbers")
    assert apply(s, Command("ref_damage", 0, numbers=(-1,))) == Rejected("bad_numbers")
    s, events = ok(s, Command("ref_encounter", 0, numbers=(5, 2, 1, 3, 1)))
    assert "dialogue" in codes(events)


def test_referee_hold_fight_waits_for_the_crews_card() -> None:
    s = referee(2, ("usurper", "smuggler"))
    s.players[0].won_center = True
    s.players[0].hold_left = 2
    s, _ = ok(s, Command("end_turn", 0))
    s, events = ok(s, Command("end_turn", 1))
    assert "hold_fight_due" in codes(events) and s.hold_due == 0
    assert apply(s, Command("heal", 0)) == Rejected("hold_fight_pending")
    assert [c.kind for c in legal_commands(s, 0)] == ["ref_hold_fight"]
    rig(s, 1)
    s, events = ok(s, Command("ref_hold_fight", 0, numbers=(4, 1)))
    assert codes(events)[:2] == ["fight_started", "enemy_strike"]  # the enemy strikes first


def test_custom_mission_is_claimed_by_the_crew() -> None:
    from tests.escape.helpers import custom

    s = referee(2)
    assert apply(s, Command("claim_mission", 0)) == Rejected("mission_checked_by_engine")
    s.players[1].mission = custom(())
    s, events = ok(s, Command("claim_mission", 1))
    assert s.winner == 1 and codes(events) == ["mission_completed"]


def test_referee_bands_may_be_negative_but_ordered() -> None:
    s = referee()
    assert apply(s, Command("ref_encounter", 0, numbers=(5, 2, 3, 1, 1))) == Rejected("bad_numbers")
    s, events = ok(s, Command("ref_encounter", 0, numbers=(5, 2, -1, 2, 1)))
    assert "dialogue" in codes(events)
