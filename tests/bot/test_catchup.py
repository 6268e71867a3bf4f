"""The written summary for a crew member who joins voice late (issue 24): the threats announced
by name, the incoming data and data transfers so far, whether one is open now; who is owed it is
kept in the flight's stored document, so a restart neither loses nor repeats it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord

from bot.games.space_alert.mission._catchup import NOTE, owe, owed, paid, said_so_far, with_summary
from bot.games.space_alert.mission.storage import FlightRecord, Flights
from bot.games.space_alert.threat_names import threat_name
from bot.platform.i18n import t
from engine.flight.machine import Flight
from tests.bot.helpers import World, new_bot, open_station, start_flight, stop_bot, tick


def test_the_summary_names_what_the_intercom_said_so_far() -> None:
    flight = Flight.start({"crew": ["Ann", "Bob"], "mission": "S2-3", "seed": 5, "lang": "ru"})
    assert "Угроз пока не объявлено" in said_so_far("ru", flight.__class__.start({"crew": ["A"], "mission": "S2-3"}))
    flight.advance_to(200)
    text = said_so_far("ru", flight)
    for threat in flight.deck().threats:
        assert f"T+{threat.turn}: {threat_name('ru', threat.id)}" in text
    come = [ev for ev in flight.timeline.events if ev.t <= 200]
    assert f"Входящие данные: {sum(ev.event == 'incoming_data' for ev in come)}." in text
    assert f"Передачи данных: {sum(ev.event == 'data_transfer' for ev in come)}." in text
    embed = with_summary(discord.Embed(title="station"), "ru", flight)
    assert embed.fields[-1].name.startswith("📻") and embed.fields[-1].value == text


def test_owed_until_paid_in_the_record_only_while_flying() -> None:
    record = FlightRecord("f1", 1, 2, 3, "flying", "en", voice=False, time_scale=1.0, options={}, crew=[])
    owe(record, 7)
    owe(record, 7)
    owe(record, 8)
    assert record.notes[NOTE] == [7, 8] and owed(record, 7) and not owed(record, 9)
    paid(record, 7)
    paid(record, 8)
    assert NOTE not in record.notes and not owed(record, 7)
    record.status = "finished"
    owe(record, 7)
    assert not owed(record, 7)  # a flight that is over owes nobody a summary


def _summary_shown(sent: Any) -> bool:
    return any(field.name == t("en", "catchup.title") for field in sent.embed.fields)


async def test_the_owed_summary_survives_a_restart_and_is_shown_once(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "sa.sqlite3"
    bot1 = await new_bot(db, clock)
    world = World(bot1)
    fid, ann, bob = await start_flight(bot1, world)
    await Flights(bot1.storage).update_flight(fid, lambda r: r.notes.__setitem__("voice_channel_id", 555))
    clock.advance(60)
    await tick(bot1.get_cog("Mission").flights, fid)
    await bot1.get_cog("Mission").flights.voice_joined(ann, 555)
    await bot1.get_cog("Mission").flights.voice_joined(ann, 556)  # another channel: not this flight's
    stored = await Flights(bot1.storage).load_flight(fid)
    assert stored is not None and stored.notes[NOTE] == [ann.id]
    await stop_bot(bot1)

    bot2 = await new_bot(db, clock)  # the restart: what is owed comes back with the flight
    world.bot = bot2
    bot2.get_channel = world._channel
    bot2.get_guild = lambda gid: world.guild
    assert not _summary_shown(await open_station(world, bob, fid))
    assert _summary_shown(await open_station(world, ann, fid))
    stored = await Flights(bot2.storage).load_flight(fid)
    assert stored is not None and NOTE not in stored.notes
    assert not _summary_shown(await open_station(world, ann, fid))  # read once: not again
    await stop_bot(bot2)
