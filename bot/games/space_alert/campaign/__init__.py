"""Exploration campaigns in Discord (rulebook §6): `/campaign start|status|end`, the crew's vote
buttons and repair menus around engine.campaign.session; and the flight school's progress and
hints (school.py) around engine.school."""

from __future__ import annotations

from typing import Any

from bot.platform.permissions import Who, declare

# Who may do what (bot/platform/permissions.py checks it before the handler runs).
PERMISSIONS = declare(
    "campaign",
    {
        "start": Who.STARTER,  # /campaign start: the server's starters role, in its channels
        "status": Who.ANYONE,
        "end": Who.HOST,
        "change": Who.HOST,  # /campaign change: the host records another recording for the mission
        "vote": Who.SEATED,  # the vote buttons: one vote per crew member
        "repair": Who.SEATED,  # the repair menu
    },
)


async def setup(bot: Any) -> None:
    from bot.games.space_alert.campaign._cog import CampaignButton, CampaignCog, CampaignSelect
    from bot.games.space_alert.campaign.school import SchoolCog

    bot.add_dynamic_items(CampaignButton, CampaignSelect)
    await bot.add_cog(CampaignCog(bot))
    await bot.add_cog(SchoolCog(bot))
