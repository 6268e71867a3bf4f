"""The voyage's rules, each test named for the seed rule (seed 3.1.x) or decision (D-n) it checks."""

from __future__ import annotations

from engine.legion import commands as c
from engine.legion.rules import apply
from engine.legion.state import State
from tests.legion.helpers import CONTENT, Dice, codes, do, seat, stack, to_combat, voyage


def _orders(state: State, *, gunner: int = 0, pilot: int = 0) -> None:
    captain = state.captain
    do(state, c.GiveOrders(captain, state.seats[captain].hand[0], gunner=gunner, pilot=pilot))


def _submit_routine(state: State, role: str) -> None:
    """The ordered player puts a harmless card face down (so the drawn card does nothing)."""
    who = seat(state, role)
    state.seats[who].hand[0] = "routine"
    do(state, c.Submit(who, "routine"))


def test_seed_3_1_4_each_flight_costs_one_supply() -> None:
    state = voyage()
    stack(state, "jungle_world")
    do(state, c.Depart(state.captain))
    assert state.flight == 1 and state.supply() == 9


def test_seed_3_1_4_without_supply_everyone_loses_2_health_and_1_mental() -> None:
    state = voyage()
    for compartment in state.ship.hold:
        if compartment.kind == "supply":
            compartment.kind, compartment.amount = "empty", 0
    stack(state, "jungle_world")
    events = do(state, c.Depart(state.captain))
    assert "supplies_exhausted" in codes(events)
    assert all((s.health, s.mental) == (8, 9) for s in state.seats)


def test_seed_3_1_1_step_9_shop_buys_and_fits_before_the_first_flight() -> None:
    state = voyage()
    state.shop = ["armour_ii"]
    do(state, c.Buy(state.captain, "armour_ii"))
    assert state.ship.armour == "armour_ii"
    assert state.credits == 20 - CONTENT.equipment["armour_ii"].price
    stack(state, "jungle_world")
    do(state, c.Depart(state.captain))
    assert state.shop == []  # valid until the first flight


def test_seed_3_1_5_orders_only_by_the_captain_and_at_most_5_energy() -> None:
    state = voyage()
    to_combat(state, "meet_legion_corvette")
    other = (state.captain + 1) % 4
    assert apply(state, c.GiveOrders(other, state.seats[other].hand[0], gunner=1)) == c.Rejected("not_captain")
    state.ship.weapons = ["weapon_i", "weapon_ii", "weapon_iii"]
    state.ship.engines = ["engine_i", "engine_ii", "engine_iii"]
    card = state.seats[state.captain].hand[0]
    assert apply(state, c.GiveOrders(state.captain, card, gunner=3, pilot=3)) == c.Rejected("bad_orders")
    assert apply(state, c.GiveOrders(state.captain, card, gunner=2)) != c.Rejected("bad_orders")


def test_seed_3_1_5_pool_every_submitted_card_is_drawn_once_by_the_ordered_players() -> None:
    state = voyage()
    to_combat(state, "meet_legion_corvette")
    state.rng = Dice([1, 6, 1])  # gunner loses, pilot fails
    _orders(state, gunner=1, pilot=1)
    gunner, pilot = seat(state, "gunner"), seat(state, "pilot")
    state.seats[gunner].hand[0], state.seats[pilot].hand[0] = "routine", "steady_hands"
    do(state, c.Submit(gunner, "routine"))
    assert state.phase == "submit"  # waits for every ordered player
    events = do(state, c.Submit(pilot, "steady_hands"))
    assert "pool_shuffled" in codes(events)
    drawn = [e for e in events if e.code == "pool_card_drawn"]
    assert drawn[0].to == gunner  # private to the one who draws it
    events += do(state, c.Obey(gunner))
    events += do(state, c.Obey(pilot))
    cards = sorted(str(e.params["card"]) for e in events if e.code == "pool_card_drawn")
    assert cards == ["routine", "steady_hands"]


def test_seed_3_1_6_crew_attack_higher_destroys_and_loot_pirates_6_keeps_live_pirates() -> None:
    state = voyage()
    stack(state, "meet_pirates_corvette")
    do(state, c.Depart(state.captain))
    do(state, c.Engage(state.captain))
    state.rng = Dice([6, 1, 6])  # crew d6, captain's d6 for the enemy, loot roll
    _orders(state, gunner=1)
    _submit_routine(state, "gunner")
    events = do(state, c.Obey(seat(state, "gunner")))
    assert "enemy_destroyed" in codes(events)
    assert state.prisoners == [CONTENT.enemies["pirates_corvette"].attack]
    assert state.phase == "after"


def test_seed_3_1_6_tie_restarts_the_tour() -> None:
    state = voyage()
    to_combat(state, "meet_legion_corvette")
    gunner = seat(state, "gunner")
    skill = CONTENT.characters[state.seats[gunner].character].skill
    attack = CONTENT.enemies["legion_corvette"].attack
    crew = 6
    state.rng = Dice([crew, crew + 3 + skill - attack])  # d6 + Weapon I (3) + skill == d6 + attack
    _orders(state, gunner=1)
    _submit_routine(state, "gunner")
    events = do(state, c.Obey(gunner))
    assert "tour_restarted" in codes(events)
    assert state.phase == "orders" and state.combat is not None and state.combat.rounds == 0


def test_seed_3_1_6_failed_evasion_hull_damage_is_attack_minus_armour() -> None:
    state = voyage()
    to_combat(state, "meet_legion_corvette")
    state.rng = Dice([2])  # d6 + Engine I = 3 < 6
    _orders(state, pilot=1)
    _submit_routine(state, "pilot")
    before = state.ship.hull
    events = do(state, c.Obey(seat(state, "pilot")))
    damage = CONTENT.enemies["legion_corvette"].attack - CONTENT.equipment["armour_i"].value
    assert state.ship.hull == before - damage
    assert "hull_damaged" in codes(events)
    assert codes(events).count("hull_damaged") == 1  # the enemy hits once per tour


def test_seed_3_1_6_one_evasion_roll_per_active_engine_any_success_escapes() -> None:
    state = voyage()
    to_combat(state, "meet_legion_corvette")
    state.ship.engines = ["engine_i", "engine_i"]
    state.rng = Dice([1, 5])  # the second engine's roll: 5 + 1 >= 6
    _orders(state, pilot=2)
    _submit_routine(state, "pilot")
    events = do(state, c.Obey(seat(state, "pilot")))
    assert "escaped" in codes(events) and state.fled
    assert apply(state, c.Drift(state.captain)) == c.Rejected("fled")  # seed 3.1.7


def test_seed_3_1_2_armour_at_least_attack_enemy_flees_after_first_round() -> None:
    state = voyage()
    stack(state, "meet_legion_corvette")
    do(state, c.Depart(state.captain))
    state.ship.armour = "armour_iv"
    assert CONTENT.equipment["armour_iv"].value >= CONTENT.enemies["legion_corvette"].attack
    hull = state.ship.hull
    captain = state.captain
    events = do(state, c.GiveOrders(captain, state.seats[captain].hand[0]))  # no energy: the tour ends
    assert "enemy_fled" in codes(events)
    assert state.ship.hull == hull and state.combat is None and state.phase == "after" and not state.fled


def test_seed_3_1_6_unknown_ships_hit_each_characters_mental_less_their_roll() -> None:
    state = voyage()
    stack(state, "meet_unknown_corvette")
    do(state, c.Depart(state.captain))
    attack = CONTENT.enemies["unknown_corvette"].attack
    state.rng = Dice([1, 2, 3, 4])
    hull = state.ship.hull
    _orders(state)
    assert [s.mental for s in state.seats] == [10 - (attack - r) for r in (1, 2, 3, 4)]
    assert state.ship.hull == hull


def test_seed_3_1_5_refusal_player_wins_card_discarded_energy_freed_captain_loses_mental() -> None:
    state = voyage()
    to_combat(state, "meet_legion_corvette")
    _orders(state, gunner=1)
    _submit_routine(state, "gunner")
    gunner = seat(state, "gunner")
    state.rng = Dice([5, 2])
    events = do(state, c.Refuse(gunner))
    assert "duel" in codes(events)
    assert state.seats[state.captain].mental == 9 and state.seats[gunner].mental == 10
    assert state.phase == "free" and state.unexecuted == 1
    assert state.tour.drawn == {}
    assert not isinstance(apply(state, c.Operate(gunner, True)), c.Rejected)


def test_seed_3_1_5_refusal_captain_wins_order_is_forced() -> None:
    state = voyage()
    to_combat(state, "meet_legion_corvette")
    _orders(state, gunner=1)
    _submit_routine(state, "gunner")
    gunner = seat(state, "gunner")
    state.rng = Dice([2, 5, 6, 1, 1])  # duel lost, then the forced attack: 6 vs 1
    events = do(state, c.Refuse(gunner))
    assert state.seats[gunner].mental == 9
    assert "order_carried_out" in codes(events) and "attack_rolled" in codes(events)
    assert state.unexecuted == 0


def test_d4_refusal_ties_are_rerolled() -> None:
    state = voyage()
    to_combat(state, "meet_legion_corvette")
    _orders(state, gunner=1)
    _submit_routine(state, "gunner")
    state.rng = Dice([3, 3, 5, 2])
    events = do(state, c.Refuse(seat(state, "gunner")))
    duel = next(e for e in events if e.code == "duel")
    assert (duel.params["player_roll"], duel.params["captain_roll"]) == (5, 2)


def test_seed_3_1_5_three_unexecuted_orders_pass_the_captaincy_by_roll() -> None:
    state = voyage()
    to_combat(state, "meet_legion_corvette")
    state.unexecuted = 2
    old = state.captain
    _orders(state, gunner=1)
    _submit_routine(state, "gunner")
    gunner = seat(state, "gunner")
    others = [s for s in range(4) if s != old]
    rolls = [6 if s == others[1] else 1 for s in others]
    state.rng = Dice([5, 2, *rolls])
    events = do(state, c.Refuse(gunner))
    assert "captain_changed" in codes(events)
    assert state.captain == others[1] and state.captain != old
    assert state.unexecuted == 0
    assert sum("captain" in roles for roles in state.roles.values()) == 1


def test_captain_cannot_refuse_own_order_with_three_players() -> None:
    state = voyage(players=3)
    to_combat(state, "meet_legion_corvette")
    state.ship.specials = ["drone_wing"]
    do(state, c.GiveOrders(state.captain, state.seats[state.captain].hand[0], officer=1))
    state.seats[state.captain].hand[0] = "routine"
    do(state, c.Submit(state.captain, "routine"))
    assert apply(state, c.Refuse(state.captain)) == c.Rejected("own_order")


def test_seed_3_1_7_station_wait_costs_1_cr_and_one_deal_per_tour() -> None:
    state = voyage()
    stack(state, "trade_post")
    do(state, c.Depart(state.captain))
    assert state.phase == "visit"
    captain = state.captain
    do(state, c.Deal(captain, state.seats[captain].hand[0], 1))  # buy supply
    assert apply(state, c.Deal(captain, state.seats[captain].hand[0], 1)) == c.Rejected("already_done")
    assert apply(state, c.Wait(captain)) == c.Rejected("turns_left")
    while state.visit is not None and state.visit.queue:
        do(state, c.EndTurn(state.visit.queue[0]))
    credits = state.credits
    do(state, c.Wait(captain))
    assert state.credits == credits - 1
    assert state.visit is not None and not state.visit.captain_deal


def test_seed_3_1_7_planet_each_player_once_and_drift_costs_a_supply() -> None:
    state = voyage()
    stack(state, "jungle_world")
    do(state, c.Depart(state.captain))
    first = state.visit.queue[0] if state.visit else -1
    supply = state.supply()
    do(state, c.PlanetTask(first, state.seats[first].hand[0]))
    assert state.supply() == supply + 2 and state.seats[first].health == 9
    assert apply(state, c.PlanetTask(first, state.seats[first].hand[0])) == c.Rejected("already_done")
    while state.visit is not None and state.visit.queue:
        do(state, c.EndTurn(state.visit.queue[0]))
    before = state.supply()
    do(state, c.Drift(state.captain))
    assert state.supply() == before - 1 and state.visit is not None and state.visit.kind == "drift"


def test_d5_medbay_and_cabin_restore_three() -> None:
    state = voyage()
    stack(state, "jungle_world")
    do(state, c.Depart(state.captain))
    first = state.visit.queue[0] if state.visit else -1
    state.seats[first].health = 4
    do(state, c.Medbay(first, state.seats[first].hand[0]))
    assert state.seats[first].health == 7
    assert apply(state, c.Cabin(first, state.seats[first].hand[0])) == c.Rejected("already_done")


def test_d1_zero_health_puts_a_character_out_and_reveals_the_side() -> None:
    state = voyage()
    for who in state.seats:
        who.health = 1
    for compartment in state.ship.hold:
        if compartment.kind == "supply":
            compartment.kind, compartment.amount = "empty", 0
    stack(state, "jungle_world")
    events = do(state, c.Depart(state.captain))
    assert state.winner == "legion" and state.reason == "crew_lost"
    assert codes(events).count("side_revealed") == 4


def test_seed_3_1_3_delivery_is_done_after_the_20th_flight() -> None:
    state = voyage(mission="delivery")
    state.flight = 19
    stack(state, "jungle_world")
    do(state, c.Depart(state.captain))
    while state.visit is not None and state.visit.queue:
        do(state, c.EndTurn(state.visit.queue[0]))
    events = do(state, c.Depart(state.captain))
    assert state.winner == "crew" and "voyage_over" in codes(events)


def test_seed_3_1_3_destruction_ends_with_a_final_fight_against_attack_15() -> None:
    state = voyage(mission="destruction")
    state.flight = 14
    stack(state, "jungle_world")
    do(state, c.Depart(state.captain))
    while state.visit is not None and state.visit.queue:
        do(state, c.EndTurn(state.visit.queue[0]))
    do(state, c.Depart(state.captain))
    assert state.combat is not None and state.combat.final and state.combat.attack == 15
    assert state.winner is None


def test_seed_3_1_2_hull_zero_ends_the_voyage_as_the_legions_win() -> None:
    state = voyage()
    to_combat(state, "meet_legion_corvette")
    state.ship.hull = 1
    state.rng = Dice([1])
    _orders(state, pilot=1)
    _submit_routine(state, "pilot")
    do(state, c.Obey(seat(state, "pilot")))
    assert state.winner == "legion" and state.reason == "destroyed_by_legion"
    assert apply(state, c.Depart(state.captain)) == c.Rejected("game_over")


def test_apply_is_pure() -> None:
    state = voyage()
    before = (state.flight, state.supply(), list(state.flight_deck))
    result = apply(state, c.Depart(state.captain))
    assert isinstance(result, c.Applied) and result.state.flight == 1
    assert (state.flight, state.supply(), list(state.flight_deck)) == before
