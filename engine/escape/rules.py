"""The rules of Star World: Escape (seed 003) as one pure function: `apply(state, command)`.

Why one function and codes: the Discord adapter (referee or digital mode), the balance simulator
and the tests all drive the same rules, and each renders `Event` codes in its own language.  A
command is either `Applied(state, events)` (a new state, the input untouched) or `Rejected(code)`;
nothing raises on a player's bad command.  `legal_commands(state, seat)` lists what a seat may do
now; the referee-mode commands that carry card numbers are listed as templates (numbers empty).

Every rule names its seed rule (§ of shared/reference/other-seed-games.md §2) or decision (Dn of
docs/escape-rules.md) in its docstring.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field
from typing import Any, Literal, TypeAlias, cast

from engine.escape.content import CENTER, SIZE, GearCard, LocalEvent, level_of
from engine.escape.state import Fight, Item, Offer, State

CommandKind: TypeAlias = Literal[
    "end_turn",
    "move",
    "unlock_portal",
    "jump",
    "loot",
    "heal",
    "reload",
    "requisition",
    "reactor",
    "assault",
    "escape",
    "challenge",
    "attack",
    "flee",
    "enemy_strike",
    "drop",
    "take_spoil",
    "repair",
    "use",
    "ref_step",
    "ref_encounter",
    "ref_trap",
    "ref_gear",
    "ref_damage",
    "ref_guard",
    "ref_hold_fight",
    "claim_mission",
    "offer_trade",
    "accept_trade",
    "decline_trade",
    "withdraw_trade",
]
REFEREE_ONLY = frozenset(
    {"ref_step", "ref_encounter", "ref_trap", "ref_gear", "ref_damage", "ref_guard", "ref_hold_fight", "claim_mission"}
)
DIGITAL_ONLY = frozenset({"move", "unlock_portal", "jump", "loot"})
DIRECTIONS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # 0 north, 1 east, 2 south, 3 west (seed §2.1.4: no diagonals)
SITES = ("warehouse", "lab", "control_center")
GEAR_TYPE_CODES = ("weapon", "armour", "boots", "helmet", "stim", "tool")
TRADE_ANSWERS = frozenset({"accept_trade", "decline_trade", "withdraw_trade"})
DAMAGE_TABLE = (0.0, 0.5, 0.5, 1.0, 1.0, 2.0)  # seed §2.1.8 step 3: miss ½ ½ full full double


@dataclass(frozen=True, slots=True)
class Command:
    """What a seat asks for.  `target`: a direction, item slot, seat, site index or -1; `cell`
    for a portal jump; `numbers`: card values the crew typed in (referee mode), the weapons'
    slots of an attack, or (give, ask) slots of a trade offer (-1: nothing)."""

    kind: CommandKind
    player: int
    target: int = -1
    cell: tuple[int, int] = (-1, -1)
    numbers: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, as a code and plain values (rendered by the adapter)."""

    code: str
    player: int = -1
    values: tuple[tuple[str, int], ...] = ()

    def get(self, key: str, default: int = 0) -> int:
        return next((v for k, v in self.values if k == key), default)


@dataclass(frozen=True, slots=True)
class Applied:
    state: State
    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class Rejected:
    code: str


@dataclass(slots=True)
class _Log:
    events: list[Event] = field(default_factory=list)

    def add(self, code: str, player: int = -1, **values: int) -> None:
        self.events.append(Event(code, player, tuple(sorted(values.items()))))


def apply(state: State, command: Command) -> Applied | Rejected:
    """The pure entry point: a refused command leaves no trace, an accepted one returns a copy."""
    refusal = check(state, command)
    if refusal is not None:
        return Rejected(refusal)
    new = copy.deepcopy(state)
    log = _Log()
    _execute(new, command, log)
    return Applied(new, tuple(log.events))


def apply_in_place(state: State, command: Command) -> tuple[Event, ...] | str:
    """As `apply` but changes `state` itself (the simulator's thousands of games); a refusal
    code is returned before anything changes."""
    refusal = check(state, command)
    if refusal is not None:
        return refusal
    log = _Log()
    _execute(state, command, log)
    return tuple(log.events)


# ---------------------------------------------------------------- small helpers


def weight(state: State, seat: int) -> int:
    """The carried weight (seed §2.1.3 step 8), story items included (seed §2.1.5 Warehouse)."""
    return sum(state.gear(item.gear).weight for item in state.players[seat].items)


def has_type(state: State, seat: int, gear_type: str) -> bool:
    return any(state.gear(item.gear).type == gear_type for item in state.players[seat].items)


def goals_met(state: State, seat: int, *, except_escape: bool = False) -> bool:
    """Whether a seat's mission goals all hold (rules doc D12)."""
    p = state.players[seat]
    story = {state.gear(i.gear).id for i in p.items if state.gear(i.gear).story}
    checks = {
        "take_cargo": "cargo" in story,
        "take_disk": "disk" in story,
        "shutdown_reactor": p.shut_reactor,
        "take_center": p.won_center,
        "hold_center": p.held_center,
        "escape": p.escaped or except_escape,
    }
    return bool(p.mission.goals) and all(checks[g] for g in p.mission.goals)


def _tile(state: State, seat: int) -> str:
    if state.mode != "digital":
        return ""
    r, c = state.players[seat].cell
    return state.grid[r][c]


def _level(state: State, seat: int) -> int:
    return level_of(state.players[seat].cell) if state.mode == "digital" else 1


def _site_wanted(state: State, seat: int, site: str) -> bool:
    """Seed §2.1.5: a site's guards fight only a player whose mission targets it; the rest walk past."""
    p = state.players[seat]
    goals = p.mission.goals
    if site == "warehouse":
        return "take_cargo" in goals and not state.cargo_taken
    if site == "lab":
        return "take_disk" in goals and not state.disk_taken
    if p.won_center:
        return False
    return "take_center" in goals or "hold_center" in goals or not state.docks_unlocked  # D13


# ---------------------------------------------------------------- legality


def check(state: State, cmd: Command) -> str | None:
    """The refusal code for `cmd`, or None when it is legal now."""
    if state.over:
        return "game_over"
    if not 0 <= cmd.player < len(state.players):
        return "no_such_player"
    if cmd.kind in REFEREE_ONLY and state.mode != "referee":
        return "referee_only"
    if cmd.kind in DIGITAL_ONLY and state.mode != "digital":
        return "digital_only"
    p = state.players[cmd.player]
    if state.offer is not None or cmd.kind in TRADE_ANSWERS:
        return _check_offer_pending(state, cmd)
    if state.fight is not None:
        if cmd.kind not in ("attack", "flee", "enemy_strike"):
            return "fight_in_progress"
        if cmd.player != state.fight.to_act or (cmd.kind == "enemy_strike") != state.fight.enemy_turn:
            return "not_your_strike"
        return _check_attack(state, cmd) if cmd.kind == "attack" else None
    if state.spoils is not None:
        if cmd.kind != "take_spoil" or cmd.player != state.spoils[0]:
            return "spoils_pending"
        loser = state.players[state.spoils[1]]
        if cmd.target == -1:
            return None
        if not 0 <= cmd.target < len(loser.items) or state.gear(loser.items[cmd.target].gear).story:
            return "bad_slot"
        return None
    if state.overweight >= 0 and (cmd.kind != "drop" or cmd.player != state.overweight):
        return "overweight_pending"
    if state.hold_due >= 0 and (cmd.kind != "ref_hold_fight" or cmd.player != state.hold_due):
        return "hold_fight_pending"
    if cmd.kind == "drop":
        if not 0 <= cmd.target < len(p.items):
            return "bad_slot"
        return "story_item" if state.gear(p.items[cmd.target].gear).story else None
    if cmd.kind in ("ref_gear", "ref_damage"):
        return _check_numbers(cmd)
    if cmd.kind == "claim_mission":
        return None if not p.mission.goals else "mission_checked_by_engine"
    if cmd.player != state.turn:
        return "not_your_turn"
    if cmd.kind == "end_turn":
        return None
    if cmd.kind == "ref_hold_fight":
        return None if state.hold_due == cmd.player else "no_hold_fight"
    if cmd.kind == "ref_step":
        return "no_ap" if p.ap < 1 else None
    if cmd.kind in ("ref_encounter", "ref_trap"):
        return _check_numbers(cmd)
    cost = 3 if cmd.kind == "reload" else 1
    if p.ap < cost:
        return "no_ap"
    return _check_action(state, cmd)


def _check_offer_pending(state: State, cmd: Command) -> str | None:
    """D26: while a trade offer waits, its rival may accept or decline it and its offerer may
    withdraw it or end the turn (the offer lapses); nothing else happens until it is answered, so
    the slots it names still hold the cards it named.  An answer with no offer of one's own to
    answer (a stale button, another seat's press) is refused."""
    offer = state.offer
    kind = cmd.kind
    if offer is None:
        return "no_trade_offer"
    if kind in ("accept_trade", "decline_trade"):
        if cmd.player != offer.to:
            return "no_trade_offer"
        return _check_trade_weight(state, offer) if kind == "accept_trade" else None
    if kind in ("withdraw_trade", "end_turn") and cmd.player == offer.by:
        return None
    return "no_trade_offer" if kind == "withdraw_trade" else "trade_pending"


def _check_trade_weight(state: State, offer: Offer) -> str | None:
    """D26: a trade may not leave either side above their carrying limit while there is gravity
    (seed §2.1.3 step 8): each can drop a card first (free), so no forced discard follows a trade."""
    if state.gravity_off:
        return None
    giver, taker = state.players[offer.by], state.players[offer.to]
    given = state.gear(giver.items[offer.give].gear).weight if offer.give >= 0 else 0
    asked = state.gear(taker.items[offer.ask].gear).weight if offer.ask >= 0 else 0
    if weight(state, offer.by) - given + asked > state.character(offer.by).max_weight:
        return "too_heavy"
    if weight(state, offer.to) - asked + given > state.character(offer.to).max_weight:
        return "too_heavy"
    return None


def _check_offer(state: State, cmd: Command) -> str | None:
    """D26: 1 AP (checked by the caller), a rival on the same tile (in referee mode the crew
    vouches, as for a duel, D21), one card each way at most and at least one, no story item."""
    p = state.players[cmd.player]
    if not 0 <= cmd.target < len(state.players) or cmd.target == cmd.player:
        return "bad_target"
    rival = state.players[cmd.target]
    if state.mode != "referee" and rival.cell != p.cell:
        return "not_same_tile"
    if len(cmd.numbers) != 2 or cmd.numbers == (-1, -1):
        return "bad_slot"
    give, ask = cmd.numbers
    if not -1 <= give < len(p.items) or not -1 <= ask < len(rival.items):
        return "bad_slot"
    if (give >= 0 and state.gear(p.items[give].gear).story) or (ask >= 0 and state.gear(rival.items[ask].gear).story):
        return "story_item"
    return _check_trade_weight(state, Offer(cmd.player, cmd.target, give, ask))


def _check_numbers(cmd: Command) -> str | None:
    """Referee mode: card values the crew typed must be in range (never a traceback on a typo)."""
    need = {"ref_encounter": 5, "ref_gear": 9, "ref_damage": 1, "ref_guard": 2, "ref_hold_fight": 2, "ref_trap": 0}
    n = cmd.numbers
    if len(n) != need.get(cmd.kind, len(n)):
        return "bad_numbers"
    bands = (2, 3) if cmd.kind == "ref_encounter" else ()  # die − aggression may be negative
    if any(not (-10 if i in bands else 0) <= v <= 99 for i, v in enumerate(n)):
        return "bad_numbers"
    if cmd.kind == "ref_encounter" and (n[0] < 1 or n[4] not in (1, 2) or n[3] < n[2]):
        return "bad_numbers"
    if cmd.kind in ("ref_guard", "ref_hold_fight") and n[0] < 1:
        return "bad_numbers"
    if cmd.kind == "ref_gear" and (n[0] >= len(GEAR_TYPE_CODES) or n[3] not in (1, 2)):
        return "bad_numbers"
    return None


def _check_attack(state: State, cmd: Command) -> str | None:
    """Seed §2.1.8 step 3: a weapon or unarmed, never both; two weapons only if both one-handed;
    a ranged weapon needs a charge (charges never go negative)."""
    p = state.players[cmd.player]
    slots = cmd.numbers
    if len(slots) > 2 or len(set(slots)) != len(slots):
        return "bad_weapons"
    cards: list[GearCard] = []
    for slot in slots:
        if not 0 <= slot < len(p.items):
            return "bad_slot"
        card = state.gear(p.items[slot].gear)
        if card.type != "weapon":
            return "not_a_weapon"
        if card.charges > 0 and p.items[slot].charges < 1:
            return "no_charges"
        cards.append(card)
    if len(cards) == 2 and any(card.hands != 1 for card in cards):
        return "two_handed_pair"
    return None


def _check_action(state: State, cmd: Command) -> str | None:
    p = state.players[cmd.player]
    tile = _tile(state, cmd.player)
    referee = state.mode == "referee"
    kind = cmd.kind
    if kind == "move":
        if not 0 <= cmd.target < 4:
            return "bad_direction"
        dr, dc = DIRECTIONS[cmd.target]
        r, c = p.cell[0] + dr, p.cell[1] + dc
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            return "off_station"
        if level_of((r, c)) != level_of(p.cell) and "lift" not in (tile, state.grid[r][c]):
            return "needs_lift"  # rules doc D6: between levels only through a lift
        return None
    if kind == "unlock_portal":
        return None if tile == "hyperportal" and p.cell not in state.portals_unlocked else "not_here"
    if kind == "jump":
        ok = tile == "hyperportal" and p.cell in state.portals_unlocked and cmd.cell in state.portals_unlocked
        return None if ok and cmd.cell != p.cell else "portal_closed"
    if kind == "loot":
        return None if tile == "crate" and not p.looted_here else "not_here"
    if kind == "heal":
        if not referee and tile != "medbay":
            return "not_here"
        return "full_health" if p.health >= state.character(cmd.player).health else None
    if kind in ("reload", "requisition"):
        if not referee and tile != "armoury":
            return "not_here"
        if kind == "requisition":
            return None
        if not 0 <= cmd.target < len(p.items):
            return "bad_slot"
        card = state.gear(p.items[cmd.target].gear)
        return None if card.charges > 0 and p.items[cmd.target].charges < card.charges else "nothing_to_reload"
    if kind == "reactor":
        if not referee and tile != "reactor":
            return "not_here"
        if "shutdown_reactor" not in p.mission.goals:
            return "not_your_target"
        return "reactor_down" if state.gravity_off else None
    if kind in ("assault", "ref_guard"):
        site = tile if kind == "assault" else (SITES[cmd.target] if 0 <= cmd.target < 3 else "")
        if site not in SITES:
            return "not_here"
        if not _site_wanted(state, cmd.player, site):
            return "not_your_target"
        return _check_numbers(cmd) if kind == "ref_guard" else None
    if kind == "escape":
        if not referee and tile != "docks":
            return "not_here"
        if not state.docks_unlocked:
            return "docks_locked"
        if state.docks_depressurised and not has_type(state, cmd.player, "helmet"):
            return "needs_helmet"
        if not p.mission.goals or p.mission.goals[-1] != "escape":
            return "not_your_target"
        return None if goals_met(state, cmd.player, except_escape=True) else "mission_not_ready"
    if kind == "challenge":
        if not 0 <= cmd.target < len(state.players) or cmd.target == cmd.player:
            return "bad_target"
        if not referee and state.players[cmd.target].cell != p.cell:
            return "not_same_tile"
        return None
    if kind == "offer_trade":
        return _check_offer(state, cmd)
    if kind == "repair":
        return None if p.drone and any(state.gear(i.gear).armour > 0 for i in p.items) else "no_drone"
    if kind == "use":
        if not 0 <= cmd.target < len(p.items):
            return "bad_slot"
        return None if state.gear(p.items[cmd.target].gear).type == "stim" else "not_usable"
    return "unknown_command"


def legal_commands(state: State, seat: int) -> list[Command]:
    """Every command `seat` may give now (referee commands with numbers as empty templates)."""
    out: list[Command] = []
    if state.over or not 0 <= seat < len(state.players):
        return out
    p = state.players[seat]
    candidates: list[Command] = []
    if state.fight is not None and state.fight.enemy_turn:
        candidates.append(Command("enemy_strike", seat))
    elif state.fight is not None:
        candidates.append(Command("flee", seat))
        candidates.append(Command("attack", seat))
        weapons = [i for i, item in enumerate(p.items) if state.gear(item.gear).type == "weapon"]
        candidates += [Command("attack", seat, numbers=(i,)) for i in weapons]
        candidates += [Command("attack", seat, numbers=(a, b)) for a in weapons for b in weapons if a < b]
    elif state.offer is not None:
        candidates = [Command(k, seat) for k in ("accept_trade", "decline_trade", "withdraw_trade", "end_turn")]
    elif state.spoils is not None:
        loser = state.players[state.spoils[1]]
        candidates = [Command("take_spoil", seat, target=i) for i in range(-1, len(loser.items))]
    else:
        candidates += [Command("drop", seat, target=i) for i in range(len(p.items))]
        candidates += [Command(k, seat) for k in ("end_turn", "unlock_portal", "loot", "heal", "requisition")]
        candidates += [Command(k, seat) for k in ("reactor", "assault", "escape", "repair")]
        candidates += [Command("move", seat, target=d) for d in range(4)]
        candidates += [Command("reload", seat, target=i) for i in range(len(p.items))]
        candidates += [Command("use", seat, target=i) for i in range(len(p.items))]
        candidates += [Command("challenge", seat, target=t) for t in range(len(state.players))]
        candidates += [Command("jump", seat, cell=cell) for cell in sorted(state.portals_unlocked)]
        if state.mode == "referee":
            candidates += [Command(k, seat) for k in ("ref_step", "ref_trap", "claim_mission")]
            candidates += [Command("ref_guard", seat, target=t, numbers=(1, 1)) for t in range(3)]
    for cmd in candidates:
        if check(state, cmd) is None:
            out.append(cmd)
    out += trade_offers(state, seat)  # legal by construction: many combinations, checked at once
    referee_free = state.fight is None and state.spoils is None and state.offer is None
    if state.mode == "referee" and referee_free and state.overweight < 0:
        templates: tuple[CommandKind, ...] = ("ref_gear", "ref_damage")
        if seat == state.turn:
            templates += ("ref_encounter",)
        if state.hold_due >= 0:
            templates = ("ref_hold_fight",) if state.hold_due == seat else ()
        out = [Command("ref_guard", seat, target=c.target) if c.kind == "ref_guard" else c for c in out]
        out += [Command(k, seat) for k in templates]
    return out


def trade_offers(state: State, seat: int) -> list[Command]:
    """Every trade `seat` may offer now (D26): to each rival on its tile, one card or nothing
    each way; the panel groups them by rival, the simulated players pick from them.  Built as
    `check` would judge each (a test holds them to it) but with the weights summed once: the
    combinations grow with the square of the cards, and the balance bench lists them every step."""
    p = state.players[seat]
    busy = state.fight is not None or state.spoils is not None or state.offer is not None
    if state.over or busy or state.overweight >= 0 or state.hold_due >= 0 or seat != state.turn or p.ap < 1:
        return []
    out: list[Command] = []
    rivals = [r for r, o in enumerate(state.players) if r != seat and (state.mode == "referee" or o.cell == p.cell)]
    if not rivals:
        return out
    mine = [(i, state.gear(item.gear)) for i, item in enumerate(p.items)]
    my_weight, my_limit = weight(state, seat), state.character(seat).max_weight
    for rival in rivals:
        other = state.players[rival]
        theirs = [(i, state.gear(item.gear)) for i, item in enumerate(other.items)]
        their_weight, their_limit = weight(state, rival), state.character(rival).max_weight
        gives = [(-1, 0)] + [(i, card.weight) for i, card in mine if not card.story]
        asks = [(-1, 0)] + [(i, card.weight) for i, card in theirs if not card.story]
        for give, given in gives:
            for ask, asked in asks:
                if give == ask == -1:
                    continue
                heavy = my_weight - given + asked > my_limit or their_weight - asked + given > their_limit
                if heavy and not state.gravity_off:
                    continue
                out.append(Command("offer_trade", seat, target=rival, numbers=(give, ask)))
    return out


# ---------------------------------------------------------------- execution


def _execute(s: State, cmd: Command, log: _Log) -> None:
    seat = cmd.player
    p = s.players[seat]
    kind = cmd.kind
    if kind == "attack":
        _attack(s, cmd, log)
    elif kind == "enemy_strike":  # D29: the next player rolls for the station's character
        fight = s.fight
        assert fight is not None
        fight.enemy_turn, fight.to_act = False, fight.attacker
        _enemy_strikes(s, log)
    elif kind == "flee":
        _flee(s, seat, log)
    elif kind == "take_spoil":
        _take_spoil(s, cmd.target, log)
    elif kind == "drop":
        item = p.items.pop(cmd.target)
        log.add("dropped", seat, slot=cmd.target)
        del item
        _check_weight(s, seat, log)
    elif kind == "end_turn":
        _end_turn(s, log)
    elif kind in TRADE_ANSWERS:
        _answer_trade(s, kind, log)
    elif kind == "ref_gear":
        _ref_gear(s, seat, cmd.numbers, log)
    elif kind == "ref_damage":
        _hurt(s, seat, cmd.numbers[0], log, armour=True)
    elif kind == "claim_mission":
        _win(s, seat, log)
    elif kind == "ref_hold_fight":
        s.hold_due = -1
        _start_fight(s, seat, -1, cmd.numbers[0], cmd.numbers[1], "hold", log, enemy_first=True)
    else:
        # a card the crew drew on a step (ref_step paid for it) costs nothing more
        cost = 0 if kind in ("ref_encounter", "ref_trap") else (3 if kind == "reload" else 1)
        p.ap -= cost
        _action(s, cmd, log)
    if s.winner < 0 and goals_met(s, seat):
        _win(s, seat, log)


def _action(s: State, cmd: Command, log: _Log) -> None:
    seat = cmd.player
    p = s.players[seat]
    kind = cmd.kind
    if kind == "move":
        _move(s, seat, cmd.target, log)
    elif kind == "ref_step":
        log.add("local_event_due", seat)
    elif kind == "ref_encounter":
        n = cmd.numbers
        event = LocalEvent("ref", "encounter", None, n[2], n[3])
        _encounter(s, seat, event, n[0], n[1], n[4], log)
    elif kind == "ref_trap":
        _trap(s, seat, log)
    elif kind == "unlock_portal":  # seed §2.1.5 Hyperportal: flip its lock token
        s.portals_unlocked.add(p.cell)
        log.add("portal_unlocked", seat, row=p.cell[0], col=p.cell[1])
    elif kind == "jump":  # seed §2.1.5 Hyperportal: entry and exit unlocked; a move, so an event (D7)
        p.cell = cmd.cell
        p.seen.add(cmd.cell)
        p.looted_here = False
        log.add("jumped", seat, row=cmd.cell[0], col=cmd.cell[1])
        _local_event(s, seat, level_of(cmd.cell), log)
    elif kind == "loot":  # seed §2.1.5 Crate, D28: 1 AP, once each time the pawn enters the tile
        p.looted_here = True
        _draw_gear(s, seat, _level(s, seat), log)
    elif kind == "heal":  # seed §2.1.4 Medbay: +3 Health for 1 AP
        _heal(s, seat, 3, log)
    elif kind == "reload":  # seed §2.1.4 Armoury: 3 AP, one weapon to full charges
        item = p.items[cmd.target]
        item.charges = s.gear(item.gear).charges
        log.add("reloaded", seat, slot=cmd.target)
    elif kind == "requisition":  # seed §2.1.4 Armoury: 1 AP, one inner gear card
        _draw_gear(s, seat, 2, log)
    elif kind == "reactor":
        _reactor(s, seat, log)
    elif kind in ("assault", "ref_guard"):
        _assault(s, seat, cmd, log)
    elif kind == "escape":  # seed §2.1.5 Docks, D24: the one ship
        p.escaped = True
        log.add("escaped", seat)
    elif kind == "challenge":  # seed §2.1.8 step 7, D21: 1 AP, same tile, the challenger first
        log.add("challenged", seat, target=cmd.target)
        _start_fight(s, seat, cmd.target, 0, 0, "pvp", log)
    elif kind == "offer_trade":  # seed §2.1.4 "or trade", D26: 1 AP, same tile, the rival answers
        s.offer = Offer(seat, cmd.target, cmd.numbers[0], cmd.numbers[1])
        log.add("trade_offered", seat, target=cmd.target)
    elif kind == "repair":  # seed §2.1.4 Repair drone: 1 AP restores 3 armour sections
        p.drone = False
        suit = next(i for i in p.items if s.gear(i.gear).armour > 0)
        suit.armour = min(s.gear(suit.gear).armour, suit.armour + 3)
        log.add("repaired", seat, armour=suit.armour)
    elif kind == "use":  # D27: a stim is an item opened for 1 AP, then spent
        item = p.items.pop(cmd.target)
        _heal(s, seat, s.gear(item.gear).heal, log)


def _answer_trade(s: State, kind: str, log: _Log) -> None:
    """D26: the rival accepts (the cards change hands as they are: charges and armour sections
    go with them, each to the end of the new owner's gear) or declines; the offerer may withdraw.
    The 1 AP was paid with the offer, whatever the answer (as a duel's AP, D21)."""
    offer = s.offer
    assert offer is not None
    s.offer = None
    if kind == "decline_trade":
        log.add("trade_declined", offer.to, target=offer.by)
        return
    if kind == "withdraw_trade":
        log.add("trade_withdrawn", offer.by, target=offer.to)
        return
    giver, taker = s.players[offer.by], s.players[offer.to]
    given = giver.items.pop(offer.give) if offer.give >= 0 else None
    asked = taker.items.pop(offer.ask) if offer.ask >= 0 else None
    if given is not None:
        taker.items.append(given)
    if asked is not None:
        giver.items.append(asked)
    log.add("trade_accepted", offer.to, target=offer.by)


def _move(s: State, seat: int, direction: int, log: _Log) -> None:
    """Seed §2.1.4: one step orthogonally for 1 AP; a closed tile is opened by the same 1 AP
    (D5); every step draws a local event of the level the pawn leaves (seed §2.1.4, D7)."""
    p = s.players[seat]
    dr, dc = DIRECTIONS[direction]
    target = (p.cell[0] + dr, p.cell[1] + dc)
    leaving = level_of(p.cell)
    if target not in s.opened:
        s.opened.add(target)
        log.add("airlock_opened", seat, row=target[0], col=target[1])
    p.cell = target
    p.seen.add(target)
    p.looted_here = False
    log.add("moved", seat, row=target[0], col=target[1])
    if s.grid[target[0]][target[1]] == "trap":
        _trap(s, seat, log)
    if p.knocked_out_hour != s.hour:  # a pawn knocked out by the trap meets nobody more this round
        _local_event(s, seat, leaving, log)


def _trap(s: State, seat: int, log: _Log) -> None:
    """Seed §2.1.5 Trap: 4-6 avoided, 2-3 −2 Health, 1 −4 Health (armour does not help, D11)."""
    die = s.roll()
    loss = 0 if die >= 4 else (2 if die >= 2 else 4)
    log.add("trap", seat, die=die, loss=loss)
    if loss:
        _hurt(s, seat, loss, log, armour=False)


def _reactor(s: State, seat: int, log: _Log) -> None:
    """Seed §2.1.5 Reactor: 1-4 radiation (−4 humans, −2 mutants and cyborgs, past armour: D11);
    5-6 shut down: gravity off, alarm mode, docks depressurised and unlocked."""
    die = s.roll()
    if die <= 4:
        loss = 4 if s.character(seat).kind == "human" else 2
        log.add("reactor_radiation", seat, die=die, loss=loss)
        _hurt(s, seat, loss, log, armour=False)
        return
    s.players[seat].shut_reactor = True
    s.gravity_off = s.alarm = s.docks_unlocked = s.docks_depressurised = True
    log.add("reactor_shut_down", seat, die=die)
    s.overweight = -1  # seed §2.1.8 step 6: no weight limit without gravity


def _assault(s: State, seat: int, cmd: Command, log: _Log) -> None:
    """Seed §2.1.5: the warehouse, lab and control center guards fight a player whose mission
    targets them, without a dialogue (D13)."""
    site = SITES[cmd.target] if cmd.kind == "ref_guard" else _tile(s, seat)
    if cmd.kind == "ref_guard":
        health, damage = cmd.numbers
    else:
        guard = s.pack.guards[site]
        health, damage = guard.health, guard.damage
    log.add("guard_fight", seat, site=SITES.index(site))
    _start_fight(s, seat, -1, health, damage, site, log)


def _hurt(s: State, seat: int, amount: int, log: _Log, *, armour: bool) -> bool:
    """Seed §2.1.8 step 4: armour sections first, then Health.  At 0 Health the player is knocked
    out (seed §2.1.5 Trap): back to 1 Health at once, no AP left this round (D9).  True if so."""
    p = s.players[seat]
    if armour:
        for item in p.items:
            if amount <= 0:
                break
            if s.gear(item.gear).armour > 0 and item.armour > 0:
                absorbed = min(item.armour, amount)
                item.armour -= absorbed
                amount -= absorbed
                log.add("armour_hit", seat, absorbed=absorbed, left=item.armour)
    if amount <= 0:
        return False
    p.health -= amount
    log.add("health_lost", seat, amount=amount, health=max(p.health, 0))
    if p.health > 0:
        return False
    p.health = 1
    p.ap = 0
    p.knocked_out_hour = s.hour
    log.add("knocked_out", seat)
    return True


def _heal(s: State, seat: int, amount: int, log: _Log) -> None:
    """Health back, never above the character card's maximum (seed §2.1.3: the crystal on max Health)."""
    p = s.players[seat]
    p.health = min(s.character(seat).health, p.health + amount)
    log.add("healed", seat, health=p.health)


def _draw(s: State, deck: str) -> str:
    """The top card of a deck; an empty deck is reshuffled from the pack (D14)."""
    pile = s.decks.setdefault(deck, [])
    if not pile:
        pack = s.pack
        ids = {
            "gear1": [c.id for c in pack.gear_outer],
            "gear2": [c.id for c in pack.gear_inner],
            "local1": [c.id for c in pack.local_outer],
            "local2": [c.id for c in pack.local_inner],
            "general": [c.id for c in pack.general],
        }[deck]
        pile.extend(ids)
        s.rng().shuffle(pile)
    return pile.pop()


def _draw_gear(s: State, seat: int, level: int, log: _Log) -> None:
    """A gear card of the level (crates, negotiation, a won fight, the armoury).  Referee mode
    announces the draw; the crew then types the card in with `ref_gear`."""
    if s.mode == "referee":
        log.add("gear_due", seat, level=level)
        return
    if not (s.pack.gear_outer if level == 1 else s.pack.gear_inner):
        return
    card = s.gear(_draw(s, f"gear{level}"))
    s.players[seat].items.append(Item(card.id, card.charges, card.armour))
    log.add("gear_gained", seat, level=level)
    _check_weight(s, seat, log)


def _ref_gear(s: State, seat: int, n: tuple[int, ...], log: _Log) -> None:
    """Referee mode: a gear card's icons typed in as numbers (type, weight, damage, hands,
    charges, double shot, auto-aim, armour, heal)."""
    gid = f"ref{len(s.cards) + 1}"
    s.cards[gid] = GearCard(
        gid,
        cast(Any, GEAR_TYPE_CODES[n[0]]),
        n[1],
        n[2],
        n[3],
        n[4],
        bool(n[5]),
        bool(n[6]),
        n[7],
        n[8],
    )
    s.players[seat].items.append(Item(gid, n[4], n[7]))
    log.add("gear_gained", seat)
    _check_weight(s, seat, log)


def _check_weight(s: State, seat: int, log: _Log) -> None:
    """Seed §2.1.5 Crate: overweight, discard a card (not a story item, D15); no limit without
    gravity (seed §2.1.8 step 6)."""
    droppable = any(not s.gear(i.gear).story for i in s.players[seat].items)
    over = weight(s, seat) > s.character(seat).max_weight
    if over and droppable and not s.gravity_off:
        s.overweight = seat
        log.add("overweight", seat, weight=weight(s, seat))
    elif s.overweight == seat:
        s.overweight = -1


def _local_event(s: State, seat: int, level: int, log: _Log) -> None:
    """Seed §2.1.6: resolve one local event card of the level."""
    if s.mode != "digital" or not (s.pack.local_outer if level == 1 else s.pack.local_inner):
        return
    card_id = _draw(s, f"local{level}")
    card = next(c for c in (s.pack.local_outer if level == 1 else s.pack.local_inner) if c.id == card_id)
    log.add("local_event", seat, level=level)
    if card.kind == "encounter" and card.enemy is not None:
        _encounter(s, seat, card, card.enemy.health, card.enemy.damage, level, log)
    elif card.kind == "body":
        if card.gear:
            _draw_gear(s, seat, level, log)
        elif card.damage:
            _hurt(s, seat, card.damage, log, armour=False)
    elif card.kind == "hazard":
        die = s.roll()
        log.add("hazard", seat, die=die)
        if die < card.safe_from:
            _hurt(s, seat, card.damage, log, armour=True)
    elif card.kind == "repair_drone":
        s.players[seat].drone = True
        log.add("repair_drone", seat)


def _encounter(s: State, seat: int, card: LocalEvent, health: int, damage: int, level: int, log: _Log) -> None:
    """Seed §2.1.6/§2.1.8 step 1: the dialogue check is a die minus aggression against the card's
    bands (fight / part ways / negotiate); in alarm mode there is no dialogue, always a fight."""
    if s.alarm:
        log.add("dialogue_skipped", seat)
        _start_fight(s, seat, -1, health, damage, "encounter", log, level=level)
        return
    die = s.roll()
    value = die - s.players[seat].aggression
    if value <= card.fight_upto:
        log.add("dialogue", seat, die=die, value=value, outcome=0)
        _start_fight(s, seat, -1, health, damage, "encounter", log, level=level)
    elif value <= card.part_upto:
        log.add("dialogue", seat, die=die, value=value, outcome=1)
    else:
        log.add("dialogue", seat, die=die, value=value, outcome=2)
        _draw_gear(s, seat, level, log)


# ---------------------------------------------------------------- combat


def strike(s: State, base: int, auto_aim: bool) -> tuple[int, int]:
    """Seed §2.1.8 step 3: (die, damage) by the table miss ½ ½ full full double; ½ rounds up
    (D4); without gravity a roll is one lower unless the weapon aims itself (seed §2.1.8 step 6)."""
    die = s.roll()
    face = die - 1 if s.gravity_off and not auto_aim else die
    face = max(face, 1)
    return die, math.ceil(base * DAMAGE_TABLE[face - 1])


def _start_fight(
    s: State,
    seat: int,
    opponent: int,
    health: int,
    damage: int,
    purpose: str,
    log: _Log,
    *,
    enemy_first: bool = False,
    level: int = 0,
) -> None:
    level = level or _level(s, seat)
    enemy_by = (seat + 1) % len(s.players) if s.next_plays_enemy and opponent < 0 and len(s.players) > 1 else -1
    s.fight = Fight(seat, opponent, health, damage, purpose, seat, level, enemy_by)  # type: ignore[arg-type]
    log.add("fight_started", seat, opponent=opponent, health=health, damage=damage)
    if enemy_first:  # seed §2.1.5 Control Center: in a hold the enemy strikes first
        _enemy_turn(s, log)


def _enemy_turn(s: State, log: _Log) -> None:
    """The station's character strikes: at once by the engine (D8), or, when the game has the
    next player act it out (seed §2.1.8 step 2, D29), that player's roll is due."""
    fight = s.fight
    assert fight is not None
    if fight.enemy_by < 0:
        _enemy_strikes(s, log)
        return
    fight.enemy_turn, fight.to_act = True, fight.enemy_by
    log.add("enemy_to_strike", fight.attacker, by=fight.enemy_by)


def _enemy_strikes(s: State, log: _Log) -> None:
    """The engine plays the station's people (D8: no player acts out an enemy against a rival)."""
    fight = s.fight
    assert fight is not None
    die, dmg = strike(s, fight.enemy_damage, False)
    log.add("enemy_strike", fight.attacker, die=die, damage=dmg)
    if _hurt(s, fight.attacker, dmg, log, armour=True):
        _end_fight(s, winner=-1, loser=fight.attacker, log=log)


def _attack(s: State, cmd: Command, log: _Log) -> None:
    """Seed §2.1.8 step 3: each weapon rolls its own damage (two one-handed weapons roll
    separately); a double shot deals the rolled damage twice for two charges (D10)."""
    fight = s.fight
    assert fight is not None
    seat = cmd.player
    p = s.players[seat]
    total = 0
    if not cmd.numbers:
        die, dmg = strike(s, s.character(seat).unarmed, False)
        log.add("strike", seat, die=die, damage=dmg, slot=-1)
        total = dmg
    for slot in cmd.numbers:
        item = p.items[slot]
        card = s.gear(item.gear)
        die, dmg = strike(s, card.damage, card.auto_aim)
        shots = 1
        if card.charges > 0:
            shots = 2 if card.double_shot and item.charges >= 2 else 1
            item.charges -= shots
        log.add("strike", seat, die=die, damage=dmg * shots, slot=slot)
        total += dmg * shots
    other = fight.opponent if seat == fight.attacker else fight.attacker
    if other < 0:
        fight.enemy_health -= total
        if fight.enemy_health <= 0:
            _end_fight(s, winner=seat, loser=-1, log=log)
        else:
            _enemy_turn(s, log)
        return
    if _hurt(s, other, total, log, armour=True):
        _end_fight(s, winner=seat, loser=other, log=log)
    else:
        fight.to_act = other


def _flee(s: State, seat: int, log: _Log) -> None:
    """Seed §2.1.8 step 3: 5-6 escapes and ends the fight, 1-4 passes the turn to the enemy."""
    fight = s.fight
    assert fight is not None
    die = s.roll()
    log.add("flee", seat, die=die, escaped=int(die >= 5))
    if die >= 5:
        for side in (fight.attacker, fight.opponent):
            if side >= 0:
                _after_fight(s, side)
        s.fight = None
        return
    other = fight.opponent if seat == fight.attacker else fight.attacker
    if other < 0:
        _enemy_turn(s, log)
    else:
        fight.to_act = other


def _after_fight(s: State, seat: int) -> None:
    """Seed §2.1.7 Aggression: one token after every fight, won, lost or fled (D16)."""
    p = s.players[seat]
    p.aggression += 1
    p.fought_this_round = True


def _end_fight(s: State, winner: int, loser: int, log: _Log) -> None:
    """Seed §2.1.8 step 5: the winner draws gear of the level (against the station) or may take
    one gear card from a losing player (step 7); the loser is knocked out (already in `_hurt`)."""
    fight = s.fight
    assert fight is not None
    s.fight = None
    for side in (fight.attacker, fight.opponent):
        if side >= 0:
            _after_fight(s, side)
    log.add("fight_won" if winner >= 0 else "fight_lost", fight.attacker, winner=winner, loser=loser)
    if fight.opponent >= 0:
        if any(not s.gear(i.gear).story for i in s.players[loser].items):
            s.spoils = (winner, loser)
        return
    seat = fight.attacker
    p = s.players[seat]
    if winner < 0:
        if fight.purpose == "hold":
            p.hold_left += 2  # seed §2.1.5 Control Center: a lost hold fight adds two hours
            log.add("hold_extended", seat, left=p.hold_left)
        return
    _draw_gear(s, seat, fight.level, log)
    if fight.purpose in ("warehouse", "lab"):
        story = "cargo" if fight.purpose == "warehouse" else "disk"
        if s.mode == "referee" and story not in s.cards:
            s.cards[story] = GearCard(story, "tool", 0, story=True)
        card = s.gear(story)
        p.items.append(Item(card.id))
        s.cargo_taken = s.cargo_taken or story == "cargo"
        s.disk_taken = s.disk_taken or story == "disk"
        log.add("story_item_taken", seat, item=0 if story == "cargo" else 1)
        _check_weight(s, seat, log)
    elif fight.purpose == "control_center":
        p.won_center = True
        s.alarm = s.docks_unlocked = True
        log.add("center_taken", seat)
        if "hold_center" in p.mission.goals:
            p.hold_left = 2
    elif fight.purpose == "hold":
        p.hold_left -= 1
        log.add("hold_progress", seat, left=p.hold_left)
        if p.hold_left <= 0:
            p.held_center = True


def _take_spoil(s: State, slot: int, log: _Log) -> None:
    """Seed §2.1.8 step 7: the winner of a duel takes one gear card (never a story item) or none."""
    assert s.spoils is not None
    winner, loser = s.spoils
    s.spoils = None
    if slot >= 0:
        item = s.players[loser].items.pop(slot)
        s.players[winner].items.append(item)
        log.add("spoil_taken", winner, loser=loser)
        _check_weight(s, winner, log)


# ---------------------------------------------------------------- turns and the clock


def _end_turn(s: State, log: _Log) -> None:
    """Seed §2.1.4: when every player has had a turn, the clock moves one hour; on even hours a
    general event hits everyone; at the limit the Federation storms the station (seed §2.1.9)."""
    if s.offer is not None:  # D26: an offer not answered by the end of the offerer's turn lapses
        log.add("trade_lapsed", s.offer.by, target=s.offer.to)
        s.offer = None
    log.add("turn_ended", s.turn)
    s.players[s.turn].ap = 0
    s.turns_taken += 1
    s.turn = (s.turn + 1) % len(s.players)
    if s.turns_taken % len(s.players) == 0:
        s.hour += 1
        log.add("hour", -1, hour=s.hour, left=s.limit - s.hour)
        for seat, p in enumerate(s.players):
            if not p.fought_this_round and p.aggression:
                p.aggression = 0  # seed §2.1.7: a round without a fight discards all aggression
                log.add("aggression_discarded", seat)
            p.fought_this_round = False
        if s.hour >= s.limit:
            s.timed_out = True
            log.add("station_stormed")
            return
        if s.hour % 2 == 0:
            _general_event(s, log)
    start_turn(s, log)


def _general_event(s: State, log: _Log) -> None:
    """Seed §2.1.4: a general event for all.  Referee mode announces the draw; the crew applies
    the card with `ref_damage` / `ref_gear`."""
    if s.mode == "referee" or not s.pack.general:
        log.add("general_event_due", -1, hour=s.hour)
        return
    card_id = _draw(s, "general")
    card = next(c for c in s.pack.general if c.id == card_id)
    log.add("general_event", -1, hour=s.hour)
    for seat, p in enumerate(s.players):
        if card.kind == "damage":
            _hurt(s, seat, card.amount, log, armour=True)
        elif card.kind == "heal":
            _heal(s, seat, card.amount, log)
        elif card.kind == "ap":
            p.ap_penalty += -card.amount
        elif card.kind == "calm":
            p.aggression = 0
        elif card.kind == "gear":
            _draw_gear(s, seat, 1, log)
            if s.overweight == seat:  # D15: a general draw over the limit discards the new card
                p.items.pop()
                s.overweight = -1


def start_turn(s: State, log: _Log | None = None) -> None:
    """A seat's turn begins: its character's AP, −2 without gravity unless it wears anti-grav boots
    (seed §2.1.8 step 6), none if knocked out this hour (D9); a holder fights first (seed §2.1.5)."""
    log = log or _Log()
    seat = s.turn
    p = s.players[seat]
    ap = s.character(seat).ap - p.ap_penalty
    p.ap_penalty = 0
    if s.gravity_off and not has_type(s, seat, "boots"):
        ap -= 2
    p.ap = 0 if p.knocked_out_hour == s.hour else max(ap, 0)
    p.drone = False
    log.add("turn_started", seat, ap=p.ap)
    if p.hold_left > 0 and p.knocked_out_hour != s.hour and (s.mode == "referee" or p.cell == CENTER):
        if s.mode == "referee":
            s.hold_due = seat
            log.add("hold_fight_due", seat)
            return
        for _ in range(50):  # seed §2.1.5: draw inner events until a character; the rest are discarded
            card_id = _draw(s, "local2")
            card = next(c for c in s.pack.local_inner if c.id == card_id)
            if card.kind == "encounter" and card.enemy is not None:
                _start_fight(s, seat, -1, card.enemy.health, card.enemy.damage, "hold", log, enemy_first=True, level=2)
                return
        guard = s.pack.guards["control_center"]
        _start_fight(s, seat, -1, guard.health, guard.damage, "hold", log, enemy_first=True, level=2)


def _win(s: State, seat: int, log: _Log) -> None:
    """Seed §2.1.9: the first completed mission wins alone."""
    s.winner = seat
    log.add("mission_completed", seat)
