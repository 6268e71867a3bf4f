"""The /elite director in a channel, on fakes: wizard, one status message, buttons, timer, peek.

The cog is driven directly (no gateway): interactions, the channel and the status message are
small recording fakes; the timer task runs on a manual clock whose `sleep` moves time.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest.mock import MagicMock

import discord
import pytest

from bot.games.elite._cog import CausePicker, CellPicker, ControlView, EliteCog, HeroPicker, parse_in_range
from bot.games.elite.storage import EliteStore
from bot.platform.storage import SqliteStorage
from engine.common.clock import ManualClock


def no_pings(kw: dict[str, Any]) -> bool:
    mentions = kw.get("allowed_mentions")
    return mentions is not None and mentions.to_dict() == discord.AllowedMentions.none().to_dict()


_MESSAGE_IDS = itertools.count(9000)


@dataclass
class Msg:
    content: str
    view: Any = None
    edits: list[str] = field(default_factory=list)
    guild: Any = None
    id: int = field(default_factory=lambda: next(_MESSAGE_IDS))  # the status edits the outbox sends target it

    async def edit(self, content: str | None = None, view: Any = discord.utils.MISSING, **kw: Any) -> None:
        if content is not None:
            self.content = content
            self.edits.append(content)
        if view is not discord.utils.MISSING:
            self.view = view
        assert no_pings(kw)


def make_channel() -> Any:
    channel = MagicMock(spec=discord.TextChannel)
    channel.id = 555
    channel.posted = []

    async def send(content: str, **kw: Any) -> Msg:
        assert no_pings(kw)  # user text never pings
        msg = Msg(content, kw.get("view"), guild=SimpleNamespace(id=42))
        channel.posted.append(msg)
        return msg

    channel.send = send

    def get_partial_message(message_id: int) -> Msg:  # a message posted here, by its id
        return next(m for m in channel.posted if m.id == message_id)

    channel.get_partial_message = get_partial_message
    return channel


class Response:
    def __init__(self, target: Msg | None = None) -> None:
        self.calls: list[tuple[str, str | None, dict[str, Any]]] = []
        self.target = target

    def is_done(self) -> bool:
        return bool(self.calls)

    async def _answer(self, kind: str, content: str | None, kw: dict[str, Any]) -> None:
        assert not self.calls, "an interaction is answered once"
        self.calls.append((kind, content, kw))

    async def send_message(self, content: str | None = None, **kw: Any) -> None:
        await self._answer("send", content, kw)

    async def defer(self, **kw: Any) -> None:
        await self._answer("defer", None, kw)

    async def edit_message(self, content: str | None = None, **kw: Any) -> None:
        await self._answer("edit", content, kw)
        if self.target is not None:  # a component's answer edits the message it sits on
            await self.target.edit(content=content, **kw)


class Followup:
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, content: str, **kw: Any) -> None:
        self.sent.append(content)


def ix(channel: Any, user: int = 1, on: Msg | None = None, *, admin: bool = False) -> Any:
    return SimpleNamespace(
        permissions=SimpleNamespace(manage_guild=admin),
        user=SimpleNamespace(id=user, voice=None),
        channel=channel,
        channel_id=channel.id,
        guild_id=42,
        response=Response(on),
        followup=Followup(),
    )


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[SqliteStorage]:
    store = SqliteStorage(tmp_path / "sa.sqlite3")
    await store.open()
    yield store
    await store.close()


# Presses in flight.  A press is a unit of work on the database, which takes real time; the
# timer task's fake sleep below moves the shared test clock, so while a press waits for the
# database the game clock stands still (a press is one instant, as it is for the players).
PRESSING = [0]


def new_cog(storage: SqliteStorage, clock: ManualClock) -> EliteCog:
    cog = EliteCog(SimpleNamespace(settings=SimpleNamespace(default_language="en"), storage=storage))
    cog.clock = clock
    cog.use_voice = False

    async def sleep(dt: float) -> None:
        if not PRESSING[0]:
            clock.advance(max(0.0, dt))
        await asyncio.sleep(0)

    cog.sleep = sleep
    return cog


@pytest.fixture
def rig(storage: SqliteStorage) -> tuple[EliteCog, Any, ManualClock, SqliteStorage]:
    clock = ManualClock(1000.0)
    return new_cog(storage, clock), make_channel(), clock, storage


async def start_game(cog: EliteCog, channel: Any, mission: str = "exploration", players: int = 2) -> Msg:
    first = ix(channel)
    await cog.start.callback(cog, first, map="crash_site", mission=mission, difficulty="easy", players=players)
    kind, _, kw = first.response.calls[0]
    assert kind == "send" and kw["ephemeral"] and isinstance(kw["view"], HeroPicker)
    picker: HeroPicker = kw["view"]
    picker.select._values = ["kara", "gerid", "voker"][: max(2, players)]
    pick = ix(channel)
    await picker._picked(pick)
    assert pick.response.calls[0][0] == "edit"
    setup, status = channel.posted[-2:]
    assert "Objective cells:" in setup.content
    assert isinstance(status.view, ControlView)
    return status


async def press(cog: EliteCog, channel: Any, action: str, user: int = 1) -> Any:
    status = cog.status_messages.get(channel.id)
    inter = ix(channel, user, on=status)
    PRESSING[0] += 1
    try:
        await cog.on_button(inter, channel.id, action)
    finally:
        PRESSING[0] -= 1
    return inter


async def test_a_game_through_the_buttons_with_the_timer(rig: Any) -> None:
    cog, channel, clock, storage = rig
    status = await start_game(cog, channel)
    # Event, Spawn, Action: each Next edits the one status message in place.
    for _ in range(3):
        answer = await press(cog, channel, "next")
        assert answer.response.calls[0][0] == "edit"
    session = cog.sessions[channel.id]
    assert session.game.phase == "action"
    assert "Draw 2 Swarm Spawn cards." in session.log
    await press(cog, channel, "start")
    task = cog.tasks[channel.id]
    await asyncio.sleep(0)
    while clock() < 1030.5:
        await asyncio.sleep(0)
    await press(cog, channel, "pause")
    frozen = session.game.timer.remaining()  # type: ignore[union-attr]
    for _ in range(20):
        await asyncio.sleep(0)
    assert session.game.timer.remaining() == frozen  # type: ignore[union-attr]
    await press(cog, channel, "pause")  # resume
    await press(cog, channel, "plus")
    await asyncio.wait_for(task, timeout=5)
    assert session.game.timer.state == "times_up"  # type: ignore[union-attr]
    assert any("Time's up!" in e for e in status.edits)
    assert any("⏱ 1:00 (running)" in e for e in status.edits)  # the status is refreshed at each mark
    assert any("Timer paused" in e for e in status.edits)
    await press(cog, channel, "next")  # activation
    await press(cog, channel, "next")  # end of round
    await press(cog, channel, "victory")
    assert session.game.result == "victory"
    assert status.view is None  # the buttons go with the game
    (row,) = await EliteStore(storage).rows(42)
    assert row["game"] == "elite" and row["result"] == "victory" and row["rounds"] == 1
    assert await EliteStore(storage).games() == []  # the game in progress ended with its row
    late = await press(cog, channel, "next")
    assert late.response.calls[0][2]["ephemeral"]


async def test_wrong_step_answers_privately(rig: Any) -> None:
    cog, channel, _, _ = rig
    await start_game(cog, channel)
    answer = await press(cog, channel, "start")
    kind, content, kw = answer.response.calls[0]
    assert kind == "send" and kw["ephemeral"] and "Action Phase" in content
    answer = await press(cog, channel, "victory")
    assert answer.response.calls[0][2]["ephemeral"]
    again = ix(channel)
    await cog.start.callback(cog, again, map="crash_site", mission="recon", difficulty="easy", players=2)
    assert "already running" in again.response.calls[0][1]


async def test_a_peek_goes_only_to_the_peeker_and_a_reveal_to_everyone(rig: Any) -> None:
    cog, channel, _, _ = rig
    status = await start_game(cog, channel, mission="exploration")
    before = len(channel.posted)
    answer = await press(cog, channel, "peek", user=7)
    kind, _, kw = answer.response.calls[0]
    assert kind == "send" and kw["ephemeral"] and isinstance(kw["view"], CellPicker)
    picker: CellPicker = kw["view"]
    cell = int(picker.select.options[0].value)
    picker.select._values = [str(cell)]
    pick = ix(channel, user=7)
    await picker._picked(pick)
    private = pick.response.calls[0][1]
    game = cog.sessions[channel.id].game
    kind_name = game.exploration._tokens[cell].kind  # type: ignore[union-attr]
    assert private is not None and private.startswith(f"Cell {cell}: ")
    assert len(channel.posted) == before  # nothing public
    assert all(private not in e for e in status.edits)
    assert game.exploration.viewers(cell) == (7,)  # type: ignore[union-attr]
    # Reveal posts publicly.
    answer = await press(cog, channel, "reveal")
    picker = answer.response.calls[0][2]["view"]
    picker.select._values = [str(cell)]
    await picker._picked(ix(channel))
    assert len(channel.posted) == before + 1 and channel.posted[-1].content.startswith(f"Cell {cell}:")
    game = cog.sessions[channel.id].game  # the game as stored after the reveal
    assert (
        kind_name in game.exploration.public_view()[[t.cell for t in game.exploration.public_view()].index(cell)].kind
    )  # type: ignore[union-attr,operator]


async def test_defeat_asks_the_cause_and_logs_it(rig: Any) -> None:
    cog, channel, _, storage = rig
    await start_game(cog, channel, mission="recon", players=3)
    answer = await press(cog, channel, "defeat")
    picker: CausePicker = answer.response.calls[0][2]["view"]
    picker.select._values = ["hero_died"]
    await picker._picked(ix(channel))
    (row,) = await EliteStore(storage).rows(42)
    assert (row["result"], row["cause"], row["players"]) == ("defeat", "hero_died", 3)


async def test_roll_helper(rig: Any) -> None:
    cog, channel, _, _ = rig
    await start_game(cog, channel, mission="recon")
    await press(cog, channel, "next")
    await press(cog, channel, "next")
    inter = ix(channel)
    await cog.roll.callback(cog, inter, alien="shooter", in_range="kara 2, gerid", hit_value=4)
    content = inter.response.calls[0][1]
    assert content.startswith("**Shooter**") and "Kara: 🎲" in content and "Gerid: 🎲" in content
    bad = ix(channel)
    await cog.roll.callback(cog, bad, alien="shooter", in_range="kara 2", hit_value=None)
    assert bad.response.calls[0][2]["ephemeral"] and "No stored values for Shooter" in bad.response.calls[0][1]


def test_parse_in_range() -> None:
    assert parse_in_range("Akosha 2, gerid") == {"akosha": 2, "gerid": 1}
    for bad in ("", "bob 1", "kara 99"):
        with pytest.raises(ValueError):
            parse_in_range(bad)


async def test_pack_upload_validates_and_new_games_use_it(rig: Any) -> None:
    cog, channel, _, _ = rig

    def attachment(data: bytes) -> Any:
        att = MagicMock(spec=discord.Attachment)
        att.size = len(data)

        async def read() -> bytes:
            return data

        att.read = read
        return att

    member = ix(channel)  # no Manage Server: refused in code too (Discord may still show it)
    await cog.pack.callback(cog, member, attachment(b'{"swarm_spawn": []}'))
    assert "needs the Manage Server permission" in member.response.calls[0][1]
    assert member.response.calls[0][2]["ephemeral"] and await cog.pack_of(42) is None
    bad = ix(channel, admin=True)
    await cog.pack.callback(cog, bad, attachment(b'{"events": [{"number": 99}]}'))
    assert "events[0].number" in bad.response.calls[0][1]
    good = ix(channel, admin=True)
    await cog.pack.callback(cog, good, attachment(b'{"swarm_spawn": [{"type": "hound", "count": 2, "cluster": 3}]}'))
    assert "1 swarm spawn cards" in good.response.calls[0][1]
    await start_game(cog, channel, mission="recon")
    await press(cog, channel, "next")
    await press(cog, channel, "next")
    assert "Hound ×2 at cluster 3." in cog.sessions[channel.id].log


async def test_a_russian_game_speaks_russian(rig: Any) -> None:
    cog, channel, _, _ = rig
    first = ix(channel)
    await cog.start.callback(
        cog, first, map="abandoned_lab", mission="exploration", difficulty="hard", players=1, language="ru"
    )
    assert first.response.calls[0][1] == "Выберите Героев: 2."
    picker: HeroPicker = first.response.calls[0][2]["view"]
    picker.select._values = ["akosha", "kinje"]
    await picker._picked(ix(channel))
    setup, status = channel.posted[-2:]
    assert setup.content.startswith("Заброшенная Лаборатория · Исследование · Сложный · Акоша, Кинже")
    labels = [item.item.label for item in status.view.children]
    assert labels[:2] == ["Дальше ▶", "Старт ⏱"]
    await press(cog, channel, "next")
    assert "Раунд 1 из 8." in cog.sessions[channel.id].log
    assert "Колода Боссов: 20/20" in cog.sessions[channel.id].status()


async def test_checklists_are_posted_but_not_spoken(rig: Any) -> None:
    cog, channel, _, _ = rig
    await start_game(cog, channel, mission="recon")
    session = cog.sessions[channel.id]
    for _ in range(3):
        session.step()
    session.game.activate(force=True)
    spoken = session.step()
    assert spoken == ["End of Round"]
    assert session.log[-1].startswith("1. Victory?")


async def test_status_buttons_are_routed_by_custom_id_even_after_a_restart(rig: Any) -> None:
    import re

    from discord.ext import commands

    from bot.games.elite._cog import EliteButton

    cog, channel, _, _ = rig
    status = await start_game(cog, channel, mission="recon")
    button = next(i for i in status.view.children if i.custom_id == f"elite:next:{channel.id}:0")  # no move yet
    match = re.fullmatch(EliteButton.__discord_ui_compiled_template__, button.custom_id)
    assert match is not None
    rebuilt = await EliteButton.from_custom_id(ix(channel), button.item, match)
    assert rebuilt.item.label == "Next ▶" and rebuilt.move == 0
    inter = ix(channel, on=status)
    inter.client = MagicMock(spec=commands.Bot)
    inter.client.get_cog.return_value = cog
    await rebuilt.callback(inter)
    assert cog.sessions[channel.id].game.phase == "event"
    assert f"elite:next:{channel.id}:1" in status.view.custom_ids()  # the answer drew the buttons afresh
    # The same id again (a double click, or a restart's routing of it) does not move the game on.
    again = ix(channel, on=status)
    again.client = inter.client
    await rebuilt.callback(again)
    assert again.response.calls[0][1].startswith("Already done") and again.response.calls[0][2]["ephemeral"]
    assert cog.sessions[channel.id].game.phase == "event"
    # An id without the move count (a status message posted before ids carried it) still steps.
    legacy = re.fullmatch(EliteButton.__discord_ui_compiled_template__, f"elite:next:{channel.id}")
    assert legacy is not None
    old = await EliteButton.from_custom_id(ix(channel), button.item, legacy)
    assert old.move is None and old.custom_id == f"elite:next:{channel.id}"
    pressed = ix(channel, on=status)
    pressed.client = inter.client
    await old.callback(pressed)
    assert pressed.response.calls[0][0] == "edit" and cog.sessions[channel.id].game.phase == "spawn"
    # After a restart the game is gone: the click still gets an answer.
    fresh = EliteCog(SimpleNamespace(settings=SimpleNamespace(default_language="en"), storage=None))
    late = ix(channel)
    late.client = MagicMock(spec=commands.Bot)
    late.client.get_cog.return_value = fresh
    await rebuilt.callback(late)
    assert late.response.calls[0][1] == "No game is running here." and late.response.calls[0][2]["ephemeral"]
    unloaded = ix(channel)
    unloaded.client = MagicMock(spec=commands.Bot)
    unloaded.client.get_cog.return_value = None
    await rebuilt.callback(unloaded)
    assert unloaded.response.calls[0][2]["ephemeral"]


async def test_the_status_stays_under_discords_limit_with_long_pack_texts(rig: Any) -> None:
    from bot.games.elite._session import MAX_STATUS_CHARS

    cog, channel, _, _ = rig
    await start_game(cog, channel, mission="recon")
    session = cog.sessions[channel.id]
    session.log.extend(["x" * 900] * 5)
    status = session.status()
    assert len(status) <= MAX_STATUS_CHARS and status.startswith("**Project: ELITE")


async def test_roll_moves_damage_tracks_from_the_pack_and_a_death_ends_the_game(rig: Any) -> None:
    from engine.elite.datapack import load_pack

    cog, channel, _, storage = rig
    cog.packs[42] = load_pack(
        {
            "heroes": [{"hero": "kara", "length": 3, "thresholds": [1]}],
            "swarm": [{"type": "tapeworm", "movement": 1, "ability": {"fixed_damage": 1}}],
        }
    )
    await start_game(cog, channel, mission="recon")
    await press(cog, channel, "next")
    await press(cog, channel, "next")
    first = ix(channel)
    await cog.roll.callback(cog, first, alien="tapeworm", in_range="kara", hit_value=None)
    assert "Kara: 🎲 — → 1 damage; crosses a threshold: lock 1 Action die" in first.response.calls[0][1]
    second = ix(channel)
    await cog.roll.callback(cog, second, alien="tapeworm", in_range="kara 2", hit_value=None)
    assert "is killed: the game is lost" in second.response.calls[0][1]
    game = cog.sessions[channel.id].game
    assert (game.result, game.cause) == ("defeat", "hero_died")
    assert (await EliteStore(storage).rows(42))[0]["cause"] == "hero_died"
    assert cog.status_messages[channel.id].view is None


async def test_board_shows_wins_and_fewest_rounds(rig: Any) -> None:
    cog, channel, _, _ = rig
    empty = ix(channel)
    await cog.board.callback(cog, empty)
    assert empty.response.calls[0][1] == "No ELITE game finished here yet."
    await start_game(cog, channel, mission="recon")
    for _ in range(3):
        await press(cog, channel, "next")
    await press(cog, channel, "start")
    await asyncio.wait_for(cog.tasks[channel.id], timeout=5)  # the test's sleep moves the clock: time's up
    for _ in range(2):  # activation, end of round
        await press(cog, channel, "next")
    await press(cog, channel, "victory")
    board = ix(channel)
    await cog.board.callback(cog, board, language="ru")
    content = board.response.calls[0][1]
    assert "Игр: 1" in content and "Легкий 1" in content and "Разведка 1" in content


async def test_a_restart_resumes_the_game_from_storage(rig: Any) -> None:
    from engine.elite.datapack import load_pack

    cog, channel, clock, storage = rig
    pack = {"name": "ours", "heroes": [{"hero": "kara", "length": 5, "thresholds": [2]}]}
    cog.packs[42] = load_pack(pack)
    await EliteStore(storage).save_pack(42, pack, 1)
    await start_game(cog, channel, mission="exploration")
    for _ in range(3):
        await press(cog, channel, "next")
    await press(cog, channel, "start")
    task = cog.tasks[channel.id]
    while clock() < 1045.0:  # past the 1:30 call, which is stored
        await asyncio.sleep(0)
    peek = await press(cog, channel, "peek", user=1)
    picker: CellPicker = peek.response.calls[0][2]["view"]
    cell = int(picker.select.options[0].value)
    picker.select._values = [str(cell)]
    await picker._picked(ix(channel, user=1))
    roll = ix(channel)
    await cog.roll.callback(cog, roll, alien="tapeworm", in_range="kara", hit_value=4)
    before = cog.sessions[channel.id]
    remaining = before.game.timer.remaining()  # type: ignore[union-attr]
    await cog.cog_unload()  # the process stops here (a clean stop pauses the timer and stores it)
    await asyncio.sleep(0)
    assert task.done()

    clock.advance(600)  # ten minutes of downtime
    again = new_cog(storage, clock)
    await again.cog_load()
    after = again.sessions[channel.id]
    game, old = after.game, before.game
    assert (game.round, game.phase, game.timer.state) == (old.round, "action", "paused")  # type: ignore[union-attr]
    assert game.timer.remaining() == pytest.approx(remaining)  # type: ignore[union-attr]
    assert game.hero_damage == old.hero_damage and len(game.boss_deck) == len(old.boss_deck)
    assert [t.state for t in game.exploration.public_view()] == [  # type: ignore[union-attr]
        t.state
        for t in old.exploration.public_view()  # type: ignore[union-attr]
    ]
    assert game.pack is not None and game.pack.name == "ours"
    (stored,) = await EliteStore(storage).games()
    assert stored.state["actions"][-1][1:] == ["pause", "restart"] and stored.state["paused_at_restart"]
    assert "actions" in stored.state and "game" in stored.state  # a snapshot, not a journal to replay
    assert after.log == before.log
    await press(again, channel, "pause")  # resume: the timer runs on from where it stopped
    assert after.game.timer.state == "running"  # type: ignore[union-attr]
    assert not (await EliteStore(storage).games())[0].state["paused_at_restart"]
    await press(again, channel, "stop")
    assert await EliteStore(storage).games() == [] and again.tasks.get(channel.id) is None
    for pending in list(again.tasks.values()):
        pending.cancel()


async def test_a_pack_upload_is_stored_for_the_server(rig: Any) -> None:
    cog, channel, clock, storage = rig
    upload = ix(channel, admin=True)
    upload.guild_id, upload.user = 42, SimpleNamespace(id=9)
    file = SimpleNamespace(size=40, read=lambda: _bytes(b'{"name": "mine"}'))
    await cog.pack.callback(cog, upload, file=file)
    assert "Pack loaded" in upload.response.calls[0][1]
    stored = await EliteStore(storage).pack(42)
    assert stored is not None and stored["name"] == "mine"
    fresh = new_cog(storage, clock)
    assert (await fresh.pack_of(42)).name == "mine"  # type: ignore[union-attr]


async def _bytes(data: bytes) -> bytes:
    return data


async def test_a_director_faster_than_the_voice_join_still_gets_the_music(
    rig: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Start pressed before voice had joined (seen against fakecord): the music bed stayed off
    until the timer's next call, because only a button press turned it on."""
    cog, channel, _clock, _storage = rig
    joined = asyncio.Event()
    entered = asyncio.Event()
    music: list[bool] = []

    class SlowVoice:
        channel_id = 7

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            pass

        async def connect(self, member: Any) -> None:
            entered.set()
            await joined.wait()

        async def prepare(self, lines: Any) -> None:
            return None

        async def say(self, lines: Any, *, interrupt: bool = False) -> None:
            return None

        def music(self, on: bool) -> None:
            music.append(on)

        def plan_calls(self, plan: Any, *, end: Any) -> None:
            return None

        def cancel_calls(self) -> None:
            return None

        def forget_plan(self) -> None:
            return None

        async def close(self) -> None:
            return None

    async def any_speech(guild_id: int) -> object:
        return object()

    monkeypatch.setattr("bot.games.elite._voicelink.EliteVoice", SlowVoice)
    cog.voice.speech = any_speech
    cog.use_voice = True
    never = asyncio.Event()

    async def frozen(dt: float) -> None:  # the timer task waits; this test is about the join
        await never.wait()

    cog.sleep = frozen
    setup = asyncio.create_task(start_game(cog, channel))
    await asyncio.wait_for(entered.wait(), 5)
    for _ in range(3):
        await press(cog, channel, "next")
    await press(cog, channel, "start")
    assert music == []  # no voice yet
    joined.set()
    await asyncio.wait_for(setup, 5)
    assert music and all(music)  # on as soon as voice is there, never off while the timer runs
    cog.tasks[channel.id].cancel()


class LapsedCluster:
    """A cluster whose ELITE leases lapsed with their process: free to take once, then held."""

    def __init__(self, free: bool = True) -> None:
        self.free, self.held, self.watchers = free, set[str](), []

    def owns(self, guild_id: int) -> bool:
        return True

    def holds(self, name: str) -> bool:
        return name in self.held

    async def acquire(self, name: str) -> bool:
        if name in self.held or self.free:
            self.held.add(name)
            return True
        return False

    async def release(self, name: str) -> None:
        self.held.discard(name)

    def watch(self, *, on_lost: Any, on_sweep: Any) -> None:
        self.watchers.append((on_lost, on_sweep))


async def test_the_sweep_takes_up_a_running_clock_whose_process_died(rig: Any) -> None:
    """Several processes over one database: the process running a game's timer dies (no clean
    stop); another process's keeper sweep takes the game up, paused at its last stored instant,
    without waiting for a click.  A game whose lease a live process still renews is left alone."""
    cog, channel, clock, storage = rig
    await start_game(cog, channel)
    for _ in range(3):
        await press(cog, channel, "next")
    await press(cog, channel, "start")
    cog.tasks[channel.id].cancel()  # kill -9: the timer stops, nothing is paused or stored
    await asyncio.sleep(0)

    alive = new_cog(storage, clock)
    alive.bot.cluster = LapsedCluster(free=False)  # the lease is still renewed by a live process
    await alive.sweep()
    assert channel.id not in alive.sessions and not alive.tasks

    other = new_cog(storage, clock)
    other.bot.cluster = LapsedCluster(free=True)
    clock.advance(120)
    await other.sweep()
    session = other.sessions[channel.id]
    assert session.game.timer is not None and session.game.timer.state == "paused"  # the crew resumes it
    assert other.bot.cluster.holds(f"elite-{channel.id}") and channel.id in other.tasks
    (stored,) = await EliteStore(storage).games()
    assert stored.state["actions"][-1][1:] == ["pause", "restart"]
    await other.sweep()  # a second round: already ours, nothing taken twice
    assert (await EliteStore(storage).games())[0].version == stored.version
    await other.lease_lost(f"elite-{channel.id}")  # another process took it: the timer stops here
    await asyncio.sleep(0)
    assert channel.id not in other.tasks
    for pending in list(other.tasks.values()) + list(cog.tasks.values()):
        pending.cancel()
