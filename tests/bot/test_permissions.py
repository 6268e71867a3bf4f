"""The permission table of every game: each action x (host, seated player, other member, Manage
Server) -> allowed or the refusal, as the platform decides it (bot/platform/permissions.py).

The expected table is written out here by hand: a game that changes who may do something, or adds
an action without declaring it, fails this test until the table below says so too."""

from __future__ import annotations

import ast
import importlib
import json
import pkgutil
import re
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import bot.games
import bot.platform
from bot.platform import permissions
from bot.platform.permissions import RULES, Actor, Seats, Starters, Who

# Every game declares its actions when its package is imported, as the running bot does at start-up.
for _package in (bot.platform, bot.games):
    for _info in pkgutil.walk_packages(_package.__path__, _package.__name__ + "."):
        importlib.import_module(_info.name)

A, S, H, M, ST = Who.ANYONE, Who.SEATED, Who.HOST, Who.MANAGER, Who.STARTER
EXPECTED: dict[str, Who] = {
    # Space Alert flights: the lobby, the deck and the hands, custom missions
    **{f"mission.{a}": ST for a in ("start", "school", "schedule")},
    "mission.status": A,
    "mission.abort": H,
    "mission.custom_add": M,
    "mission.custom_list": A,
    "mission.custom_remove": M,
    "mission.join": A,
    "mission.leave": S,
    "mission.roles": S,
    "mission.lobby_start": H,
    "mission.cancel": H,
    **{
        f"mission.{a}": S
        for a in ("station", "pick", "place", "android", "give", "back", "draw", "finish", "refresh", "agree", "half")
    },
    "mission.rejoin": H,
    # campaigns and the flight school
    "campaign.start": ST,
    "campaign.status": A,
    "campaign.end": H,
    "campaign.change": H,
    "campaign.vote": S,
    "campaign.repair": S,
    # replays and what-ifs
    "replay.replay": A,
    "replay.turn": A,
    "replay.whatif": S,
    "hindsight.ask": S,
    # server settings, records
    "hosting.settings_show": M,
    "hosting.settings_set": M,
    "records.logbook": A,
    "records.leaderboard": A,
    "records.resolve": A,
    "records.stats": A,
    "records.about": A,
    # Project: ELITE
    "elite.start": ST,
    "elite.roll": H,
    "elite.pack": M,
    "elite.schema": A,
    "elite.board": A,
    "elite.peek": A,
    **{
        f"elite.{a}": H
        for a in ("next", "timer", "pause", "minus", "plus", "reveal", "victory", "defeat", "stop", "voice")
    },
    # Scarlet Legion
    "legion.start": ST,
    "legion.stop": H,
    "legion.board": A,
    "legion.schema": A,
    "legion.pack": M,
    "legion.join": A,
    "legion.leave": S,
    "legion.begin": H,
    "legion.cancel": H,
    "legion.hand": S,
    **{f"legion.{a}": S for a in ("act", "pick_card", "pick_move", "pick_pay")},
    # Star World: Escape: the lobby, the host's stop, the seated players' panels
    "escape.start": ST,
    "escape.join": A,
    "escape.leave": S,
    "escape.begin": H,
    "escape.cancel": H,
    "escape.stop": H,
    "escape.board": A,
    "escape.schema": A,
    "escape.pack": M,
    "escape.panel": S,
    "escape.do": S,
    "escape.pick_act": S,
    "escape.pick_trade": S,
    "escape.pick_enemy": S,
}

HOST, PLAYER, OTHER, MANAGER = 1, 2, 3, 4
ROLE, CHANNEL, ELSEWHERE = 500, 600, 700
SEATS = Seats.of(HOST, (HOST, PLAYER))
# A server that lets only its starters role open games, only in one channel; the host has the
# role and types in that channel, the seated player lacks the role, the other member is elsewhere.
STARTERS = Starters(ROLE, (CHANNEL,))
ACTORS = {
    "host": Actor(HOST, False, frozenset({ROLE}), CHANNEL),
    "seated player": Actor(PLAYER, False, frozenset(), CHANNEL),
    "other member": Actor(OTHER, False, frozenset({ROLE}), ELSEWHERE),
    "Manage Server": Actor(MANAGER, True, frozenset(), ELSEWHERE),
}
OUTCOMES: dict[Who, dict[str, str | None]] = {
    A: {"host": None, "seated player": None, "other member": None, "Manage Server": None},
    S: {"host": None, "seated player": None, "other member": "seated", "Manage Server": "seated"},
    H: {"host": None, "seated player": "host", "other member": "host", "Manage Server": None},
    M: {"host": "manager", "seated player": "manager", "other member": "manager", "Manage Server": None},
    ST: {"host": None, "seated player": "role", "other member": "channel", "Manage Server": None},
}


def test_every_action_of_every_game_is_declared_as_the_table_says() -> None:
    assert sorted(RULES.actions()) == sorted(EXPECTED)
    assert {a.split(".")[0] for a in RULES.actions()} == {
        "mission",
        "campaign",
        "replay",
        "hindsight",
        "hosting",
        "records",
        "elite",
        "legion",
        "escape",
    }


@pytest.mark.parametrize("action", sorted(EXPECTED))
@pytest.mark.parametrize("who", list(ACTORS))
def test_the_permission_table(action: str, who: str) -> None:
    expected = OUTCOMES[EXPECTED[action]][who]
    assert permissions.decide(action, ACTORS[who], SEATS, STARTERS) == expected


def test_an_open_server_lets_any_member_start_and_an_undeclared_action_is_an_error() -> None:
    anyone = Actor(OTHER, False, frozenset(), ELSEWHERE)
    assert all(permissions.decide(a, anyone, SEATS, Starters()) is None for a, w in EXPECTED.items() if w is ST)
    assert permissions.decide("elite.stop", anyone) == "host"  # no host known: nobody but Manage Server
    with pytest.raises(KeyError):
        permissions.decide("elite.launch_missiles", anyone)


@pytest.mark.parametrize("lang", ["en", "ru", "cs", "sk"])
def test_every_refusal_is_worded_in_every_language(lang: str) -> None:
    english = json.loads(Path("bot/platform/locales/permissions/en.json").read_text(encoding="utf-8"))
    for code in ("host", "seated", "manager", "channel", "role"):
        text = permissions.refusal(lang, code, STARTERS)
        assert "{" not in text and text != f"permissions.{code}"
        assert (text == english[f"permissions.{code}"].format(channels=f"<#{CHANNEL}>", role=f"<@&{ROLE}>")) == (
            lang == "en"
        )
    assert f"<#{CHANNEL}>" in permissions.refusal(lang, "channel", STARTERS)
    assert f"<@&{ROLE}>" in permissions.refusal(lang, "role", STARTERS)


async def test_guard_answers_the_refusal_ephemerally_without_pings() -> None:
    sent: list[tuple[str, dict[str, Any]]] = []

    async def send_message(text: str, **kw: Any) -> None:
        sent.append((text, kw))

    interaction = SimpleNamespace(
        user=SimpleNamespace(id=OTHER, roles=[]),
        permissions=SimpleNamespace(manage_guild=False),
        channel_id=CHANNEL,
        response=SimpleNamespace(is_done=lambda: False, send_message=send_message),
    )
    assert not await permissions.guard(interaction, "elite.stop", "cs", SEATS)
    ((text, kw),) = sent
    assert "hostitel" in text and kw["ephemeral"] and kw["allowed_mentions"].to_dict()["parse"] == []
    interaction.user.id = HOST
    assert await permissions.guard(interaction, "elite.stop", "cs", SEATS) and len(sent) == 1


def test_the_platform_imports_no_game() -> None:
    for path in Path("bot/platform").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            assert not any(n.startswith(("bot.games", "engine")) for n in names), (path, names)


# The platform's storage names no flight at all (issue 23): Space Alert's flights, logbook and
# what-if comparisons are the game's (bot/games/space_alert/mission/storage.py, logbook.py,
# comparisons.py), and a public server's count is of `games`.  Any identifier containing "flight"
# or "muted" fails; there is no allow-list to grow.
FLIGHT_TABLES = re.compile(r"\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+(?:flights|flight_muted|flight_events)\b", re.I)


def _identifiers(tree: ast.AST) -> list[str]:
    """Every name a module defines or uses: classes, functions, arguments, variables, attributes."""
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.append(node.name)
        elif isinstance(node, ast.arg):
            found.append(node.arg)
        elif isinstance(node, ast.Name):
            found.append(node.id)
        elif isinstance(node, ast.Attribute):
            found.append(node.attr)
        elif isinstance(node, ast.alias):
            found.append(node.asname or node.name)
        elif isinstance(node, ast.keyword) and node.arg:
            found.append(node.arg)
    return found


def _flight_names(text: str) -> tuple[set[str], re.Match[str] | None]:
    """What a module's source names of a flight: its identifiers containing "flight" or "muted",
    and the first SQL on the flights' own tables."""
    named = {n for n in _identifiers(ast.parse(text)) if "flight" in n.lower() or "muted" in n.lower()}
    return named, FLIGHT_TABLES.search(text)


def test_the_platform_storage_keeps_no_flight() -> None:
    # Space Alert's flights (records, CRUD, their unit of work, muted members, journal, their SQL),
    # logbook and what-if comparisons live in bot/games/space_alert: the platform's storage must
    # not grow them back, neither as a name (load_flight, FlightRecord, a Dialect's muted_json, a
    # comparison's flight_id, a server's flights count) nor as SQL on the flights' tables.
    paths = sorted(Path("bot/platform/storage").rglob("*.py"))
    assert paths
    for path in paths:
        named, sql = _flight_names(path.read_text(encoding="utf-8"))
        assert not sql, (path, sql)
        assert not named, (path, sorted(named))


def test_the_flight_guard_would_catch_a_flight_coming_back() -> None:
    # the guard above is only worth something if it sees what it forbids: each of these, written
    # in a platform storage module, fails it
    caught = {
        "class FlightRecord: ...": {"FlightRecord"},
        "async def load_flight(tx, key): return tx.muted_json": {"load_flight", "muted_json"},
        # what the platform named before the comparisons moved and the server count was renamed
        "class Comparison:\n    flight_id: str": {"flight_id"},
        "async def comparisons(self, flight_id: str): ...": {"flight_id"},
        "def doc(s):\n    return s.flights": {"flights"},
        "PublicServer(1, None, None, flights=2, last_flown=None)": {"flights"},
        "from bot.games.space_alert.mission.storage import Flights": {"Flights"},
    }
    for source, names in caught.items():
        named, _sql = _flight_names(source)
        assert names <= named, (source, named)
    assert _flight_names('await tx.run("UPDATE flights SET version = ?", ())')[1]
    assert _flight_names('SQL = "SELECT user_id FROM flight_muted WHERE flight_id = ?"')[1]
    # ...and it lets the platform's own names and a game's columns inside SQL text be
    named, sql = _flight_names(
        "class PublicServer:\n    games: int\nasync def f(self, key):\n"
        '    return await self._fetch("SELECT t.flights FROM guild_totals t; SELECT flight_id FROM outbox")'
    )
    assert not named and not sql, (named, sql)
