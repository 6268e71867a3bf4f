"""Words for an Escape game: the lobby, the public station post, a player's private panel, the
engine's events and the result, in the game's language (bot/platform/locales/escape/<lang>.json).

Why the public and the private texts are built from different inputs: the public post is drawn
only from `engine.escape.views.public_view` and the log (no mission, no item, no unseen tile can
reach it), while a panel reads the seat's own `player_view`.  A test asserts the mission words
never appear in the public text.  Names members typed are made inert here (`user_text`).
"""

from __future__ import annotations

from typing import Any

from bot.games.escape._doc import encode, name_of
from bot.platform.i18n import t
from engine.escape.content import CENTER
from engine.escape.rules import SITES, Command, Event, goals_met, legal_commands, weight
from engine.escape.state import State
from engine.escape.views import player_view, public_view

TILE_MARK = {
    "start": "🚩",
    "corridor": "⬜",
    "crate": "📦",
    "trap": "⚠️",
    "hyperportal": "🌀",
    "lift": "🛗",
    "medbay": "➕",
    "docks": "🚀",
    "warehouse": "🏭",
    "reactor": "☢️",
    "armoury": "🔫",
    "lab": "🧪",
    "control_center": "🛰️",
}
UNSEEN = "⬛"
PAWNS = ("🔴", "🔵", "🟢", "🟡")
ARROWS = ("⬆️", "➡️", "⬇️", "⬅️")


def card_name(card_id: str) -> str:
    """A pack's card id as a name: our pack's cards carry ids, not publisher names."""
    return card_id.replace("_", " ").strip().capitalize() or "?"


def mission_name(lang: str, mission_id: str, doc: dict[str, Any] | None = None) -> str:
    """A mission's name: ours are translated; a server pack's own missions show their id; a text
    the host typed for a referee game is shown as typed (kept inert when it was stored)."""
    typed = (doc or {}).get("dealt_texts") or {}
    if mission_id in typed:
        return str(typed[mission_id])
    key = f"escape.mission.{mission_id}"
    text = t(lang, key)
    return card_name(mission_id) if text == key else text


def who(doc: dict[str, Any], seat: int) -> str:
    """A seat as the engine's sentences name it ("Seat {player}"): the number and the name."""
    return f"{seat + 1} ({name_of(doc, seat)})"


def event_line(lang: str, doc: dict[str, Any], event: Event) -> str:
    """One engine event in words; values that name something (a seat, a site, an outcome) are
    worded, the rest are shown as numbers."""
    values: dict[str, object] = {k: v for k, v in event.values}
    values["player"] = who(doc, event.player)
    for key in ("target", "loser", "winner", "by"):
        if key in values:
            seat = int(str(values[key]))
            values[key] = who(doc, seat) if seat >= 0 else t(lang, "escape.ui.station")
    if "opponent" in values:
        seat = int(str(values["opponent"]))
        values["opponent"] = name_of(doc, seat) if seat >= 0 else t(lang, "escape.ui.station")
    if event.code == "dialogue":
        values["outcome"] = t(lang, f"escape.ui.outcome{values['outcome']}")
    if event.code == "guard_fight":
        values["site"] = t(lang, f"escape.tile.{SITES[int(str(values['site']))]}")
    if event.code == "story_item_taken":
        values["item"] = t(lang, "escape.ui.cargo" if values["item"] == 0 else "escape.ui.disk")
    if event.code == "flee":
        values["escaped"] = t(lang, "escape.ui.yes" if values["escaped"] else "escape.ui.no")
    if "row" in values:
        values["row"], values["col"] = int(str(values["row"])) + 1, int(str(values["col"])) + 1
    return t(lang, f"escape.event.{event.code}", **values)


QUIET = frozenset({"turn_ended", "armour_hit", "gear_gained"})


def event_lines(lang: str, doc: dict[str, Any], events: tuple[Event, ...]) -> list[str]:
    """The public lines of a step (a few bookkeeping events are left to the panels)."""
    return [event_line(lang, doc, e) for e in events if e.code not in QUIET]


# What the station announces in voice (issue 27: the hours and the general events; we add the
# reactor's shutdown, which turns gravity off and sounds the alarm, the alarm of a taken control
# center, and the end).  Only events whose public line names nothing secret.
SPOKEN = frozenset(
    {
        "hour",
        "general_event",
        "general_event_due",
        "reactor_shut_down",
        "center_taken",
        "station_stormed",
        "mission_completed",
    }
)


def spoken_lines(lang: str, doc: dict[str, Any], events: tuple[Event, ...]) -> list[str]:
    """The public lines of a step that are also said in voice (a subset of `event_lines`)."""
    return [event_line(lang, doc, e) for e in events if e.code in SPOKEN]


def turn_line(doc: dict[str, Any], seat: int) -> str:
    """Whose move it is, to be said in voice: the seat's name only (no mention, nothing private)."""
    if not 0 <= seat < len(doc["seats"]):
        return ""
    return t(doc["lang"], "escape.say.turn", name=name_of(doc, seat))


# ---------------------------------------------------------------- the lobby


def lobby_text(doc: dict[str, Any]) -> str:
    lang = doc["lang"]
    players = ", ".join(name_of(doc, i) for i in range(len(doc["seats"])))
    texts = len(doc.get("mission_texts") or [])
    extra = "\n" + t(lang, "escape.ui.lobby_texts", count=texts) if texts else ""
    return (
        t(
            lang,
            "escape.ui.lobby",
            mode=t(lang, f"escape.ui.mode_{doc['mode']}"),
            difficulty=t(lang, f"escape.difficulty.{doc['difficulty']}"),
            players=players,
            count=len(doc["seats"]),
        )
        + extra
    )


# ---------------------------------------------------------------- the public station post


def _flags(lang: str, state: State) -> str:
    flags = [
        t(lang, key)
        for on, key in (
            (state.gravity_off, "escape.ui.gravity_off"),
            (state.alarm, "escape.ui.alarm"),
            (state.docks_unlocked, "escape.ui.docks_open"),
        )
        if on
    ]
    return " · ".join(flags)


def station_text(doc: dict[str, Any], state: State) -> str:
    """The public post: the clock, whose turn, each pawn's public numbers, the last lines."""
    lang = doc["lang"]
    view = public_view(state)
    clock = view["clock"]
    head = [
        " · ".join(
            (
                f"**{t(lang, 'escape.ui.title')}**",
                t(lang, f"escape.ui.mode_{doc['mode']}"),
                t(lang, f"escape.difficulty.{doc['difficulty']}"),
            )
        ),
        t(lang, "escape.ui.clock", hour=clock["hour"], limit=clock["limit"]),
    ]
    flags = _flags(lang, state)
    if flags:
        head.append(flags)
    if not state.over:
        head.append(t(lang, "escape.ui.to_move", name=name_of(doc, actor_seat(state))))
    for p in view["players"]:
        seat = p["seat"]
        mark = PAWNS[seat % len(PAWNS)]
        head.append(
            f"{mark} "
            + t(
                lang,
                "escape.ui.public_player",
                name=name_of(doc, seat),
                kind=t(lang, f"escape.kind.{state.character(seat).kind}"),
                health=p["health"],
                aggression=p["aggression"],
            )
        )
    log = [f"> {line}" for line in doc["log"]]
    text = "\n".join(head)
    while log and len(text) + 2 + len("\n".join(log)) > 1900:
        log.pop(0)
    return text + ("\n\n" + "\n".join(log) if log else "")


def actor_seat(state: State) -> int:
    from engine.escape.policy import actor

    return actor(state)


def result_text(doc: dict[str, Any], state: State) -> str:
    """The end: the winner and their mission (now no secret), or the storm."""
    lang = doc["lang"]
    if state.winner >= 0:
        mission = state.players[state.winner].mission.id
        return t(
            lang,
            "escape.ui.won",
            name=name_of(doc, state.winner),
            mission=mission_name(lang, mission, doc),
            hours=state.hour,
        )
    return t(lang, "escape.ui.stormed", hours=state.hour)


# ---------------------------------------------------------------- a player's private panel


def _item_text(lang: str, state: State, seat: int, slot: int) -> str:
    item = state.players[seat].items[slot]
    card = state.gear(item.gear)
    name = t(lang, "escape.ui.cargo") if card.id == "cargo" else card_name(card.id)
    if card.id == "disk":
        name = t(lang, "escape.ui.disk")
    bits = []
    if card.type == "weapon":
        bits.append(t(lang, "escape.ui.damage", damage=card.damage, hands=card.hands))
        if card.charges:
            bits.append(t(lang, "escape.ui.charges", charges=item.charges, most=card.charges))
    if card.armour:
        bits.append(t(lang, "escape.ui.armour", armour=item.armour, most=card.armour))
    if card.heal:
        bits.append(f"+{card.heal} ♥")
    if card.weight:
        bits.append(t(lang, "escape.ui.weight", weight=card.weight))
    return f"{name} ({', '.join(bits)})" if bits else name


def map_text(state: State, seat: int) -> str:
    """The seat's own station: tiles it has seen (D18), pawns it can see, the rest dark."""
    view = player_view(state, seat)
    board = view["board"]
    if not board:
        return ""
    pawns = {tuple(p["cell"]): PAWNS[p["seat"] % len(PAWNS)] for p in view["players"]}
    mine = tuple(state.players[seat].cell)
    pawns[mine] = PAWNS[seat % len(PAWNS)]
    rows = []
    for r, row in enumerate(board):
        cells = []
        for c, kind in enumerate(row):
            if (r, c) in pawns and kind is not None:
                cells.append(pawns[(r, c)])
            else:
                cells.append(UNSEEN if kind is None else TILE_MARK.get(kind, "⬜"))
        rows.append("".join(cells))
    return "\n".join(rows)


def panel_text(doc: dict[str, Any], state: State, seat: int) -> str:
    """Everything that is the seat's own: mission, character, Health, AP, gear, weight, its map."""
    lang = doc["lang"]
    p = state.players[seat]
    char = state.character(seat)
    goals = "; ".join(t(lang, f"escape.goal.{g}") for g in p.mission.goals) or t(lang, "escape.ui.claim_hint")
    lines = [
        t(lang, "escape.ui.panel_title", name=name_of(doc, seat)),
        t(lang, "escape.ui.your_mission", mission=mission_name(lang, p.mission.id, doc), goals=goals),
        t(
            lang,
            "escape.ui.your_character",
            character=card_name(char.id),
            kind=t(lang, f"escape.kind.{char.kind}"),
            ap=char.ap,
            unarmed=char.unarmed,
        ),
        t(
            lang,
            "escape.ui.your_numbers",
            health=p.health,
            most=char.health,
            ap=p.ap,
            aggression=p.aggression,
            weight=weight(state, seat),
            max_weight=char.max_weight,
        ),
    ]
    if p.items:
        items = "; ".join(_item_text(lang, state, seat, i) for i in range(len(p.items)))
        lines.append(t(lang, "escape.ui.your_gear", items=items))
    if state.mode == "digital":
        r, c = p.cell
        lines.append(t(lang, "escape.ui.you_stand", tile=t(lang, f"escape.tile.{state.grid[r][c]}")))
    flags = _flags(lang, state)
    if flags:
        lines.append(flags)
    if p.hold_left > 0:
        lines.append(t(lang, "escape.ui.hold_left", left=p.hold_left))
    if goals_met(state, seat, except_escape=True) and "escape" in p.mission.goals:
        lines.append(t(lang, "escape.ui.ready_to_escape"))
    fight = state.fight
    if fight is not None and fight.enemy_turn and seat == fight.enemy_by:
        lines.append(t(lang, "escape.ui.fight_as_enemy", name=name_of(doc, fight.attacker)))
    if fight is not None and seat in (fight.attacker, fight.opponent):
        if fight.opponent < 0 and fight.enemy_by >= 0:
            by = name_of(doc, fight.enemy_by)
            lines.append(
                t(lang, "escape.ui.fight_enemy_by", health=fight.enemy_health, damage=fight.enemy_damage, name=by)
            )
        elif fight.opponent < 0:
            lines.append(t(lang, "escape.ui.fight_enemy", health=fight.enemy_health, damage=fight.enemy_damage))
        else:
            other = fight.opponent if seat == fight.attacker else fight.attacker
            lines.append(t(lang, "escape.ui.fight_player", name=name_of(doc, other)))
    lines += trade_lines(doc, state, seat)
    if state.over:
        lines.append(result_text(doc, state))
    elif actor_seat(state) == seat:
        lines.append(t(lang, "escape.ui.your_move"))
    else:
        lines.append(t(lang, "escape.ui.wait_for", name=name_of(doc, actor_seat(state))))
    board = map_text(state, seat)
    if board:
        lines.append(board)
    return "\n".join(lines)


# ---------------------------------------------------------------- the panel's controls


BUTTON_KINDS = ("move", "end_turn", "flee", "enemy_strike", "accept_trade", "decline_trade", "withdraw_trade")
TRADE = "trade"  # the panel's select value of "Trade with …" (`trade.<seat>`): opens the trade's picks


def command_label(lang: str, doc: dict[str, Any], state: State, seat: int, command: Command) -> str:
    """The words of a command in the panel's select."""
    kind = command.kind
    values: dict[str, object] = {}
    if kind in ("reload", "use", "drop"):
        values["item"] = _item_text(lang, state, seat, command.target)
    elif kind == "attack":
        slots = command.numbers
        values["item"] = (
            " + ".join(card_name(state.players[seat].items[s].gear) for s in slots)
            if slots
            else t(lang, "escape.ui.fists")
        )
    elif kind == "challenge":
        values["name"] = name_of(doc, command.target)
    elif kind == "take_spoil":
        fight_loser = state.spoils[1] if state.spoils else -1
        values["item"] = (
            _item_text(lang, state, fight_loser, command.target)
            if command.target >= 0 and fight_loser >= 0
            else t(lang, "escape.ui.nothing")
        )
    elif kind == "jump":
        values["row"], values["col"] = command.cell[0] + 1, command.cell[1] + 1
    elif kind == "ref_guard":
        values["site"] = t(lang, f"escape.tile.{SITES[command.target]}")
    return t(lang, f"escape.cmd.{kind}", **values)[:100]


def panel_controls(
    doc: dict[str, Any], state: State, seat: int
) -> tuple[list[tuple[str, str, bool]], list[tuple[str, str]]]:
    """(buttons, select options) for the seat: each as (label, encoded command[, enabled]).
    Buttons: the four moves (digital), end turn, flee; everything else legal goes in the select."""
    lang = doc["lang"]
    legal = legal_commands(state, seat)
    buttons: list[tuple[str, str, bool]] = []
    if state.mode == "digital" and state.fight is None:
        for d, arrow in enumerate(ARROWS):
            cmd = Command("move", seat, target=d)
            buttons.append((arrow, encode(cmd), cmd in legal))
    for kind in ("accept_trade", "decline_trade", "withdraw_trade", "end_turn", "flee", "enemy_strike"):
        cmd = Command(kind, seat)
        if cmd in legal:
            buttons.append((t(lang, f"escape.cmd.{kind}"), encode(cmd), True))
    options: list[tuple[str, str]] = []
    if state.mode == "referee" and state.hour == 0 and not state.over:
        options.append((t(lang, "escape.cmd.set_character"), "set_character"))
    rivals: list[int] = []
    for cmd in legal:
        if cmd.kind in BUTTON_KINDS:
            continue
        if cmd.kind == "offer_trade":  # one entry a rival; the cards are picked next (trade_options)
            if cmd.target not in rivals:
                rivals.append(cmd.target)
                name = name_of(doc, cmd.target)
                options.append((t(lang, "escape.cmd.offer_trade", name=name)[:100], f"{TRADE}.{cmd.target}"))
            continue
        options.append((command_label(lang, doc, state, seat, cmd), encode(cmd)))
    # Discord allows 25 options: when there are more (many cards in referee mode), the last of the
    # others give way, never the crew's way to enter a card (the game cannot go on without it).
    cards = [o for o in options if o[1].split(".")[0] in CARD_ENTRIES]
    others = [o for o in options if o[1].split(".")[0] not in CARD_ENTRIES]
    return buttons, others[: 25 - len(cards)] + cards


CARD_ENTRIES = ("ref_gear", "ref_damage", "ref_encounter", "ref_hold_fight")


def trade_options(doc: dict[str, Any], state: State, seat: int, rival: int, give: int | None) -> list[tuple[str, str]]:
    """The picks of a trade offer (rules doc D26), as (label, slot) for a select: with `give` None,
    the seat's own cards it may give (or nothing); else the rival's cards it may ask for in return.
    Only picks some legal offer allows (no story item, no overload), so a pick never dead-ends."""
    lang = doc["lang"]
    offers = [c for c in legal_commands(state, seat) if c.kind == "offer_trade" and c.target == rival]
    if give is None:
        slots = sorted({c.numbers[0] for c in offers})
        owner = seat
    else:
        slots = sorted({c.numbers[1] for c in offers if c.numbers[0] == give})
        owner = rival
    nothing = t(lang, "escape.ui.nothing")
    return [(_item_text(lang, state, owner, s)[:100] if s >= 0 else nothing, str(s)) for s in slots][:25]


def trade_lines(doc: dict[str, Any], state: State, seat: int) -> list[str]:
    """A pending offer on the panel of either party (the cards named only there, never in public)."""
    offer = state.offer
    if offer is None or seat not in (offer.by, offer.to):
        return []
    lang = doc["lang"]
    nothing = t(lang, "escape.ui.nothing")
    give = _item_text(lang, state, offer.by, offer.give) if offer.give >= 0 else nothing
    ask = _item_text(lang, state, offer.to, offer.ask) if offer.ask >= 0 else nothing
    if seat == offer.by:
        return [t(lang, "escape.ui.trade_mine", name=name_of(doc, offer.to), give=give, ask=ask)]
    return [t(lang, "escape.ui.trade_to_me", name=name_of(doc, offer.by), give=give, ask=ask)]


def enemy_options(doc: dict[str, Any], state: State, seat: int) -> list[tuple[str, str]]:
    """Referee mode: the enemy cards of the game's pack the seat may pick instead of typing their
    numbers (issue 27: "enter the enemy card's numbers, or pick it from a pack"), as (label,
    encoded command with the card's numbers): encounters of both levels when a local event is
    due, the inner level's characters for a hold fight, each site's guards.  Cards with the same
    numbers are offered once."""
    if state.mode != "referee":
        return []
    lang = doc["lang"]
    legal = legal_commands(state, seat)
    kinds = {c.kind for c in legal}
    pack = state.pack
    out: list[tuple[str, str]] = []
    seen: set[str] = set()

    def add(label: str, command: Command) -> None:
        value = encode(command)
        if value not in seen:
            seen.add(value)
            out.append((label[:100], value))

    if "ref_hold_fight" in kinds:
        for card in pack.local_inner:
            if card.kind == "encounter" and card.enemy is not None:
                health, damage = card.enemy.health, card.enemy.damage
                label = t(lang, "escape.ui.enemy_hold", card=card_name(card.id), health=health, damage=damage)
                add(label, Command("ref_hold_fight", seat, numbers=(health, damage)))
    if "ref_encounter" in kinds:
        for level, cards in ((1, pack.local_outer), (2, pack.local_inner)):
            for card in cards:
                if card.kind != "encounter" or card.enemy is None:
                    continue
                numbers = (card.enemy.health, card.enemy.damage, card.fight_upto, card.part_upto, level)
                label = t(
                    lang,
                    "escape.ui.enemy_encounter",
                    level=level,
                    card=card_name(card.id),
                    health=numbers[0],
                    damage=numbers[1],
                )
                add(label, Command("ref_encounter", seat, numbers=numbers))
    for cmd in legal:
        if cmd.kind == "ref_guard":
            site = SITES[cmd.target]
            guard = pack.guards.get(site)
            if guard is not None:
                label = t(
                    lang,
                    "escape.ui.enemy_guard",
                    site=t(lang, f"escape.tile.{site}"),
                    health=guard.health,
                    damage=guard.damage,
                )
                add(label, Command("ref_guard", seat, target=cmd.target, numbers=(guard.health, guard.damage)))
    return out[:25]


def at_center(state: State, seat: int) -> bool:
    return state.mode == "digital" and tuple(state.players[seat].cell) == CENTER
