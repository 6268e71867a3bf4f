"""The Discord-free half of the Scarlet Legion adapter: the session document, component choices
turned into engine commands, and the bridge, panel and log words.  Seats, names and the lobby are
the platform's table (bot/platform/tables.py); this module adds only the voyage.

Why pure: every click is one change of the stored document (`change_session` may run it twice on
a stale write), so what a click does must be a function of the document alone.  The cog only
moves messages; everything a test wants to check about who sees what lives here.

The document (`GameSession.state`): the table's `lang`, `seats` (member ids, seat order = engine
seat index) and `names` (display names, rendered inert); then `seed`, `mission` (or None: the engine draws),
`game` (the engine snapshot once started, else None), `bridge`/`thread` (message and thread ids),
`last` (the latest public log lines shown on the bridge), `pinged` (the seats last pinged).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.platform import tables
from bot.platform.i18n import t
from bot.platform.sessions import SessionResult
from bot.platform.tables import TableRules, name_of
from bot.platform.text import user_text
from engine.legion import commands as c
from engine.legion.commands import Applied, Command, Event, Rejected
from engine.legion.pack import Content, PackRefusal, default_pack, load_pack
from engine.legion.rules import apply, legal_commands
from engine.legion.setup import MAX_PLAYERS, MIN_PLAYERS, SetupError, new_voyage
from engine.legion.snapshot import from_snapshot, to_snapshot
from engine.legion.state import ROLE_ORDER, State

DOC_VERSION = 1
SEP = "~"  # inside option values and component args (never in an engine id: [a-z0-9_])
MAX_OPTIONS = 25  # Discord's limit on a select
LAST_LINES = 8  # public log lines the bridge repeats
RULES = TableRules("legion", MIN_PLAYERS, MAX_PLAYERS)  # seed 3.1.1: 3-4 players

# Buttons of the private panel: their arg -> the command they give (no parameter but the seat).
BUTTONS: dict[str, Any] = {
    "depart": c.Depart,
    "wait": c.Wait,
    "drift": c.Drift,
    "engage": c.Engage,
    "obey": c.Obey,
    "refuse": c.Refuse,
    "end": c.EndTurn,
    "endure": c.Endure,
}
# Card-select verbs: one event card is the only parameter (UseAbility adds a target).
CARD_VERBS: dict[str, Any] = {
    "submit": c.Submit,
    "evade": c.Evade,
    "dump": c.Dump,
    "medbay": c.Medbay,
    "cabin": c.Cabin,
    "task": c.PlanetTask,
    "avoid": c.Avoid,
}


# -- the document -----------------------------------------------------------------------------------


def new_lobby(
    host_id: int, name: str, lang: str, seed: int, mission: str | None, pack: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A lobby document: the platform's table (`lang`, `seats`, `names`; bot/platform/tables.py)
    with the host seated, and the voyage's own keys.  `pack` is the server's own pack (None:
    ours), kept in the document so a pack uploaded later never changes a voyage under way."""
    return tables.new_table(
        host_id,
        name,
        lang,
        pack=pack,
        v=DOC_VERSION,
        seed=seed,
        mission=mission,
        game=None,
        bridge=0,
        thread=0,
        last=[],
        pinged=[],
    )


_PACKS: dict[str, Content] = {}


def content_of(doc: dict[str, Any]) -> Content:
    """The voyage's pack: ours, or the server's as stored in the document (validated once per
    process; a stored pack was valid when it was uploaded)."""
    raw = doc.get("pack")
    if raw is None:
        return _default()
    key = json.dumps(raw, sort_keys=True)
    if key not in _PACKS:
        loaded = load_pack(raw)
        if isinstance(loaded, PackRefusal):
            raise ValueError(f"stored pack refused: {loaded.code} at {loaded.where}")
        _PACKS[key] = loaded
    return _PACKS[key]


def _default() -> Content:
    if "" not in _PACKS:
        _PACKS[""] = default_pack()
    return _PACKS[""]


def pack_refusal(lang: str, refusal: PackRefusal) -> str:
    """Why an uploaded pack was refused, in words, with the place of the problem made inert."""
    return t(lang, f"legion.pack.{refusal.code}", where=user_text(refusal.where or "-", 120))


def begin(doc: dict[str, Any], content: Content) -> str | None:
    """Deal the voyage (seed 3.1.1) for the seated members; a refusal code (`legion.lobby.<code>`)
    or None.  The table has already checked the count against `RULES` (the engine checks again)."""
    if doc["game"] is not None:
        return "started"
    try:
        state, events = new_voyage(content, len(doc["seats"]), int(doc["seed"]), mission=doc["mission"])
    except SetupError as exc:
        return exc.code
    doc["game"] = to_snapshot(state)
    doc["last"] = public_lines(doc, state, events)
    doc["pinged"] = waiting_for(state)
    return None


def load(doc: dict[str, Any], content: Content) -> State:
    return from_snapshot(doc["game"], content)


# The bridge's announcements spoken in voice (issue 26: contact, damage, supplies exhausted, mutiny).
SPOKEN = ("contact", "hull_damaged", "supplies_exhausted", "captain_changed")


@dataclass
class Outcome:
    """What one click did: the engine's refusal code, or the public lines it produced and those
    of them the bridge announces in voice."""

    refused: str | None = None
    lines: list[str] = field(default_factory=list)
    over: bool = False
    spoken: list[str] = field(default_factory=list)


def act(doc: dict[str, Any], content: Content, command: Command) -> Outcome:
    """Apply one command to the stored voyage (in place on `doc`); a refusal leaves it unchanged."""
    state = load(doc, content)
    result = apply(state, command)
    if isinstance(result, Rejected):
        return Outcome(refused=result.code)
    assert isinstance(result, Applied)
    doc["game"] = to_snapshot(result.state)
    lines = public_lines(doc, result.state, list(result.events))
    doc["last"] = (doc["last"] + lines)[-LAST_LINES:]
    spoken = public_lines(doc, result.state, [e for e in result.events if e.code in SPOKEN])
    return Outcome(lines=lines, over=result.state.winner is not None, spoken=spoken)


def turn_line(doc: dict[str, Any], state: State) -> str:
    """Whose move it is, to be said in voice (names only: nothing private, never a mention)."""
    lang = doc["lang"]
    who = ", ".join(name_of(doc, s) for s in waiting_for(state))
    if not who:
        return ""
    return t(lang, "legion.say.turn", who=who, what=t(lang, f"legion.phase.{state.phase}"))


# -- who must act -----------------------------------------------------------------------------------


def waiting_for(state: State) -> list[int]:
    """The seats the voyage waits for now (the turn ping names them), in seat order."""
    if state.winner is not None:
        return []
    phase = state.phase
    if phase == "submit":
        tour = state.tour
        waiting = {
            seat
            for role in tour.queue
            if role not in tour.submitted
            and (seat := _seat_of_role(state, role)) is not None
            and state.seats[seat].hand
        }
        return sorted(waiting)
    if phase in ("turns", "free") and state.tour.queue:
        seat = _seat_of_role(state, state.tour.queue[0])
        return [] if seat is None else [seat]
    if phase == "visit" and state.visit is not None and state.visit.queue:
        return [state.visit.queue[0]]
    return [state.captain]


def _seat_of_role(state: State, role: Any) -> int | None:
    seat = state.seat_of_role(role)
    return state.captain if seat is None else seat


# -- the private panel: component choices <-> commands ----------------------------------------------


@dataclass
class Panel:
    """What one seat may do now: buttons (arg, label key), the card select and the pick select
    (value, label).  Built from `legal_commands`, so every offered choice is accepted."""

    buttons: list[tuple[str, str]] = field(default_factory=list)
    cards: list[tuple[str, str]] = field(default_factory=list)
    picks: list[tuple[str, str]] = field(default_factory=list)


def panel(doc: dict[str, Any], state: State, seat: int) -> Panel:
    lang = doc["lang"]
    found = Panel()
    seen_picks: set[str] = set()
    for command in legal_commands(state, seat):
        if isinstance(command, c.Operate):
            found.buttons.append(
                ("use" if command.use else "skip", "legion.do.use" if command.use else "legion.do.skip")
            )
            continue
        button = next((arg for arg, kind in BUTTONS.items() if isinstance(command, kind)), None)
        if button is not None:
            found.buttons.append((button, f"legion.do.{button}"))
            continue
        verb = next((v for v, kind in CARD_VERBS.items() if isinstance(command, kind)), None)
        if verb is not None:
            card = str(getattr(command, "card", ""))
            found.cards.append((f"{verb}{SEP}{card}", t(lang, f"legion.verb.{verb}", card=event_name(lang, card))))
            continue
        if isinstance(command, c.UseAbility):
            label = t(
                lang, "legion.verb.ability", card=event_name(lang, command.card), target=name_of(doc, command.target)
            )
            found.cards.append((f"ability{SEP}{command.card}{SEP}{command.target}", label))
            continue
        value, label = _pick(doc, state, command)
        if value and value not in seen_picks:
            seen_picks.add(value)
            found.picks.append((value, label))
    found.picks.sort(key=lambda pick: _pick_rank(pick[0]))
    found.cards = found.cards[:MAX_OPTIONS]
    found.picks = found.picks[:MAX_OPTIONS]
    return found


def _pick_rank(value: str) -> tuple[int, int]:
    verb, _, rest = value.partition(SEP)
    order = {"orders": 0, "buy": 1, "deal": 2, "roles": 3}.get(verb, 4)
    energy = -sum(int(x) for x in rest.split("-")) if verb == "orders" else 0
    return order, energy


def _pick(doc: dict[str, Any], state: State, command: Command) -> tuple[str, str]:
    lang = doc["lang"]
    if isinstance(command, c.GiveOrders):
        value = f"orders{SEP}{command.gunner}-{command.pilot}-{command.officer}"
        label = t(lang, "legion.verb.orders", gunner=command.gunner, pilot=command.pilot, officer=command.officer)
        return value, label
    if isinstance(command, c.Buy):
        item = state.content.equipment[command.item]
        return f"buy{SEP}{command.item}", t(
            lang, "legion.verb.buy", item=item_name(lang, command.item), price=item.price
        )
    if isinstance(command, c.Deal):
        service = state.content.flights[state.card].services[command.service]
        what = t(lang, f"legion.service.{service.kind}", price=service.price, amount=service.amount)
        if command.item:
            what = f"{what}: {item_name(lang, command.item)} ({state.content.equipment[command.item].price} Cr)"
        return f"deal{SEP}{command.service}{SEP}{command.item}", what
    if isinstance(command, c.AssignRoles):
        label = t(
            lang,
            "legion.verb.roles",
            officer=name_of(doc, command.officer),
            gunner=name_of(doc, command.gunner),
            pilot=name_of(doc, command.pilot),
        )
        return f"roles{SEP}{command.officer}-{command.gunner}-{command.pilot}", label
    return "", ""


def needs_card(state: State, seat: int, value: str) -> bool:
    """Whether a pick still needs the event card it is paid with (orders and deals do)."""
    verb = value.partition(SEP)[0]
    return verb in ("orders", "deal") and bool(state.seats[seat].hand)


def command_of(seat: int, action: str, arg: str, value: str) -> Command | None:
    """The command a component gives (its table action): `act` buttons (arg), the `pick_card`
    select (value), the `pick_move` select (value, card ""), and the `pick_pay` select (arg = the
    move, value = the card it is paid with).  None for anything malformed (a forged id or value):
    the engine never sees it."""
    try:
        if action == "act":
            if arg in ("use", "skip"):
                return c.Operate(seat, arg == "use")
            maker = BUTTONS.get(arg)
            return maker(seat) if maker is not None else None
        if action == "pick_card":
            parts = value.split(SEP)
            if parts[0] == "ability" and len(parts) == 3:
                return c.UseAbility(seat, parts[1], int(parts[2]))
            maker = CARD_VERBS.get(parts[0])
            return maker(seat, parts[1]) if maker is not None and len(parts) == 2 else None
        if action == "pick_move":
            return _picked(seat, value, "")
        if action == "pick_pay":
            return _picked(seat, arg, value)
    except (ValueError, IndexError):
        return None
    return None


def _picked(seat: int, value: str, card: str) -> Command | None:
    parts = value.split(SEP)
    verb = parts[0]
    if verb == "orders" and len(parts) == 2:
        gunner, pilot, officer = (int(x) for x in parts[1].split("-"))
        return c.GiveOrders(seat, card, gunner=gunner, pilot=pilot, officer=officer)
    if verb == "buy" and len(parts) == 2:
        return c.Buy(seat, parts[1])
    if verb == "deal" and len(parts) == 3:
        return c.Deal(seat, card, int(parts[1]), parts[2])
    if verb == "roles" and len(parts) == 2:
        officer, gunner, pilot = (int(x) for x in parts[1].split("-"))
        return c.AssignRoles(seat, officer, gunner, pilot)
    return None


# -- names of things --------------------------------------------------------------------------------


def _humane(ident: str) -> str:
    return ident.replace("_", " ").title()


def event_name(lang: str, card: str) -> str:
    return t(lang, f"legion.card.{card}") if card else "—"


def item_name(lang: str, item: str) -> str:
    """Modules by kind and level (weapon_ii -> Weapon II); specials and variants by their name."""
    kind, _, level = item.rpartition("_")
    if kind in ("weapon", "engine", "armour") and level in ("i", "ii", "iii", "iv"):
        return f"{t(lang, f'legion.kind.{kind}')} {level.upper()}"
    return _humane(item)


def character_name(lang: str, character: str) -> str:
    return _humane(character)


def flight_name(lang: str, state: State, card: str) -> str:
    flight = state.content.flights.get(card)
    if flight is None:
        return "—"
    if flight.type == "combat" and flight.enemy:
        return flight_enemy(lang, state.content.enemies[flight.enemy])
    return f"{t(lang, f'legion.type.{flight.type}')}: {_humane(card)}"


def flight_enemy(lang: str, enemy: Any) -> str:
    return t(
        lang,
        "legion.enemy",
        faction=t(lang, f"legion.faction.{enemy.faction}"),
        ship_class=t(lang, f"legion.class.{enemy.ship_class}"),
        attack=enemy.attack,
    )


# -- public words -----------------------------------------------------------------------------------

_SEAT_PARAMS = ("seat", "captain", "former", "officer", "gunner", "pilot", "target")
_ROLE_PARAMS = ("officer", "gunner", "pilot")  # seats in roles_assigned, energy in orders_given
# Events only ever shown privately (through the panel) or folded into other lines.
_SILENT = {"card_drawn", "pool_card_drawn", "side_dealt", "turn", "loot_roll", "supply_used"}


def public_lines(doc: dict[str, Any], state: State, events: Sequence[Event]) -> list[str]:
    """The table's view of what happened: private events (`to` a seat) are never worded here, and
    no line names a card in anyone's hand or anyone's side before the reveal (D-9)."""
    lang = doc["lang"]
    lines = []
    for event in events:
        if event.to is not None or event.code in _SILENT:
            continue
        params: dict[str, Any] = dict(event.params)
        for name in _SEAT_PARAMS:
            if name in params and not (event.code == "orders_given" and name in _ROLE_PARAMS):
                params[name] = name_of(doc, int(params[name]))
        if "role" in params:
            params["role"] = t(lang, f"legion.role.{params['role']}")
        if "side" in params:
            params["side"] = t(lang, f"legion.side.{params['side']}")
        if "winner" in params:
            params["winner"] = t(lang, f"legion.side.{params['winner']}")
        if "reason" in params:
            reason = str(params["reason"])
            params["reason"] = t(
                lang, f"legion.end.{reason}" if event.code == "voyage_over" else f"legion.why.{reason}"
            )
        if event.code == "contact":
            params["enemy"] = t(
                lang,
                "legion.enemy",
                faction=t(lang, f"legion.faction.{params['faction']}"),
                ship_class=t(lang, f"legion.class.{params['class']}"),
                attack=params["attack"],
            )
        elif event.code == "enemy_destroyed":
            enemy = state.content.enemies.get(str(params["enemy"]))
            params["enemy"] = flight_enemy(lang, enemy) if enemy is not None else t(lang, "legion.enemy.mission")
        if event.code == "flight_drawn":
            params["card"] = flight_name(lang, state, str(params["card"]))
        elif event.code == "event_resolved":
            params["card"] = event_name(lang, str(params["card"]))
        elif "card" in params:
            params["card"] = ""  # a played card stays unnamed: hands are private
        if "item" in params:
            params["item"] = item_name(lang, str(params["item"]))
        if "mission" in params:
            params["mission"] = t(lang, f"legion.mission.{params['mission']}")
        if "ship" in params:
            params["ship"] = _humane(str(params["ship"]))
        if "kind" in params:
            params["kind"] = t(lang, f"legion.kindof.{params['kind']}")
        if "effect" in params:
            params["effect"] = t(lang, f"legion.effect.{params['effect']}") if params["effect"] else ""
        if "reward" in params:
            params["reward"] = t(lang, f"legion.reward.{params['reward']}")
        lines.append(t(lang, f"legion.ev.{event.code}", **params))
    return lines


def bridge_text(doc: dict[str, Any], state: State) -> str:
    """The public bridge: ship, hold, crew (never a hidden side), the flight card, the mission's
    progress, whose move it is and the latest log lines."""
    lang = doc["lang"]
    ship = state.ship
    mission = state.content.missions[state.mission]
    equipment = [item_name(lang, i) for i in (*ship.weapons, *ship.engines, ship.armour, *ship.specials)]
    hold = ", ".join(_compartment(lang, k.kind, k.amount) for k in ship.hold)
    lines = [
        t(lang, "legion.bridge.title", ship=_humane(ship.card), mission=t(lang, f"legion.mission.{state.mission}")),
        t(lang, "legion.bridge.progress", flight=state.flight, flights=mission.flights),
        t(
            lang,
            "legion.bridge.ship",
            hull=ship.hull,
            max_hull=ship.max_hull,
            credits=state.credits,
            supply=state.supply(),
            goods=state.goods(),
        ),
        t(lang, "legion.bridge.modules", modules=", ".join(equipment)),
        t(lang, "legion.bridge.hold", hold=hold),
    ]
    if state.card and state.card in state.content.flights:
        lines.append(t(lang, "legion.bridge.card", card=flight_name(lang, state, state.card)))
    lines.extend(_stop_lines(lang, state))
    if state.combat is not None:
        lines.append(t(lang, "legion.bridge.combat", attack=state.combat.attack, rounds=state.combat.rounds))
    if state.tour.orders:
        orders = ", ".join(f"{t(lang, f'legion.role.{r}')} {e}" for r, e in state.tour.orders.items())
        lines.append(t(lang, "legion.bridge.orders", orders=orders, pool=len(state.tour.pool)))
    lines.append("")
    for index, seat in enumerate(state.seats):
        roles = " · ".join(t(lang, f"legion.role.{r}") for r in ROLE_ORDER if r in state.roles.get(index, []))
        marks = ""
        if seat.out:
            marks = " " + t(lang, "legion.bridge.out")
        elif seat.broken:
            marks = " " + t(lang, "legion.bridge.broken")
        if seat.revealed:
            marks += " " + t(lang, "legion.bridge.revealed", side=t(lang, f"legion.side.{seat.side}"))
        lines.append(
            t(
                lang,
                "legion.bridge.seat",
                name=name_of(doc, index),
                character=character_name(lang, seat.character),
                roles=roles or "—",
                health=seat.health,
                mental=seat.mental,
                cards=len(seat.hand),
            )
            + marks
        )
    lines.append("")
    if state.winner is not None:
        lines.append(
            t(
                lang,
                "legion.bridge.over",
                winner=t(lang, f"legion.side.{state.winner}"),
                reason=t(lang, f"legion.end.{state.reason}"),
            )
        )
    else:
        who = ", ".join(name_of(doc, s) for s in waiting_for(state))
        lines.append(t(lang, "legion.bridge.waiting", who=who, what=t(lang, f"legion.phase.{state.phase}")))
    if doc["last"]:
        lines.append("")
        lines.extend(f"> {line}" for line in doc["last"][-LAST_LINES:])
    return "\n".join(lines)[:1990]


def _stop_lines(lang: str, state: State) -> list[str]:
    """What the table sees of the stop: a shop's wares, a station's services, a planet's task, an
    anomaly's threat (all face up in the seed)."""
    lines = []
    if state.shop and state.phase in ("shop", "visit"):
        wares = ", ".join(f"{item_name(lang, i)} ({state.content.equipment[i].price} Cr)" for i in state.shop)
        lines.append(t(lang, "legion.bridge.shop", wares=wares))
    card = state.content.flights.get(state.card)
    if card is None:
        return lines
    if state.phase == "visit" and card.type == "station" and card.services:
        offers = "; ".join(t(lang, f"legion.service.{x.kind}", price=x.price, amount=x.amount) for x in card.services)
        lines.append(t(lang, "legion.bridge.services", services=offers))
    if state.phase == "visit" and card.type == "planet" and card.task is not None:
        task = card.task
        lines.append(
            t(
                lang,
                "legion.bridge.task",
                health=task.cost_health,
                mental=task.cost_mental,
                roll=task.target or "—",
                amount=task.amount,
                reward=t(lang, f"legion.reward.{task.reward}"),
            )
        )
    if state.phase == "anomaly" and card.anomaly:
        lines.append(
            t(lang, "legion.bridge.anomaly", effect=t(lang, f"legion.effect.{card.anomaly}"), amount=card.amount)
        )
    return lines


def _compartment(lang: str, kind: str, amount: int) -> str:
    return t(lang, f"legion.hold.{kind}", amount=amount)


def panel_text(doc: dict[str, Any], state: State, seat: int) -> str:
    """The seat's private view: side, character, Health and Mental, hand, the pool card drawn."""
    lang = doc["lang"]
    me = state.seats[seat]
    ability = state.content.characters[me.character].ability
    lines = [
        t(lang, "legion.panel.side", side=t(lang, f"legion.side.{me.side}")),
        t(
            lang,
            "legion.panel.character",
            character=character_name(lang, me.character),
            ability=t(lang, f"legion.ability.{ability.kind}", amount=ability.amount),
            health=me.health,
            mental=me.mental,
        ),
        t(lang, "legion.panel.hand", cards=hand_line(lang, me.hand)),
    ]
    for role, card in state.tour.drawn.items():
        if _seat_of_role(state, role) == seat:
            lines.append(
                t(lang, "legion.panel.drawn", role=t(lang, f"legion.role.{role}"), card=event_name(lang, card))
            )
    if state.winner is None:
        waiting = waiting_for(state)
        lines.append(
            t(
                lang,
                "legion.panel.yours" if seat in waiting else "legion.panel.not_yours",
                what=t(lang, f"legion.phase.{state.phase}"),
            )
        )
    return "\n".join(lines)


def hand_line(lang: str, hand: Sequence[str]) -> str:
    return ", ".join(f"{event_name(lang, card)}" for card in hand) or "—"


def reveal_lines(doc: dict[str, Any], state: State) -> list[str]:
    """The end: every side shown (D-9) and who won."""
    lang = doc["lang"]
    lines = [
        t(
            lang,
            "legion.result.title",
            winner=t(lang, f"legion.side.{state.winner}"),
            reason=t(lang, f"legion.end.{state.reason}"),
        )
    ]
    for index, seat in enumerate(state.seats):
        lines.append(
            t(
                lang,
                "legion.result.seat",
                name=name_of(doc, index),
                character=character_name(lang, seat.character),
                side=t(lang, f"legion.side.{seat.side}"),
            )
        )
    return lines


def session_result(doc: dict[str, Any], state: State) -> SessionResult:
    """How the voyage ended, for the platform's records: the winning side as the outcome, each
    member with their side as role (careers count Legion games by it), the mission in details."""
    players = [
        {
            "user_id": doc["seats"][index],
            "name": doc["names"].get(str(doc["seats"][index]), ""),
            "won": seat.side == state.winner,
            "role": seat.side,
            "character": seat.character,
        }
        for index, seat in enumerate(state.seats)
    ]
    details = {
        "mission": state.mission,
        "reason": state.reason,
        "flights": state.flight,
        "ship": state.ship.card,
        "seed": int(doc["seed"]),
        "lang": doc["lang"],
    }
    return SessionResult(outcome=str(state.winner), players=players, details=details)
