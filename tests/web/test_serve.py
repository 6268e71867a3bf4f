"""`python -m bot.web` and the bot process serve the same app on WEB_HOST:WEB_PORT."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.__main__ import EXIT_CONFIG, _start_web
from bot.platform.settings import Settings
from bot.platform.storage import SqliteStorage
from bot.web.__main__ import serve
from tests.web import seed


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def settings(tmp_path: Path, port: int) -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None, database_path=tmp_path / "sa.sqlite3", web_host="127.0.0.1", web_port=port
    )


async def fetch(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session:
        for _ in range(100):  # the server is starting in another task
            try:
                async with session.get(url) as response:
                    return response.status, await response.text()
            except aiohttp.ClientConnectionError:
                await asyncio.sleep(0.05)
    raise AssertionError(f"nothing answered at {url}")


async def test_python_m_bot_web_serves_the_store(tmp_path: Path) -> None:
    store = SqliteStorage(tmp_path / "sa.sqlite3")
    await store.open()
    await store.set_setting(seed.PUBLIC, "leaderboard", "public")
    await store.set_setting(seed.PUBLIC, "public_name", "Orbit Club")
    await store.close()
    port = free_port()
    stop = asyncio.Event()
    task = asyncio.create_task(serve(settings(tmp_path, port), stop=stop))
    status, text = await fetch(f"http://127.0.0.1:{port}/")
    assert status == 200 and "Orbit Club" in text
    stop.set()
    assert await asyncio.wait_for(task, 10) == 0


async def test_a_busy_port_is_one_line_not_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert await serve(settings(tmp_path, port)) == EXIT_CONFIG
    assert "Cannot listen on" in capsys.readouterr().err


async def test_the_bot_process_serves_it_too(tmp_path: Path) -> None:
    store = SqliteStorage(tmp_path / "sa.sqlite3")
    await store.open()
    port = free_port()
    runner: Any = await _start_web(settings(tmp_path, port), store)
    try:
        status, text = await fetch(f"http://127.0.0.1:{port}/index.json")
        assert status == 200 and '"schema_version":1' in text
    finally:
        await runner.cleanup()
        await store.close()
