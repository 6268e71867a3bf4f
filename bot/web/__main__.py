"""`python -m bot.web`: serve the web logbook alone, from DATABASE_PATH or DATABASE_URL.

Needs no Discord token: it reads the store the bot writes.  Listens on WEB_HOST:WEB_PORT
(127.0.0.1:8080 by default; put a reverse proxy in front for the world, see the README).  The
same exit codes as `python -m bot`: 2 for a configuration problem, 3 for an unusable database.
"""

from __future__ import annotations

import asyncio
import sys
from typing import cast

from bot.__main__ import EXIT_CONFIG, EXIT_DATABASE, load_settings, run_logged
from bot.platform.settings import Settings

DEFAULT_PORT = 8080


async def serve(settings: Settings, *, stop: asyncio.Event | None = None) -> int:
    from bot.platform.storage import StorageError, open_storage
    from bot.platform.storage.web import WebStore
    from bot.web.app import make_app, start_site

    try:
        storage = await open_storage(settings)
    except StorageError as exc:
        print(f"Cannot start: {exc}", file=sys.stderr)
        return EXIT_DATABASE
    try:
        app = make_app(
            cast(WebStore, storage), default_language=settings.default_language, base_url=settings.web_base_url
        )
        port = settings.web_port or DEFAULT_PORT
        try:
            runner = await start_site(app, settings.web_host, port)
        except OSError as exc:
            print(f"Cannot listen on {settings.web_host}:{port}: {exc.strerror or exc}", file=sys.stderr)
            return EXIT_CONFIG
        print(f"web logbook on http://{settings.web_host}:{port}/", file=sys.stderr, flush=True)
        try:
            await (stop or asyncio.Event()).wait()
        finally:
            await runner.cleanup()
    finally:
        await storage.close()
    return 0


def main() -> None:
    run_logged(load_settings(), serve)


if __name__ == "__main__":
    main()
