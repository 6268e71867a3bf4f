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
        "join": Who.ANYONE,  # the platform table's lobby buttons (bot/platform/tables.py)
        "leave": Who.SEATED,
        "begin": Who.HOST,  # the lobby's Start
        "cancel": Who.HOST,  # the lobby's Cancel
        "hand": Who.SEATED,  # My hand: a seated member's own side, character and cards
        # The private panel's choices (the engine checks whose turn it is): a button's move, the
        # card select, the other moves' select, and the card a move is paid with.
        "act": Who.SEATED,
        "pick_card": Who.SEATED,
        "pick_move": Who.SEATED,
        "pick_pay": Who.SEATED,
    },
)


async def setup(bot: Any) -> None:
    from bot.games.legion._cog import GAME, LegionCog
    from bot.platform import tables

    await bot.add_cog(LegionCog(bot))
    # The platform's table routes the lobby and every panel click to the cog (looked up at click
    # time, so a reloaded extension is found again).
    tables.serve(GAME, lambda: bot.get_cog("Legion"))
