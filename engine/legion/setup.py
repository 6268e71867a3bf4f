"""Setting up a voyage (seed 3.1.1), deterministic for a seed.

Steps 3 and 8 are missing in the seed; nothing is invented for them.  The side deck (step 5) holds
exactly one Scarlet Legion card among as many cards as players (D-10).  The captain is the highest
d6, ties re-rolled (step 6).  Roles by player count (step 7): with 3 the captain is also Senior
Officer; with 4 the captain appoints one (the seats after the captain get the other roles until the
captain reassigns them with `AssignRoles` in the shop phase).
"""

from __future__ import annotations

import random

from engine.legion.commands import Event
from engine.legion.pack import Content
from engine.legion.state import (
    HAND,
    START_CREDITS,
    START_SUPPLY,
    Compartment,
    Role,
    Seat,
    Ship,
    Side,
    State,
    load_hold,
)

MIN_PLAYERS = 3
MAX_PLAYERS = 4  # seed: 3-4 players
SHOP_SIZE = 5  # seed 3.1.1 step 9


class SetupError(ValueError):
    """A voyage cannot start with these settings; `code` says why."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def roll_off(rng: random.Random, seats: list[int]) -> int:
    """The highest d6 among `seats`, ties re-rolled among the tied (seed 3.1.1 step 6, 3.1.5)."""
    contenders = list(seats)
    while len(contenders) > 1:
        rolls = {seat: rng.randint(1, 6) for seat in contenders}
        best = max(rolls.values())
        contenders = [seat for seat in contenders if rolls[seat] == best]
    return contenders[0]


def new_voyage(
    content: Content, players: int, seed: int, *, mission: str | None = None, ship: str | None = None
) -> tuple[State, list[Event]]:
    """A fresh voyage for `players` seats, with the events that tell each seat their secrets."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise SetupError("player_count")
    if mission is not None and mission not in content.missions:
        raise SetupError("unknown_mission")
    if ship is not None and ship not in content.ships:
        raise SetupError("unknown_ship")
    pack = content.pack
    rng = random.Random(seed)
    mission_id = mission if mission is not None else rng.choice([m.id for m in pack.missions])  # step 1
    ship_card = content.ships[ship] if ship is not None else rng.choice(list(pack.ships))  # step 2
    weapon, engine, armour = pack.starting_modules
    hold = [Compartment() for _ in range(ship_card.hold + (1 if ship_card.pod else 0))]
    load_hold(hold, "supply", START_SUPPLY)
    if content.missions[mission_id].kind == "delivery":
        # seed 3.1.3: the Delivery mission card travels in a hold compartment
        free = next(c for c in hold if c.kind == "empty")
        free.kind, free.card = "mission", mission_id
    the_ship = Ship(
        card=ship_card.id,
        hull=ship_card.hull,
        max_hull=ship_card.hull,
        weapons=[weapon],
        engines=[engine],
        armour=armour,
        specials=[],
        weapon_slots=ship_card.weapon_slots - (ship_card.pod == "weapon"),
        engine_slots=ship_card.engine_slots - (ship_card.pod == "engine"),
        special_slots=ship_card.special_slots - (ship_card.pod == "special"),
        hold=hold,
    )
    event_deck = [card.id for card in pack.events for _ in range(card.count)]
    rng.shuffle(event_deck)
    characters = [c.id for c in pack.characters]
    rng.shuffle(characters)
    sides: list[Side] = ["legion"]
    sides += ["crew"] * (players - 1)  # step 5, D-10
    rng.shuffle(sides)
    seats = []
    for index in range(players):  # step 4
        hand = [event_deck.pop() for _ in range(HAND)]
        seats.append(Seat(character=characters[index], side=sides[index], hand=hand))
    captain = roll_off(rng, list(range(players)))  # step 6
    others = [(captain + k) % players for k in range(1, players)]
    roles: dict[int, list[Role]] = {seat: [] for seat in range(players)}
    roles[captain].append("captain")
    if players == 3:  # step 7
        roles[captain].append("officer")
        roles[others[0]].append("gunner")
        roles[others[1]].append("pilot")
    else:
        roles[others[0]].append("officer")
        roles[others[1]].append("gunner")
        roles[others[2]].append("pilot")
    flight_deck = [card.id for card in pack.flights for _ in range(card.count)]
    rng.shuffle(flight_deck)
    starting = set(pack.starting_modules)
    equipment_deck = [e.id for e in pack.equipment if e.id not in starting]
    rng.shuffle(equipment_deck)
    shop = [equipment_deck.pop() for _ in range(min(SHOP_SIZE, len(equipment_deck)))]  # step 9
    state = State(
        content=content,
        rng=rng,
        mission=mission_id,
        seats=seats,
        ship=the_ship,
        credits=START_CREDITS + content.missions[mission_id].advance,
        captain=captain,
        roles=roles,
        flight_deck=flight_deck,
        flight_discard=[],
        event_deck=event_deck,
        event_discard=[],
        equipment_deck=equipment_deck,
        shop=shop,
    )
    events = [Event("voyage_set", {"mission": mission_id, "ship": ship_card.id, "captain": captain})]
    for index, seat in enumerate(seats):
        events.append(Event("side_dealt", {"side": seat.side, "character": seat.character}, to=index))
    return state, events
