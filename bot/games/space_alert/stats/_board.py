"""The paginated leaderboard message: an embed of one page and Previous / Next buttons.

The buttons are DynamicItems whose custom id carries the whole query (board kind, scope, page,
mission, difficulties), so a click works on a message posted hours ago or after a restart and no
View object holds state.  `show_leaderboard` answers a slash command; /leaderboard's handler
(RecordsCog) can call it as is.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.games.space_alert.stats import queries
from bot.games.space_alert.stats._text import tx
from bot.platform import components
from bot.platform.components import Components, handles
from bot.platform.hosting.server_settings import server_language
from bot.platform.storage.base import Storage
from bot.platform.text import user_text

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
_DIFF = r"white|mixed|yellow|-"
KIND = components.register(
    "sa-board",
    {
        "kind": "[fc]",
        "scope": "[gp]",
        "page": r"\d{1,6}",
        "mission": r"[A-Za-z0-9_.\-]{1,40}",
        "normal": _DIFF,
        "serious": _DIFF,
    },
    summary="a leaderboard page's Previous / Next",
    example=("f", "g", "0", "S1-1", "white", "-"),
)
BOARD_TEMPLATE = KIND.pattern()


def board_id(kind: str, scope: str, page: int, mission: str, normal: str, serious: str) -> str:
    return KIND.make(kind, scope, page, mission or "-", normal or "-", serious or "-")


async def board_page(
    storage: Storage,
    lang: str,
    *,
    kind: str,
    scope: str,
    guild_id: int,
    page: int,
    mission: str = "-",
    normal: str = "-",
    serious: str = "-",
) -> tuple[discord.Embed, discord.ui.View]:
    """The embed and buttons of one page ('f' single flights / 'c' campaigns; 'g' this server /
    'p' every public server)."""
    where = None if scope == "p" else guild_id
    if kind == "c":
        result = await queries.campaign_leaderboard(storage, guild_id=where, page=page)
        title = tx(lang, "board.campaigns")
    else:
        result = await queries.leaderboard(storage, mission, normal, serious, guild_id=where, page=page)
        title = tx(lang, "board.title", mission=user_text(mission), normal=normal, serious=serious)
    embed = discord.Embed(title=title)
    lines = [
        f"**{row.rank}.** {row.total} · {', '.join(user_text(c) for c in row.crew) or '—'} · {row.flown_at[:10]}"
        for row in result.rows
    ]
    embed.description = "\n".join(lines) or tx(lang, "board.empty")
    embed.set_footer(
        text=tx(
            lang,
            "board.page",
            page=result.page + 1,
            pages=result.pages,
            count=result.count,
            scope=tx(lang, "stats.scope_all" if scope == "p" else "stats.scope_here"),
        )
    )
    view = Components()
    for label, target, disabled in (
        (tx(lang, "board.prev"), result.page - 1, result.page == 0),
        (tx(lang, "board.next"), result.page + 1, result.page >= result.pages - 1),
    ):
        custom_id = board_id(kind, scope, max(0, target), mission, normal, serious)
        view.add_item(BoardButton(custom_id, label=label, disabled=disabled))
    return embed, view


@handles(KIND)
class BoardButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=BOARD_TEMPLATE):
    """Previous / Next of a leaderboard message."""

    def __init__(self, custom_id: str, *, label: str | None = None, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id, label=label, disabled=disabled))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> BoardButton:
        return cls(match.string, label=getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction) -> None:
        parts = KIND.parse(self.custom_id)
        assert parts is not None  # the template routed the click here
        query = {k: parts[k] for k in ("kind", "scope", "mission", "normal", "serious")}
        await answer_page(interaction.client, interaction, page=int(parts["page"]), edit=True, **query)


async def answer_page(bot: Any, interaction: discord.Interaction, *, page: int, edit: bool, **query: str) -> None:
    """Post (or, for a button, edit into) one page; always answers, also when the records
    cannot be read."""
    lang = await guild_language(bot, interaction.guild_id)
    try:
        embed, view = await board_page(bot.storage, lang, guild_id=interaction.guild_id or 0, page=page, **query)
    except Exception:  # the records cannot be read (database down): say so, never stay silent
        log.exception("leaderboard page failed")
        await interaction.response.send_message(tx(lang, "stats.unavailable"), ephemeral=True)
        return
    if edit:
        await interaction.response.edit_message(embed=embed, view=view)
    else:
        await interaction.response.send_message(embed=embed, view=view, allowed_mentions=NO_PINGS)


async def guild_language(bot: Any, guild_id: int | None) -> str:
    """The server's language setting (bot/platform/hosting), else the bot's default."""
    return await server_language(bot.storage, guild_id, str(bot.settings.default_language))


async def show_leaderboard(
    bot: Any,
    interaction: discord.Interaction,
    *,
    mission: str | None,
    normal: str | None,
    serious: str | None,
    everywhere: bool = False,
    campaigns: bool = False,
) -> None:
    """Answer /leaderboard with page 1: single flights of one mission and difficulty pair (this
    server, or every public server), or the campaigns."""
    await answer_page(
        bot,
        interaction,
        page=0,
        edit=False,
        kind="c" if campaigns else "f",
        scope="p" if everywhere else "g",
        mission=mission or "S2-1",
        normal=normal or "white",
        serious=serious or "white",
    )
