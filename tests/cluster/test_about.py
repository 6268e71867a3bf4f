"""`/about` and the start-up line name the process, its shards and the asking server's shard."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.platform.client import SpaceAlertBot
from bot.platform.cluster import Cluster, ShardPlan
from bot.platform.settings import Settings
from bot.platform.storage import SqliteStorage
from tests.bot.helpers import RecordingVoice, World, make_member


async def test_about_names_process_shards_and_this_servers_shard(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    storage = SqliteStorage(tmp_path / "x.sqlite3")
    await storage.open()
    config = Settings(
        _env_file=None, command_sync="off", shard_ids="2-3", shard_count=4, database_url="postgresql://h/d"
    )
    cluster = Cluster(storage, ShardPlan.from_settings(config), process="box:77")
    bot = SpaceAlertBot(settings=config, storage=storage, run_timers=False, voice=RecordingVoice(), cluster=cluster)
    with caplog.at_level(logging.INFO, logger="bot.platform.client"):
        await bot.setup_hook()
    assert "process box:77 runs shards 2-3 of 4 (storage: SqliteStorage)" in caplog.text
    world = World(bot)
    world.guild.id = (11 << 22) | 5  # shard 11 % 4 == 3
    inter = world.interaction(make_member("Ann", world.guild))
    about = bot.get_cog("About")
    await about.about.callback(about, inter)  # type: ignore[union-attr]
    sent = inter.log[-1]
    assert sent.kind == "send_message" and sent.ephemeral
    assert "box:77" in sent.content and "shards 2-3 of 4" in sent.content
    assert "This server is on shard 3" in sent.content
    assert sent.kwargs["allowed_mentions"].everyone is False
    assert "Storage: SQLite (this process only)" in sent.content

    # a Russian server reads it in Russian, from the catalogue like /help; the facts stay data
    await storage.set_setting(world.guild.id, "language", "ru")
    again = world.interaction(make_member("Bob", world.guild))
    await about.about.callback(about, again)  # type: ignore[union-attr]
    russian = again.log[-1].content
    assert russian.splitlines() == [
        "Процесс: box:77",
        "Шарды: шарды 2-3 из 4",
        "Этот сервер на шарде 3",
        "Хранилище: SQLite (только этот процесс)",
        "Часов полётов идёт здесь: 0",
    ]
    for name in list(bot.cogs):
        await bot.remove_cog(name)
    await storage.close()
