"""Flights: `/mission start|status|abort`, the lobby, the flight deck and the private hands."""

from __future__ import annotations

from typing import Any

from bot.platform.permissions import Who, declare

# Who may do what (bot/platform/permissions.py checks it before the handler runs).
PERMISSIONS = declare(
    "mission",
    {
        "start": Who.STARTER,  # /mission start: the server's starters role, in its channels
        "school": Who.STARTER,  # /mission school opens a lobby too
        "schedule": Who.STARTER,
        "status": Who.ANYONE,
        "abort": Who.HOST,
        "custom_add": Who.MANAGER,
        "custom_list": Who.ANYONE,
        "custom_remove": Who.MANAGER,
        "join": Who.ANYONE,  # lobby buttons
        "leave": Who.SEATED,
        "roles": Who.SEATED,
        "lobby_start": Who.HOST,
        "cancel": Who.HOST,
        "station": Who.SEATED,  # the flight deck and the private hands: a crew member's own
        "pick": Who.SEATED,
        "place": Who.SEATED,
        "android": Who.SEATED,
        "give": Who.SEATED,
        "back": Who.SEATED,
        "draw": Who.SEATED,
        "finish": Who.SEATED,
        "refresh": Who.SEATED,
        "agree": Who.SEATED,
        "half": Who.SEATED,
        "rejoin": Who.HOST,  # bring the intercom back to voice
    },
)


async def setup(bot: Any) -> None:
    from bot.games.space_alert.mission._cog import MissionCog
    from bot.games.space_alert.mission.components import FlightButton, FlightSelect

    bot.add_dynamic_items(FlightButton, FlightSelect)
    await bot.add_cog(MissionCog(bot))
