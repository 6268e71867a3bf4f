"""/settings show|set: Manage Server only, values parsed and stored per server, read back by the
checks the flight code asks (who may start where, custom mission limits)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.platform.hosting.server_settings import (
    EVERYONE,
    ServerSettings,
    SettingError,
    custom_refusal,
    from_stored,
    load_settings,
    parse_setting,
    start_refusal,
)


async def test_non_admins_are_refused(bot: Any, world: Any) -> None:
    cog = bot.get_cog("Hosting")
    for command, kwargs in ((cog.show_settings, {}), (cog.set_setting, {"key": "voice", "value": "off"})):
        inter = world.interaction(world.member("Pilot"))
        await command.callback(cog, inter, **kwargs)
        assert len(inter.log) == 1 and inter.log[0].ephemeral
        assert "Manage Server" in inter.log[0].content
    assert await bot.storage.get_setting(world.guild.id, "voice") is None  # nothing was written


async def test_admin_sets_and_shows_settings(bot: Any, world: Any) -> None:
    cog = bot.get_cog("Hosting")
    admin = world.member("Admin")
    channel = world.channel.id
    for key, value in (
        ("channels", f"<#{channel}>"),
        ("voice", "off"),
        ("leaderboard", "public"),
        ("starters", "<@&123456789012345678>"),
    ):
        inter = world.interaction(admin, manage_guild=True)
        await cog.set_setting.callback(cog, inter, key=key, value=value)
        assert inter.log[0].ephemeral and inter.log[0].content.startswith("Saved"), inter.log[0].content
    inter = world.interaction(admin, manage_guild=True)
    await cog.set_setting.callback(cog, inter, key="custom_max_kb", value="9000")
    assert inter.log[0].content.startswith("Not saved: custom_max_kb")
    inter = world.interaction(admin, manage_guild=True)
    await cog.show_settings.callback(cog, inter)
    text = inter.log[0].embed.description
    assert f"**channels**: <#{channel}>" in text and "**voice**: off" in text
    assert "**leaderboard**: public" in text and "**starters**: <@&123456789012345678>" in text
    assert inter.log[0].kwargs["allowed_mentions"].roles is False  # shows roles, pings nobody
    stored = await load_settings(bot.storage, world.guild.id)
    assert stored.channels == (channel,) and stored.voice is False and stored.leaderboard == "public"
    assert await bot.storage.get_setting(world.guild.id, "leaderboard") == "public"  # what the boards read


async def test_language_setting_switches_the_answers(bot: Any, world: Any) -> None:
    cog = bot.get_cog("Hosting")
    inter = world.interaction(world.member("Admin"), manage_guild=True)
    await cog.set_setting.callback(cog, inter, key="language", value="sk")
    assert inter.log[0].content.startswith("Uložené")
    inter = world.interaction(world.member("Pilot"))
    await cog.show_settings.callback(cog, inter)
    assert "Spravovať server" in inter.log[0].content


@pytest.mark.parametrize(
    ("key", "text", "value"),
    [
        ("channels", "any", []),
        (
            "channels",
            "<#111111111111111111> <#222222222222222222> <#111111111111111111>",
            [111111111111111111, 222222222222222222],
        ),
        ("voice", "ON", True),
        ("tts", "espeak", "espeak"),
        ("starters", "everyone", EVERYONE),
        ("starters", "333333333333333333", 333333333333333333),
        ("log", "channel", "channel"),
        ("custom_max_count", "0", 0),
    ],
)
def test_parse_accepts(key: str, text: str, value: Any) -> None:
    assert parse_setting(key, text) == value


@pytest.mark.parametrize(
    ("key", "text"),
    [("channels", "general"), ("voice", "maybe"), ("language", "de"), ("starters", "<@&1> <@&2>"), ("colour", "red")],
)
def test_parse_refuses(key: str, text: str) -> None:
    with pytest.raises(SettingError):
        parse_setting(key, text)


def test_stored_values_that_no_longer_parse_fall_back_to_defaults() -> None:
    got = from_stored({"voice": "loud", "language": "ru", "retired": 1})
    assert got.voice is True and got.language == "ru" and got.unknown == {"retired": 1}


def test_start_and_custom_mission_checks() -> None:
    closed = ServerSettings(channels=(5,), starters=77)
    assert start_refusal(closed, 6, {77}, admin=False) == "channel"
    assert start_refusal(closed, 5, {1}, admin=False) == "role"
    assert start_refusal(closed, 5, {77}, admin=False) is None
    assert start_refusal(closed, 6, set(), admin=True) is None
    assert start_refusal(ServerSettings(), 9, set(), admin=False) is None
    limits = ServerSettings(custom_max_count=2, custom_max_kb=1)
    assert custom_refusal(limits, 2, 10) == "count"
    assert custom_refusal(limits, 1, 2000) == "size"
    assert custom_refusal(limits, 1, 1000) is None
