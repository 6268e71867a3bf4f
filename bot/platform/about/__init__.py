"""`/about`: which process and which shards answer in this server; `/help`: what the bot does
and every command, from the command tree."""

from __future__ import annotations

from typing import Any


async def setup(bot: Any) -> None:
    from bot.platform.about._cog import AboutCog
    from bot.platform.about.help import HelpCog

    await bot.add_cog(AboutCog(bot))
    await bot.add_cog(HelpCog(bot))
