"""`python -m bot` (and the `space-alert-bot` script): read settings, open storage, run the bot.

Exit codes: 2 for a configuration problem the operator must fix (no token, bad setting), 3 when
the database cannot be migrated.  Both print one explanation instead of a traceback, because the
first person to see them is someone who just typed `make run`.
"""

from __future__ import annotations

import asyncio
import logging
import sys

from pydantic import ValidationError

from bot.invite import missing_token_help
from bot.settings import Settings

EXIT_CONFIG = 2
EXIT_DATABASE = 3


def _format_validation(error: ValidationError) -> str:
    lines = ["Configuration error (check the environment or .env):"]
    for item in error.errors():
        name = ".".join(str(p) for p in item.get("loc", ())).upper() or "?"
        lines.append(f"  {name}: {item.get('msg')}")
    return "\n".join(lines)


async def _run(settings: Settings) -> int:
    import discord

    from bot.client import SpaceAlertBot
    from bot.storage import MigrationError, SqliteStorage

    storage = SqliteStorage(settings.database_path)
    try:
        await storage.open()
    except MigrationError as exc:
        print(f"Cannot start: {exc}", file=sys.stderr)
        await storage.close()
        return EXIT_DATABASE
    bot = SpaceAlertBot(settings=settings, storage=storage)
    assert settings.discord_token is not None
    try:
        async with bot:
            await bot.start(settings.discord_token.get_secret_value())
    except discord.LoginFailure:
        print(
            "Discord rejected DISCORD_TOKEN (login failed). Reset the token in the Developer Portal.",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    except discord.PrivilegedIntentsRequired:
        print(
            "The bot asked for a privileged intent that is not enabled in the Developer Portal.",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    finally:
        await storage.close()
    return 0


def main(argv: list[str] | None = None) -> None:
    """Entry point; never returns normally (raises SystemExit with the exit code)."""
    try:
        settings = Settings()
    except ValidationError as exc:
        print(_format_validation(exc), file=sys.stderr)
        raise SystemExit(EXIT_CONFIG) from None
    if settings.discord_token is None:
        print(missing_token_help(), file=sys.stderr)
        raise SystemExit(EXIT_CONFIG)
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        code = asyncio.run(_run(settings))
    except KeyboardInterrupt:
        code = 0
    raise SystemExit(code)


if __name__ == "__main__":
    main()
