"""Replays: `/replay` (a logged flight's pictures turn by turn and its captain's log) and `/whatif`
(one crew member's actions changed, compared with the real flight; never logged)."""

from __future__ import annotations

from typing import Any

from bot.platform.permissions import Who, declare

# Who may do what (bot/platform/permissions.py checks it before the handler runs).
PERMISSIONS = declare(
    "replay",
    {
        "replay": Who.ANYONE,  # a logged flight's pictures, shown to the presser only
        "turn": Who.ANYONE,  # the turn-by-turn buttons
        "whatif": Who.SEATED,  # change your own actions: a crew member of that flight
    },
)


async def setup(bot: Any) -> None:
    from bot.games.space_alert.replay.cog import ReplayCog
    from bot.games.space_alert.replay.components import ReplayButton, ReplaySelect

    bot.add_dynamic_items(ReplayButton, ReplaySelect)
    await bot.add_cog(ReplayCog(bot))


async def teardown(bot: Any) -> None:
    from bot.games.space_alert.replay.components import ReplayButton, ReplaySelect

    bot.remove_dynamic_items(ReplayButton, ReplaySelect)
