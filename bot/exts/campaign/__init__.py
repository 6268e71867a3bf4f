"""Exploration campaigns in Discord (rulebook §6): `/campaign start|status|end`, the crew's vote
buttons and repair menus around engine.campaign.session; and the flight school's progress and
hints (school.py) around engine.school."""

from __future__ import annotations

from typing import Any


async def setup(bot: Any) -> None:
    from bot.exts.campaign._cog import CampaignButton, CampaignCog, CampaignSelect
    from bot.exts.campaign.school import SchoolCog

    bot.add_dynamic_items(CampaignButton, CampaignSelect)
    await bot.add_cog(CampaignCog(bot))
    await bot.add_cog(SchoolCog(bot))
