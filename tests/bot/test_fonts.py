"""The platform's bundled DejaVu fonts (bot/platform/fonts): every game draws with them, so they
must load without the system's fonts, cover the bot's four languages, and ship with their licence."""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path

from bot.platform.fonts import BOLD, REGULAR, font


def test_regular_and_bold_load_from_the_package_and_are_cached() -> None:
    regular, bold = font(20), font(20, bold=True)
    assert regular.getname() == ("DejaVu Sans", "Book") and bold.getname() == ("DejaVu Sans", "Bold")
    assert font(20) is regular  # one load per size and weight


def test_the_fonts_draw_every_language_of_the_catalogue() -> None:
    f = font(18)
    missing = bytes(f.getmask("\U000f0000"))  # a private-use code point: the font's empty box
    for letter in "HČŤžŽяЖЁ":
        assert bytes(f.getmask(letter)) != missing, letter


def test_the_fonts_ship_with_their_licence() -> None:
    here = resources.files("bot.platform.fonts")
    for name in (REGULAR, BOLD, "LICENSE-DejaVu.txt"):
        assert here.joinpath(name).is_file(), name
    data = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    shipped = data["tool"]["setuptools"]["package-data"]["bot"]
    assert "platform/fonts/*.ttf" in shipped and "platform/fonts/LICENSE-DejaVu.txt" in shipped
