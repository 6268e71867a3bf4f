"""Restart-proof buttons and selects of /replay and /whatif (DynamicItems, no stored View).

They are the mission's DynamicItems with the replay templates (`sr:` ids) and another router: a
click is parsed by `_ids.parse` and handed to the Replay cog, which re-reads the flight from the
store; see bot/games/space_alert/mission/_components.py for why nothing lives in a View.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.games.space_alert.mission._components import FlightButton, FlightSelect
from bot.games.space_alert.replay import _ids
from bot.platform.components import handles
from bot.platform.errors import language_of, report_interaction_error
from bot.platform.i18n import t
from engine import board


async def _route(interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
    client: Any = interaction.client
    cog = client.get_cog("Replay") if client is not None else None
    parsed = _ids.parse(custom_id)
    if cog is None or parsed is None:  # extension unloaded: still answer within 3 s
        await interaction.response.send_message(t(language_of(interaction), "interaction.unavailable"), ephemeral=True)
        return
    try:
        await cog.on_component(interaction, parsed, values)
    except Exception as exc:  # discord.py would only log it: the user gets an answer (bot/platform/errors.py)
        await report_interaction_error(interaction, exc, flight_id=parsed.flight)


@handles(_ids.KIND)
class ReplayButton(FlightButton, template=_ids.BUTTON_TEMPLATE):
    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, self.custom_id, [])


@handles(_ids.KIND)
class ReplaySelect(FlightSelect, template=_ids.SELECT_TEMPLATE):
    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, self.custom_id, list(self.item.values))


def pictures_button(flight_id: str, label: str = "🖼️ Turn by turn", start: int = 99) -> ReplayButton:
    """The button for a finished flight's result post or captain's log: it opens that flight's
    pictures for the presser only (ephemeral), at the end by default, with previous/next buttons."""
    return ReplayButton(_ids.make(flight_id, "open", start), label=label, style=discord.ButtonStyle.primary)


TURN_SLOTS = ("first", "prev", "at", "next", "last")  # the five places of the turn navigation


def turn_counter(turn: int, turns: int = board.TURNS) -> str:
    """Where the buttons are, numbered as the picture's title numbers it (snapshot n is the board
    after turn n; `turns` is `Replay.turns`, the picture's own count): "5/12", and the hyperspace
    jump after the last turn as "⤴ 13"; never the count of snapshots ("5/7" for a ship lost in
    turn 7), which disagreed with the picture's "Turn 5/12"."""
    return f"⤴ {turn}" if turn > turns else f"{turn}/{turns}"


def turn_buttons(flight_id: str, index: int, last: int, turns: int = board.TURNS) -> list[ReplayButton]:
    """First, previous, where we are, next, last: each edits the message it is on to that turn's
    picture (the `turn` action), on /replay's post and on the captain's log alike.

    The arg is `<turn>.<slot>`: at both ends of a flight two or three buttons lead to the same
    turn (at turn 0, ⏮, ◀ and the label all mean 0), and Discord refuses a message whose ids
    repeat, so the slot keeps them apart; the router reads only the turn.
    """
    targets = (0, max(index - 1, 0), index, min(index + 1, last), last)
    labels = ("⏮", "◀", turn_counter(index, turns), "▶", "⏭")
    disabled = (index == 0, index == 0, True, index == last, index == last)
    return [
        ReplayButton(
            _ids.make(flight_id, "turn", target, slot),
            label=label,
            disabled=off,
            style=discord.ButtonStyle.primary if slot == "at" else discord.ButtonStyle.secondary,
        )
        for target, slot, label, off in zip(targets, TURN_SLOTS, labels, disabled, strict=True)
    ]


def log_buttons(flight_id: str, start: str, first: str, end: str) -> list[ReplayButton]:
    """The captain's log's turn navigation, before any picture is shown: before turn 1, turn 1,
    the end (99: clamped to the flight's last snapshot).  A click turns the message into that
    turn's picture with `turn_buttons`, so the log then steps back and forth turn by turn."""
    return [
        ReplayButton(_ids.make(flight_id, "turn", 0), label=f"⏮ {start}"[:80]),
        ReplayButton(_ids.make(flight_id, "turn", 1), label=f"{first} ▶"[:80], style=discord.ButtonStyle.primary),
        ReplayButton(_ids.make(flight_id, "turn", 99), label=f"⏭ {end}"[:80]),
    ]
