"""Discord links to the web logbook: /logbook's title and the result post's title open the pages,
only on a public server and only when WEB_BASE_URL is set; /settings keeps the server's name for
the pages."""

from __future__ import annotations

from typing import Any

from bot.platform.storage.web import NAME_SETTING
from bot.web.links import flight_link, server_link
from tests.bot.conftest import bot, clock, world  # noqa: F401  (fixtures)
from tests.bot.helpers import last
from tests.bot.test_result_picture import fly_to_the_end

BASE = "https://logbook.example.org"


async def make_public(bot: Any, world: Any, value: str = "public") -> None:  # noqa: F811
    if bot.get_cog("Hosting") is None:
        await bot.load_extension("bot.platform.hosting")
    cog = bot.get_cog("Hosting")
    world.guild.name = "Orbit Club"
    inter = world.interaction(world.member("Admin"), manage_guild=True)
    await cog.set_setting.callback(cog, inter, key="leaderboard", value=value)
    assert inter.log[0].content.startswith("Saved"), inter.log[0].content


async def test_settings_keep_the_name_and_logbook_links_the_page(bot: Any, world: Any) -> None:  # noqa: F811
    records = bot.get_cog("Records")
    bot.settings.web_base_url = BASE
    inter = world.interaction(world.member("Ann"))
    await records.logbook.callback(records, inter)
    assert last(inter).embed.url is None  # private by default: no page, no link
    await make_public(bot, world)
    assert await bot.storage.get_setting(world.guild.id, NAME_SETTING) == "Orbit Club"
    inter = world.interaction(world.member("Ann"))
    await records.logbook.callback(records, inter)
    assert last(inter).embed.url == f"{BASE}/s/{world.guild.id}"
    bot.settings.web_base_url = None  # the pages' address unknown: no link either
    inter = world.interaction(world.member("Ann"))
    await records.logbook.callback(records, inter)
    assert last(inter).embed.url is None


async def test_the_result_post_links_the_flight_page(bot: Any, world: Any, clock: Any) -> None:  # noqa: F811
    bot.settings.web_base_url = BASE
    await make_public(bot, world)
    fid, post = await fly_to_the_end(bot, world, clock)
    assert post.embed.url == f"{BASE}/f/{fid}"


async def test_a_private_servers_result_post_has_no_link(bot: Any, world: Any, clock: Any) -> None:  # noqa: F811
    bot.settings.web_base_url = BASE
    await make_public(bot, world, "private")
    _fid, post = await fly_to_the_end(bot, world, clock)
    assert post.embed.url is None


async def test_links_need_both_conditions(storage: Any) -> None:
    class Settings:
        web_base_url: str | None = BASE + "/"

    await storage.set_setting(5, "leaderboard", "public")
    assert await server_link(storage, Settings, 5) == f"{BASE}/s/5"
    assert await flight_link(storage, Settings, 5, "0badcafe") == f"{BASE}/f/0badcafe"
    assert await flight_link(storage, Settings, 6, "0badcafe") is None  # not public
    assert await flight_link(storage, Settings, 5, None) is None
    Settings.web_base_url = None
    assert await server_link(storage, Settings, 5) is None
