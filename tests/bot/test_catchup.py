"""The written summary for a crew member who joins voice late (issue 24): the threats announced
by name, the incoming data and data transfers so far, whether one is open now."""

from __future__ import annotations

import discord

from bot.games.space_alert.mission._catchup import CatchUps, said_so_far, with_summary
from bot.games.space_alert.threat_names import threat_name
from engine.flight.machine import Flight


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


def test_owed_until_paid_and_forgotten_with_the_flight() -> None:
    owed = CatchUps()
    owed.owe("f1", 7)
    owed.owe("f2", 7)
    assert owed.owed("f1", 7) and not owed.owed("f1", 8)
    owed.paid("f1", 7)
    assert not owed.owed("f1", 7)
    owed.forget("f2")
    assert not owed.owed("f2", 7)
