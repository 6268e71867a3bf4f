"""D29: the next player acts out the station's enemy (seed §2.1.8 step 2), when a game asks for it
(digital mode on Discord does by default); the engine rolls at once otherwise (D8)."""

from __future__ import annotations

from engine.escape.policy import actor
from engine.escape.rules import Command, Rejected, apply, legal_commands
from engine.escape.snapshot import from_dict, to_dict
from tests.escape.helpers import codes, digital, ok, place, rig


def _fight(players: int = 3):  # type: ignore[no-untyped-def]
    s = digital(players)
    s.next_plays_enemy = True
    t = s.turn
    place(s, t, (0, 1), "corridor")
    s.alarm = True  # no dialogue: always a fight (seed §2.1.8 step 1)
    s.decks["local1"] = ["o_merc"]
    s, _ = ok(s, Command("move", t, target=1))
    assert s.fight is not None
    s.fight.enemy_health = 20
    return s, t


def test_after_the_players_strike_the_next_player_rolls_for_the_enemy_seed_2_1_8_step_2() -> None:
    s, t = _fight()
    nxt = (t + 1) % 3
    assert s.fight is not None and s.fight.enemy_by == nxt and not s.fight.enemy_turn
    rig(s, 4)
    s, events = ok(s, Command("attack", t))
    assert codes(events) == ["strike", "enemy_to_strike"] and events[-1].get("by") == nxt
    assert s.fight is not None and s.fight.enemy_turn and actor(s) == nxt
    assert [c.kind for c in legal_commands(s, nxt)] == ["enemy_strike"] and legal_commands(s, t) == []
    assert apply(s, Command("attack", t)) == Rejected("not_your_strike")
    assert apply(s, Command("attack", nxt)) == Rejected("not_your_strike")
    assert apply(s, Command("enemy_strike", (t + 2) % 3)) == Rejected("not_your_strike")
    health = s.players[t].health
    rig(s, 4)  # full damage, as the enemy card says
    s, events = ok(s, Command("enemy_strike", nxt))
    assert codes(events)[0] == "enemy_strike" and s.players[t].health == health - s.fight.enemy_damage  # type: ignore[union-attr]
    assert s.fight is not None and not s.fight.enemy_turn and actor(s) == t


def test_a_failed_flight_passes_to_the_enemys_player_and_the_snapshot_keeps_it() -> None:
    s, t = _fight(2)
    rig(s, 1)
    s, events = ok(s, Command("flee", t))
    assert codes(events) == ["flee", "enemy_to_strike"] and actor(s) == 1 - t
    again = from_dict(to_dict(s))
    assert again.next_plays_enemy and again.fight == s.fight


def test_without_the_option_the_engine_plays_the_enemy_at_once_d8() -> None:
    s, t = _fight()
    s.next_plays_enemy = False
    assert s.fight is not None
    s.fight.enemy_by = -1
    rig(s, 4, 4)
    s, events = ok(s, Command("attack", t))
    assert codes(events)[:2] == ["strike", "enemy_strike"] and actor(s) == t
