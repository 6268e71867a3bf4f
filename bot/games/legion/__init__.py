"""`/legion`: Scarlet Legion (seed 002), a ship's crew with a hidden traitor, on Discord.

The rules are the pure engine in engine/legion; this package only seats members, moves messages
and stores the voyage through the platform's game-session store (one document per voyage, each
click one change of it), so a restart resumes from the stored document.
"""

from __future__ import annotations

from typing import Any

from bot.platform.permissions import Who, declare

# Who may do what (bot/platform/permissions.py checks it before the handler runs).
PERMISSIONS = declare(
    "legion",
    {
        "start": Who.STARTER,  # /legion start: the server's starters role, in its channels
        "stop": Who.HOST,  # /legion stop abandons the voyage
        "board": Who.ANYONE,  # /legion board: the server's records
        "schema": Who.ANYONE,  # /legion schema: the pack format
        "pack": Who.MANAGER,  # /legion-admin pack: the server's own cards
        "join": Who.ANYONE,  # lobby buttons
        "leave": Who.SEATED,
        "begin": Who.HOST,  # the lobby's Start
        "hand": Who.SEATED,  # My hand: a seated member's own side, character and cards
        "act": Who.SEATED,  # every choice of the private panel (the engine checks whose turn it is)
    },
)


async def setup(bot: Any) -> None:
    from bot.games.legion._cog import LegionButton, LegionCog, LegionSelect

    bot.add_dynamic_items(LegionButton, LegionSelect)
    await bot.add_cog(LegionCog(bot))
