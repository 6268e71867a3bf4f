"""/whatif's editor: the member's 12 turns and held cards with the station's own card controls.

The edited plan is shown as a station (`engine.flight.views.StationView`): the cards not on the
plan are the hand, the plan is the board, every card may go on every empty turn (a what-if has
no phases or deadlines) and every planned turn may be moved, turned over or taken back.  The
embed fields and the controls are `bot/games/space_alert/mission/cards.py`'s, the ones the station draws, so
a player edits their what-if exactly as they planned the flight.  The controls are wired to `sr:`
ids (restart-proof `ReplaySelect` / `ReplayButton`) carrying the whole editor state:
`<board>.<plan>[.<selection>]`, so any click after a restart is served from the id alone.

A click is turned into a new plan by `apply_click` (pure); the station's engine commands are not
involved, since nothing here changes a flight.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import discord

from bot.games.space_alert.mission.cards import (
    KEY_HALF,
    Selection,
    Wiring,
    add_board_and_hand,
    back_button,
    card_selects,
)
from bot.games.space_alert.mission.cards import card_text as station_card_text
from bot.games.space_alert.mission.components import view_of
from bot.games.space_alert.replay import _ids
from bot.games.space_alert.replay._whatif import Hand, Slot, WhatIfError, decode, encode, move, place
from bot.games.space_alert.replay.components import ReplayButton, ReplaySelect
from bot.games.space_alert.replay.text import text
from bot.platform.text import plain_text, user_text
from engine import board as ship
from engine.board import phase_of
from engine.flight.views import BoardView, Placement, Relocation, SlotView, StationView, card_view

# The station's control names and the replay actions they are wired to.
ACTIONS = {"pick": "wpick", "place": "wplace", "back": "wback"}


@dataclass(frozen=True)
class EditorState:
    """What an editor message shows: which board (index into the member's boards), the plan, the selection."""

    board: int
    plan: tuple[Slot, ...]
    sel: Selection = field(default_factory=Selection)


def station_of(hand: Hand, plan: tuple[Slot, ...]) -> StationView:
    """The plan as a station: unplaced held cards in the hand, the plan on the board, all turns open."""
    used = {s[0] for s in plan if s is not None}
    cards = tuple(card_view(cid) for i, cid in enumerate(hand.cards) if i not in used)
    free = tuple(n for n in range(1, ship.TURNS + 1) if plan[n - 1] is None)
    slots = []
    for n, slot in enumerate(plan, start=1):
        shown = card_view(hand.cards[slot[0]]) if slot is not None else None
        half = slot[1] if slot is not None else None
        slots.append(
            SlotView(
                turn=n,
                phase=phase_of(n),
                locked=False,
                open=slot is None,
                card=shown,
                half=half,
                movable=slot is not None,
            )
        )
    board = BoardView(owner=hand.board, android=False, slots=tuple(slots), planners=(hand.name,))
    planned = tuple(n for n in range(1, ship.TURNS + 1) if plan[n - 1] is not None)
    return StationView(
        player=hand.name,
        status="running",
        now_s=0.0,
        round_phase=1,
        planning_phase=1,
        phases=3,
        solo=False,
        hand=cards,
        board=board,
        androids=(),
        placements=tuple(Placement(c, None, free) for c in cards) if free else (),
        relocations=tuple(Relocation(None, n, free, take_back=True) for n in planned),
        can_finish=False,
        can_draw=False,
        giveable=(),
        give_to=(),
        can_agree=False,
        agreed_end=False,
        comm_down=False,
    )


# -- clicks -----------------------------------------------------------------------------------------------
def parse_state(cid: _ids.ReplayId) -> tuple[int, str, Selection]:
    """(board index, plan string, selection) of an editor id; raises WhatIfError when malformed."""
    parts = cid.parts
    if not parts or not parts[0].isdigit():
        raise WhatIfError("bad_plan")
    plan = parts[1] if len(parts) > 1 else ""
    sel = Selection(parts[2]) if len(parts) > 2 else Selection()
    return int(parts[0]), plan, sel


def apply_click(action: str, hand: Hand, board: int, plan_text: str, sel: Selection, values: list[str]) -> EditorState:
    """The editor after one click of `action` on board number `board` (whose cards are `hand`).

    Raises WhatIfError for a plan or value that does not fit (a forged or stale id).
    """
    if action == "reset":
        return EditorState(board, hand.real)
    plan = decode(plan_text, hand)
    view = station_of(hand, plan)
    value = values[0] if values else ""
    if action == "wpick":
        return EditorState(board, plan, Selection(value).valid(view))
    if action == "wback":
        turn = sel.turn()
        if turn is None or view.relocation(turn) is None:  # not a planned turn
            raise WhatIfError("bad_plan")
        return EditorState(board, place(plan, turn, None))
    if action == "wplace":
        try:
            key, turn_text = value.split(".")
            half, turn = KEY_HALF[key], int(turn_text)
        except (KeyError, ValueError) as exc:
            raise WhatIfError("bad_plan") from exc
        chosen = sel.card(view)
        if chosen is not None:
            if not 1 <= turn <= ship.TURNS or plan[turn - 1] is not None:
                raise WhatIfError("bad_plan")
            return EditorState(board, place(plan, turn, (hand.cards.index(chosen.id), half)))
        from_turn = sel.turn()
        if from_turn is None:
            raise WhatIfError("bad_plan")
        return EditorState(board, move(plan, from_turn, turn, half))
    if action == "run":
        return EditorState(board, plan)
    raise WhatIfError("bad_plan")


# -- the message ------------------------------------------------------------------------------------------
def editor_message(
    lang: str, fid: str, mission: str, hand: Hand, boards: tuple[str, ...], state: EditorState
) -> tuple[discord.Embed, discord.ui.View]:
    """The ephemeral editor: the station's board and hand fields, its card controls, and the
    what-if's own buttons (the real plan again, resolve) and, solo, the android to edit."""
    view = station_of(hand, state.plan)
    sel = state.sel.valid(view)
    code = encode(state.plan)
    notes = [text(lang, "whatif_help")]
    if hand.android:
        notes.append(text(lang, "editing_android", android=user_text(hand.board)))
    chosen = sel.card(view)
    if chosen is not None:
        notes.append(text(lang, "selected", card=station_card_text(lang, chosen)))
    changed = [n for n in range(1, ship.TURNS + 1) if state.plan[n - 1] != hand.real[n - 1]]
    embed = discord.Embed(
        title=text(lang, "whatif_title", name=user_text(hand.name), mission=mission)[:256],
        description="\n".join(notes),
        colour=discord.Colour.blurple(),
    )
    add_board_and_hand(embed, lang, view, marks=dict.fromkeys(changed, " ✎"))
    embed.set_footer(text=text(lang, "editor_footer", flight=fid, changed=len(changed)))

    def make_id(action: str, *args: object) -> str:
        return _ids.make(fid, ACTIONS[action], state.board, code, *args)

    wiring = Wiring(make_id, select=ReplaySelect, button=ReplayButton)
    selects = card_selects(lang, view, sel, wiring)
    buttons: list[discord.ui.Item[Any]] = back_button(lang, view, sel, wiring)
    buttons += [
        ReplayButton(_ids.make(fid, "reset", state.board), label=text(lang, "reset"), row=2),
        ReplayButton(
            _ids.make(fid, "run", state.board, code),
            label=text(lang, "run"),
            style=discord.ButtonStyle.primary,
            row=2,
        ),
    ]
    extra: list[discord.ui.Item[Any]] = []
    if len(boards) > 1:  # solo: which android's board to edit
        options = [
            discord.SelectOption(label=plain_text(name, 100), value=str(i), default=i == state.board)
            for i, name in enumerate(boards[:25])
        ]
        extra.append(ReplaySelect(_ids.make(fid, "wboard"), options=options, placeholder=text(lang, "choose_board")))
    return embed, view_of(*selects[:2], *buttons, *selects[2:], *extra)
