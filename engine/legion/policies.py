"""Simple seat policies, for the balance simulation and for tests: a loyal crew member and a
Legion agent.  Each looks only at what its seat may know (its hand, its drawn pool card, public
state) plus its own side, and returns one command or None (nothing to do now).

They are deliberately plain: the loyal policy plays sensibly and refuses orders it distrusts, the
agent slips harmful cards into the pool, starves devices when captain and shirks when it can.
Balance figures (bench/legion_balance.py) are measured with these.
"""

from __future__ import annotations

import random

from engine.legion import commands as c
from engine.legion.commands import Command
from engine.legion.rules import _device_count, _seat_of, legal_commands
from engine.legion.state import ENERGY, Role, State

HARMFUL = frozenset({"jam", "wound", "strain", "breach", "spoil"})


def _harm(state: State, card: str) -> bool:
    return state.content.events[card].effect in HARMFUL


def _worst_first(state: State, hand: list[str]) -> list[str]:
    """Cards to pay costs with: harmful ones first (playing a card discards it unused)."""
    order = {"breach": 0, "wound": 0, "jam": 0, "strain": 0, "spoil": 0, "none": 1, "steady": 2, "patch": 3, "boost": 4}
    return sorted(hand, key=lambda card: (order[state.content.events[card].effect], card))


def choose(state: State, seat: int, rng: random.Random) -> Command | None:
    """The seat's next command under its side's policy, or None if it has nothing to do now."""
    me = state.seats[seat]
    if state.winner is not None or me.out:
        return None
    legion = me.side == "legion"
    phase = state.phase
    captain = seat == state.captain
    hand = me.hand
    pay = _worst_first(state, hand)
    cheap = pay[0] if pay else ""
    if phase == "shop":
        return _shop(state, seat) if captain else None
    if phase == "contact":
        card = state.content.flights[state.card]
        combat = state.combat
        assert combat is not None
        if seat == _seat_of(state, "pilot") and card.evadable and hand and combat.attack >= 7 and not legion:
            return c.Evade(seat, cheap)
        if captain:
            if card.dump and state.goods() >= card.dump and hand and combat.attack >= 6 and not legion:
                return c.Dump(seat, cheap)
            if seat == _seat_of(state, "pilot") and card.evadable and hand and combat.attack >= 7 and not legion:
                return c.Evade(seat, cheap)
            return c.Engage(seat)
        return None
    if phase == "orders":
        return _orders(state, seat, legion, cheap) if captain else None
    if phase == "submit":
        pending = [role for role in state.tour.queue if role not in state.tour.submitted]
        if not any(_seat_of(state, role) == seat for role in pending) or not hand:
            return None
        if legion:
            return c.Submit(seat, pay[0])
        return c.Submit(seat, pay[-1])
    if phase in ("turns", "free"):
        role = state.tour.queue[0]
        if _seat_of(state, role) != seat:
            return None
        if phase == "free":
            return c.Operate(seat, not legion)
        return _turn(state, seat, role, legion, rng)
    if phase == "visit":
        return _visit(state, seat, legion, pay)
    if phase == "anomaly":
        kind = state.content.characters[me.character].ability.kind
        if kind == "navigate" and hand and not legion and not me.broken:
            return c.Avoid(seat, cheap)
        return c.Endure(seat) if captain else None
    if phase == "after" and captain:
        hurt = state.ship.hull <= state.ship.max_hull // 2 or any(state.seats[s].health <= 4 for s in state.living())
        if hurt and not state.fled and state.supply() >= 4 and not legion:
            return c.Drift(seat)
        return c.Depart(seat)
    return None


def _shop(state: State, seat: int) -> Command:
    equipment = state.content.equipment
    for item in sorted(state.shop, key=lambda i: -equipment[i].value):
        if equipment[item].price <= state.credits - 6:
            return c.Buy(seat, item)
    return c.Depart(seat)


def _orders(state: State, seat: int, legion: bool, card: str) -> Command:
    gunner = min(_device_count(state, "gunner"), ENERGY)
    officer = min(_device_count(state, "officer"), ENERGY - gunner)
    pilot = min(_device_count(state, "pilot"), ENERGY - gunner - officer)
    if legion and state.rng.random() < 0.5:
        gunner, pilot = 0, min(_device_count(state, "pilot"), ENERGY)
    return c.GiveOrders(seat, card, gunner=gunner, pilot=pilot, officer=officer)


def _turn(state: State, seat: int, role: Role, legion: bool, rng: random.Random) -> Command:
    me = state.seats[seat]
    drawn = state.tour.drawn.get(role)
    pay = _worst_first(state, me.hand)
    if not legion and pay and seat not in state.tour.used_ability and not me.broken:
        kind = state.content.characters[me.character].ability.kind
        wanted = (
            (kind == "aim" and role == "gunner")
            or (kind == "evade" and role == "pilot")
            or (kind == "repair" and state.ship.hull < state.ship.max_hull - 2)
        )
        if wanted:
            return c.UseAbility(seat, pay[0], seat)
        if kind in ("heal", "calm"):
            low = [
                s for s in state.living() if (state.seats[s].health if kind == "heal" else state.seats[s].mental) <= 5
            ]
            if low:
                return c.UseAbility(seat, pay[0], low[0])
    can_refuse = seat != state.captain and not me.broken
    if legion:
        if can_refuse and drawn is not None and not _harm(state, drawn) and rng.random() < 0.6:
            return c.Refuse(seat)
        return c.Obey(seat)
    if can_refuse and drawn is not None and _harm(state, drawn) and me.mental > 3:
        return c.Refuse(seat)
    if can_refuse and me.mental > 5 and _distrusts(state):
        return c.Refuse(seat)
    return c.Obey(seat)


def _need_of(state: State, seat: int, kind: str) -> int:
    who = state.seats[seat]
    return who.health if kind == "heal" else who.mental


def _distrusts(state: State) -> bool:
    """A loyal member distrusts a captain who left the guns cold in a fight."""
    return state.tour.orders.get("gunner", 0) == 0 and _device_count(state, "gunner") > 0


def _visit(state: State, seat: int, legion: bool, pay: list[str]) -> Command | None:
    visit = state.visit
    assert visit is not None
    me = state.seats[seat]
    if seat == state.captain and visit.kind == "station" and not visit.captain_deal and pay:
        deal = _deal(state, seat, legion, pay[0])
        if deal is not None:
            return deal
    if visit.queue and visit.queue[0] == seat:
        if seat not in visit.acted and pay:
            if me.health <= 7:
                return c.Medbay(seat, pay[0])
            if me.mental <= 7 or me.broken:
                return c.Cabin(seat, pay[0])
            if visit.kind == "planet" and not legion:
                task = state.content.flights[state.card].task
                if task is not None and me.health > task.cost_health + 3 and me.mental > task.cost_mental + 3:
                    return c.PlanetTask(seat, pay[0])
        if pay and seat not in state.tour.used_ability and not me.broken and not legion:
            kind = state.content.characters[me.character].ability.kind
            if kind == "scavenge" and visit.kind == "planet":
                return c.UseAbility(seat, pay[0], seat)
            if kind == "repair" and state.ship.hull < state.ship.max_hull:
                return c.UseAbility(seat, pay[0], seat)
        return c.EndTurn(seat)
    if seat == state.captain and not visit.queue:
        return c.Depart(seat)
    return None


def _deal(state: State, seat: int, legion: bool, card: str) -> Command | None:
    flight = state.content.flights[state.card]
    options = []
    for index, service in enumerate(flight.services):
        command: Command
        if service.kind == "hand_in" and state.prisoners and not flight.no_hand_in:
            options.append((0, c.Deal(seat, card, index)))
        elif service.kind == "buy_supply" and state.credits >= service.price and state.supply() < 12:
            options.append((1 if state.supply() < 6 else 4, c.Deal(seat, card, index)))
        elif service.kind == "repair" and state.credits >= service.price and state.ship.hull <= state.ship.max_hull - 4:
            options.append((2, c.Deal(seat, card, index)))
        elif service.kind == "sell_goods" and state.goods() > 0:
            options.append((3, c.Deal(seat, card, index)))
        elif service.kind == "shipyard":
            for item in state.shop:
                if state.content.equipment[item].price <= state.credits - 5:
                    command = c.Deal(seat, card, index, item)
                    options.append((5, command))
                    break
    if not options:
        return None
    options.sort(key=lambda pair: pair[0])
    return options[-1][1] if legion else options[0][1]


def play_out(state: State, rng: random.Random, *, max_steps: int = 20_000) -> int:
    """Run the voyage to its end in place under the policies; returns the number of commands.
    A seat with nothing sensible falls back to its first legal command, so a game never stalls."""
    from engine.legion.rules import step

    steps = 0
    while state.winner is None and steps < max_steps:
        acted = False
        order = sorted(range(len(state.seats)), key=lambda s: s == state.captain)
        for seat in order:
            command = choose(state, seat, rng)
            if command is None:
                continue
            result = step(state, command)
            if isinstance(result, c.Rejected):
                continue
            steps += 1
            acted = True
            break
        if not acted:
            for seat in order:
                legal = legal_commands(state, seat)
                if legal:
                    step(state, legal[0])
                    steps += 1
                    acted = True
                    break
        if not acted:
            raise RuntimeError(f"stalled in phase {state.phase}")
    return steps
