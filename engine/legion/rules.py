"""The voyage's rules: `apply(state, command)` and `legal_commands(state, player)`.

`apply` is pure (the state is deep-copied, the pack shared); `step` does the same work in place for
the balance simulation.  Each rule names its source: "seed 3.1.x" is the English spec of seed 002
(shared/reference/other-seed-games.md section 3), "D-n" a decision in docs/legion-rules.md.
"""

from __future__ import annotations

import itertools
import pickle
from collections.abc import Callable

from engine.legion import commands as c
from engine.legion.commands import Applied, Command, Event, Rejected
from engine.legion.setup import roll_off
from engine.legion.state import (
    ENERGY,
    HAND,
    ROLE_ORDER,
    START_HEALTH,
    START_MENTAL,
    Combat,
    Role,
    State,
    Tour,
    Visit,
    load_hold,
    unload_hold,
)

EVASION_TARGET = 6  # D-3: d6 + engine level >= 6
HEAL = 3  # D-5: medbay +3 Health, cabin +3 Mental
MAX_COMBAT_ROUNDS = 6  # D-12: an enemy breaks off after six rounds
FINAL_ROUNDS = 10  # D-12: a mission's target gets away after ten
EXTRA_FLIGHTS = 15  # D-8: a voyage this far past its mission's flights is lost
RECON_ATTACK = 5  # seed 3.1.3: the reconnaissance battle's enemy (D-20: a Legion corvette)
DEVICE_ROLES: tuple[Role, ...] = ("officer", "gunner", "pilot")


class _Reject(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def apply(state: State, command: Command) -> Applied | Rejected:
    """The state after `command` and what happened, or why it is refused; `state` is untouched."""
    if state.winner is not None:
        return Rejected("game_over")
    work = _clone(state)
    events: list[Event] = []
    try:
        _HANDLERS[type(command)](work, command, events)
    except _Reject as refusal:
        return Rejected(refusal.code)
    return Applied(work, tuple(events))


def _clone(state: State) -> State:
    """A deep copy of the state sharing the pack; pickling in memory is three times faster than
    `copy.deepcopy` here, which matters to `legal_commands` (it tries every candidate)."""
    clone: State = pickle.loads(pickle.dumps(state, pickle.HIGHEST_PROTOCOL))
    return clone


def step(state: State, command: Command) -> list[Event] | Rejected:
    """`apply` in place, for the simulation: on a refusal the state may be partly changed, so a
    caller only passes commands from `legal_commands` (which never refuse)."""
    if state.winner is not None:
        return Rejected("game_over")
    events: list[Event] = []
    try:
        _HANDLERS[type(command)](state, command, events)
    except _Reject as refusal:
        return Rejected(refusal.code)
    return events


# --- small helpers -----------------------------------------------------------------------------


def _need(condition: bool, code: str) -> None:
    if not condition:
        raise _Reject(code)


def _captain(state: State, player: int) -> None:
    _need(player == state.captain, "not_captain")


def _play(state: State, player: int, card: str, events: list[Event]) -> None:
    """Play (discard) an event card from the player's hand (seed 3.1.5)."""
    _need(0 <= player < len(state.seats), "bad_seat")
    hand = state.seats[player].hand
    _need(card in hand, "no_card")
    hand.remove(card)
    state.event_discard.append(card)
    events.append(Event("card_played", {"seat": player, "card": card}))


def _draw_event(state: State, player: int, events: list[Event]) -> None:
    hand = state.seats[player].hand
    if len(hand) >= HAND:
        return
    if not state.event_deck:
        state.event_deck, state.event_discard = state.event_discard, []
        state.rng.shuffle(state.event_deck)
    if state.event_deck:
        card = state.event_deck.pop()
        hand.append(card)
        events.append(Event("card_drawn", {"card": card}, to=player))


def _d6(state: State) -> int:
    return state.rng.randint(1, 6)


def _roles_of(state: State, seat: int) -> list[Role]:
    return state.roles.get(seat, [])


def _seat_of(state: State, role: Role) -> int:
    seat = state.seat_of_role(role)
    return state.captain if seat is None else seat


def _role_rank(state: State, seat: int) -> int:
    ranks = [ROLE_ORDER.index(role) for role in _roles_of(state, seat)]
    return min(ranks) if ranks else len(ROLE_ORDER)


def _end(state: State, winner: str, reason: str, events: list[Event]) -> None:
    """D-8/D-9: the voyage ends; every side is revealed."""
    state.winner = "crew" if winner == "crew" else "legion"
    state.reason = reason
    state.phase = "over"
    for index, seat in enumerate(state.seats):
        seat.revealed = True
        events.append(Event("side_revealed", {"seat": index, "side": seat.side}))
    events.append(Event("voyage_over", {"winner": state.winner, "reason": reason}))


def _check_crew(state: State, events: list[Event]) -> None:
    """D-8: the Legion wins when no loyal character is left standing."""
    if state.winner is None and not any(not s.out and s.side == "crew" for s in state.seats):
        _end(state, "legion", "crew_lost", events)


def _lose_health(state: State, seat: int, amount: int, events: list[Event]) -> None:
    """D-1: at 0 Health a character is out of the voyage (revealed, roles go to the captain)."""
    who = state.seats[seat]
    if who.out or amount <= 0:
        return
    who.health = max(0, who.health - amount)
    events.append(Event("health_lost", {"seat": seat, "amount": amount, "health": who.health}))
    if who.health == 0:
        who.out = True
        who.revealed = True
        events.append(Event("character_out", {"seat": seat, "side": who.side}))
        if seat == state.captain and state.living():
            _new_captain(state, seat, events, reason="captain_out")
        for role in list(_roles_of(state, seat)):
            state.roles[seat].remove(role)
            state.roles[state.captain].append(role)
        _check_crew(state, events)


def _lose_mental(state: State, seat: int, amount: int, events: list[Event]) -> None:
    """D-2: at 0 Mental a character breaks: revealed, cannot refuse or use abilities."""
    who = state.seats[seat]
    if who.out or amount <= 0:
        return
    who.mental = max(0, who.mental - amount)
    events.append(Event("mental_lost", {"seat": seat, "amount": amount, "mental": who.mental}))
    if who.mental == 0 and not who.broken:
        who.broken = True
        who.revealed = True
        events.append(Event("character_broken", {"seat": seat, "side": who.side}))


def _damage_hull(state: State, amount: int, events: list[Event]) -> None:
    """Seed 3.1.2: the game ends when the hull reaches 0 (D-8: a crew loss, the Legion's win)."""
    if amount <= 0:
        return
    state.ship.hull = max(0, state.ship.hull - amount)
    events.append(Event("hull_damaged", {"amount": amount, "hull": state.ship.hull}))
    if state.ship.hull == 0 and state.winner is None:
        faction = state.combat.faction if state.combat is not None else ""
        _end(state, "legion", "destroyed_by_legion" if faction == "legion" else "ship_destroyed", events)


def _new_captain(state: State, old: int, events: list[Event], *, reason: str) -> None:
    """Seed 3.1.5 mutiny rule: the captaincy passes by a die roll among the others; D-6: the two
    swap their role cards."""
    others = [seat for seat in state.living() if seat != old]
    if not others:
        return
    new = roll_off(state.rng, others)
    state.roles[old], state.roles[new] = state.roles[new], state.roles[old]
    state.captain = new
    state.unexecuted = 0
    events.append(Event("captain_changed", {"seat": new, "former": old, "reason": reason}))


def _armour(state: State) -> int:
    return state.content.equipment[state.ship.armour].value


def _best(state: State, ids: list[str], count: int) -> list[int]:
    values = sorted((state.content.equipment[i].value for i in ids), reverse=True)
    return values[:count]


def _install(state: State, item: str, events: list[Event]) -> None:
    """Fit equipment: into a free slot, else in place of the weakest if better (D-11)."""
    card = state.content.equipment[item]
    ship = state.ship
    if card.kind == "armour":  # seed 3.1.2: only one armour
        if card.value > _armour(state):
            ship.armour = item
        events.append(Event("equipment_fitted", {"item": item}))
        return
    rack, slots = {
        "weapon": (ship.weapons, ship.weapon_slots),
        "engine": (ship.engines, ship.engine_slots),
        "special": (ship.specials, ship.special_slots),
    }[card.kind]
    if len(rack) < slots:
        rack.append(item)
    elif rack:
        weakest = min(rack, key=lambda i: state.content.equipment[i].value)
        if state.content.equipment[weakest].value < card.value:
            rack[rack.index(weakest)] = item
    events.append(Event("equipment_fitted", {"item": item}))


# --- the flight loop ---------------------------------------------------------------------------


def _mission_done(state: State, events: list[Event]) -> bool:
    """Seed 3.1.3: checked when a flight's conditions are fulfilled (on leaving its card)."""
    mission = state.content.missions[state.mission]
    if mission.kind == "delivery":
        return state.flight >= mission.flights
    if mission.kind == "destruction":
        if state.flight >= mission.flights and not state.final_done:  # D-20: a Legion dreadnought
            _start_combat(state, "final", mission.final_attack, "legion", "dreadnought", events, final=True)
            return False
        return state.final_done
    if mission.kind == "reconnaissance":
        return state.flight >= mission.flights
    return state.artifact and state.flight >= state.artifact_flight + 5


def _after_card(state: State, events: list[Event]) -> None:
    """Leaving a flight card: mission rolls, the win check, then the next flight."""
    mission = state.content.missions[state.mission]
    state.visit = None
    if mission.kind == "exploration" and state.artifact and state.artifact_flight == -1:
        # seed 3.1.3: after the card the artifact is loaded into a hold compartment (D-13)
        spot = next((x for x in state.ship.hold if x.kind == "empty"), None)
        if spot is None:
            spot = min(state.ship.hold, key=lambda x: (x.kind == "mission", x.amount))
        spot.kind, spot.amount, spot.card = "mission", 0, state.mission
        state.artifact_flight = state.flight
        events.append(Event("artifact_loaded", {"flight": state.flight}))
    if mission.kind == "reconnaissance" and state.combat is None and state.card != "recon":
        state.card = "recon"
        roll = _d6(state)
        events.append(Event("recon_roll", {"roll": roll}))
        if roll == 6:
            _start_combat(state, "recon", RECON_ATTACK, "legion", "corvette", events)
            return
    if _mission_done(state, events):
        _end(state, "crew", "mission_done", events)
        return
    if state.combat is not None:  # the Destruction mission's final fight began
        return
    if state.flight >= mission.flights + EXTRA_FLIGHTS:
        _end(state, "legion", "voyage_too_long", events)
        return
    _next_flight(state, events)


def _next_flight(state: State, events: list[Event]) -> None:
    """Seed 3.1.4: discard 1 supply (or everyone -2 Health -1 Mental), draw a flight card."""
    state.shop = []
    state.fled = False
    state.combat = None
    state.flight += 1
    mission = state.content.missions[state.mission]
    if unload_hold(state.ship.hold, "supply", 1) == 1:
        events.append(Event("supply_used", {"supply": state.supply()}))
    else:
        events.append(Event("supplies_exhausted", {}))
        for seat in state.living():
            _lose_health(state, seat, 2, events)
            _lose_mental(state, seat, 1, events)
        if state.winner is not None:
            return
    for seat in state.living():  # D-14: hands refill at the start of every flight
        while len(state.seats[seat].hand) < HAND and (state.event_deck or state.event_discard):
            _draw_event(state, seat, events)
    if mission.kind == "exploration" and not state.artifact and state.flight % 3 == 0:
        roll = _d6(state)  # seed 3.1.3, D-13: the needed roll drops by one every second miss
        need = max(3, 6 - state.exploration_rolls // 2)
        state.exploration_rolls += 1
        events.append(Event("artifact_roll", {"roll": roll, "need": need}))
        if roll >= need:
            state.artifact = True
            state.artifact_flight = -1
    if not state.flight_deck:
        state.flight_deck, state.flight_discard = state.flight_discard, []
        state.rng.shuffle(state.flight_deck)
    card_id = state.flight_deck.pop()
    state.flight_discard.append(card_id)
    state.card = card_id
    card = state.content.flights[card_id]
    events.append(Event("flight_drawn", {"flight": state.flight, "card": card_id, "type": card.type}))
    if card.type == "combat":
        enemy = state.content.enemies[card.enemy or ""]
        _start_combat(state, enemy.id, enemy.attack, enemy.faction, enemy.ship_class, events)
        if card.evadable or card.dump:
            state.phase = "contact"
    elif card.type == "anomaly":
        state.phase = "anomaly"
    else:
        _start_visit(state, "station" if card.type == "station" else "planet", events)


def _start_combat(
    state: State, enemy: str, attack: int, faction: str, ship_class: str, events: list[Event], *, final: bool = False
) -> None:
    state.combat = Combat(enemy=enemy, attack=attack, faction=faction, ship_class=ship_class, final=final)
    state.tour = Tour()
    state.phase = "orders"
    events.append(Event("contact", {"enemy": enemy, "attack": attack, "faction": faction, "class": ship_class}))


def _start_visit(state: State, kind: str, events: list[Event]) -> None:
    """Seed 3.1.7: a non-combat tour; each living player in role order takes a turn (D-7)."""
    queue = sorted(state.living(), key=lambda seat: (_role_rank(state, seat), seat))
    if kind == "station":
        visit = Visit(kind="station", queue=queue)
        card = state.content.flights[state.card]
        if any(s.kind == "shipyard" for s in card.services):
            state.shop = [state.equipment_deck.pop() for _ in range(min(3, len(state.equipment_deck)))]
    elif kind == "planet":
        visit = Visit(kind="planet", queue=queue)
    else:
        visit = Visit(kind="drift", queue=queue)
    state.visit = visit
    state.phase = "visit"
    events.append(Event("tour_started", {"kind": kind}))


def _end_combat(state: State, fled: bool, events: list[Event]) -> None:
    combat = state.combat
    state.fled = fled
    if combat is not None and combat.final and not fled:
        state.final_done = True
    state.combat = None
    state.tour = Tour()
    state.phase = "after"
    if combat is not None and combat.final:
        _after_card(state, events)


# --- combat ------------------------------------------------------------------------------------


def _loot(state: State, combat: Combat, events: list[Event]) -> None:
    """Seed 3.1.6 step 3: the loot table per faction and class; half the attack rounds up."""
    roll = _d6(state)
    half = (combat.attack + 1) // 2
    events.append(Event("loot_roll", {"roll": roll}))
    if combat.faction == "pirates":
        if roll <= 4:
            got = load_hold(state.ship.hold, "goods", half)
            events.append(Event("loot_goods", {"amount": got}))
        elif roll == 5:
            got = load_hold(state.ship.hold, "supply", half)
            events.append(Event("loot_supply", {"amount": got}))
        else:
            state.prisoners.append(combat.attack)
            events.append(Event("loot_prisoners", {"value": combat.attack}))
    elif combat.faction == "unknown":
        if roll <= 5:  # D-15: goods, as the table's first word says
            got = load_hold(state.ship.hold, "goods", half)
            events.append(Event("loot_goods", {"amount": got}))
        else:
            _loot_equipment(state, 0, events)
    elif roll <= 4:
        got = load_hold(state.ship.hold, "supply", half)
        events.append(Event("loot_supply", {"amount": got}))
    else:
        level = {"corvette": 1, "frigate": 2, "cruiser": 3, "battleship": 4}.get(combat.ship_class, 0)
        _loot_equipment(state, level, events)


def _loot_equipment(state: State, level: int, events: list[Event]) -> None:
    """Level 0 is special equipment (seed 3.1.6 step 3: Unknown 6, Legion dreadnought)."""
    equipment = state.content.equipment
    for item in reversed(state.equipment_deck):
        card = equipment[item]
        if (level == 0 and card.kind == "special") or (level > 0 and card.kind != "special" and card.level == level):
            state.equipment_deck.remove(item)
            _install(state, item, events)
            return
    events.append(Event("loot_none", {}))


def _enemy_hits(state: State, events: list[Event]) -> None:
    """Seed 3.1.6: hull damage = attack - armour; Unknown ships hit each character's Mental, each
    player subtracting a d6 of their own."""
    combat = state.combat
    assert combat is not None
    if combat.faction == "unknown":
        for seat in state.living():
            _lose_mental(state, seat, max(0, combat.attack - _d6(state)), events)
    else:
        _damage_hull(state, combat.attack - _armour(state) - state.tour.armour_bonus, events)


def _operate(state: State, role: Role, seat: int, events: list[Event]) -> None:
    """Use the devices the order powered (seed 3.1.6 step 2); one energy per device use."""
    tour = state.tour
    combat = state.combat
    assert combat is not None
    energy = tour.orders.get(role, 0)
    bonus, tour.card_bonus = tour.card_bonus, 0
    if role == "officer":
        tour.attack_bonus += bonus
        ranked = sorted(state.ship.specials, key=lambda i: -state.content.equipment[i].value)
        for item in ranked[:energy]:
            card = state.content.equipment[item]
            events.append(Event("special_used", {"item": item}))
            if card.effect == "attack":
                tour.attack_bonus += card.value
            elif card.effect == "armour":
                tour.armour_bonus += card.value
            elif card.effect == "evasion":
                tour.evasion_bonus += card.value
            else:
                state.ship.hull = min(state.ship.max_hull, state.ship.hull + card.value)
        return
    if role == "gunner":
        skill = state.content.characters[state.seats[seat].character].skill
        crew = _d6(state) + sum(_best(state, state.ship.weapons, energy)) + tour.attack_bonus + skill + bonus
        foe = _d6(state) + combat.attack
        events.append(Event("attack_rolled", {"crew": crew, "enemy": foe}))
        if crew > foe:
            events.append(Event("enemy_destroyed", {"enemy": combat.enemy}))
            if not combat.final:
                _loot(state, combat, events)
            _end_combat(state, False, events)
        elif crew == foe:
            events.append(Event("tour_restarted", {}))
            _new_tour(state, events, count_round=False)
        return
    levels = _best(state, state.ship.engines, energy)
    rolls = [_d6(state) + level + tour.evasion_bonus + bonus for level in levels]
    events.append(Event("evasion_rolled", {"rolls": len(rolls), "best": max(rolls, default=0)}))
    if any(r >= EVASION_TARGET for r in rolls):
        tour.hit_taken = True
        if combat.final:  # D-12: the final enemy cannot be escaped, only its hit
            events.append(Event("hit_evaded", {}))
        else:
            events.append(Event("escaped", {}))
            _end_combat(state, True, events)
    elif not tour.hit_taken:
        tour.hit_taken = True
        _enemy_hits(state, events)


def _new_tour(state: State, events: list[Event], *, count_round: bool) -> None:
    """A new combat tour (seed 3.1.6); the pool's cards are discarded (every one was drawn or is
    discarded unseen on a restart)."""
    combat = state.combat
    assert combat is not None
    for card in state.tour.pool:
        state.event_discard.append(card)
    if count_round:
        combat.rounds += 1
        if not combat.final and _armour(state) >= combat.attack:
            events.append(Event("enemy_fled", {}))  # seed 3.1.2: armour >= attack
            _end_combat(state, False, events)
            return
        if combat.final and combat.rounds >= FINAL_ROUNDS:  # D-12: the target gets away
            _end(state, "legion", "target_escaped", events)
            return
        if combat.rounds >= MAX_COMBAT_ROUNDS and not combat.final:
            events.append(Event("enemy_broke_off", {}))
            _end_combat(state, False, events)
            return
        for seat in state.living():  # D-14: one card per player per new tour
            _draw_event(state, seat, events)
    state.tour = Tour()
    state.phase = "orders"


def _next_turn(state: State, events: list[Event]) -> None:
    """Hand the turn to the next ordered role, drawing its pool card (seed 3.1.5 step 3)."""
    tour = state.tour
    while state.winner is None and state.combat is not None and state.phase in ("turns", "free"):
        if not tour.queue:
            if not tour.hit_taken:
                tour.hit_taken = True
                _enemy_hits(state, events)
            if state.winner is None:
                _new_tour(state, events, count_round=True)
            return
        role = tour.queue[0]
        seat = _seat_of(state, role)
        if state.seats[seat].out:
            tour.queue.pop(0)
            continue
        state.phase = "turns"
        if role not in tour.drawn and tour.pool:
            card = tour.pool.pop()
            tour.drawn[role] = card
            events.append(Event("pool_card_drawn", {"role": role, "card": card}, to=seat))
        events.append(Event("turn", {"seat": seat, "role": role}))
        return


def _finish_turn(state: State, events: list[Event]) -> None:
    if state.winner is None and state.combat is not None and state.phase in ("turns", "free"):
        state.tour.queue.pop(0)
        state.phase = "turns"
        _next_turn(state, events)


def _apply_card(state: State, seat: int, card_id: str, events: list[Event]) -> None:
    """The drawn event card's effect on whoever carries out the order (D-16)."""
    card = state.content.events[card_id]
    events.append(Event("event_resolved", {"card": card_id, "effect": card.effect, "seat": seat}))
    if card.effect == "boost":
        state.tour.card_bonus += card.amount
    elif card.effect == "jam":
        state.tour.card_bonus -= card.amount
    elif card.effect == "wound":
        _lose_health(state, seat, card.amount, events)
    elif card.effect == "strain":
        _lose_mental(state, seat, card.amount, events)
    elif card.effect == "steady":
        who = state.seats[seat]
        who.mental = min(START_MENTAL, who.mental + card.amount)
    elif card.effect == "patch":
        state.ship.hull = min(state.ship.max_hull, state.ship.hull + card.amount)
    elif card.effect == "breach":
        _damage_hull(state, card.amount, events)
    elif card.effect == "spoil":
        unload_hold(state.ship.hold, "supply", card.amount)
    state.event_discard.append(card_id)


def _current(state: State) -> tuple[Role, int]:
    role = state.tour.queue[0]
    return role, _seat_of(state, role)


# --- handlers ----------------------------------------------------------------------------------


def _assign_roles(state: State, cmd: c.AssignRoles, events: list[Event]) -> None:
    """Seed 3.1.1 step 7: with 3 the captain is also Senior Officer; with 4 the captain appoints
    one.  Short-handed (characters out), roles may double up."""
    _captain(state, cmd.player)
    _need(state.phase in ("shop", "visit"), "wrong_phase")
    living = state.living()
    chosen = (cmd.officer, cmd.gunner, cmd.pilot)
    _need(all(seat in living for seat in chosen), "bad_target")
    others = [seat for seat in living if seat != state.captain]
    if len(living) >= 4:
        _need(len(set(chosen)) == 3 and state.captain not in chosen, "bad_roles")
    elif len(living) == 3:
        _need(cmd.officer == state.captain and {cmd.gunner, cmd.pilot} == set(others), "bad_roles")
    roles: dict[int, list[Role]] = {seat: [] for seat in range(len(state.seats))}
    roles[state.captain].append("captain")
    roles[cmd.officer].append("officer")
    roles[cmd.gunner].append("gunner")
    roles[cmd.pilot].append("pilot")
    state.roles = roles
    events.append(Event("roles_assigned", {"officer": cmd.officer, "gunner": cmd.gunner, "pilot": cmd.pilot}))


def _buy(state: State, cmd: c.Buy, events: list[Event]) -> None:
    """Seed 3.1.1 step 9: the starting shop, valid until the first flight; prices D-17."""
    _captain(state, cmd.player)
    _need(state.phase == "shop", "wrong_phase")
    _purchase(state, cmd.item, events)


def _purchase(state: State, item: str, events: list[Event]) -> None:
    _need(item in state.shop, "no_such_item")
    price = state.content.equipment[item].price
    _need(state.credits >= price, "no_credits")
    state.credits -= price
    state.shop.remove(item)
    events.append(Event("bought", {"item": item, "price": price, "credits": state.credits}))
    _install(state, item, events)


def _depart(state: State, cmd: c.Depart, events: list[Event]) -> None:
    _captain(state, cmd.player)
    if state.phase == "shop":
        _next_flight(state, events)
        return
    if state.phase == "visit":
        _need(state.visit is not None and not state.visit.queue, "turns_left")
    else:
        _need(state.phase == "after", "wrong_phase")
    _after_card(state, events)


def _wait(state: State, cmd: c.Wait, events: list[Event]) -> None:
    """Seed 3.1.7: another tour at the station for 1 Cr."""
    _captain(state, cmd.player)
    visit = state.visit
    _need(state.phase == "visit" and visit is not None and visit.kind == "station", "wrong_phase")
    assert visit is not None
    _need(not visit.queue, "turns_left")
    _need(state.credits >= 1, "no_credits")
    state.credits -= 1
    events.append(Event("waited", {"credits": state.credits}))
    for seat in state.living():
        _draw_event(state, seat, events)
    shop = state.shop
    _start_visit(state, "station", events)
    state.shop = shop or state.shop


def _drift(state: State, cmd: c.Drift, events: list[Event]) -> None:
    """Seed 3.1.7: after a ship or planet card, a drift tour for 1 supply, never after fleeing."""
    _captain(state, cmd.player)
    if state.phase == "visit":
        _need(state.visit is not None and state.visit.kind != "station" and not state.visit.queue, "wrong_phase")
    else:
        _need(state.phase == "after", "wrong_phase")
    _need(not state.fled, "fled")
    _need(state.supply() >= 1, "no_supply")
    unload_hold(state.ship.hold, "supply", 1)
    events.append(Event("drifting", {"supply": state.supply()}))
    _start_visit(state, "drift", events)


def _evade(state: State, cmd: c.Evade, events: list[Event]) -> None:
    """Seed 3.1.6 step 1: the pilot's roll to avoid the fight (D-3: d6 + best engine >= 6)."""
    _need(state.phase == "contact", "wrong_phase")
    _need(cmd.player == _seat_of(state, "pilot"), "not_pilot")
    _need(state.content.flights[state.card].evadable, "not_allowed")
    _play(state, cmd.player, cmd.card, events)
    roll = _d6(state) + max(_best(state, state.ship.engines, 1), default=0)
    events.append(Event("avoid_rolled", {"roll": roll}))
    if roll >= EVASION_TARGET:
        _end_combat(state, True, events)
    else:
        state.phase = "orders"


def _dump(state: State, cmd: c.Dump, events: list[Event]) -> None:
    """Seed 3.1.6 step 1: the captain dumps goods, if the card allows, to avoid the fight."""
    _captain(state, cmd.player)
    _need(state.phase == "contact", "wrong_phase")
    amount = state.content.flights[state.card].dump
    _need(amount > 0, "not_allowed")
    _need(state.goods() >= amount, "no_goods")
    _play(state, cmd.player, cmd.card, events)
    unload_hold(state.ship.hold, "goods", amount)
    events.append(Event("goods_dumped", {"amount": amount}))
    _end_combat(state, True, events)


def _engage(state: State, cmd: c.Engage, events: list[Event]) -> None:
    _captain(state, cmd.player)
    _need(state.phase == "contact", "wrong_phase")
    state.phase = "orders"


def _device_count(state: State, role: Role) -> int:
    ship = state.ship
    return {"gunner": len(ship.weapons), "pilot": len(ship.engines), "officer": len(ship.specials)}.get(role, 0)


def _give_orders(state: State, cmd: c.GiveOrders, events: list[Event]) -> None:
    """Seed 3.1.5 step 1: 5 energy per tour, 1 per device use, allocated by the captain's order
    (an event card; D-18: an empty-handed captain orders without one)."""
    _captain(state, cmd.player)
    _need(state.phase == "orders", "wrong_phase")
    wanted: dict[Role, int] = {"gunner": cmd.gunner, "pilot": cmd.pilot, "officer": cmd.officer}
    _need(all(v >= 0 for v in wanted.values()) and sum(wanted.values()) <= ENERGY, "bad_orders")
    for role, energy in wanted.items():
        _need(energy <= _device_count(state, role), "bad_orders")
        if energy:
            _need(not state.seats[_seat_of(state, role)].out, "bad_orders")
    if state.seats[cmd.player].hand or cmd.card:
        _play(state, cmd.player, cmd.card, events)
    tour = state.tour
    tour.orders = {role: energy for role, energy in wanted.items() if energy > 0}
    tour.queue = [role for role in ROLE_ORDER if role in tour.orders]
    events.append(Event("orders_given", {"gunner": cmd.gunner, "pilot": cmd.pilot, "officer": cmd.officer}))
    state.phase = "submit"
    _maybe_shuffle(state, events)


def _pending_submit(state: State) -> list[Role]:
    """Ordered roles still to put a card face down (an empty hand has nothing to put)."""
    tour = state.tour
    return [role for role in tour.queue if role not in tour.submitted and state.seats[_seat_of(state, role)].hand]


def _maybe_shuffle(state: State, events: list[Event]) -> None:
    """Seed 3.1.5 step 3: once every ordered player has submitted, shuffle and start the turns."""
    if _pending_submit(state):
        return
    tour = state.tour
    tour.pool = [tour.submitted[role] for role in tour.queue if role in tour.submitted]
    state.rng.shuffle(tour.pool)
    events.append(Event("pool_shuffled", {"cards": len(tour.pool)}))
    state.phase = "turns"
    _next_turn(state, events)


def _submit(state: State, cmd: c.Submit, events: list[Event]) -> None:
    _need(state.phase == "submit", "wrong_phase")
    roles = [role for role in _pending_submit(state) if _seat_of(state, role) == cmd.player]
    _need(bool(roles), "not_ordered")
    hand = state.seats[cmd.player].hand
    _need(cmd.card in hand, "no_card")
    hand.remove(cmd.card)
    state.tour.submitted[roles[0]] = cmd.card
    events.append(Event("card_submitted", {"seat": cmd.player}))
    _maybe_shuffle(state, events)


def _ability(state: State, seat: int, card: str, target: int, events: list[Event]) -> None:
    """A character's ability (our pack, D-19), paid with an event card."""
    who = state.seats[seat]
    _need(not who.broken, "broken")
    _need(0 <= target < len(state.seats) and not state.seats[target].out, "bad_target")
    ability = state.content.characters[who.character].ability
    _need(ability.kind not in ("navigate",), "not_allowed")
    if ability.kind in ("aim", "evade"):
        _need(state.combat is not None, "not_allowed")
    if ability.kind == "scavenge":
        _need(state.visit is not None and state.visit.kind == "planet", "not_allowed")
    _play(state, seat, card, events)
    events.append(Event("ability_used", {"seat": seat, "kind": ability.kind, "target": target}))
    other = state.seats[target]
    if ability.kind == "heal":
        other.health = min(START_HEALTH, other.health + ability.amount)
    elif ability.kind == "calm":
        other.mental = min(START_MENTAL, other.mental + ability.amount)
        other.broken = other.broken and other.mental == 0
    elif ability.kind == "repair":
        state.ship.hull = min(state.ship.max_hull, state.ship.hull + ability.amount)
    elif ability.kind == "aim":
        state.tour.attack_bonus += ability.amount
    elif ability.kind == "evade":
        state.tour.evasion_bonus += ability.amount
    else:
        load_hold(state.ship.hold, "supply", ability.amount)


def _use_ability(state: State, cmd: c.UseAbility, events: list[Event]) -> None:
    if state.phase == "turns":
        _, seat = _current(state)
        _need(seat == cmd.player, "not_your_turn")
        _need(cmd.player not in state.tour.used_ability, "already_done")
        _ability(state, cmd.player, cmd.card, cmd.target, events)
        state.tour.used_ability.append(cmd.player)
        return
    _visit_turn(state, cmd.player)
    _need(cmd.player not in state.tour.used_ability, "already_done")
    _ability(state, cmd.player, cmd.card, cmd.target, events)
    state.tour.used_ability.append(cmd.player)


def _obey(state: State, cmd: c.Obey, events: list[Event]) -> None:
    """Seed 3.1.5: carry out the order with the drawn card."""
    _need(state.phase == "turns", "wrong_phase")
    role, seat = _current(state)
    _need(seat == cmd.player, "not_your_turn")
    _carry_out(state, role, seat, events)


def _carry_out(state: State, role: Role, seat: int, events: list[Event]) -> None:
    card = state.tour.drawn.pop(role, None)
    events.append(Event("order_carried_out", {"seat": seat, "role": role}))
    if card is not None:
        _apply_card(state, seat, card, events)
    if state.winner is None and not state.seats[seat].out and state.combat is not None:
        _operate(state, role, seat, events)
    if state.phase in ("turns", "free") and state.tour.queue and state.tour.queue[0] == role:
        _finish_turn(state, events)


def _refuse(state: State, cmd: c.Refuse, events: list[Event]) -> None:
    """Seed 3.1.5 refusal: both roll, the lower loses 1 Mental (D-4: ties re-rolled); the captain's
    win forces the order, the player's win discards the card and frees the energy."""
    _need(state.phase == "turns", "wrong_phase")
    role, seat = _current(state)
    _need(seat == cmd.player, "not_your_turn")
    _need(seat != state.captain, "own_order")
    _need(not state.seats[seat].broken, "broken")
    while True:
        mine, theirs = _d6(state), _d6(state)
        if mine != theirs:
            break
    events.append(Event("duel", {"seat": seat, "captain": state.captain, "player_roll": mine, "captain_roll": theirs}))
    if theirs > mine:
        _lose_mental(state, seat, 1, events)
        if state.seats[seat].out:
            _finish_turn(state, events)
            return
        _carry_out(state, role, seat, events)
        return
    captain = state.captain
    _lose_mental(state, captain, 1, events)
    card = state.tour.drawn.pop(role, None)
    if card is not None:
        state.event_discard.append(card)
    state.unexecuted += 1
    events.append(Event("order_unexecuted", {"count": state.unexecuted}))
    if state.unexecuted >= 3:
        _new_captain(state, captain, events, reason="mutiny")
    state.phase = "free"


def _operate_free(state: State, cmd: c.Operate, events: list[Event]) -> None:
    _need(state.phase == "free", "wrong_phase")
    role = state.tour.queue[0]
    _need(cmd.player == _seat_of(state, role), "not_your_turn")
    if cmd.use:
        _operate(state, role, cmd.player, events)
    if state.phase == "free" and state.tour.queue and state.tour.queue[0] == role:
        _finish_turn(state, events)


def _visit_turn(state: State, player: int) -> Visit:
    _need(state.phase == "visit" and state.visit is not None, "wrong_phase")
    visit = state.visit
    assert visit is not None
    _need(bool(visit.queue) and visit.queue[0] == player, "not_your_turn")
    return visit


def _medbay(state: State, cmd: c.Medbay, events: list[Event]) -> None:
    """D-5: the medbay restores 3 Health; one of medbay, cabin or the planet task per tour."""
    visit = _visit_turn(state, cmd.player)
    _need(cmd.player not in visit.acted, "already_done")
    _play(state, cmd.player, cmd.card, events)
    visit.acted.append(cmd.player)
    who = state.seats[cmd.player]
    who.health = min(START_HEALTH, who.health + HEAL)
    events.append(Event("medbay", {"seat": cmd.player, "health": who.health}))


def _cabin(state: State, cmd: c.Cabin, events: list[Event]) -> None:
    """D-5: the cabin restores 3 Mental and ends a breakdown."""
    visit = _visit_turn(state, cmd.player)
    _need(cmd.player not in visit.acted, "already_done")
    _play(state, cmd.player, cmd.card, events)
    visit.acted.append(cmd.player)
    who = state.seats[cmd.player]
    who.mental = min(START_MENTAL, who.mental + HEAL)
    who.broken = False
    events.append(Event("cabin", {"seat": cmd.player, "mental": who.mental}))


def _planet_task(state: State, cmd: c.PlanetTask, events: list[Event]) -> None:
    """Seed 3.1.7: each player may fulfil the planet's condition once."""
    visit = _visit_turn(state, cmd.player)
    _need(visit.kind == "planet", "wrong_phase")
    _need(cmd.player not in visit.acted and cmd.player not in visit.tasks_done, "already_done")
    task = state.content.flights[state.card].task
    assert task is not None
    _play(state, cmd.player, cmd.card, events)
    visit.acted.append(cmd.player)
    visit.tasks_done.append(cmd.player)
    _lose_health(state, cmd.player, task.cost_health, events)
    _lose_mental(state, cmd.player, task.cost_mental, events)
    roll = _d6(state) if task.target else 0
    if task.target and roll < task.target:
        events.append(Event("task_failed", {"seat": cmd.player, "roll": roll}))
        return
    _reward(state, cmd.player, task.reward, task.amount, events)


def _reward(state: State, seat: int, reward: str, amount: int, events: list[Event]) -> None:
    if reward in ("supply", "goods"):
        amount = load_hold(state.ship.hold, "supply" if reward == "supply" else "goods", amount)
    elif reward == "credits":
        state.credits += amount
    elif reward == "special":
        _loot_equipment(state, 0, events)
    elif reward == "mental":
        who = state.seats[seat]
        who.mental = min(START_MENTAL, who.mental + amount)
    else:
        who = state.seats[seat]
        who.health = min(START_HEALTH, who.health + amount)
    events.append(Event("task_done", {"seat": seat, "reward": reward, "amount": amount}))


def _deal(state: State, cmd: c.Deal, events: list[Event]) -> None:
    """Seed 3.1.7: one station condition per tour, by the captain, for an event card (D-21: at any
    time during the station tour)."""
    _captain(state, cmd.player)
    visit = state.visit
    _need(state.phase == "visit" and visit is not None and visit.kind == "station", "wrong_phase")
    assert visit is not None
    _need(not visit.captain_deal, "already_done")
    card = state.content.flights[state.card]
    _need(0 <= cmd.service < len(card.services), "not_allowed")
    service = card.services[cmd.service]
    if service.kind == "sell_goods":
        _need(state.goods() > 0, "no_goods")
    elif service.kind in ("buy_supply", "repair"):
        _need(state.credits >= service.price, "no_credits")
    elif service.kind == "hand_in":
        _need(bool(state.prisoners) and not card.no_hand_in, "not_allowed")
    else:
        _need(cmd.item in state.shop, "no_such_item")
        _need(state.credits >= state.content.equipment[cmd.item].price, "no_credits")
    _play(state, cmd.player, cmd.card, events)
    visit.captain_deal = True
    if service.kind == "sell_goods":
        sold = unload_hold(state.ship.hold, "goods", service.amount or state.goods())
        state.credits += sold * service.price
        events.append(Event("goods_sold", {"amount": sold, "credits": state.credits}))
    elif service.kind == "buy_supply":
        state.credits -= service.price
        got = load_hold(state.ship.hold, "supply", service.amount)
        events.append(Event("supply_bought", {"amount": got, "credits": state.credits}))
    elif service.kind == "repair":
        state.credits -= service.price
        state.ship.hull = min(state.ship.max_hull, state.ship.hull + service.amount)
        events.append(Event("repaired", {"hull": state.ship.hull, "credits": state.credits}))
    elif service.kind == "hand_in":  # seed 3.1.6: live pirates for A Cr each
        state.credits += sum(state.prisoners)
        state.prisoners = []
        events.append(Event("prisoners_handed_in", {"credits": state.credits}))
    else:
        _purchase(state, cmd.item, events)


def _end_turn(state: State, cmd: c.EndTurn, events: list[Event]) -> None:
    visit = _visit_turn(state, cmd.player)
    visit.queue.pop(0)
    state.tour.used_ability = [s for s in state.tour.used_ability if s != cmd.player]


def _avoid(state: State, cmd: c.Avoid, events: list[Event]) -> None:
    """Seed 3.1.7: a character with a fitting ability avoids the anomaly."""
    _need(state.phase == "anomaly", "wrong_phase")
    _need(0 <= cmd.player < len(state.seats) and not state.seats[cmd.player].out, "bad_seat")
    who = state.seats[cmd.player]
    _need(state.content.characters[who.character].ability.kind == "navigate" and not who.broken, "not_allowed")
    _play(state, cmd.player, cmd.card, events)
    events.append(Event("anomaly_avoided", {"seat": cmd.player}))
    state.phase = "after"


def _endure(state: State, cmd: c.Endure, events: list[Event]) -> None:
    """Seed 3.1.7: the captain applies the anomaly and the tour ends."""
    _captain(state, cmd.player)
    _need(state.phase == "anomaly", "wrong_phase")
    card = state.content.flights[state.card]
    events.append(Event("anomaly_applied", {"effect": card.anomaly or "", "amount": card.amount}))
    if card.anomaly == "hull":
        _damage_hull(state, card.amount, events)
    elif card.anomaly == "supply":
        unload_hold(state.ship.hold, "supply", card.amount)
    else:
        for seat in state.living():
            if card.anomaly == "mental":
                _lose_mental(state, seat, card.amount, events)
            else:
                _lose_health(state, seat, card.amount, events)
    if state.winner is None:
        state.phase = "after"


_HANDLERS: dict[type, Callable[[State, object, list[Event]], None]] = {
    c.AssignRoles: _assign_roles,  # type: ignore[dict-item]
    c.Buy: _buy,  # type: ignore[dict-item]
    c.Depart: _depart,  # type: ignore[dict-item]
    c.Wait: _wait,  # type: ignore[dict-item]
    c.Drift: _drift,  # type: ignore[dict-item]
    c.Evade: _evade,  # type: ignore[dict-item]
    c.Dump: _dump,  # type: ignore[dict-item]
    c.Engage: _engage,  # type: ignore[dict-item]
    c.GiveOrders: _give_orders,  # type: ignore[dict-item]
    c.Submit: _submit,  # type: ignore[dict-item]
    c.UseAbility: _use_ability,  # type: ignore[dict-item]
    c.Obey: _obey,  # type: ignore[dict-item]
    c.Refuse: _refuse,  # type: ignore[dict-item]
    c.Operate: _operate_free,  # type: ignore[dict-item]
    c.Medbay: _medbay,  # type: ignore[dict-item]
    c.Cabin: _cabin,  # type: ignore[dict-item]
    c.PlanetTask: _planet_task,  # type: ignore[dict-item]
    c.Deal: _deal,  # type: ignore[dict-item]
    c.EndTurn: _end_turn,  # type: ignore[dict-item]
    c.Avoid: _avoid,  # type: ignore[dict-item]
    c.Endure: _endure,  # type: ignore[dict-item]
}


# --- what a player may do ----------------------------------------------------------------------


def legal_commands(state: State, player: int) -> list[Command]:
    """Every command `player` may give now; each one is accepted by `apply`."""
    if state.winner is not None or not 0 <= player < len(state.seats) or state.seats[player].out:
        return []
    found: list[Command] = []
    for candidate in _candidates(state, player):
        if not isinstance(_probe(state, candidate), Rejected):
            found.append(candidate)
    return found


def _probe(state: State, command: Command) -> Applied | Rejected:
    return apply(state, command)


def _candidates(state: State, player: int) -> list[Command]:
    hand = sorted(set(state.seats[player].hand))
    out: list[Command] = []
    phase = state.phase
    is_captain = player == state.captain
    if phase == "shop" and is_captain:
        out += [c.Depart(player)] + [c.Buy(player, item) for item in sorted(set(state.shop))]
        out += _role_candidates(state, player)
    elif phase == "contact":
        out += [c.Engage(player)] if is_captain else []
        out += [c.Evade(player, card) for card in hand] + [c.Dump(player, card) for card in hand]
    elif phase == "orders" and is_captain:
        cards = hand or [""]
        caps = [min(ENERGY, _device_count(state, r)) for r in ("gunner", "pilot", "officer")]
        for g, p, o in itertools.product(*(range(cap + 1) for cap in caps)):
            if g + p + o <= ENERGY:
                out += [c.GiveOrders(player, card, g, p, o) for card in cards]
    elif phase == "submit":
        out += [c.Submit(player, card) for card in hand]
    elif phase == "turns":
        out += [c.Obey(player), c.Refuse(player)]
        out += [c.UseAbility(player, card, t) for card in hand for t in _ability_targets(state, player)]
    elif phase == "free":
        out += [c.Operate(player, True), c.Operate(player, False)]
    elif phase == "visit":
        out += [c.EndTurn(player)]
        for card in hand:
            out += [c.Medbay(player, card), c.Cabin(player, card), c.PlanetTask(player, card)]
            out += [c.UseAbility(player, card, t) for t in _ability_targets(state, player)]
        if is_captain:
            out += [c.Depart(player), c.Wait(player), c.Drift(player)]
            out += _role_candidates(state, player)
            services = state.content.flights[state.card].services if state.card in state.content.flights else ()
            for index, service in enumerate(services):
                items = sorted(set(state.shop)) if service.kind == "shipyard" else [""]
                out += [c.Deal(player, card, index, item) for card in hand for item in items]
    elif phase == "anomaly":
        out += [c.Endure(player)] if is_captain else []
        out += [c.Avoid(player, card) for card in hand]
    elif phase == "after" and is_captain:
        out += [c.Depart(player), c.Drift(player)]
    return out


def _ability_targets(state: State, player: int) -> list[int]:
    """Only healing and calming pick a target; every other ability acts on the ship or oneself."""
    kind = state.content.characters[state.seats[player].character].ability.kind
    return state.living() if kind in ("heal", "calm") else [player]


def _role_candidates(state: State, player: int) -> list[Command]:
    living = state.living()
    return [
        c.AssignRoles(player, o, g, p)
        for o, g, p in itertools.product(living, repeat=3)
        if len({o, g, p}) == 3 or len(living) < 4
    ]
