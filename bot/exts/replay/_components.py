"""Restart-proof buttons and selects of /replay and /whatif (DynamicItems, no stored View).

They are the mission's DynamicItems with the replay templates (`sr:` ids) and another router: a
click is parsed by `_ids.parse` and handed to the Replay cog, which re-reads the flight from the
store; see bot/exts/mission/_components.py for why nothing lives in a View.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.exts.mission._components import FlightButton, FlightSelect
from bot.exts.replay import _ids


async def _route(interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
    client: Any = interaction.client
    cog = client.get_cog("Replay") if client is not None else None
    parsed = _ids.parse(custom_id)
    if cog is None or parsed is None:  # extension unloaded: still answer within 3 s
        await interaction.response.send_message("This button is not available right now.", ephemeral=True)
        return
    await cog.on_component(interaction, parsed, values)


class ReplayButton(FlightButton, template=_ids.BUTTON_TEMPLATE):
    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, self.custom_id, [])


class ReplaySelect(FlightSelect, template=_ids.SELECT_TEMPLATE):
    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, self.custom_id, list(self.item.values))


def pictures_button(flight_id: str, label: str = "🖼️ Turn by turn", start: int = 99) -> ReplayButton:
    """The button for a finished flight's result post or captain's log: it opens that flight's
    pictures for the presser only (ephemeral), at the end by default, with previous/next buttons."""
    return ReplayButton(_ids.make(flight_id, "open", start), label=label, style=discord.ButtonStyle.primary)
