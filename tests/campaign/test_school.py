"""/mission school's Discord side: the lesson picked from the stored progress, refusals, the
explanation, progress recorded for the crew when the flight is resolved, and the hints."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.games.space_alert.campaign.school import hint_lines, prepare_school_flight
from bot.games.space_alert.mission.storage import CrewMember
from bot.games.space_alert.storage import School
from engine.resolution.mission import resolve


def school_game(threats: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "tracks": {"red": "T5", "white": "T3", "blue": "T1", "internal": "T4"},
        "players": [{"name": n, "actions": "------------"} for n in ("Ann", "Bob")],
        "threats": threats,
    }


async def test_the_next_lesson_and_its_explanation(bot: Any, world: Any) -> None:
    ann = world.member("Ann")
    start = await prepare_school_flight(bot, world.interaction(ann))
    assert start is not None and start.lesson.id == "movement_lasers"
    assert start.untimed is True  # the first lesson's default: phases end on everyone's Finish
    assert start.options == {"school": "movement_lasers", "untimed": True, "hints_in_log": True, "mission": "S1-1"}
    assert start.embed.fields[0].value.startswith("untimed: the phase ends when everyone has pressed Finish")
    assert "text only" in start.embed.fields[0].value
    timed = await prepare_school_flight(bot, world.interaction(ann), untimed=False)
    assert timed is not None and timed.options["untimed"] is False
    assert timed.embed.fields[0].value == "against the clock, as in a real mission"
    assert start.embed.title == "Flight school 1/7: Movement and the lasers"
    assert "gravolift" in (start.embed.description or "")

    locked = world.interaction(ann)
    assert await prepare_school_flight(bot, locked, "internal_battlebots") is None
    assert locked.log[0].kwargs["ephemeral"] and "Lesson 3 opens" in locked.log[0].content

    await School(bot.storage).replace(
        ann.id, {"passed": ["movement_lasers", "energy_shields"], "attempts": {}, "best": {}}
    )
    third = await prepare_school_flight(bot, world.interaction(ann), untimed=False)
    assert third is not None and third.lesson.id == "internal_battlebots" and not third.untimed
    assert (third.options["mission"], third.options["preset"]) == ("random", "test_run")
    assert third.options["overrides"]["max_internal_threats"] == 1


async def test_slovak_server_gets_slovak_frame_and_slovak_lesson_text(bot: Any, world: Any) -> None:
    await bot.storage.set_setting(world.guild.id, "language", "sk")
    start = await prepare_school_flight(bot, world.interaction(world.member("Ann")))
    assert start is not None and start.embed.title == "Letecká škola 1/7: Pohyb a lasery"
    assert "Veľké laserové delá" in (start.embed.description or "")  # the Slovak rulebook's heavy lasers
    result = resolve(school_game([{"id": "E1-07", "turn": 1, "zone": "red"}]), log=True)
    assert any("Ohrozenie, ktoré dôjde na Z" in line for line in hint_lines("sk", result))


async def test_a_resolved_school_flight_records_progress_and_posts_hints(bot: Any, world: Any) -> None:
    ann, bob = world.member("Ann"), world.member("Bob")
    record = SimpleNamespace(
        guild_id=world.guild.id,
        channel_id=world.channel.id,
        options={"school": "movement_lasers", "mission": "S1-1", "hints_in_log": False},
        crew=[CrewMember(ann.id, "Ann"), CrewMember(bob.id, "Bob")],
    )
    result = resolve(school_game([{"id": "E1-07", "turn": 1, "zone": "red"}]), log=True)
    await bot.get_cog("School").on_flight_resolved(record, result)
    stored = await School(bot.storage).progress(ann.id)
    assert stored is not None and stored["attempts"] == {"movement_lasers": 1}
    assert (stored["passed"] == ["movement_lasers"]) == (result.outcome == "survived")
    post = world.channel.sent[-1].content
    assert post.startswith("Lesson **Movement and the lasers**") and "Ann, Bob" in post
    assert post.splitlines()[1:] == hint_lines("en", result)
    assert any("§" in line for line in hint_lines("en", result))  # the threat reached Z: its rule is named


async def test_other_flights_are_not_school_flights(bot: Any, world: Any) -> None:
    record = SimpleNamespace(guild_id=world.guild.id, channel_id=world.channel.id, options={"mission": "S1-1"}, crew=[])
    before = len(world.channel.sent)
    await bot.get_cog("School").on_flight_resolved(record, resolve(school_game([]), log=True))
    assert len(world.channel.sent) == before
