"""`python -m bot` (and the `space-alert-bot` script): read settings, open storage, run the bot.

Exit codes: 2 for a configuration problem the operator must fix (no token, bad setting, an
unreadable `.env`, a missing SCENARIO_DIRS folder), 3 when the database cannot be used (not a
database, damaged, read-only, disk full, migrations missing or failing, a schema newer than this
bot).  Both print one line instead of a traceback, because the first person to see them is
someone who just typed `make run`; and both exit at once, with every connection closed (an
aiosqlite thread left running would keep the process alive forever).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys
from collections.abc import Callable, Coroutine
from typing import Any

from pydantic import ValidationError

from bot.platform.invite import missing_token_help
from bot.platform.settings import ConfigError, Settings, check_env_file, check_paths

EXIT_CONFIG = 2
EXIT_DATABASE = 3


def _format_validation(error: ValidationError) -> str:
    problems = []
    for item in error.errors():
        name = ".".join(str(p) for p in item.get("loc", ())).upper()
        msg = str(item.get("msg")).removeprefix("Value error, ")
        problems.append(f"{name}: {msg}" if name else msg)
    return "Configuration error (check the environment or .env): " + "; ".join(problems)


async def _run(settings: Settings) -> int:
    import discord

    from bot.platform.client import make_bot
    from bot.platform.storage import StorageError, open_storage

    try:
        storage = await open_storage(settings)
    except StorageError as exc:  # the storage closed whatever it had opened
        print(f"Cannot start: {exc}", file=sys.stderr)
        return EXIT_DATABASE
    claims = None
    if getattr(storage, "shared", False):
        from bot.platform.claims import ClaimRefused, ShardClaims, cluster_lines, shards_line

        claims = ShardClaims.from_settings(storage, settings)  # type: ignore[arg-type]
        try:
            shards = await (claims.wait() if settings.standby else claims.claim())
        except ClaimRefused as exc:
            print(f"Cannot start: {exc}", file=sys.stderr)
            await claims.close()
            await storage.close()
            return EXIT_CONFIG
        except (StorageError, OSError) as exc:
            print(f"Cannot start: cannot claim the shards: {exc}", file=sys.stderr)
            await claims.close()
            await storage.close()
            return EXIT_DATABASE
        claims_log = logging.getLogger("bot.platform.claims")
        claims_log.info(shards_line(claims))
        with contextlib.suppress(Exception):  # only a report: never stops the start
            claims_log.info(" | ".join(await cluster_lines(claims)))
        if settings.shard_count is not None:  # a standby runs what it took, not all it may take
            settings = settings.model_copy(update={"shard_ids": shards})
    bot = make_bot(settings=settings, storage=storage, claims=claims)
    assert settings.discord_token is not None
    web_runner = None
    try:
        if settings.web_port:  # one process for a small server: the web logbook beside the bot
            try:
                web_runner = await _start_web(settings, storage)
            except OSError as exc:
                where = f"{settings.web_host}:{settings.web_port}"
                print(f"Cannot listen on {where}: {exc.strerror or exc}", file=sys.stderr)
                return EXIT_CONFIG
        async with bot:
            await bot.start(settings.discord_token.get_secret_value())
        return bot.exit_code
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
        if web_runner is not None:
            await web_runner.cleanup()
        if claims is not None:
            await claims.close()
        await storage.close()


async def _start_web(settings: Settings, storage: Any) -> Any:
    """The web logbook (bot/web) on WEB_HOST:WEB_PORT over the bot's own storage."""
    from bot.web.app import make_app, start_site

    app = make_app(storage, default_language=settings.default_language, base_url=settings.web_base_url)
    assert settings.web_port is not None
    return await start_site(app, settings.web_host, settings.web_port)


def _shard_ids(text: str) -> list[int]:
    from bot.platform.cluster import parse_shard_ids

    try:
        return parse_shard_ids(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def parse_args(argv: list[str] | None = None) -> dict[str, Any]:
    """The command line as Settings overrides (flags win over SHARD_IDS / SHARD_COUNT).
    Nonsense exits with code 2 and a usage line, like every other configuration problem."""
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Run the Space Alert bot. Settings come from the environment or .env.",
    )
    parser.add_argument(
        "--shards",
        type=_shard_ids,
        metavar="IDS",
        help="the shards this process runs: a range (0-3), a list (0,2,5) or both (0-3,8); env SHARD_IDS",
    )
    parser.add_argument(
        "--shard-count",
        type=int,
        metavar="N",
        help="the number of shards over all processes; env SHARD_COUNT",
    )
    parser.add_argument(
        "--standby",
        action="store_true",
        default=None,
        help="wait for shards another process holds and take them over when its claim lapses; env STANDBY",
    )
    args = parser.parse_args(argv)
    overrides: dict[str, Any] = {}
    if args.shards is not None:
        overrides["shard_ids"] = args.shards
    if args.shard_count is not None:
        overrides["shard_count"] = args.shard_count
    if args.standby:
        overrides["standby"] = True
    return overrides


def load_settings(overrides: dict[str, Any] | None = None) -> Settings:
    """The settings, checked; a problem exits 2 with one line (shared with `python -m bot.web`)."""
    try:
        check_env_file()
        settings = Settings(**(overrides or {}))
        check_paths(settings)
    except ValidationError as exc:
        print(_format_validation(exc), file=sys.stderr)
        raise SystemExit(EXIT_CONFIG) from None
    except (ConfigError, OSError, UnicodeDecodeError) as exc:
        print(f"Configuration error: {exc}", file=sys.stderr)
        raise SystemExit(EXIT_CONFIG) from None
    return settings


def run_logged(settings: Settings, work: Callable[[Settings], Coroutine[Any, Any, int]]) -> None:
    """Log to stderr at LOG_LEVEL, run `work` to its exit code and exit with it (Ctrl-C: 0)."""
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)-7s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    try:
        code = asyncio.run(work(settings))
    except KeyboardInterrupt:
        code = 0
    raise SystemExit(code)


def main(argv: list[str] | None = None) -> None:
    """Entry point; never returns normally (raises SystemExit with the exit code)."""
    settings = load_settings(parse_args(argv))
    if settings.discord_token is None:
        print(missing_token_help(), file=sys.stderr)
        raise SystemExit(EXIT_CONFIG)
    run_logged(settings, _run)


if __name__ == "__main__":
    main()
