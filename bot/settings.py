"""Process configuration read from the environment (and `.env`), validated once at start-up.

Why pydantic-settings: a typo in `COMMAND_SYNC` or a zero `TIME_SCALE` should stop the bot with
one readable line before it logs in, not surface as a strange failure an hour into a flight.
The token is a `SecretStr` so it never ends up in a log line or a traceback.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

LANGUAGES: tuple[str, ...] = ("en", "ru", "cs")
_SYNC = re.compile(r"^(global|off|guild:\d{15,21})$")


class Settings(BaseSettings):
    """Every knob the operator can turn; names match the environment variables (upper case)."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr | None = None
    database_path: Path = Path("data/space_alert.sqlite3")
    # Extra folders of mission timeline files; ':' or ',' separated so it reads well in a shell.
    scenario_dirs: Annotated[list[Path], NoDecode] = Field(default_factory=list)
    command_sync: str = "global"
    time_scale: float = Field(default=1.0, gt=0, le=1000)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = "INFO"
    default_language: Literal["en", "ru", "cs"] = "en"

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

    @field_validator("discord_token", mode="before")
    @classmethod
    def _blank_is_missing(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @property
    def sync_guild_id(self) -> int | None:
        """The guild to sync commands to when `COMMAND_SYNC=guild:<id>`, else None."""
        if self.command_sync.startswith("guild:"):
            return int(self.command_sync.split(":", 1)[1])
        return None
