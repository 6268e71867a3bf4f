"""The platform's table (bot/platform/tables.py): seats by member id, the lobby as one unit of work
per press (no lost join when members press at once), the permission check before the game's
handler, a polite answer for an ended game, and button and select ids that never route twice."""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.platform import permissions, tables
from bot.platform.permissions import Who, declare
from bot.platform.sessions import GameSession
from bot.platform.storage import SqliteStorage
from bot.platform.tables import TABLE, TableRules

RULES = TableRules("tabletest", min_players=2, max_players=3)
HOST, ANN, BOB, CID = 10_000_000_000_000_001, 10_000_000_000_000_002, 10_000_000_000_000_003, 77


@dataclass
class Game:
    rules: TableRules = RULES
    lobby: list[tuple[str, list[int]]] = field(default_factory=list)
    presses: list[tuple[str, str, list[str]]] = field(default_factory=list)

    def begin(self, session: GameSession) -> str | None:
        session.state["begun"] = True
        return None

    async def on_lobby(self, interaction: Any, session: GameSession, action: str) -> None:
        self.lobby.append((action, list(session.state["seats"])))
        await interaction.response.send_message("ok")

    async def on_press(self, interaction: Any, session: GameSession, action: str, arg: str, values: list[str]) -> None:
        self.presses.append((action, arg, values))
        await interaction.response.send_message("moved")


class Response:
    def __init__(self) -> None:
        self.sent: list[tuple[str, bool]] = []

    def is_done(self) -> bool:
        return bool(self.sent)

    async def send_message(self, text: str, *, ephemeral: bool = False, **_: Any) -> None:
        self.sent.append((text, ephemeral))


def interaction(storage: Any, user_id: int, name: str = "Ann") -> Any:
    return SimpleNamespace(
        client=SimpleNamespace(storage=storage),
        user=SimpleNamespace(id=user_id, display_name=name, roles=[]),
        permissions=None,
        channel_id=CID,
        guild_id=1,
        response=Response(),
    )


@pytest.fixture
async def storage(tmp_path: Path) -> Any:
    store = SqliteStorage(tmp_path / "t.sqlite3")
    await store.open()
    yield store
    await store.close()


@pytest.fixture
def game() -> Any:
    """A test game, declared and served for the test only (the permission table test lists every
    real game's actions and must not meet this one)."""
    declare(
        "tabletest",
        {"join": Who.ANYONE, "leave": Who.SEATED, "begin": Who.HOST, "cancel": Who.HOST, "move": Who.SEATED},
    )
    found = Game()
    tables.serve("tabletest", lambda: found)
    yield found
    permissions.RULES.games.pop("tabletest", None)
    tables._GAMES.pop("tabletest", None)


def test_seats_by_member_id_and_names_never_ping() -> None:
    doc = tables.new_table(HOST, "Host", "en")
    assert tables.join(doc, RULES, ANN, "@everyone <@1>") is None
    assert tables.join(doc, RULES, ANN, "Ann again") == "already_seated"
    assert tables.join(doc, RULES, BOB, "Ann") is None  # two "Ann"s are two seats
    assert tables.join(doc, RULES, 5, "Eve") == "full"
    assert doc["seats"] == [HOST, ANN, BOB]
    assert "@everyone" not in tables.name_of(doc, 1) and "<@1>" not in tables.name_of(doc, 1)
    assert tables.leave(doc, HOST) == "host_stays" and tables.leave(doc, 5) == "not_seated"
    assert tables.leave(doc, ANN) is None and tables.ready(doc, RULES) is None
    assert tables.leave(doc, BOB) is None and tables.ready(doc, RULES) == "too_few"


def test_button_and_select_ids_route_to_exactly_one_item() -> None:
    pressed = tables.button("tabletest", "AbCdEf123456", "move", "n.3", label="Go").custom_id
    chosen = tables.select("tabletest", "AbCdEf123456", "pick_card", [("c1", "Card")], placeholder="p").custom_id
    button_re = re.compile(tables.TableButton.__discord_ui_compiled_template__.pattern)
    select_re = re.compile(tables.TableSelect.__discord_ui_compiled_template__.pattern)
    assert button_re.fullmatch(pressed) and not select_re.fullmatch(pressed)
    assert select_re.fullmatch(chosen) and not button_re.fullmatch(chosen)
    view = tables.lobby_view("tabletest", "AbCdEf123456", "sk")
    assert len(set(view.custom_ids())) == 4 and all(len(i) <= 100 for i in view.custom_ids())


async def test_simultaneous_joins_all_land(storage: Any, game: Game) -> None:
    session = await storage.open_session("tabletest", 1, CID, HOST, tables.new_table(HOST, "Host", "en"))
    big = TableRules("tabletest", 2, 6)
    game.rules = big
    custom_id = TABLE.make("tabletest", session.id, "join", "-")
    clicks = [interaction(storage, 100 + i, f"P{i}") for i in range(5)]
    await asyncio.gather(*(tables._route(c, custom_id, []) for c in clicks))
    stored = await storage.load_session(session.id)
    assert sorted(stored.state["seats"]) == sorted([HOST, *(100 + i for i in range(5))])
    assert all(c.response.sent for c in clicks)  # every press answered


async def test_lobby_begin_is_the_hosts_and_runs_the_games_begin(storage: Any, game: Game) -> None:
    session = await storage.open_session("tabletest", 1, CID, HOST, tables.new_table(HOST, "Host", "en"))
    begin = TABLE.make("tabletest", session.id, "begin", "-")
    early = interaction(storage, HOST)
    await tables._route(early, begin, [])
    assert early.response.sent == [("Not enough players to begin yet.", True)]
    await tables._route(interaction(storage, ANN), TABLE.make("tabletest", session.id, "join", "-"), [])
    stranger = interaction(storage, BOB)
    await tables._route(stranger, begin, [])
    assert stranger.response.sent[0][1] is True and (await storage.load_session(session.id)).status == "lobby"
    await tables._route(interaction(storage, HOST), begin, [])
    stored = await storage.load_session(session.id)
    assert stored.status == "running" and stored.state["begun"] is True
    assert game.lobby[-1] == ("begin", [HOST, ANN])


async def test_moves_reach_the_game_only_from_seats_and_never_after_the_end(storage: Any, game: Game) -> None:
    session = await storage.open_session("tabletest", 1, CID, HOST, tables.new_table(HOST, "Host", "cs"))
    move = TABLE.make("tabletest", session.id, "move", "n.3")
    stranger = interaction(storage, BOB)
    await tables._route(stranger, move, [])
    assert game.presses == [] and stranger.response.sent[0][1] is True
    await tables._route(interaction(storage, HOST), move, [])
    assert game.presses == [("move", "n.3", [])]

    def end(s: GameSession) -> bool:
        s.status = "finished"
        return True

    await storage.change_session(session.id, end)
    late = interaction(storage, HOST)
    await tables._route(late, move, [])
    assert late.response.sent == [("Tato hra skončila, její tlačítka už nic nedělají.", True)]
    unknown = interaction(storage, HOST)
    await tables._route(unknown, TABLE.make("tabletest", "NoSuchSession1", "move", "-"), [])
    assert unknown.response.sent and game.presses == [("move", "n.3", [])]


def test_a_discord_select_is_built_within_limits() -> None:
    options = [(f"v{i}", "x" * 200) for i in range(40)]
    item = tables.select("tabletest", "AbCdEf123456", "pick_card", options, placeholder="p" * 300)
    inner: Any = item.item
    assert isinstance(inner, discord.ui.Select) and len(inner.options) == 25
    assert all(len(o.label) <= 100 for o in inner.options) and len(inner.placeholder or "") <= 150


async def test_a_forged_action_is_refused_not_an_error(storage: Any, game: Game) -> None:
    session = await storage.open_session("tabletest", 1, CID, HOST, tables.new_table(HOST, "Host", "en"))
    forged = interaction(storage, HOST)
    await tables._route(forged, TABLE.make("tabletest", session.id, "zzz", "-"), [])
    assert forged.response.sent == [("This button is not available right now.", True)] and game.presses == []
