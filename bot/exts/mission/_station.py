"""A crew member's private station: the embed and controls drawn from the engine's StationView.

Rendering only.  Which cards may go where, what can be drawn, given, moved or taken back is read
from the view (`engine.flight.views`), which the engine builds with the same checks `apply` uses;
nothing here knows a rule.  A click is turned back into an engine command by `command_for`, and
the engine accepts or refuses it.

Cards are shown in words and icons ("🔫 A: fire · ⬅️ to the red side"), never by their internal
ids (a component's value carries the id, but values are never shown).  Placing is one choice (a
select of "turn ← half" options), and a data transfer is one choice too ("card → crew member").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord

from bot.exts.mission import _ids
from bot.exts.mission._components import FlightButton, FlightSelect, view_of
from bot.exts.mission._render import COLOR_FLIGHT
from bot.i18n import t
from bot.text import strip_unsafe, truncate, user_text
from engine.flight.machine import (
    AgreeEnd,
    Command,
    DrawCard,
    FinishPhase,
    GiveCard,
    MoveCard,
    PlaceCard,
    TakeBack,
)
from engine.flight.views import CardView, SlotView, StationView
from engine.vocab import HALVES, ActionCode, Half

MAX_OPTIONS = 25  # Discord's limit per select
HALF_KEY: dict[Half, str] = {"action": "a", "move": "m"}
KEY_HALF: dict[str, Half] = {"a": "action", "m": "move"}


# -- cards in words ----------------------------------------------------------------------------------
def code_text(lang: str, code: ActionCode) -> str:
    """One half of a card in words and an icon, e.g. '⬅️ to the red side'."""
    return t(lang, f"card.code_{_code_key(code)}")


def _code_key(code: ActionCode) -> str:
    return {"<": "red", ">": "blue", "^": "lift", "-": "blank"}.get(code) or (
        f"heroic_{code.lower()}" if code in ("A", "B", "X") else code
    )


def card_text(lang: str, card: CardView) -> str:
    """Both halves, heroic cards marked: '🅰️ A: fire · ⬅️ to the red side'."""
    mark = "⭐ " if card.heroic else ""
    return f"{mark}{code_text(lang, card.action)} · {code_text(lang, card.move)}"


def slot_text(lang: str, slot: SlotView) -> str:
    if slot.hidden:
        return "🂠"
    if slot.card is None or slot.half is None or slot.code is None:
        return ""
    return f"**{code_text(lang, slot.code)}**" + (" ⭐" if slot.card.heroic else "")


# -- the selection a hand carries in its component ids ---------------------------------------------------
_ENC = str.maketrans({"<": "L", ">": "R", "^": "U"})
_DEC = str.maketrans({"L": "<", "R": ">", "U": "^"})


def card_key(card: CardView) -> str:
    """A card as a component value ("h" + its id, spelled with custom-id-safe characters)."""
    return "h" + card.id.translate(_ENC)


@dataclass(frozen=True)
class Selection:
    """What the player has chosen on this hand: a card in the hand ("h<card>"), a turn ("t<n>"), or nothing."""

    key: str = "-"

    def card(self, view: StationView) -> CardView | None:
        if not self.key.startswith("h"):
            return None
        card_id = self.key[1:].translate(_DEC)
        return next((c for c in view.hand if c.id == card_id), None)

    def turn(self) -> int | None:
        return int(self.key[1:]) if self.key.startswith("t") and self.key[1:].isdigit() else None

    def valid(self, view: StationView) -> Selection:
        """The same selection if it still means something in `view`, else none (a card left the hand)."""
        if self.card(view) is not None:
            return self
        turn = self.turn()
        if turn is not None and view.relocation(turn) is not None:
            return self
        return Selection()


# -- the embed and the controls -------------------------------------------------------------------------
def station_message(
    lang: str, flight_id: str, user_id: int, view: StationView, sel: Selection, note: str | None = None
) -> tuple[discord.Embed, discord.ui.View]:
    sel = sel.valid(view)
    return station_embed(lang, flight_id, view, sel, note), station_controls(lang, flight_id, user_id, view, sel)


def station_embed(
    lang: str, flight_id: str, view: StationView, sel: Selection, note: str | None = None
) -> discord.Embed:
    embed = discord.Embed(title=t(lang, "hand.title", name=user_text(view.player)), colour=COLOR_FLIGHT)
    notes = [n for n in (note, _window_note(lang, view)) if n]
    chosen = sel.card(view)
    if chosen is not None:
        notes.append(t(lang, "hand.selected", card=card_text(lang, chosen)))
    if notes:
        embed.description = "\n".join(notes)
    if view.board is not None:
        lines = [_slot_line(lang, s) for s in view.board.slots]
        embed.add_field(name=t(lang, "hand.board"), value="\n".join(lines)[:1024], inline=False)
    hand_lines = [f"`{i + 1:>2}` {card_text(lang, c)}" for i, c in enumerate(view.hand)]
    embed.add_field(
        name=t(lang, "hand.cards", n=len(view.hand)),
        value=_fit(hand_lines, 1024) or t(lang, "hand.empty"),
        inline=False,
    )
    for board in view.androids:
        cells = [f"{s.turn}: {slot_text(lang, s)}" for s in board.slots if s.card is not None]
        who = t(lang, "hand.android_planners_solo" if view.solo else "hand.android_planners")
        heroic = t(lang, "hand.android_heroic", card=card_text(lang, board.heroic)) if board.heroic else ""
        value = "\n".join(x for x in (" · ".join(cells), heroic, who) if x)
        embed.add_field(name=f"🤖 {user_text(board.owner)}", value=value[:1024], inline=False)
    embed.set_footer(text=t(lang, "hand.footer", phase=view.planning_phase, phases=view.phases))
    return embed


def _window_note(lang: str, view: StationView) -> str:
    lines = []
    if view.untimed and view.running:
        lines.append(t(lang, "flight.untimed"))
    if view.can_draw:
        lines.append(t(lang, "deck.incoming"))
    if view.giveable and view.give_to:
        lines.append(t(lang, "deck.transfer"))
    if view.comm_down:
        lines.append(t(lang, "deck.comm_down"))
    if view.agreed_end and view.running:
        lines.append(t(lang, "hand.agreed"))
    if view.status == "ended":
        lines.append(t(lang, "deck.operation_ended"))
    return "\n".join(lines)


def _slot_line(lang: str, slot: SlotView) -> str:
    status = "🔒" if slot.locked else ("🟢" if slot.open or slot.movable else "⏳")
    return f"`{slot.turn:>2}` {status} {slot_text(lang, slot)}".rstrip()


def _fit(lines: list[str], limit: int) -> str:
    out: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit - 4:
            out.append("…")
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


def station_controls(lang: str, fid: str, uid: int, view: StationView, sel: Selection) -> discord.ui.View:
    """Rows: 0 choose a card, 1 put it on a turn, 2 buttons, 3 an android's board, 4 give a card.

    Selects are laid out by discord.py in the order they are added (their row is not kept), so
    the order here is the layout.
    """
    selects: list[discord.ui.Item[Any]] = []
    if view.running:
        selects = _selects(lang, fid, uid, view, sel)
    buttons = _buttons(lang, fid, uid, view, sel)
    first, rest = selects[:2], selects[2:]
    return view_of(*first, *buttons, *rest)


def _selects(lang: str, fid: str, uid: int, view: StationView, sel: Selection) -> list[discord.ui.Item[Any]]:
    items: list[discord.ui.Item[Any]] = []
    picks = [
        discord.SelectOption(
            label=(f"{card_text(lang, c)}" + (f" ×{n}" if n > 1 else ""))[:100],
            value=card_key(c),
            default=sel.key == card_key(c),
        )
        for c, n in _kinds(view)
    ]
    picks += [
        discord.SelectOption(
            label=f"{t(lang, 'hand.turn', n=r.from_turn)}: {_slot_plain(lang, view, r.from_turn)}"[:100],
            value=f"t{r.from_turn}",
            default=sel.key == f"t{r.from_turn}",
        )
        for r in view.relocations
        if r.board is None
    ]
    own = _own_targets(lang, view, sel)
    androids = _android_targets(lang, view, sel)
    gifts = [
        discord.SelectOption(
            label=f"{card_text(lang, c)} → {truncate(strip_unsafe(name), 40)}"[:100], value=f"{card_key(c)}.{n}"
        )
        for c in view.giveable
        for n, name in enumerate(view.give_to)
    ]
    for action, options, placeholder, args in (
        ("pick", picks, "hand.pick", ()),
        ("place", own, "hand.place", (sel.key,)),
        ("android", androids, "hand.android", (sel.key,)),
        ("give", gifts, "hand.give", ()),
    ):
        if options:
            cid = _ids.make(fid, action, uid, *args)
            items.append(FlightSelect(cid, options=options[:MAX_OPTIONS], placeholder=t(lang, placeholder)))
    return items


def _buttons(lang: str, fid: str, uid: int, view: StationView, sel: Selection) -> list[discord.ui.Item[Any]]:
    items: list[discord.ui.Item[Any]] = []
    row = 2
    turn = sel.turn()
    if turn is not None and view.relocation(turn) is not None:
        items.append(FlightButton(_ids.make(fid, "back", uid, sel.key), label=t(lang, "hand.back"), row=row))
    danger, success = discord.ButtonStyle.danger, discord.ButtonStyle.success
    for shown, action, style, emoji in (
        (view.can_draw, "draw", success, None),
        (view.can_finish, "finish", danger, None),
        (view.can_agree, "agree", danger, "✋"),
    ):
        if shown:
            label = t(lang, f"hand.{action}")
            items.append(FlightButton(_ids.make(fid, action, uid), label=label, style=style, emoji=emoji, row=row))
    items.append(
        FlightButton(_ids.make(fid, "refresh", uid, sel.key), label=t(lang, "hand.refresh"), emoji="🔄", row=row)
    )
    return items


def _kinds(view: StationView) -> list[tuple[CardView, int]]:
    """Placeable cards, one per kind (same halves, same heroism) with how many there are.

    Cards of a kind play identically, so choosing among them is noise; it also keeps a solo
    player's 90 face-up cards within one select.
    """
    placeable = {p.card.id for p in view.placements}
    kinds: dict[tuple[str, str, bool], list[CardView]] = {}
    for c in view.hand:
        if c.id in placeable:
            kinds.setdefault((c.action, c.move, c.heroic), []).append(c)
    return [(cards[0], len(cards)) for cards in kinds.values()]


def _plain(name: str, limit: int) -> str:
    """A crew name inside a select option (options show no markdown, so only unsafe characters go)."""
    return truncate(strip_unsafe(name), limit)


def _slot_plain(lang: str, view: StationView, turn: int) -> str:
    assert view.board is not None
    slot = view.board.slots[turn - 1]
    return code_text(lang, slot.code) if slot.code is not None else ""


def _own_targets(lang: str, view: StationView, sel: Selection) -> list[discord.SelectOption]:
    """'half → turn' options for the selected card (or the selected board card) on the player's own board."""
    chosen = sel.card(view)
    turns: tuple[int, ...] = ()
    card: CardView | None = None
    if chosen is not None:
        placement = view.placement(chosen.id)
        turns, card = (placement.turns, chosen) if placement else ((), None)
    elif (turn := sel.turn()) is not None and (rel := view.relocation(turn)) is not None and view.board:
        turns, card = (turn, *rel.to_turns), view.board.slots[turn - 1].card
    if card is None:
        return []
    return [
        discord.SelectOption(
            label=f"{t(lang, 'hand.turn', n=n)} ← {code_text(lang, card.code(half))}"[:100],
            value=f"{HALF_KEY[half]}.{n}",
        )
        for half in HALVES
        for n in sorted(turns)
    ]


def _android_targets(lang: str, view: StationView, sel: Selection) -> list[discord.SelectOption]:
    """'android · turn ← half' options: the selected card, else each android's own heroic card.

    Ordered by turn, so when there are more than a select holds (solo: four androids) the
    earliest turns of every android stay in reach.
    """
    chosen = sel.card(view)
    which = "o" if chosen is None else "s"  # the android's own heroic card, or the selected card
    found: list[tuple[int, int, int, discord.SelectOption]] = []
    for index, board in enumerate(view.androids):
        card = chosen if chosen is not None else board.heroic
        placement = view.placement(card.id, board.owner) if card is not None else None
        if card is None or placement is None:
            continue
        for h, half in enumerate(HALVES):
            for n in placement.turns:
                where = f"🤖 {_plain(board.owner, 30)} · {t(lang, 'hand.turn', n=n)}"
                label = f"{where} ← {code_text(lang, card.code(half))}"[:100]
                value = f"{index}.{which}.{HALF_KEY[half]}.{n}"
                found.append((n, index, h, discord.SelectOption(label=label, value=value)))
    return [option for *_, option in sorted(found, key=lambda f: f[:3])]


# -- clicks back into commands ---------------------------------------------------------------------------
def command_for(view: StationView, action: str, sel: Selection, values: list[str]) -> Command | None:
    """The engine command a click asks for (None: the click only changes the selection or is stale)."""
    name = view.player
    value = values[0] if values else ""
    parts = value.split(".")
    try:
        if action == "draw":
            return DrawCard(player=name)
        if action == "finish":
            return FinishPhase(player=name)
        if action == "agree":
            return AgreeEnd(player=name)
        if action == "back" and (turn := sel.turn()) is not None:
            return TakeBack(player=name, turn=turn)
        if action == "place" and len(parts) == 2:
            half, to_turn = KEY_HALF[parts[0]], int(parts[1])
            chosen = sel.card(view)
            if chosen is not None:
                return PlaceCard(player=name, card=chosen.id, turn=to_turn, half=half)
            if (turn := sel.turn()) is not None:
                return MoveCard(player=name, from_turn=turn, to_turn=to_turn, half=half)
        if action == "android" and len(parts) == 4:
            board = view.androids[int(parts[0])]
            card = board.heroic if parts[1] == "o" else sel.card(view)
            if card is not None:
                return PlaceCard(
                    player=name, card=card.id, turn=int(parts[3]), half=KEY_HALF[parts[2]], board=board.owner
                )
        if action == "give" and len(parts) == 2:
            card = Selection(parts[0]).card(view)
            if card is not None:
                return GiveCard(player=name, card=card.id, to=view.give_to[int(parts[1])])
    except (KeyError, ValueError, IndexError):
        return None
    return None
