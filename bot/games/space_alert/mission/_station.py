"""A crew member's private station: the embed and controls drawn from the engine's StationView.

Rendering only.  Which cards may go where, what can be drawn, given, moved or taken back is read
from the view (`engine.flight.views`), which the engine builds with the same checks `apply` uses;
nothing here knows a rule.  A click is turned back into an engine command by `command_for`, and
the engine accepts or refuses it.  The card words and the card controls themselves live in
`_cards` (shared with /whatif's editor); this module adds the station's own parts (its notes, the
androids' boards, draw / finish / agree / refresh) and wires the controls to `sa:` ids.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.games.space_alert.mission import ids as _ids
from bot.games.space_alert.mission.cards import (
    KEY_HALF,
    Selection,
    Wiring,
    add_board_and_hand,
    back_button,
    card_key,
    card_selects,
    card_text,
    code_text,
    slot_text,
)
from bot.games.space_alert.mission.components import FlightButton, view_of
from bot.games.space_alert.mission.render import COLOR_FLIGHT
from bot.platform.i18n import t
from bot.platform.text import user_text
from engine.flight.commands import AgreeEnd, Command, DrawCard, FinishPhase, GiveCard, MoveCard, PlaceCard, TakeBack
from engine.flight.views import StationView

__all__ = ["Selection", "card_key", "card_text", "code_text", "command_for", "slot_text", "station_message"]


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
    add_board_and_hand(embed, lang, view)
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


def _wiring(fid: str, uid: int) -> Wiring:
    return Wiring(lambda action, *args: _ids.make(fid, action, uid, *args))


def _selects(lang: str, fid: str, uid: int, view: StationView, sel: Selection) -> list[discord.ui.Item[Any]]:
    return card_selects(lang, view, sel, _wiring(fid, uid))


def _buttons(lang: str, fid: str, uid: int, view: StationView, sel: Selection) -> list[discord.ui.Item[Any]]:
    items: list[discord.ui.Item[Any]] = []
    row = 2
    items += back_button(lang, view, sel, _wiring(fid, uid), row)
    danger, success = discord.ButtonStyle.danger, discord.ButtonStyle.success
    for shown, action, style, emoji in (
        (view.can_draw, "draw", success, None),
        (view.can_finish, "finish", danger, None),
        (view.can_agree, "agree", danger, "✋"),
    ):
        if shown:
            label = t(lang, f"hand.{action}")
            # Finish names the phase it finishes, so a double click finishes that one only.
            args = (uid, f"p{view.planning_phase}") if action == "finish" else (uid,)
            items.append(FlightButton(_ids.make(fid, action, *args), label=label, style=style, emoji=emoji, row=row))
    items.append(
        FlightButton(_ids.make(fid, "refresh", uid, sel.key), label=t(lang, "hand.refresh"), emoji="🔄", row=row)
    )
    return items


# -- clicks back into commands ---------------------------------------------------------------------------
def command_for(view: StationView, action: str, sel: Selection, values: list[str]) -> Command | None:
    """The engine command a click asks for (None: the click only changes the selection or is stale)."""
    name = view.player
    value = values[0] if values else ""
    parts = value.split(".")
    try:
        if action == "draw":
            return DrawCard(player=name)
        if action == "finish":  # `p<n>`: the phase the pressed button finishes (older hands: none)
            shown = sel.key[1:] if sel.key.startswith("p") else ""
            return FinishPhase(player=name, phase=int(shown) if shown.isdigit() else None)
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
            # A press on a Give select drawn before this player gave (a double press) or before
            # the beep still asks the engine, so it is refused with the rule's reason
            # (already_gave, transfer_closed), not as a malformed click: the view then offers
            # nobody to give to, and an unknown receiver is refused only once the window is open.
            card = Selection(parts[0]).card(view)
            receiver = int(parts[1])
            if card is not None:
                to = view.give_to[receiver] if receiver < len(view.give_to) else ""
                return GiveCard(player=name, card=card.id, to=to)
    except (KeyError, ValueError, IndexError):
        return None
    return None
