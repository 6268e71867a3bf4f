"""Action cards on Discord: a card in words, the board and hand fields, and the card controls
(choose a card or a planned turn, put it on a turn with either half up, take it back).

Shared by the crew member's station (bot/games/space_alert/mission/_station.py) and /whatif's editor
(bot/games/space_alert/replay/_editor.py), so a player edits a what-if plan with exactly the controls they
planned the flight with.  Everything here is drawn from an `engine.flight.views.StationView`:
which cards may go on which turns is read from the view, never decided here.  Where the controls'
clicks go is the caller's: `Wiring` says which custom id each control gets and which restart-proof
item class carries it (the mission's `sa:` items or the replay's `sr:` items).

Cards are shown in words and icons ("🔫 A: fire · ⬅️ to the red side"), never by their internal
ids (a component's value carries the id, but values are never shown).  Placing is one choice (a
select of "turn ← half" options), and a data transfer is one choice too ("card → crew member").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.games.space_alert.mission.components import FlightButton, FlightSelect
from bot.platform.i18n import t
from bot.platform.text import strip_unsafe, truncate
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


# -- the board and the hand as embed fields --------------------------------------------------------------
def board_lines(lang: str, view: StationView, marks: dict[int, str] | None = None) -> list[str]:
    """One line per turn of the viewer's own board; `marks` adds a note after a turn (e.g. ✎)."""
    if view.board is None:
        return []
    marks = marks or {}
    return [f"{_slot_line(lang, s)}{marks.get(s.turn, '')}" for s in view.board.slots]


def _slot_line(lang: str, slot: SlotView) -> str:
    status = "🔒" if slot.locked else ("🟢" if slot.open or slot.movable else "⏳")
    return f"`{slot.turn:>2}` {status} {slot_text(lang, slot)}".rstrip()


def hand_lines(lang: str, view: StationView) -> list[str]:
    return [f"`{i + 1:>2}` {card_text(lang, c)}" for i, c in enumerate(view.hand)]


def fit(lines: list[str], limit: int) -> str:
    """As many whole lines as fit in `limit` characters, '…' when some are left out."""
    out: list[str] = []
    size = 0
    for line in lines:
        if size + len(line) + 1 > limit - 4:
            out.append("…")
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out)


def add_board_and_hand(
    embed: discord.Embed, lang: str, view: StationView, marks: dict[int, str] | None = None
) -> discord.Embed:
    """The board field (when the viewer has a board) and the hand field, as the station shows them."""
    if view.board is not None:
        lines = board_lines(lang, view, marks)
        embed.add_field(name=t(lang, "hand.board"), value="\n".join(lines)[:1024], inline=False)
    embed.add_field(
        name=t(lang, "hand.cards", n=len(view.hand)),
        value=fit(hand_lines(lang, view), 1024) or t(lang, "hand.empty"),
        inline=False,
    )
    return embed


# -- the controls -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Wiring:
    """Where the card controls' clicks go.

    `make_id(action, *args)` builds the custom id of one control; `action` is one of "pick",
    "place", "android", "give" (selects) or "back" (button), and `args` is the selection the
    control acts on ("place", "android", "back") or nothing.  The caller adds whatever else its
    id needs (the station its player, the what-if its plan) and maps the action to its own name.
    """

    make_id: Callable[..., str]
    select: type[FlightSelect] = FlightSelect
    button: type[FlightButton] = FlightButton


def card_selects(lang: str, view: StationView, sel: Selection, wiring: Wiring) -> list[discord.ui.Item[Any]]:
    """Choose a card (or a planned turn), put it on the own board, on an android's board, give it."""
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
            cid = wiring.make_id(action, *args)
            items.append(wiring.select(cid, options=options[:MAX_OPTIONS], placeholder=t(lang, placeholder)))
    return items


def back_button(
    lang: str, view: StationView, sel: Selection, wiring: Wiring, row: int = 2
) -> list[discord.ui.Item[Any]]:
    """'Take back' when a planned turn that may still change is selected."""
    turn = sel.turn()
    if turn is None or view.relocation(turn) is None:
        return []
    return [wiring.button(wiring.make_id("back", sel.key), label=t(lang, "hand.back"), row=row)]


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
