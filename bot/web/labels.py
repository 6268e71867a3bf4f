"""The words and small HTML pieces every table row repeats, made in Python.

Why not Jinja macros: a macro call costs ~30 µs, and a server page calls four of them on each of
a few hundred rows; these functions do the same in a few µs (bench/web.py measured the macros at
half of a page's time).  Everything user-typed goes through `escape`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from markupsafe import Markup, escape

from bot.platform.i18n import t


@cache
def difficulty(lang: str, normal: str, serious: str) -> str:
    return t(lang, "difficulty.pair", normal=t(lang, f"difficulty.{normal}"), serious=t(lang, f"difficulty.{serious}"))


@cache
def _word(lang: str, key: str) -> str:
    return t(lang, key)


class Labels:
    """Row labels in one language; `link` keeps the page's chosen language in every href."""

    def __init__(self, lang: str, link: Callable[..., str]) -> None:
        self.lang = lang
        self.link = link

    def mission(self, line: dict[str, Any]) -> str:
        if line.get("mission") == "random" and line.get("seed") is not None:
            return t(self.lang, "mission.random", seed=line["seed"])
        return str(line.get("mission"))

    def difficulty(self, normal: str, serious: str) -> str:
        return difficulty(self.lang, normal, serious)

    def crew(self, members: list[dict[str, Any]]) -> Markup:
        """The human crew as links to their careers ("—" for none)."""
        shown = [
            Markup('<a href="{}">{}</a>').format(self.link(m["url"]), m["name"]) for m in members if m.get("player_id")
        ]
        return Markup(", ").join(shown) if shown else Markup("—")

    def outcome(self, line: dict[str, Any]) -> Markup:
        kind = "web.elite.outcome." if line.get("game") == "elite" else "outcome."
        outcome = str(line.get("outcome"))
        return Markup('<span class="outcome {}">{}</span>').format(outcome, _word(self.lang, kind + outcome))

    def word(self, key: str) -> str:
        return _word(self.lang, key)


__all__ = ["Labels", "escape"]
