"""Setting a game up (seed §2.1.3) for both modes.

Digital mode lays out the station from the pack (seeded), deals missions, drafts characters and
the revealed weapons and gear in the seed's order; referee mode only needs the crew's characters
and missions typed in, because the box on the table holds the board and the decks.
"""

from __future__ import annotations

from engine.escape.content import CENTER, CORNERS, Character, GearCard, Mission, Pack, generate_layout
from engine.escape.rules import start_turn
from engine.escape.state import HOURS, Difficulty, Item, Player, State


def _draft_order(state: State, n: int) -> int:
    """Seed §2.1.3 step 8: everyone rolls, the highest picks first (ties roll again)."""
    while True:
        rolls = [state.roll() for _ in range(n)]
        best = max(rolls)
        if rolls.count(best) == 1:
            return rolls.index(best)


def new_digital_game(pack: Pack, seed: int, difficulty: Difficulty, players: int) -> State:
    """A digital game of 2-4 players.  D17: the draft is greedy (each takes the strongest card left
    in the seed's pick order) until the Discord part offers a pick; seat i starts on corner i (D3)."""
    if not 2 <= players <= 4:
        raise ValueError("players must be 2-4")  # a programming error, not a player's input
    grid = generate_layout(seed, pack.layout_outer, pack.layout_inner)
    state = State("digital", difficulty, seed, pack, [], limit=HOURS[difficulty], grid=grid)
    rng = state.rng()
    missions = rng.sample(list(pack.missions), players)
    chars = rng.sample(list(pack.characters), players)
    first = _draft_order(state, players)
    gear = list(pack.gear_outer)
    rng.shuffle(gear)
    weapons = [g for g in gear if g.type == "weapon"][: players + 1]
    others = [g for g in gear if g.type != "weapon"][: players + 1]
    for seat in range(players):
        cell = CORNERS[seat]
        state.players.append(Player(chars[seat].id, missions[seat], chars[seat].health, cell=cell, seen={cell}))
    state.opened = {CENTER, *CORNERS}
    for offset, row in ((1, weapons), (2, others)):
        row.sort(key=lambda g: (g.damage, g.charges, g.armour, g.heal), reverse=True)
        for k in range(players):
            seat = (first + offset + k) % players
            card = row[k]
            state.players[seat].items.append(Item(card.id, card.charges, card.armour))
    state.turn = (first + 1) % players  # seed §2.1.3 step 9: the next player clockwise starts
    state.turns_taken = 0
    start_turn(state)
    return state


def new_referee_game(
    seed: int, difficulty: Difficulty, characters: list[Character], missions: list[Mission], first: int, pack: Pack
) -> State:
    """A referee game: the crew's characters (numbers off their cards) and missions (from a pack or
    typed as custom, goals empty), and who takes the first turn.  The board stays on the table."""
    if not 2 <= len(characters) == len(missions) <= 4 or not 0 <= first < len(characters):
        raise ValueError("2-4 characters, one mission each")
    state = State("referee", difficulty, seed, pack, [], limit=HOURS[difficulty])
    for char, mission in zip(characters, missions, strict=True):
        state.chars[char.id] = char
        state.players.append(Player(char.id, mission, char.health))
    state.cards["cargo"] = GearCard("cargo", "tool", 0, story=True)
    state.cards["disk"] = GearCard("disk", "tool", 0, story=True)
    state.turn = first
    start_turn(state)
    return state
