"""/mission schedule in Discord: refused by the server's settings, stored and announced with Discord
timestamps, reminded 10 minutes before, opened at its time, across a restart; and the flight gate."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.platform.hosting.gate import flight_gate
from bot.platform.hosting.schedule import REMIND_BEFORE_S, STALE_AFTER_S
from bot.platform.hosting.scheduler import run_schedules, schedule_flight
from tests.bot.helpers import new_bot, stop_bot


async def test_schedule_announce_remind_open_across_a_restart(bot: Any, world: Any, tmp_path: Path) -> None:
    ann = world.member("Ann")
    inter = world.interaction(ann)
    record = await schedule_flight(bot, inter, "in 2h", "S2-3", options={"normal": "yellow"})
    assert record is not None and record.at == bot.clock() + 7200
    posted = inter.log[0]
    assert not posted.kwargs.get("ephemeral")
    assert f"<t:{int(record.at)}:F>" in posted.content and f"<t:{int(record.at)}:R>" in posted.content
    assert "**S2-3**" in posted.content

    bot.clock.advance(7200 - REMIND_BEFORE_S - 1)
    assert await run_schedules(bot, bot.clock()) == []  # not yet

    again = await new_bot(tmp_path / "sa.sqlite3", bot.clock, world=world)  # a restart: only the rows remain
    opened: list[Any] = []

    async def on_scheduled_flight(row: Any) -> None:  # the game's opening, awaited by the runner
        opened.append(("scheduled_flight", row))

    again.extra_events["on_scheduled_flight"] = [on_scheduled_flight]
    try:
        bot.clock.advance(2)
        assert await run_schedules(again, bot.clock()) == [(record.id, "remind")]
        assert "⏰ **S2-3** starts" in world.channel.sent[-1].content
        assert await run_schedules(again, bot.clock()) == []  # reminded once
        bot.clock.advance(REMIND_BEFORE_S)
        assert await run_schedules(again, bot.clock()) == [(record.id, "open")]
        (event, row) = opened[0]
        assert event == "scheduled_flight" and (row.mission, row.host_id, row.options) == (
            "S2-3",
            ann.id,
            {"normal": "yellow"},
        )
        assert "lobby opens now" in world.channel.sent[-1].content
        assert await again.storage.pending_schedules() == []
    finally:
        await stop_bot(again)


async def test_a_flight_a_minute_away_promises_no_reminder_and_a_campaign_night_a_vote(bot: Any, world: Any) -> None:
    ann = world.member("Ann")
    soon = world.interaction(ann)
    assert await schedule_flight(bot, soon, "in 1m", "S1-1") is not None
    assert "reminder" not in soon.log[0].content and "**S1-1**" in soon.log[0].content
    night = world.interaction(ann)
    record = await schedule_flight(bot, night, "in 2h", "S1-1", campaign=True)
    text = night.log[0].content
    assert record is not None and "votes on its first mission" in text and "reminder goes out" in text
    assert "S1-1" not in text and "first," not in text  # the vote chooses; no "S1-1 first"

    async def no_game(_row: Any) -> None:
        return None

    bot.extra_events["on_scheduled_flight"] = [no_game]
    bot.clock.advance(7200)
    await run_schedules(bot, bot.clock())
    opened = world.channel.sent[-1].content
    assert "campaign starts now" in opened and "lobby opens now" not in opened


async def test_a_refusal_ends_with_one_full_stop(bot: Any, world: Any) -> None:
    async def unknown(mission: str) -> str | None:
        return "Unknown mission `X9`. Pick one from the list (S1-1 … S2-8, random, or a custom mission)."

    wrong = world.interaction(world.member("Ann"))
    assert await schedule_flight(bot, wrong, "in 1h", "X9", check=unknown) is None
    assert wrong.log[0].content.endswith("custom mission).") and ".." not in wrong.log[0].content


async def test_a_stale_schedule_is_dropped_not_opened(bot: Any, world: Any) -> None:
    inter = world.interaction(world.member("Ann"))
    record = await schedule_flight(bot, inter, "in 1h", "S1-1", campaign=True)
    assert record is not None and "Campaign night" in inter.log[0].content
    bot.clock.advance(3600 + STALE_AFTER_S + 5)
    assert await run_schedules(bot, bot.clock()) == [(record.id, "drop")]
    assert "was not opened" in world.channel.sent[-1].content


async def test_schedule_refusals(bot: Any, world: Any) -> None:
    ann = world.member("Ann")
    past = world.interaction(ann)
    assert await schedule_flight(bot, past, "2001-01-01 10:00", "S1-1") is None
    assert past.log[0].kwargs["ephemeral"] and "already passed" in past.log[0].content
    await bot.storage.set_setting(world.guild.id, "language", "sk")  # the refusal in the server's language
    far = world.interaction(ann)
    assert await schedule_flight(bot, far, "25:00", "S1-1") is None
    assert far.log[0].content == "Nenaplánované: čas dňa sa píše HH:MM, od 00:00 do 23:59 (UTC)."

    async def unknown(mission: str) -> str | None:
        return None if mission.startswith("S") else f"no mission {mission}"

    wrong = world.interaction(ann)
    assert await schedule_flight(bot, wrong, "in 1h", "X9", check=unknown) is None
    assert "no mission X9" in wrong.log[0].content

    await bot.storage.set_setting(world.guild.id, "channels", [123456789012345678])
    await bot.storage.set_setting(world.guild.id, "language", "cs")
    elsewhere = world.interaction(ann)
    assert await schedule_flight(bot, elsewhere, "in 1h", "S1-1") is None
    assert elsewhere.log[0].content == "Na tomto serveru se létá jen v kanálech <#123456789012345678>."
    admin = world.interaction(ann, manage_guild=True)  # admins may always, so a bad setting can be repaired
    assert await schedule_flight(bot, admin, "in 1h", "S1-1") is not None
    assert await bot.storage.pending_schedules(world.guild.id) != []


async def test_flight_gate_reads_the_settings_once_per_start(bot: Any, world: Any) -> None:
    ann = world.member("Ann")
    gate = await flight_gate(bot.storage, world.guild.id, world.channel.id, ann, admin=False)
    assert gate.refusal is None and gate.language == "en" and gate.voice and gate.log_in_thread
    await bot.storage.set_setting(world.guild.id, "starters", 777)
    await bot.storage.set_setting(world.guild.id, "voice", False)
    await bot.storage.set_setting(world.guild.id, "log", "channel")
    gate = await flight_gate(bot.storage, world.guild.id, world.channel.id, ann, admin=False)
    assert gate.refusal == "Only members with the <@&777> role may start flights on this server."
    assert not gate.voice and not gate.log_in_thread
    ann.roles = [type("Role", (), {"id": 777})()]
    assert (await flight_gate(bot.storage, world.guild.id, world.channel.id, ann, admin=False)).refusal is None


async def test_only_this_processes_servers_are_served(bot: Any, world: Any) -> None:
    from bot.platform.storage.platform import ScheduleRecord

    elsewhere = ScheduleRecord(999, 5, 7, bot.clock() + 60, "S1-1")  # a server another shard owns
    bot.cluster.owns = lambda guild_id: guild_id != 999
    await bot.storage.add_schedule(elsewhere)
    bot.clock.advance(120)
    assert await run_schedules(bot, bot.clock()) == []
    assert [s.id for s in await bot.storage.pending_schedules()] == [elsewhere.id]
