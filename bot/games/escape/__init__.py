"""`/escape`: Star World: Escape (seed 003) on the platform: lobby, private panels, station post."""

from __future__ import annotations

from typing import Any

from bot.platform.permissions import Who, declare

# Who may do what (bot/platform/permissions.py checks it before the handler runs).  Playing is a
# seated member's own (the engine then refuses a move that is not theirs to make); the lobby's
# start and cancel and /escape stop are the host's (or Manage Server's).
PERMISSIONS = declare(
    "escape",
    {
        "start": Who.STARTER,  # /escape start: the server's starters role, in its channels
        "join": Who.ANYONE,  # lobby buttons
        "leave": Who.SEATED,
        "begin": Who.HOST,
        "cancel": Who.HOST,
        "stop": Who.HOST,  # /escape stop
        "board": Who.ANYONE,  # /escape board: the server's record, a member's career
        "schema": Who.ANYONE,  # /escape schema: the JSON Schema of a content pack
        "pack": Who.MANAGER,  # /escape-admin pack: the server's own content pack
        "panel": Who.SEATED,  # My panel: the seat's own mission, gear and controls
        "act": Who.SEATED,  # a panel's move, action or fight command
    },
)


async def setup(bot: Any) -> None:
    from bot.games.escape._cog import EscapeButton, EscapeCog, EscapeSelect

    bot.add_dynamic_items(EscapeButton, EscapeSelect)
    await bot.add_cog(EscapeCog(bot))
