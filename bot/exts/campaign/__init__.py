"""Exploration campaigns in Discord (rulebook §6): `/campaign start|status|end`, the crew's vote
buttons and repair menus around engine.campaign.session."""

from __future__ import annotations

from typing import Any


async def setup(bot: Any) -> None:
    from bot.exts.campaign._cog import CampaignButton, CampaignCog, CampaignSelect

    bot.add_dynamic_items(CampaignButton, CampaignSelect)
    await bot.add_cog(CampaignCog(bot))
