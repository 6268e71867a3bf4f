"""Every string a web template or module asks for exists in all four languages, and the web
settings read as documented."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.i18n import catalogue
from bot.settings import Settings
from bot.web.views import LANGS

WEB = Path(__file__).resolve().parents[2] / "bot" / "web"


def asked_keys() -> set[str]:
    keys: set[str] = set()
    for path in [*WEB.glob("templates/*.html"), *WEB.glob("*.py")]:
        keys |= set(re.findall(r"""["'](web\.[a-z_.]+[a-z_])["']""", path.read_text(encoding="utf-8")))
    return keys


@pytest.mark.parametrize("lang", LANGS)
def test_every_web_string_exists(lang: str) -> None:
    keys = asked_keys()
    assert len(keys) > 60
    missing = sorted(k for k in keys if k not in catalogue(lang))
    assert not missing, missing


def test_web_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("WEB_HOST", "WEB_PORT", "WEB_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    plain = Settings(_env_file=None)  # type: ignore[call-arg]
    assert (plain.web_host, plain.web_port, plain.web_base_url) == ("127.0.0.1", None, None)
    monkeypatch.setenv("WEB_PORT", "8081")
    monkeypatch.setenv("WEB_BASE_URL", "https://logbook.example.org/ ")
    s = Settings(_env_file=None)  # type: ignore[call-arg]
    assert s.web_port == 8081 and s.web_base_url == "https://logbook.example.org"
    monkeypatch.setenv("WEB_PORT", "")
    assert Settings(_env_file=None).web_port is None  # type: ignore[call-arg]
    monkeypatch.setenv("WEB_BASE_URL", "logbook.example.org")
    with pytest.raises(ValidationError, match="http"):
        Settings(_env_file=None)  # type: ignore[call-arg]
