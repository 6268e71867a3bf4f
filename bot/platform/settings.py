"""Process configuration read from the environment (and `.env`), validated once at start-up.

Why pydantic-settings: a typo in `COMMAND_SYNC` or a zero `TIME_SCALE` should stop the bot with
one readable line before it logs in, not surface as a strange failure an hour into a flight.
The token is a `SecretStr` so it never ends up in a log line or a traceback.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

LANGUAGES: tuple[str, ...] = ("en", "ru", "cs", "sk")
_SYNC = re.compile(r"^(global|off|guild:\d{15,21})$")


class Settings(BaseSettings):
    """Every knob the operator can turn; names match the environment variables (upper case)."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    database_path: Path = Path("data/space_alert.sqlite3")
    # postgresql://user:password@host:port/db: the shared store of several processes; when set it
    # is used instead of DATABASE_PATH.
    database_url: str | None = None
    # Extra folders of mission timeline files; ':' or ',' separated so it reads well in a shell.
    scenario_dirs: Annotated[list[Path], NoDecode] = Field(default_factory=list)
    command_sync: str = "global"
    # The package whose EXTENSIONS tuple lists the games this bot hosts (bot/games): the platform
    # loads them by name and imports no game itself.
    games_package: str = "bot.games"
    # Flight seconds per wall-clock second; outside 0.1-100 it is a typo, not a choice.
    time_scale: float = Field(default=1.0, ge=0.1, le=100)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    default_language: Literal["en", "ru", "cs", "sk"] = "en"
    # Sharding: the shards this process runs ("0-3", "0,2,5") out of SHARD_COUNT in all
    # processes.  Unset: one process, every guild.  `python -m bot --shards/--shard-count` override.
    shard_ids: Annotated[list[int] | None, NoDecode] = None
    shard_count: int | None = None
    # Discord's session_start_limit.max_concurrency (identify buckets); unset: ask Discord.
    identify_concurrency: int | None = Field(default=None, ge=1, le=1024)
    # Shard claims over PostgreSQL (bot/platform/claims.py): how long a dead process's claim keeps its
    # shards from a standby, and how often a live one renews it.
    claim_ttl_s: float = Field(default=6.0, ge=1, le=600)
    claim_heartbeat_s: float = Field(default=2.0, gt=0, le=200)
    # How long a dead process's flight lease keeps its clock from another process (bot/platform/cluster.py).
    flight_lease_ttl_s: float = Field(default=30.0, ge=3, le=3600)
    # host/PROCESS_NAME is this process's identity: a restart in place recognises its own dead
    # predecessor by it.  Unset: derived from the shards ("shards-0-3", or "all").
    process_name: str | None = Field(default=None, max_length=64)
    # Wait for a dead process's shards instead of refusing to start (`--standby`).
    standby: bool = False
    # The web logbook (bot/web): `python -m bot.web` listens on WEB_HOST:WEB_PORT (8080 when
    # unset); the bot process serves it too when WEB_PORT is set.  WEB_BASE_URL is the address
    # players reach it at (behind a reverse proxy), for the links /logbook and result posts show.
    web_host: str = "127.0.0.1"
    web_port: int | None = Field(default=None, ge=1, le=65535)
    web_base_url: str | None = None

    @field_validator("scenario_dirs", mode="before")
    @classmethod
    def _split_dirs(cls, value: object) -> object:
        if isinstance(value, str):
            return [Path(p.strip()) for p in re.split(r"[:,]", value) if p.strip()]
        return value

    @field_validator("command_sync")
    @classmethod
    def _check_sync(cls, value: str) -> str:
        value = value.strip().lower()
        if not _SYNC.match(value):
            raise ValueError("must be 'global', 'off' or 'guild:<server id>'")
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("database_url", mode="before")
    @classmethod
    def _check_url(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip() or None
            if value is not None and not re.match(r"^postgres(ql)?://", value):
                raise ValueError("must be a postgresql:// URL (leave it unset for SQLite)")
        return value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _parse_shards(cls, value: object) -> object:
        from bot.platform.cluster import parse_shard_ids

        if isinstance(value, str):
            return parse_shard_ids(value) if value.strip() else None
        return value

    @model_validator(mode="after")
    def _check_plan(self) -> Settings:
        from bot.platform.cluster import ShardPlan

        plan = ShardPlan.build(self.shard_ids, self.shard_count)
        if self.claim_heartbeat_s * 2 > self.claim_ttl_s:
            raise ValueError(
                "CLAIM_HEARTBEAT_S must be at most half of CLAIM_TTL_S (a claim must survive a missed heartbeat)"
            )
        if self.standby and not self.database_url:
            raise ValueError("--standby (STANDBY) waits for another process's shards: set DATABASE_URL")
        if not plan.every_shard and not self.database_url:
            raise ValueError(
                "a process running only some shards shares the other shards' flights: set DATABASE_URL"
                " (postgresql://...); SQLite is for one process running every shard"
            )
        return self

    @field_validator("web_base_url", mode="before")
    @classmethod
    def _check_base_url(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.strip().rstrip("/") or None
            if value is not None and not re.match(r"^https?://[^/\s]+", value):
                raise ValueError("must be an http:// or https:// address (e.g. https://logbook.example.org)")
        return value

    @field_validator("discord_token", "shard_count", "identify_concurrency", "process_name", "web_port", mode="before")
    @classmethod
    def _blank_is_missing(cls, value: object) -> object:
        """`SHARD_COUNT=` (as a template or a compose file leaves it) means unset, as it does
        for SHARD_IDS and DATABASE_URL, instead of stopping the bot over an empty number."""
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @property
    def sync_guild_id(self) -> int | None:
        """The guild to sync commands to when `COMMAND_SYNC=guild:<id>`, else None."""
        if self.command_sync.startswith("guild:"):
            return int(self.command_sync.split(":", 1)[1])
        return None


class ConfigError(Exception):
    """A configuration problem found at start-up; the message is one line for the operator."""


def check_env_file(path: Path = Path(".env")) -> None:
    """An `.env` that exists must be readable text: pydantic-settings would skip a folder silently
    and a permission error would surface as a traceback."""
    if not path.exists() and not path.is_symlink():
        return
    if path.is_dir():
        raise ConfigError(f"{path} is a folder, not a settings file")
    try:
        path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{path} is not UTF-8 text") from None


def check_paths(settings: Settings) -> None:
    """Folders the bot will read later are checked now, so a typo stops the start, not a flight."""
    for folder in settings.scenario_dirs:
        if not folder.exists():
            raise ConfigError(f"SCENARIO_DIRS: folder {folder} does not exist")
        if not folder.is_dir():
            raise ConfigError(f"SCENARIO_DIRS: {folder} is not a folder")
        try:
            os.listdir(folder)
        except OSError as exc:
            raise ConfigError(f"SCENARIO_DIRS: cannot read folder {folder}: {exc.strerror or exc}") from None
