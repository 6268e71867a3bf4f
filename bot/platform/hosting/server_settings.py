"""Per-server hosting settings: what each key means, how a typed value is parsed, and the checks
the flight code asks before it starts a flight or accepts a custom mission.

Stored through the storage interface (`get_setting` / `set_setting`, one JSON value per key) and
read on every flight, so a change applies to the next flight without a restart.  No Discord
objects here: the cog passes ids.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal, TypeAlias

SettingKey: TypeAlias = Literal[
    "channels", "language", "voice", "tts", "starters", "log", "leaderboard", "custom_max_count", "custom_max_kb"
]
SETTING_KEYS: tuple[SettingKey, ...] = (
    "channels",
    "language",
    "voice",
    "tts",
    "starters",
    "log",
    "leaderboard",
    "custom_max_count",
    "custom_max_kb",
)
LANGUAGE_CHOICES = ("en", "ru", "cs", "sk")
EVERYONE = "everyone"
ANY_CHANNEL = "any"
CUSTOM_COUNT_RANGE = (0, 200)
CUSTOM_KB_RANGE = (1, 256)


# Why a value is refused: stable codes; each language's sentence is the locale key
# `settings.problem.<code>` (bot/platform/locales/platform/*.json), the English one below is for logs and tests.
_ENGLISH = {
    "choice": "{key}: use one of {choices}",
    "number": "{key}: a whole number from {lo} to {hi}",
    "channels": "channels: mention the channels (#name …) or write 'any'",
    "voice": "voice: on or off",
    "starters": "starters: 'everyone' or one role (@role)",
    "unknown_key": "unknown setting {key!r}: use one of {choices}",
}
SETTING_PROBLEMS = tuple(_ENGLISH)


class SettingError(ValueError):
    """A value that does not fit its key: `code` says why and `params` fill the sentence, so the
    bot can say it in the admin's language (`settings.problem.<code>`)."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(_ENGLISH[code].format(**params))
        self.code = code
        self.params = params


@dataclass(frozen=True, slots=True)
class ServerSettings:
    """One server's settings, defaults filled in."""

    channels: tuple[int, ...] = ()  # empty: flights may run in any channel
    language: str = "en"
    voice: bool = True
    tts: Literal["gtts", "espeak"] = "gtts"
    starters: str | int = EVERYONE  # "everyone" or the id of the role that may start flights
    log: Literal["thread", "channel"] = "thread"
    leaderboard: Literal["private", "public"] = "private"
    custom_max_count: int = 25
    custom_max_kb: int = 64
    unknown: dict[str, Any] = field(default_factory=dict)  # stored keys this version does not know

    def value(self, key: SettingKey) -> Any:
        return getattr(self, key)


# ASCII digits of a snowflake's length only: a mention or a bare id, never a run inside a longer
# number (a 5,000-digit "id" is refused, not cut into ids or handed to int()).
_CHANNEL = re.compile(r"<#([1-9][0-9]{0,20})>|(?<![0-9])([0-9]{15,21})(?![0-9])")
_ROLE = re.compile(r"<@&([1-9][0-9]{0,20})>|(?<![0-9])([0-9]{15,21})(?![0-9])")
_MAX_NUMBER_CHARS = 12
_TRUE = {"on", "yes", "true", "1", "ano", "áno", "да", "вкл"}
_FALSE = {"off", "no", "false", "0", "ne", "nie", "нет", "выкл"}


def _choice(key: str, text: str, choices: tuple[str, ...]) -> str:
    value = text.strip().lower()
    if value not in choices:
        raise SettingError("choice", key=key, choices=", ".join(choices))
    return value


def _number(key: str, text: str, lo: int, hi: int) -> int:
    raw = text.strip()
    if not (raw.isascii() and raw.isdigit() and len(raw) <= _MAX_NUMBER_CHARS):
        raise SettingError("number", key=key, lo=lo, hi=hi)
    value = int(raw)
    if not lo <= value <= hi:
        raise SettingError("number", key=key, lo=lo, hi=hi)
    return value


def parse_setting(key: str, text: str) -> Any:
    """The stored (JSON) value for what an admin typed after `/settings set <key>`; any other
    text raises SettingError (total: no other exception for any string)."""
    raw = text.strip()
    if key == "channels":
        if raw.lower() in (ANY_CHANNEL, ""):
            return []
        ids = [int(a or b) for a, b in _CHANNEL.findall(raw)]
        if not ids:
            raise SettingError("channels")
        return list(dict.fromkeys(ids))
    if key == "language":
        return _choice(key, raw, LANGUAGE_CHOICES)
    if key == "voice":
        if raw.lower() in _TRUE:
            return True
        if raw.lower() in _FALSE:
            return False
        raise SettingError("voice")
    if key == "tts":
        return _choice(key, raw, ("gtts", "espeak"))
    if key == "starters":
        if raw.lower() == EVERYONE:
            return EVERYONE
        roles = _ROLE.findall(raw)
        if len(roles) != 1:
            raise SettingError("starters")
        a, b = roles[0]
        return int(a or b)
    if key == "log":
        return _choice(key, raw, ("thread", "channel"))
    if key == "leaderboard":
        return _choice(key, raw, ("private", "public"))
    if key == "custom_max_count":
        return _number(key, raw, *CUSTOM_COUNT_RANGE)
    if key == "custom_max_kb":
        return _number(key, raw, *CUSTOM_KB_RANGE)
    raise SettingError("unknown_key", key=key, choices=", ".join(SETTING_KEYS))


def from_stored(stored: dict[str, Any]) -> ServerSettings:
    """Settings from the stored values; a value that no longer parses falls back to the default."""
    defaults = ServerSettings()
    values: dict[str, Any] = {}
    for f in fields(ServerSettings):
        if f.name == "unknown" or f.name not in stored:
            continue
        value = stored[f.name]
        try:
            values[f.name] = parse_setting(f.name, _as_text(f.name, value))
        except SettingError:
            continue
    if "channels" in values:
        values["channels"] = tuple(values["channels"])
    unknown = {k: v for k, v in stored.items() if k not in SETTING_KEYS}
    return ServerSettings(
        **{**{f.name: getattr(defaults, f.name) for f in fields(defaults)}, **values, "unknown": unknown}
    )


def _as_text(key: str, value: Any) -> str:
    if key == "channels" and isinstance(value, list):
        return " ".join(f"<#{int(v)}>" for v in value) or ANY_CHANNEL
    if isinstance(value, bool):
        return "on" if value else "off"
    if key == "starters" and isinstance(value, int):
        return f"<@&{value}>"
    return str(value)


async def server_language(storage: Any, guild_id: int | None, default: str) -> str:
    """The server's language setting (one read; every cog's texts follow it), else `default`."""
    stored = await storage.get_setting(guild_id, "language") if guild_id else None
    return str(stored) if stored in LANGUAGE_CHOICES else default


async def load_settings(storage: Any, guild_id: int, default_language: str = "en") -> ServerSettings:
    """Read every key of a server in one query (the flight code calls this once per flight).  A
    server that never chose a language speaks the bot's DEFAULT_LANGUAGE (`default_language`)."""
    stored: dict[str, Any] = await storage.guild_settings(guild_id)
    settings = from_stored({k: v for k, v in stored.items() if k in SETTING_KEYS and v is not None})
    if stored.get("language") not in LANGUAGE_CHOICES and default_language in LANGUAGE_CHOICES:
        settings = replace(settings, language=default_language)
    return settings


def show(settings: ServerSettings) -> list[tuple[SettingKey, str]]:
    """(key, shown value) lines for /settings show; channels and roles as mentions."""
    out: list[tuple[SettingKey, str]] = []
    for key in SETTING_KEYS:
        value = settings.value(key)
        if key == "channels":
            text = " ".join(f"<#{c}>" for c in value) or ANY_CHANNEL
        elif key == "starters":
            text = EVERYONE if value == EVERYONE else f"<@&{value}>"
        elif key == "voice":
            text = "on" if value else "off"
        else:
            text = str(value)
        out.append((key, text))
    return out


def start_refusal(settings: ServerSettings, channel_id: int, role_ids: set[int], *, admin: bool) -> str | None:
    """Why this member may not start a flight in this channel ('channel' / 'role'), or None.
    Admins (Manage Server) may start anywhere, so a bad setting can always be repaired."""
    if admin:
        return None
    if settings.channels and channel_id not in settings.channels:
        return "channel"
    if settings.starters != EVERYONE and settings.starters not in role_ids:
        return "role"
    return None


def custom_refusal(settings: ServerSettings, existing: int, size_bytes: int) -> str | None:
    """Why a new custom mission is refused by the server's limits ('count' / 'size'), or None."""
    if existing >= settings.custom_max_count:
        return "count"
    if size_bytes > settings.custom_max_kb * 1024:
        return "size"
    return None
