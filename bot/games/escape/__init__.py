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
        "do": Who.SEATED,  # a panel's button: a move, end turn, flee
        "pick_act": Who.SEATED,  # a panel's select: every other action, a fight's attack
        "pick_trade": Who.SEATED,  # a trade offer's picks: the card to give, the card to ask for
        "pick_enemy": Who.SEATED,  # referee mode: an enemy card picked from the pack, not typed
    },
)


async def setup(bot: Any) -> None:
    from bot.games.escape._cog import GAME, EscapeCog
    from bot.platform import tables

    cog = EscapeCog(bot)
    await bot.add_cog(cog)
    # The platform's table routes the lobby and every panel click to the cog (looked up at click
    # time, so a reloaded extension is found again).
    tables.serve(GAME, lambda: bot.get_cog("Escape"))
