"""`python -m bot` without a token, settings parsing, the invite recipe, and custom-id rules."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.games.space_alert.mission import ids as _ids
from bot.platform.invite import REQUIRED_PERMISSIONS, invite_url, permissions_integer
from bot.platform.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def test_missing_token_exits_2_with_instructions(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    env["PYTHONPATH"] = str(ROOT)
    # run from an empty folder so no .env is picked up; no network is needed to print the help
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert "DISCORD_TOKEN is not set" in proc.stderr
    assert "scope=bot+applications.commands" in proc.stderr
    assert f"permissions={permissions_integer()}" in proc.stderr
    assert "Mute Members" in proc.stderr and "Create Public Threads" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_bad_setting_exits_2(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "x", "COMMAND_SYNC": "sometimes"}
    proc = subprocess.run(
        [sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 2
    assert "COMMAND_SYNC" in proc.stderr and "Traceback" not in proc.stderr


def test_permissions_integer_is_exactly_the_ten_permissions() -> None:
    # View Channel 1<<10, Send Messages 1<<11, Embed Links 1<<14, Attach Files 1<<15,
    # Read Message History 1<<16, Connect 1<<20, Speak 1<<21, Mute Members 1<<22,
    # Create Public Threads 1<<35, Send Messages in Threads 1<<38
    bits = [10, 11, 14, 15, 16, 20, 21, 22, 35, 38]
    assert permissions_integer() == sum(1 << b for b in bits) == 309245103104
    assert REQUIRED_PERMISSIONS.administrator is False
    url = invite_url(123)
    assert "client_id=123" in url and "permissions=309245103104" in url


def test_settings_from_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCENARIO_DIRS", "/a:/b,/c")
    monkeypatch.setenv("COMMAND_SYNC", "guild:123456789012345678")
    monkeypatch.setenv("TIME_SCALE", "20")
    monkeypatch.setenv("LOG_LEVEL", "debug")
    s = Settings(_env_file=None)
    assert s.scenario_dirs == [Path("/a"), Path("/b"), Path("/c")]
    assert s.sync_guild_id == 123456789012345678
    assert s.time_scale == 20 and s.log_level == "DEBUG"
    assert s.database_path == Path("data/space_alert.sqlite3") and s.default_language == "en"
    monkeypatch.setenv("TIME_SCALE", "0")
    with pytest.raises(ValidationError):
        Settings(_env_file=None)


def test_custom_ids_are_unique_short_and_parse_back() -> None:
    assert not set(_ids.BUTTON_ACTIONS) & set(_ids.SELECT_ACTIONS)
    cid = _ids.make("0123abcd", "place", 123456789012345678, "haL03", "action")
    assert len(cid) <= 100
    parsed = _ids.parse(cid)
    assert parsed is not None and parsed.player == 123456789012345678 and parsed.parts[1:] == ["haL03", "action"]
    assert _ids.parse("other:0123abcd:join:-") is None
    with pytest.raises(ValueError):
        _ids.make("0123abcd", "launch")


def test_locales_only_use_english_keys() -> None:
    from bot.platform.i18n import catalogue, t

    english = set(catalogue("en"))
    for lang in ("ru", "cs"):
        assert set(catalogue(lang)) == english, lang  # complete, and nothing English lacks
    assert t("cs", "lobby.full", n=5) == "Posádka je plná (5 hráčů)."
    assert t("de", "lobby.full", n=5) == "The crew is full (5 players)."  # unknown language: English


def test_locale_areas_never_define_a_key_twice() -> None:
    """Each area's strings live in `bot/platform/locales/<area>/<lang>.json`; a key in two files is a mistake
    (the first file would silently win), and every area exists in every language."""
    from bot.platform.i18n import catalogue_sources

    areas_by_lang: dict[str, set[str]] = {}
    for lang in ("en", "ru", "cs", "sk"):
        seen: dict[str, str] = {}
        names: set[str] = set()
        for source, data in catalogue_sources(lang):
            names.add(source.rsplit("/", 2)[-2] if source.count("/") else source)
            for key in data:
                assert key not in seen, f"{lang}: {key} in {seen.get(key)} and {source}"
                seen[key] = source
        areas_by_lang[lang] = names
    assert areas_by_lang["ru"] == areas_by_lang["cs"] == areas_by_lang["sk"] == areas_by_lang["en"]
