"""The words and small HTML pieces every table row repeats, made in Python.

Why not Jinja macros: a macro call costs ~30 µs, and a server page calls four of them on each of
a few hundred rows; these functions do the same in a few µs (bench/web.py measured the macros at
half of a page's time).  The two long tables (a server's boards, a list of logbook lines) are
whole rows here for the same reason: a server's ~450 board rows took 12 ms as a Jinja loop.
Everything typed by someone goes through `_e` (the standard library's C-speed html.escape; the
pure-Python markupsafe escape was a tenth of the page's time).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from html import escape as _html_escape
from typing import Any

from markupsafe import Markup, escape

from bot.platform.i18n import t


@cache
def difficulty(lang: str, normal: str, serious: str) -> str:
    return t(lang, "difficulty.pair", normal=t(lang, f"difficulty.{normal}"), serious=t(lang, f"difficulty.{serious}"))


@cache
def _word(lang: str, key: str) -> str:
    return t(lang, key)


def _e(value: Any) -> str:
    return _html_escape(str(value), quote=True)


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
        shown = [f'<a href="{_e(self.link(m["url"]))}">{_e(m["name"])}</a>' for m in members if m.get("player_id")]
        return Markup(", ".join(shown) if shown else "—")

    def outcome(self, line: dict[str, Any]) -> Markup:
        kind = "web.elite.outcome." if line.get("game") == "elite" else "outcome."
        outcome = str(line.get("outcome"))
        return Markup(f'<span class="outcome {_e(outcome)}">{_e(_word(self.lang, kind + outcome))}</span>')

    def board_rows(self, boards: list[dict[str, Any]]) -> Markup:
        """A server's boards: one <tbody> per mission and difficulty pair, its places as rows."""
        out: list[str] = []
        for board in boards:
            places = board["places"]
            out.append("<tbody>")
            for i, p in enumerate(places):
                head = ""
                if i == 0:
                    n = len(places)
                    head = (
                        f'<th scope="rowgroup" rowspan="{n}">{_e(self.mission(board))}</th>\n'
                        f'<td rowspan="{n}">{_e(self.difficulty(board["normal"], board["serious"]))}</td>\n'
                    )
                total = _e(p["total"])
                score = f'<a href="{_e(self.link(p["url"]))}">{total}</a>' if p["url"] else total
                crew = _e(", ".join(p["crew"])) or "—"
                out.append(
                    f'<tr>\n{head}<td class="num">{_e(p["rank"])}</td>\n<td class="num">{score}</td>\n'
                    f"<td>{crew}</td>\n<td>{_e(p['flown_at'][:10])}</td>\n</tr>"
                )
            out.append("</tbody>")
        return Markup("\n".join(out))

    def line_rows(self, lines: list[dict[str, Any]], games: dict[str, str], with_server: bool = False) -> Markup:
        """Logbook lines of any game as table rows (the columns of macros.html's lines_table)."""
        campaign = " · " + _word(self.lang, "web.campaign_line")
        out: list[str] = []
        for line in lines:
            date = _e(line["flown_at"][:10])
            cells = [f'<a href="{_e(self.link(line["url"]))}">{date}</a>' if line.get("url") else date]
            if with_server:
                name = line.get("server_name") or t(self.lang, "web.server.unnamed", id=line["server_id"])
                cells.append(f'<a href="{_e(self.link(line["server_url"]))}">{_e(name)}</a>')
            elite = line.get("game") == "elite"
            game = _e(games.get(line["game"], line["game"])) + (_e(campaign) if line.get("campaign_id") else "")
            level = line["normal"] if elite else self.difficulty(line["normal"], line["serious"])
            cells += [game, _e(self.mission(line)), _e(level), str(self.outcome(line))]
            body = "".join(f"<td>{c}</td>\n" for c in cells)
            body += f'<td class="num">{"—" if elite else _e(line["total"])}</td>\n<td>{self.crew(line["crew"])}</td>\n'
            out.append(f"<tr>\n{body}</tr>")
        return Markup("\n".join(out))

    def word(self, key: str) -> str:
        return _word(self.lang, key)


__all__ = ["Labels", "escape"]
