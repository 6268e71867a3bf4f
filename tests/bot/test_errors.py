"""Every failing interaction gets an answer: one handler for slash commands and components."""

from __future__ import annotations

import logging
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.games.space_alert.mission import _ids
from bot.platform.i18n import t
from tests.bot.helpers import click, open_lobby


def _command_error(exc: Exception) -> app_commands.CommandInvokeError:
    command: Any = app_commands.Command(name="boom", description="-", callback=_noop)
    return app_commands.CommandInvokeError(command, exc)


async def _noop(interaction: discord.Interaction) -> None:
    return None


async def test_a_failing_command_is_logged_and_the_user_gets_a_private_apology(
    bot: Any, world: Any, caplog: pytest.LogCaptureFixture
) -> None:
    inter = world.interaction(world.member("Ann"))
    inter.locale = discord.Locale.russian
    with caplog.at_level(logging.ERROR, logger="bot.platform.errors"):
        await bot.tree.on_error(inter, _command_error(RuntimeError("disk on fire")))
    assert [(s.kind, s.content, s.ephemeral) for s in inter.log] == [
        ("send_message", t("ru", "interaction.apology"), True)
    ]
    assert "disk on fire" in caplog.text and "interaction failed" in caplog.text


async def test_an_acknowledged_interaction_gets_the_apology_as_a_follow_up(bot: Any, world: Any) -> None:
    inter = world.interaction(world.member("Ann"))
    inter.locale = discord.Locale.czech
    await inter.response.defer(ephemeral=True, thinking=True)
    await bot.tree.on_error(inter, _command_error(KeyError("x")))
    assert [s.kind for s in inter.log] == ["defer", "followup"]
    assert inter.log[-1].content == t("cs", "interaction.apology") and inter.log[-1].ephemeral


async def test_a_refused_check_is_not_an_error(bot: Any, world: Any, caplog: pytest.LogCaptureFixture) -> None:
    inter = world.interaction(world.member("Ann"))
    inter.locale = discord.Locale.british_english
    with caplog.at_level(logging.ERROR, logger="bot.platform.errors"):
        await bot.tree.on_error(inter, app_commands.CheckFailure("nope"))
    assert inter.log[-1].content == t("en", "interaction.not_allowed") and caplog.text == ""


async def test_a_failing_button_names_its_flight_in_the_log_and_answers(
    bot: Any, world: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    fid, _ = await open_lobby(bot, world, world.member("Ann"))
    cog = bot.get_cog("Mission")

    async def broken(*_args: Any) -> None:
        raise ZeroDivisionError("bug in a handler")

    monkeypatch.setattr(cog, "on_component", broken)
    with caplog.at_level(logging.ERROR, logger="bot.platform.errors"):
        inter = await click(world, world.member("Bob"), _ids.make(fid, "join"))
    assert [(s.kind, s.ephemeral) for s in inter.log] == [("send_message", True)]
    assert inter.log[0].content == t("en", "interaction.apology")
    assert f"flight={fid}" in caplog.text and "bug in a handler" in caplog.text
