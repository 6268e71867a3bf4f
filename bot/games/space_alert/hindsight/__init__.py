"""Hindsight (issue 29): the smallest change to a finished flight's plans that would have saved the
ship, found by the engine (engine.hindsight) and told in the captain's log thread in one sentence,
with the real and the changed flight side by side in pictures.  A button on every result post and
`/hindsight flight:`; only the flight's crew may ask."""

from __future__ import annotations

from typing import Any

from bot.platform.permissions import Who, declare

# Who may do what (bot/platform/permissions.py checks it before the handler runs).
PERMISSIONS = declare(
    "hindsight",
    {
        "ask": Who.SEATED,  # the button and /hindsight: the crew of that flight
    },
)


async def setup(bot: Any) -> None:
    from bot.games.space_alert.hindsight.cog import HindsightButton, HindsightCog

    bot.add_dynamic_items(HindsightButton)
    await bot.add_cog(HindsightCog(bot))


async def teardown(bot: Any) -> None:
    from bot.games.space_alert.hindsight.cog import HindsightButton

    bot.remove_dynamic_items(HindsightButton)
