"""`/resolve` with pasted JSON or an attachment, and its error messages."""

from __future__ import annotations

import json
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord

from bot.games.space_alert.logbook import Logbook

GAME = {
    "tracks": {"red": "T1", "white": "T2", "blue": "T3", "internal": "T4"},
    "players": [{"name": "Ann", "actions": "a-bb<^aa-c-a"}, {"name": "Bob", "actions": ">a-a--cc-aba"}],
    "threats": [{"id": "E1-01", "turn": 1, "zone": "red"}],
}


async def test_resolve_pasted_json(bot: Any, world: Any) -> None:
    cog = bot.get_cog("Records")
    inter = world.interaction(world.member("Ann"))
    await cog.resolve.callback(cog, inter, json_text=json.dumps(GAME))
    assert inter.log[0].kind == "defer"
    answer = inter.log[-1]
    assert answer.kind == "followup"
    assert "Score breakdown" in [f.name for f in answer.embed.fields]
    log_file = answer.kwargs["files"][0]  # the captain's log first, then the overview picture
    assert log_file.filename == "captains-log.md"
    assert b"Turn 1" in log_file.fp.read()


async def test_resolve_attachment_in_russian(bot: Any, world: Any) -> None:
    cog = bot.get_cog("Records")
    attachment = MagicMock(spec=discord.Attachment)
    attachment.size = 400
    attachment.read = AsyncMock(return_value=json.dumps(GAME).encode())
    inter = world.interaction(world.member("Ann"))
    await cog.resolve.callback(cog, inter, game=attachment, language="ru")
    text = inter.log[-1].kwargs["files"][0].fp.read().decode()
    assert "Бортовой журнал" in text and "Ход 1" in text


async def test_resolve_rejects_bad_input(bot: Any, world: Any) -> None:
    cog = bot.get_cog("Records")
    inter = world.interaction(world.member("Ann"))
    await cog.resolve.callback(cog, inter)
    assert inter.log[-1].ephemeral and "Attach" in inter.log[-1].content
    inter = world.interaction(world.member("Ann"))
    await cog.resolve.callback(cog, inter, json_text="{not json")
    assert "malformed JSON" in inter.log[-1].content
    bad = {**GAME, "players": [{"name": "Ann", "actions": "abc"}]}
    inter = world.interaction(world.member("Ann"))
    await cog.resolve.callback(cog, inter, json_text=json.dumps(bad))
    assert "Invalid game" in inter.log[-1].content


async def test_leaderboard_empty(bot: Any, world: Any) -> None:
    cog = bot.get_cog("Records")
    inter = world.interaction(world.member("Ann"))
    await cog.leaderboard.callback(cog, inter)
    assert "No surviving flights" in inter.log[-1].embed.description


async def test_leaderboard_shows_lost_flights_apart_with_what_destroyed_them(bot: Any, world: Any) -> None:
    from dataclasses import replace

    from tests.bot.test_storage import record
    from tests.bot.test_storage_units import entry_for

    lost_flight = replace(record("0000dead"), guild_id=world.guild.id)
    lost = replace(entry_for(lost_flight), outcome="destroyed", destroyed_by="SE2-05", total=-4)
    await Logbook(bot.storage).add(lost)
    cog = bot.get_cog("Records")
    inter = world.interaction(world.member("Ann"))
    await cog.leaderboard.callback(cog, inter)
    embed = inter.log[-1].embed
    assert "No surviving flights" in embed.description  # none survived: said, and the lost ones follow
    field = next(f for f in embed.fields if f.name == "Lost flights")
    assert "S2-1" in field.value and "Nemesis" in field.value and "Ann" in field.value


def test_the_captains_log_leaves_out_lines_that_changed_nothing() -> None:
    from bot.games.space_alert.mission.render import captains_log

    entries = [
        {"turn": 1, "kind": "energy", "player": "Ann", "amount": 0, "frm": "reactor", "to": "shield",
         "text": "Ann moves 0 energy from reactor to shield"},
        {"turn": 1, "kind": "energy", "player": "Bob", "amount": 2, "frm": "reactor", "to": "shield",
         "text": "Bob moves 2 energy from reactor to shield"},
    ]  # fmt: skip
    text = "\n".join(captains_log("en", entries))
    assert "Bob" in text and "Ann" not in text
