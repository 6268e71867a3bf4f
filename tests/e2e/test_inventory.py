"""The e2e inventory: every slash command path and every component a player can press is pressed
by some end-to-end scenario (issue 23), or listed in `NOT_PRESSED` with the reason.

Fast and offline (no fakecord, no bot process): it builds the bot as tests/bot does, reads its
command tree, the component registry (bot/platform/components.py) and the platform table's games
(bot/platform/tables.py), and reads the e2e sources with `ast`.

What counts as pressed, so that the check is honest rather than a word search:
* a slash command path ("mission custom add") counts when a test passes exactly that string to a
  call whose name contains "slash" (`fd.slash`, `slash_text`): the string fakecord sends;
* a component action counts when a test passes its name as a string to one of the helpers that
  find that kind's component in a message (`LOCATORS`; `cid(hand, "give")`, `esc_id(panel, "do")`),
  when the test writes the custom id itself (`f"hs:{fid}:go"`), or when it clicks the label the
  bot draws for it (`LABELS`).  A name in a tuple a `for` loop hands to such a call counts too
  (`for action in ("next", "stop"): press(action)`).
A helper renamed, or a new way of finding a component, must be added to `LOCATORS`: the test then
fails loudly (a path reported as not pressed) rather than passing quietly.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
from discord import app_commands

from bot.platform import components, tables
from bot.platform.permissions import RULES
from tests.bot.helpers import FakeClock, new_bot, stop_bot

E2E = Path(__file__).resolve().parent
SELF = Path(__file__).resolve().name

# Per kind (the gm table per game), the e2e helpers that find a component by its action name.
LOCATORS: dict[str, frozenset[str]] = {
    "sa": frozenset({"cid", "has", "options"}),
    "sr": frozenset({"cid", "has", "options", "options_of"}),
    "sa-camp": frozenset({"campaign_ids", "campaign_buttons", "button"}),
    "sa-board": frozenset({"turn_page"}),
    "elite": frozenset({"press", "round_of"}),
    "gm:legion": frozenset({"custom_id", "select_values"}),
    "gm:escape": frozenset({"esc", "esc_id", "esc_pick"}),
}
# Components clicked by the label the bot draws (fakecord's `click(label=...)`), per action.
LABELS: dict[tuple[str, str], tuple[str, ...]] = {
    ("sr", "turn"): ("⏮", "◀", "▶", "⏭"),  # the turn pictures' navigation (replay/components.py)
    ("sr", "open"): ("🖼️ Turn by turn",),  # the result post's pictures button
}
# Paths no e2e scenario presses, and why.  Every entry is reported; keep it short.
NOT_PRESSED: dict[str, str] = {
    "sa half": "legacy id: hands drawn before placing took one choice; no message drawn now carries it",
    "sr flip": "legacy id of old what-if editors (answered 'out of date'); nothing drawn now carries it",
    "sr clear": "legacy id of old what-if editors; nothing drawn now carries it",
    "sr wturn": "legacy id of old what-if editors; nothing drawn now carries it",
    "sr wcard": "legacy id of old what-if editors; nothing drawn now carries it",
    "sa-camp repair": "the button pattern admits it but nothing draws it: the repair step is the repairmenu select",
}


# -- what the bot offers ------------------------------------------------------------------------------
def command_paths(bot: Any) -> set[str]:
    """Every slash command a member can type: "help", "mission custom add", ..."""
    return {c.qualified_name for c in bot.tree.walk_commands() if isinstance(c, app_commands.Command)}


def component_paths(bot: Any) -> set[str]:
    """Every component action: "<kind> <action>" for the registered kinds, "gm:<game> <action>"
    for each game at the platform table (its permission table less its slash commands)."""
    from bot.games.elite._cog import ControlView
    from bot.games.space_alert.mission import ids as sa_ids
    from bot.games.space_alert.replay import _ids as sr_ids

    kinds = set(components.REGISTRY.kinds)
    paths = {f"sa {a}" for a in (*sa_ids.BUTTON_ACTIONS, *sa_ids.SELECT_ACTIONS)}
    paths |= {f"sr {a}" for a in (*sr_ids.BUTTON_ACTIONS, *sr_ids.SELECT_ACTIONS)}
    paths |= {f"hs {a}" for a in _alternatives(components.REGISTRY.kinds["hs"], "action")}
    paths |= {f"sa-camp {w}" for w in _alternatives(components.REGISTRY.kinds["sa-camp"], "what")}
    paths |= {"sa-board prev", "sa-board next"}  # one query per id; these two buttons on every page
    elite = ControlView(None, 1, "en")  # type: ignore[arg-type]  # (drawing reads only the language)
    paths |= {f"elite {components.parse(i.custom_id)[1]['action']}" for i in elite.children}  # type: ignore[attr-defined,index]
    slash_names = {c.name for c in bot.tree.walk_commands() if isinstance(c, app_commands.Command)}
    for game in tables._GAMES:
        paths |= {f"gm:{game} {a}" for a in RULES.games[game] if a not in slash_names}
    covered_kinds = {p.split()[0].split(":")[0] for p in paths}
    assert kinds == covered_kinds, f"a component kind this test does not enumerate: {kinds ^ covered_kinds}"
    return paths


def _alternatives(kind: components.IdKind, part: str) -> list[str]:
    """The literal alternatives of one part's pattern ("common|serious|...")."""
    regex = dict(kind.parts)[part]
    assert re.fullmatch(r"[a-z|_\-]+", regex), f"{kind.prefix}.{part} is not a list of words: {regex}"
    return regex.split("|")


# -- what the e2e tests press -------------------------------------------------------------------------
def _name(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""


def _words(node: ast.expr) -> Iterator[str]:
    """The string a positional argument passes: a constant, or an f-string's text up to its first
    placeholder (`f"serious:{x}"` -> "serious:")."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        yield str(node.values[0].value)


class Sources:
    """The e2e sources, parsed once."""

    def __init__(self, folder: Path) -> None:
        self.trees = {p.name: ast.parse(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("*.py"))}
        self.trees.pop(SELF, None)

    def passed_to(self, names: Iterable[str]) -> set[str]:
        """Every string passed positionally to a call of one of `names`, directly or as the loop
        variable of a `for` over a literal tuple (or a name bound to one)."""
        wanted, found = set(names), set()
        for tree in self.trees.values():
            tuples: dict[str, list[str]] = {}
            for node in ast.walk(tree):
                if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                    tuples.setdefault(node.targets[0].id, []).extend(self._literals(node.value))
            for node in ast.walk(tree):
                if isinstance(node, ast.Call) and _name(node) in wanted:
                    for arg in node.args:
                        found.update(_words(arg))
                if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
                    var = node.target.id
                    iterated = (
                        tuples.get(node.iter.id, []) if isinstance(node.iter, ast.Name) else self._literals(node.iter)
                    )
                    for inner in (n for stmt in node.body for n in ast.walk(stmt)):
                        if (
                            isinstance(inner, ast.Call)
                            and _name(inner) in wanted
                            and any(isinstance(a, ast.Name) and a.id == var for a in inner.args)
                        ):
                            found.update(iterated)
        return found

    @staticmethod
    def _literals(node: ast.expr) -> list[str]:
        """The strings of a literal tuple/list (both branches of `a if c else b`)."""
        if isinstance(node, ast.IfExp):
            return Sources._literals(node.body) + Sources._literals(node.orelse)
        if isinstance(node, ast.Tuple | ast.List):
            return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        return []

    def strings(self) -> set[str]:
        """Every string constant and f-string text ("{}" for each placeholder) in the sources."""
        out = set()
        for tree in self.trees.values():
            for node in ast.walk(tree):
                if isinstance(node, ast.Constant) and isinstance(node.value, str):
                    out.add(node.value)
                elif isinstance(node, ast.JoinedStr):
                    out.add("".join(str(v.value) if isinstance(v, ast.Constant) else "{}" for v in node.values))
        return out


def pressed_components(sources: Sources, paths: set[str]) -> set[str]:
    strings = sources.strings()
    found = set()
    for path in paths:
        kind, action = path.split()
        located = {w.split(":")[0].removeprefix("board.") for w in sources.passed_to(LOCATORS.get(kind, ()))}
        prefix = kind.split(":")[0]
        written = any(re.fullmatch(rf"{re.escape(prefix)}:.*:{action}(:.*)?", s) for s in strings)
        labelled = any(label in strings for label in LABELS.get((kind, action), ()))
        if action in located or written or labelled:
            found.add(path)
    return found


# -- the check ----------------------------------------------------------------------------------------
@pytest.fixture
async def bot(tmp_path: Path) -> Any:
    """The bot as tests/bot builds it: every extension loaded, no gateway."""
    instance = await new_bot(tmp_path / "sa.sqlite3", FakeClock())
    yield instance
    await stop_bot(instance)


async def test_every_command_and_component_is_pressed_by_an_e2e_scenario(bot: Any) -> None:
    commands, parts = command_paths(bot), component_paths(bot)
    assert len(commands) > 30 and len(parts) > 60, (len(commands), len(parts))  # the enumeration works
    sources = Sources(E2E)
    typed = sources.passed_to(name for tree in sources.trees.values() for name in _slash_callers(tree))
    missing = sorted((commands - typed) | (parts - pressed_components(sources, parts)))
    unpressed = [p for p in missing if p not in NOT_PRESSED]
    assert unpressed == [], f"not pressed by any e2e scenario: {unpressed}"
    stale = sorted(set(NOT_PRESSED) - set(missing))
    assert stale == [], f"pressed now or gone: remove from NOT_PRESSED: {stale}"


def _slash_callers(tree: ast.AST) -> set[str]:
    return {_name(n) for n in ast.walk(tree) if isinstance(n, ast.Call) and "slash" in _name(n)}


def test_the_evidence_rules_find_what_they_should() -> None:
    """The reader itself, on a snippet: a located action, a loop's tuple, a written id, a label."""
    code = """
async def t(fd, hand, deck, fid):
    await fd.click(hand, cid(hand, "give"), user="a")
    for action in ("next", "stop"):
        await press(action)
    await fd.click(deck, f"hs:{fid}:go")
    await fd.click(deck, label="⏭")
    await fd.slash("mission custom add", {}, user="a")
    x = "pick"  # a word that is not passed to a locator
"""
    sources = Sources.__new__(Sources)
    sources.trees = {"snippet.py": ast.parse(code)}
    assert sources.passed_to({"slash"}) == {"mission custom add"}
    paths = {"sa give", "sa pick", "elite next", "elite stop", "elite peek", "hs go", "sr turn", "sr open"}
    assert pressed_components(sources, paths) == {"sa give", "elite next", "elite stop", "hs go", "sr turn"}
