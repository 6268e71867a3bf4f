"""Replays: `/replay` (a logged flight's pictures turn by turn and its captain's log) and `/whatif`
(one crew member's actions changed, compared with the real flight; never logged)."""

from __future__ import annotations

from typing import Any


async def setup(bot: Any) -> None:
    from bot.exts.replay._cog import ReplayCog
    from bot.exts.replay._components import ReplayButton, ReplaySelect

    bot.add_dynamic_items(ReplayButton, ReplaySelect)
    await bot.add_cog(ReplayCog(bot))


async def teardown(bot: Any) -> None:
    from bot.exts.replay._components import ReplayButton, ReplaySelect

    bot.remove_dynamic_items(ReplayButton, ReplaySelect)
