"""Star World: Escape's announcements in voice (issue 27: each hour and each general event, in voice
when the players sit in a voice channel; we add the reactor's shutdown with its gravity-off and
alarm, a taken control center's alarm, the end, and whose move it is), spoken through the
platform's `say_now` where the crew sits; nothing secret is ever said."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import pytest

from bot.games.escape import _cog, _doc
from bot.games.escape._render import SPOKEN, event_lines, spoken_lines, turn_line
from bot.platform.i18n import t
from bot.platform.sessions import GameSession
from engine.escape.policy import actor, greedy
from engine.escape.rules import Command
from tests.escape.test_adapter import ALICE, BOB, CAROL, LANGS, game, mission_words


def prefix(lang: str, key: str) -> str:
    return t(lang, key).split("{")[0]


@pytest.mark.parametrize("lang", LANGS)
def test_the_spoken_lines_are_the_hours_and_events_of_the_public_log(lang: str) -> None:
    doc = game(3, lang=lang, seed=11)
    rng = random.Random(5)
    spoken: list[str] = []
    public: list[str] = []
    for _ in range(3000):
        state = _doc.state_of(doc)
        if state.over:
            break
        step = _doc.act(doc, doc["seats"][actor(state)], greedy(state, rng))
        assert isinstance(step, _doc.Step)
        said = spoken_lines(lang, doc, step.events)
        lines = event_lines(lang, doc, step.events)
        assert set(said) <= set(lines)  # only what the station post already reads
        spoken += said
        public += lines
    secret = mission_words(lang)
    assert not [line for line in spoken if any(word in line for word in secret)]
    state = _doc.state_of(doc)
    for hour in range(1, state.hour + 1):  # every hour is announced
        assert t(lang, "escape.event.hour", hour=hour, left=state.limit - hour) in spoken
    assert any(line.startswith(prefix(lang, "escape.event.general_event")) for line in spoken)
    assert 0 < len(spoken) < len(public) / 3  # announcements, not the whole log


def test_the_reactor_shutdown_and_the_alarm_are_announced() -> None:
    assert {"reactor_shut_down", "center_taken", "general_event_due", "station_stormed"} <= SPOKEN
    assert "trap" not in SPOKEN and "turn_started" not in SPOKEN  # a seat's own business stays in text


@pytest.mark.parametrize("lang", LANGS)
def test_the_turn_line_names_the_seat_and_nothing_private(lang: str) -> None:
    doc = game(3, lang=lang)
    line = turn_line(doc, 1)
    assert "Bob" in line and "<@" not in line and "escape." not in line and "{" not in line
    assert turn_line(doc, 7) == ""


class Voice:
    def __init__(self, answer: str | None = None, broken: bool = False) -> None:
        self.said: list[tuple[int, int, list[str], str]] = []
        self.answer, self.broken = answer, broken

    async def say_now(self, guild_id: int, channel_id: int, lines: list[str], lang: str) -> str | None:
        if self.broken:
            raise RuntimeError("voice fell over")
        self.said.append((guild_id, channel_id, list(lines), lang))
        return self.answer


class Store:
    """The session store's contract, in memory: a change applies to a copy and bumps the version."""

    def __init__(self, session: GameSession) -> None:
        self.session = session

    async def load_session(self, session_id: str) -> GameSession | None:
        return copy.deepcopy(self.session)

    async def change_session(self, session_id: str, change: Callable[[GameSession], bool]) -> GameSession | None:
        work = copy.deepcopy(self.session)
        if change(work):
            work.version += 1
            self.session = work
        return copy.deepcopy(self.session)


class Channel:
    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send(self, text: str, **_: Any) -> None:
        self.sent.append(text)


def bot(voice: Voice, in_voice: dict[int, int], store: Store | None = None) -> Any:
    def member(member_id: int) -> Any:
        channel = SimpleNamespace(id=in_voice[member_id]) if member_id in in_voice else None
        return SimpleNamespace(id=member_id, voice=SimpleNamespace(channel=channel) if channel else None)

    guild = SimpleNamespace(get_member=member)
    return SimpleNamespace(
        voice=voice, storage=store, get_guild=lambda guild_id: guild if guild_id == 1 else None, application_id=9
    )


def session(lang: str = "cs") -> GameSession:
    doc = game(3, lang=lang)
    return GameSession("sid123456789", "escape", 1, 2, ALICE, "running", doc)


async def test_the_voice_channel_of_the_first_seat_in_voice_hears_the_lines() -> None:
    voice = Voice()
    cog = _cog.EscapeCog(bot(voice, {CAROL: 55, BOB: 66}))  # the host is not in voice
    await cog._say(session(), ["Hodina 3", ""])
    assert voice.said == [(1, 66, ["Hodina 3"], "cs")]  # seat order: Bob before Carol
    voice = Voice()
    await _cog.EscapeCog(bot(voice, {CAROL: 55, ALICE: 77}))._say(session(), ["Hodina 3"])
    assert voice.said == [(1, 77, ["Hodina 3"], "cs")]  # the host first


async def test_nobody_in_voice_or_voice_failing_leaves_the_game_in_text() -> None:
    voice = Voice()
    await _cog.EscapeCog(bot(voice, {}))._say(session(), ["Hodina 3"])
    assert voice.said == []
    await _cog.EscapeCog(bot(Voice(broken=True), {ALICE: 55}))._say(session(), ["Hodina 3"])  # no exception
    busy = Voice(answer="busy")
    await _cog.EscapeCog(bot(busy, {ALICE: 55}))._say(session(), ["Hodina 3"])
    assert busy.said == [(1, 55, ["Hodina 3"], "cs")]
    await _cog.EscapeCog(SimpleNamespace(get_guild=lambda _: None))._say(session(), ["x"])  # no voice at all


class Response:
    def __init__(self) -> None:
        self.edits: list[dict[str, Any]] = []

    async def edit_message(self, **fields: Any) -> None:
        self.edits.append(fields)

    async def send_message(self, *args: Any, **fields: Any) -> None:
        self.edits.append({"content": args[0] if args else None, **fields})


def click(member_id: int, channel: Channel) -> Any:
    return SimpleNamespace(
        user=SimpleNamespace(id=member_id),
        response=Response(),
        channel=channel,
        channel_id=2,
        guild_id=1,
        token=f"token-{member_id}",
    )


async def test_ending_the_last_turn_of_an_hour_says_the_hour_and_who_moves_next() -> None:
    game_session = session("en")
    store = Store(game_session)
    voice = Voice()
    cog = _cog.EscapeCog(bot(voice, {BOB: 55}, store))
    for _ in range(3):  # a round of three turns ends the first hour
        doc = store.session.state
        mover = doc["seats"][actor(_doc.state_of(doc))]
        await cog.play(click(mover, Channel()), game_session.id, Command("end_turn", -1))
    assert len(voice.said) == 3 and all(channel == 55 for _, channel, _, _ in voice.said)
    last = voice.said[-1][2]
    state = _doc.state_of(store.session.state)
    assert last[0] == t("en", "escape.event.hour", hour=1, left=state.limit - 1)
    assert last[-1] == turn_line(store.session.state, actor(state))
