"""Scarlet Legion's announcements in voice: the bridge's contact, hull damage, supplies exhausted and
new captain lines, and whose move it is, spoken through the platform's `say_now` in the voice
channel where the crew sits; nothing private is ever said."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from bot.games.legion import _cog
from bot.games.legion import _play as play
from bot.platform import tables
from bot.platform.i18n import t
from bot.platform.sessions import GameSession
from tests.legion.test_adapter import CONTENT, choose, lobby


def test_the_spoken_lines_are_public_lines_of_the_announced_kinds() -> None:
    spoken: list[str] = []
    public: list[str] = []
    for seed in range(6):
        doc = lobby(seed=seed)
        assert play.begin(doc, CONTENT) is None
        for _ in range(3000):
            state = play.load(doc, CONTENT)
            if state.winner is not None:
                break
            seat = play.waiting_for(state)[0]
            kind, arg, value = choose(doc, state, seat)
            if kind == "pick_move" and play.needs_card(state, seat, value):
                kind, arg, value = "pick_pay", value, sorted(state.seats[seat].hand)[0]
            command = play.command_of(seat, kind, arg, value)
            assert command is not None
            outcome = play.act(doc, CONTENT, command)
            assert set(outcome.spoken) <= set(outcome.lines)  # only what the table already reads
            spoken += outcome.spoken
            public += outcome.lines
    contact = t("en", "legion.ev.contact").split("{")[0]
    assert any(line.startswith(contact) for line in spoken)
    assert 0 < len(spoken) < len(public)  # announcements, not the whole log


def test_the_turn_line_names_whose_move_it_is_and_nothing_private() -> None:
    doc = lobby()
    play.begin(doc, CONTENT)
    state = play.load(doc, CONTENT)
    line = play.turn_line(doc, state)
    assert tables.name_of(doc, play.waiting_for(state)[0]) in line
    assert t("en", f"legion.phase.{state.phase}") in line
    assert "<@" not in line and "legion." not in line
    assert all(t("en", f"legion.side.{side}") not in line for side in ("crew", "legion"))


class Voice:
    def __init__(self, answer: str | None = None, broken: bool = False) -> None:
        self.said: list[tuple[int, int, list[str], str]] = []
        self.answer, self.broken = answer, broken

    async def say_now(self, guild_id: int, channel_id: int, lines: list[str], lang: str) -> str | None:
        if self.broken:
            raise RuntimeError("voice fell over")
        self.said.append((guild_id, channel_id, list(lines), lang))
        return self.answer


def bot(voice: Voice, in_voice: dict[int, int]) -> Any:
    def member(member_id: int) -> Any:
        channel = SimpleNamespace(id=in_voice[member_id]) if member_id in in_voice else None
        return SimpleNamespace(id=member_id, voice=SimpleNamespace(channel=channel) if channel else None)

    guild = SimpleNamespace(get_member=member)
    return SimpleNamespace(voice=voice, get_guild=lambda guild_id: guild if guild_id == 1 else None)


def session() -> GameSession:
    doc = lobby(lang="cs")
    return GameSession("sid123456789", "legion", 1, 2, doc["seats"][0], "running", doc)


async def test_the_crew_voice_channel_hears_the_lines() -> None:
    voice = Voice()
    game = session()
    third = game.state["seats"][2]
    cog = _cog.LegionCog(bot(voice, {third: 55}))  # the host is not in voice; a crew member is
    await cog._say(game, ["Kontakt!", ""])
    assert voice.said == [(1, 55, ["Kontakt!"], "cs")]


async def test_no_one_in_voice_or_voice_failing_leaves_the_voyage_in_text() -> None:
    voice = Voice()
    await _cog.LegionCog(bot(voice, {}))._say(session(), ["Kontakt!"])
    assert voice.said == []
    broken = Voice(broken=True)
    game = session()
    await _cog.LegionCog(bot(broken, {game.state["seats"][0]: 55}))._say(game, ["Kontakt!"])  # no exception
    busy = Voice(answer="busy")
    await _cog.LegionCog(bot(busy, {game.state["seats"][0]: 55}))._say(game, ["Kontakt!"])
    assert busy.said == [(1, 55, ["Kontakt!"], "cs")]
