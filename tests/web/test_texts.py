"""Every string a web template or module asks for exists in all four languages, and the web
settings read as documented."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.platform.i18n import catalogue
from bot.platform.settings import Settings
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


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    r, g, b = (c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_text_colours_pass_wcag_aa() -> None:
    css = (WEB / "static" / "style.css").read_text(encoding="utf-8")
    colours = dict(re.findall(r"--([a-z]+): (#[0-9a-f]{6});", css))
    text_on = {
        "paper": ["ink", "link", "muted", "survived", "destroyed"],
        "band": ["ink", "link", "muted"],
    }
    for background, inks in text_on.items():
        for ink in inks:
            ratio = contrast(colours[ink], colours[background])
            assert ratio >= 4.5, (ink, background, round(ratio, 2))
    assert contrast("#ffffff", colours["night"]) >= 4.5  # the header's text
