"""Simple players for digital games: a greedy mission-seeker, and a random legal mover.

Why in the engine: the balance bench (`bench/escape_balance.py`) and the property tests both
need whole games played without people; both policies only ever pick from `legal_commands`, so
they also exercise the rules' own notion of what is allowed.
"""

from __future__ import annotations

import random
from collections import deque

from engine.escape.content import CENTER, SIZE, level_of
from engine.escape.rules import DIRECTIONS, Command, has_type, legal_commands
from engine.escape.state import State

TARGET_TILE = {
    "take_cargo": "warehouse",
    "take_disk": "lab",
    "shutdown_reactor": "reactor",
    "take_center": "control_center",
    "hold_center": "control_center",
}


def actor(state: State) -> int:
    """The seat that must act now: the fighter to strike, the winner to loot, the overloaded, the
    rival offered a trade, or the turn."""
    if state.fight is not None:
        return state.fight.to_act
    if state.spoils is not None:
        return state.spoils[0]
    if state.overweight >= 0:
        return state.overweight
    if state.hold_due >= 0:
        return state.hold_due
    if state.offer is not None:  # rules doc D26: the rival answers a trade offer
        return state.offer.to
    return state.turn


def _first_step(state: State, start: tuple[int, int], goal: str) -> int:
    """The direction of the first step of a shortest walk to a tile of kind `goal` (-1: none)."""
    seen = {start}
    queue: deque[tuple[tuple[int, int], int]] = deque([(start, -1)])
    while queue:
        cell, first = queue.popleft()
        if state.grid[cell[0]][cell[1]] == goal and cell != start:
            return first
        for d, (dr, dc) in enumerate(DIRECTIONS):
            nxt = (cell[0] + dr, cell[1] + dc)
            if not (0 <= nxt[0] < SIZE and 0 <= nxt[1] < SIZE) or nxt in seen:
                continue
            here, there = state.grid[cell[0]][cell[1]], state.grid[nxt[0]][nxt[1]]
            if level_of(cell) != level_of(nxt) and "lift" not in (here, there):
                continue
            seen.add(nxt)
            queue.append((nxt, d if first < 0 else first))
    return -1


def _best_attack(state: State, options: list[Command]) -> Command:
    def expected(cmd: Command) -> float:
        if not cmd.numbers:
            return float(state.character(cmd.player).unarmed)
        p = state.players[cmd.player]
        total = 0.0
        for slot in cmd.numbers:
            card = state.gear(p.items[slot].gear)
            shots = 2 if card.double_shot and p.items[slot].charges >= 2 else 1
            total += card.damage * shots
        return total

    return max(options, key=expected)


def greedy(state: State, rng: random.Random) -> Command:
    """Walk to the next goal's site and do it; heal when low; fight with the strongest loadout."""
    seat = actor(state)
    legal = legal_commands(state, seat)
    kinds = {c.kind: c for c in legal}
    p = state.players[seat]
    if state.fight is not None:
        if "enemy_strike" in kinds:  # D29: rolling for the station's character is all there is
            return kinds["enemy_strike"]
        if p.health <= 2 and "flee" in kinds:
            return kinds["flee"]
        return _best_attack(state, [c for c in legal if c.kind == "attack"])
    if state.spoils is not None:
        return legal[-1]
    if state.offer is not None:  # D26: the greedy player keeps its own cards
        return kinds["decline_trade"]
    if state.overweight >= 0:
        drops = [c for c in legal if c.kind == "drop"]
        return min(
            drops, key=lambda c: state.gear(p.items[c.target].gear).damage + state.gear(p.items[c.target].gear).armour
        )
    max_health = state.character(seat).health
    if p.health * 2 < max_health:  # low: patch up before the next fight
        stims = [c for c in legal if c.kind == "use"]
        if "heal" in kinds:
            return kinds["heal"]
        if stims:
            return stims[0]
        direction = _first_step(state, p.cell, "medbay")
        move = next((c for c in legal if c.kind == "move" and c.target == direction), None)
        if move is not None:
            return move
    for kind in ("escape", "assault", "reactor"):
        if kind in kinds and (kind != "reactor" or p.health > 4):
            return kinds[kind]
    reloads = [c for c in legal if c.kind == "reload"]
    if reloads:
        return reloads[0]
    if "repair" in kinds:
        return kinds["repair"]
    if "loot" in kinds and p.ap >= 3:
        return kinds["loot"]
    goal = next((g for g in p.mission.goals if not _goal_done(state, seat, g)), "escape")
    if goal == "hold_center" and p.cell == CENTER:
        return kinds["end_turn"]
    tile = TARGET_TILE.get(goal, "docks")
    if goal == "escape" and not state.docks_unlocked:
        tile = "control_center"
    elif goal == "escape" and state.docks_depressurised and not has_type(state, seat, "helmet"):
        if "requisition" in kinds:
            return kinds["requisition"]
        tile = "armoury"
    if tile == "control_center" and p.cell == CENTER and "assault" not in kinds:
        return kinds["end_turn"]
    direction = _first_step(state, p.cell, tile)
    move = next((c for c in legal if c.kind == "move" and c.target == direction), None)
    if move is not None:
        return move
    return kinds["end_turn"]


def _goal_done(state: State, seat: int, goal: str) -> bool:
    p = state.players[seat]
    story = {i.gear for i in p.items}
    return {
        "take_cargo": "cargo" in story,
        "take_disk": "disk" in story,
        "shutdown_reactor": p.shut_reactor,
        "take_center": p.won_center,
        "hold_center": p.held_center,
        "escape": p.escaped,
    }[goal]


def random_legal(state: State, rng: random.Random) -> Command:
    """Any legal command of the seat that must act, uniformly (the property tests' wild player)."""
    legal = legal_commands(state, actor(state))
    return rng.choice(legal)
