"""A finished flight in the bot's store, played by a plain scripted crew (no Discord involved)."""

from __future__ import annotations

import re
from typing import Any

from bot.games.space_alert.logbook import Logbook, LogbookCrew, LogbookEntry
from bot.games.space_alert.mission.storage import CrewMember, FlightRecord, Flights
from bot.games.space_alert.replay import _ids
from bot.games.space_alert.replay.components import ReplayButton, ReplaySelect
from engine.flight.commands import GiveCard, PlaceCard
from engine.flight.machine import Flight, FlightConfig

FLIGHT_ID = "0badcafe"


def played_flight(names: list[str], seed: int = 2) -> Flight:
    """S1-1 with every human filling each open turn with the first card of their hand, action up."""
    return play(names, seed)[0]


def play(names: list[str], seed: int = 2, give: tuple[str, str] | None = None) -> tuple[Flight, list[dict[str, Any]]]:
    """`played_flight`, and its journal as the store keeps it (the accepted commands).

    `give` = (giver, receiver): in the first data transfer the giver hands the receiver the last
    non-heroic card of their hand before placing.  A solo player fills the androids' open turns.
    """
    flight = Flight.start(FlightConfig(crew=names, mission="S1-1", seed=seed))
    journal: list[dict[str, Any]] = []

    def apply(command: Any) -> None:
        outcome = flight.apply(command)
        assert outcome.ok, outcome
        journal.append(
            {"kind": command.type, "actor_id": None, "payload": {"command": command.model_dump(mode="json")}}
        )

    t = 0.0
    while flight.status != "ended" and t <= flight.timeline.end_s + 10:
        flight.advance_to(t)
        if give is not None and flight.transfer is not None:
            giver = flight.station(give[0])
            if giver.giveable:
                apply(GiveCard(player=give[0], card=giver.giveable[-1].id, to=give[1]))
                give = None
        for member in flight.humans():
            view = flight.station(member.name)
            hand = [c.id for c in view.hand]
            if view.board is not None:
                for slot in view.board.slots:
                    if slot.open and hand:
                        apply(PlaceCard(player=member.name, card=hand.pop(0), turn=slot.turn, half="action"))
            for android in view.androids if view.solo else ():
                for slot in android.slots:
                    if slot.open and hand:
                        cmd = PlaceCard(
                            player=member.name, card=hand.pop(0), turn=slot.turn, half="move", board=android.owner
                        )
                        apply(cmd)
        t += 5.0
    assert flight.status == "ended"
    assert give is None, "no data transfer let the gift through"
    return flight, journal


async def store_finished(
    bot: Any, world: Any, members: dict[str, Any], fid: str = FLIGHT_ID, give: tuple[str, str] | None = None
) -> Flight:
    """Store a finished flight of `members` (name -> fake discord member), its journal and its
    logbook entry."""
    flight, journal = play(list(members), give=give)
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
    await Flights(bot.storage).create_flight(record)
    for entry in journal:
        await Flights(bot.storage).save_flight(record, entry)
    result = flight.resolve()
    await Logbook(bot.storage).add(
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
