"""Restart-proof components: two DynamicItem classes and helpers that build them.

discord.py matches an incoming custom id against the templates registered with
`bot.add_dynamic_items`, rebuilds the item with `from_custom_id` and calls its callback, with no
View kept in memory.  The callback does one thing: hand the parsed id (and select values) to the
mission cog's router, which reads the flight from the store.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.games.space_alert.mission import _ids
from bot.platform.components import Components, handles
from bot.platform.errors import language_of, report_interaction_error
from bot.platform.i18n import t

if TYPE_CHECKING:
    from bot.games.space_alert.mission._cog import MissionCog


def _router(interaction: discord.Interaction) -> MissionCog | None:
    client: Any = interaction.client
    return client.get_cog("Mission") if client is not None else None


async def _route(interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
    cog = _router(interaction)
    parsed = _ids.parse(custom_id)
    if cog is None or parsed is None:  # extension unloaded: still answer within 3 s
        await interaction.response.send_message(t(language_of(interaction), "interaction.unavailable"), ephemeral=True)
        return
    try:
        await cog.on_component(interaction, parsed, values)
    except Exception as exc:  # discord.py would only log it: the user gets an answer (bot/platform/errors.py)
        await report_interaction_error(interaction, exc, flight_id=parsed.flight)


@handles(_ids.KIND)
class FlightButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=_ids.BUTTON_TEMPLATE):
    """Any button of a lobby, flight deck or hand."""

    def __init__(
        self,
        custom_id: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Button(custom_id=custom_id, label=label, style=style, emoji=emoji, disabled=disabled, row=row)
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> FlightButton:
        button: Any = item
        return cls(
            match.string,
            label=getattr(button, "label", None),
            style=getattr(button, "style", discord.ButtonStyle.secondary),
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, self.custom_id, [])


@handles(_ids.KIND)
class FlightSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=_ids.SELECT_TEMPLATE):
    """Any string select of a lobby or hand; the chosen values travel in the interaction."""

    def __init__(
        self,
        custom_id: str,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        min_values: int = 1,
        max_values: int = 1,
        disabled: bool = False,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id,
                options=options or [discord.SelectOption(label="-", value="-")],
                placeholder=placeholder,
                min_values=min_values,
                max_values=max_values,
                disabled=disabled,
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> FlightSelect:
        select: Any = item
        made = cls(match.string, options=list(getattr(select, "options", []) or []) or None)
        return made

    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, self.custom_id, list(self.item.values))


def interaction_values(interaction: discord.Interaction) -> list[str]:
    """Select values straight from the payload (used when routing without a rebuilt item)."""
    data: Any = interaction.data or {}
    return [str(v) for v in data.get("values", [])]


def view_of(*items: discord.ui.Item[Any]) -> discord.ui.View:
    """A View that is only a container for DynamicItems, with no timeout; built as the platform's
    `Components`, which raises on a custom id used twice in the message (Discord would refuse it).

    Routing happens through the DynamicItem templates, not through stored View objects: a view
    made only of dynamic items is "fully dynamic", so discord.py keeps no per-message state for it
    and every posted hand costs nothing in memory.
    """
    return Components(*items)
