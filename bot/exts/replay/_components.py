"""Restart-proof buttons and selects of /replay and /whatif (DynamicItems, no stored View).

A click is parsed by `_ids.parse` and handed to the Replay cog's one router, which re-reads the
flight from the store; see bot/exts/mission/_components.py for why nothing lives in a View.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.exts.replay import _ids


async def _route(interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
    client: Any = interaction.client
    cog = client.get_cog("Replay") if client is not None else None
    parsed = _ids.parse(custom_id)
    if cog is None or parsed is None:  # extension unloaded: still answer within 3 s
        await interaction.response.send_message("This button is not available right now.", ephemeral=True)
        return
    await cog.on_component(interaction, parsed, values)


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=_ids.BUTTON_TEMPLATE):
    def __init__(
        self,
        custom_id: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id, label=label, style=style, disabled=disabled, row=row))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplayButton:
        return cls(match.string, label=getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, self.custom_id, [])


class ReplaySelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=_ids.SELECT_TEMPLATE):
    def __init__(
        self,
        custom_id: str,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id,
                options=options or [discord.SelectOption(label="-", value="-")],
                placeholder=placeholder,
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReplaySelect:
        return cls(match.string, options=list(getattr(item, "options", []) or []) or None)

    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, self.custom_id, list(self.item.values))


def pictures_button(flight_id: str, label: str = "🖼️ Turn by turn", start: int = 99) -> ReplayButton:
    """The button for a finished flight's result post or captain's log: it opens that flight's
    pictures for the presser only (ephemeral), at the end by default, with previous/next buttons."""
    return ReplayButton(_ids.make(flight_id, "open", start), label=label, style=discord.ButtonStyle.primary)
