"""A finished flight in the bot's store, played by a plain scripted crew (no Discord involved)."""

from __future__ import annotations

import re
from typing import Any

from bot.exts.replay import _ids
from bot.exts.replay._components import ReplayButton, ReplaySelect
from bot.storage import CrewMember, FlightRecord, LogbookCrew, LogbookEntry
from engine.flight.machine import Flight, FlightConfig, PlaceCard

FLIGHT_ID = "0badcafe"


def played_flight(names: list[str], seed: int = 2) -> Flight:
    """S1-1 with every human filling each open turn with the first card of their hand, action up."""
    flight = Flight.start(FlightConfig(crew=names, mission="S1-1", seed=seed))
    t = 0.0
    while flight.status != "ended" and t <= flight.timeline.end_s + 10:
        flight.advance_to(t)
        for member in flight.humans():
            view = flight.station(member.name)
            if view.board is None:
                continue
            hand = [c.id for c in view.hand]
            for slot in view.board.slots:
                if slot.open and hand:
                    flight.apply(PlaceCard(player=member.name, card=hand.pop(0), turn=slot.turn, half="action"))
        t += 5.0
    assert flight.status == "ended"
    return flight


async def store_finished(bot: Any, world: Any, members: dict[str, Any], fid: str = FLIGHT_ID) -> Flight:
    """Store a finished flight of `members` (name -> fake discord member) and its logbook entry."""
    flight = played_flight(list(members))
    host = next(iter(members.values()))
    record = FlightRecord(
        id=fid,
        guild_id=world.guild.id,
        channel_id=world.channel.id,
        host_id=host.id,
        status="finished",
        language="en",
        voice=False,
        time_scale=1.0,
        options={"mission": "S1-1", "seed": 2, "normal": "white", "serious": "white"},
        crew=[CrewMember(user_id=m.id, name=name) for name, m in members.items()],
        state=flight.to_dict(),
    )
    await bot.storage.create_flight(record)
    result = flight.resolve()
    await bot.storage.add_logbook_entry(
        LogbookEntry(
            flight_id=fid,
            guild_id=world.guild.id,
            channel_id=world.channel.id,
            flown_at="2026-11-23T08:00:00+00:00",
            mission_id="S1-1",
            normal_difficulty="white",
            serious_difficulty="white",
            language="en",
            outcome=result.outcome,
            crew=[LogbookCrew(name=name, user_id=m.id) for name, m in members.items()],
            result=result.to_json_dict(),
            seed=2,
            total=result.score.total,
        )
    )
    return flight


async def press(world: Any, user: Any, custom_id: str, values: list[str] | None = None) -> Any:
    """Press a replay component the way discord.py does: match the template, rebuild, call back."""
    inter = world.interaction(user, custom_id=custom_id, values=values)
    parsed = _ids.parse(custom_id)
    assert parsed is not None, custom_id
    cls = ReplayButton if parsed.action in _ids.BUTTON_ACTIONS else ReplaySelect
    assert re.fullmatch(cls.__discord_ui_compiled_template__, custom_id), custom_id
    item = cls(custom_id)
    if cls is ReplaySelect:
        item._refresh_state(inter, {"custom_id": custom_id, "values": values or []})
    await item.callback(inter)
    return inter
