"""`python -m bot` (and the `space-alert-bot` script): read settings, open storage, run the bot.

Exit codes: 2 for a configuration problem the operator must fix (no token, bad setting, an
unreadable `.env`, a missing SCENARIO_DIRS folder), 3 when the database cannot be used (not a
database, damaged, read-only, disk full, migrations missing or failing, a schema newer than this
bot).  Both print one line instead of a traceback, because the first person to see them is
someone who just typed `make run`; and both exit at once, with every connection closed (an
aiosqlite thread left running would keep the process alive forever).
"""

from __future__ import annotations

import asyncio
import logging
import sys

from pydantic import ValidationError

from bot.invite import missing_token_help
from bot.settings import ConfigError, Settings, check_env_file, check_paths

EXIT_CONFIG = 2
EXIT_DATABASE = 3


def _format_validation(error: ValidationError) -> str:
    problems = []
    for item in error.errors():
        name = ".".join(str(p) for p in item.get("loc", ())).upper() or "?"
        problems.append(f"{name}: {item.get('msg')}")
    return "Configuration error (check the environment or .env): " + "; ".join(problems)


async def _run(settings: Settings) -> int:
    import discord

    from bot.client import SpaceAlertBot
    from bot.storage import StorageError, open_storage

    try:
        storage = await open_storage(settings)
    except StorageError as exc:  # the storage closed whatever it had opened
        print(f"Cannot start: {exc}", file=sys.stderr)
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
        check_env_file()
        settings = Settings()
        check_paths(settings)
    except ValidationError as exc:
        print(_format_validation(exc), file=sys.stderr)
        raise SystemExit(EXIT_CONFIG) from None
    except (ConfigError, OSError, UnicodeDecodeError) as exc:
        print(f"Configuration error: {exc}", file=sys.stderr)
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
