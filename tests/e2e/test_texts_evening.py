"""A campaign and a school lesson on a Russian, Czech and Slovak server (issue 24): everything the
crew sees, from the vote to the follow-up after the result, is in the server's language, and the
command the campaign prints runs as printed.  Expected words come from the catalogue itself
(bot/platform/locales), so the test follows the texts without copying them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.platform.i18n import t
from tests.e2e.harness import WAIT, Flight, answer, assert_clean, cid, fake_discord, has, public, start_bot
from tests.e2e.test_evening import CAMPAIGN_ID, english_in, index_of, printed_command, vote_white

pytestmark = pytest.mark.e2e

LANGS = ("ru", "cs", "sk")


def _piece(template: str) -> str:
    """The longest run of a catalogue text between its placeholders (what a post surely contains)."""
    return max(re.split(r"\{[^}]*\}", template), key=len).strip()


async def _speak(fd: object, lang: str) -> None:
    settings = await fd.slash("settings set", {"key": "language", "value": lang}, user="alice")  # type: ignore[attr-defined]
    assert _piece(t(lang, "hosting.saved")) in (await answer(fd, settings)).text


def _shown(fd: object, *ids: int) -> list[str]:
    """Every public post of the bridge as it reads now (edited ones included) and the given messages."""
    world = fd.world  # type: ignore[attr-defined]
    return [m.text for m in public(fd)] + [world.messages_by_id[i].text for i in ids]


@pytest.mark.parametrize("lang", LANGS)
async def test_a_campaign_evening_reads_in_the_server_language(tmp_path: Path, lang: str) -> None:
    crew = ("alice", "bob")
    async with fake_discord() as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=60)
        await _speak(fd, lang)
        bob_id = fd.world.user("bob").id
        ix = await fd.slash("campaign start", {"p2": bob_id}, user="alice", channel="bridge")
        vote = await answer(fd, ix, lambda m: any(CAMPAIGN_ID.match(c) for c in m.custom_ids))
        assert t(lang, "campaign.vote.title", n=1) in vote.text
        await vote_white(fd, vote, crew)
        announcement = await fd.wait_for_message(
            channel="bridge", predicate=lambda m: "`/mission start mission:" in m.text, timeout=WAIT
        )
        name, opts = printed_command(announcement.text, "mission start")
        await fd.slash(name, opts, user="alice", channel="bridge")  # exactly as printed
        lobby = await fd.wait_for_message(channel="bridge", predicate=has("join"), timeout=WAIT)
        flight = Flight(fd, "bridge", None, "alice", crew, lobby=lobby)
        flight.flight_id = cid(lobby, "join").split(":")[1]
        deck = await flight.board()
        result = await flight.result(timeout=240)
        follow_ups = (
            _piece(t(lang, "campaign.repair.title")),
            _piece(t(lang, "campaign.score.title")),
            _piece(t(lang, "evening.campaign.lost")),
        )
        follow_up = await fd.wait_for_message(
            channel="bridge", predicate=lambda m: any(head in m.text for head in follow_ups), timeout=WAIT
        )
        assert index_of(fd, result) < index_of(fd, follow_up)  # the result first, then the campaign
        assert english_in(_shown(fd, lobby.id, deck.id)) == []
        assert_clean(fd)


@pytest.mark.parametrize("lang", LANGS)
async def test_a_school_lesson_reads_in_the_server_language(tmp_path: Path, lang: str) -> None:
    async with fake_discord() as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=1)
        await _speak(fd, lang)
        await fd.slash("mission school", {}, user="alice", channel="bridge")
        lobby = await fd.wait_for_message(channel="bridge", predicate=has("join"), timeout=WAIT)
        lesson_title = _piece(t(lang, "campaign.school.title"))
        assert lesson_title in lobby.text
        flight = Flight(fd, "bridge", None, "alice", ("alice", "bob"), lobby=lobby)
        flight.flight_id = cid(lobby, "join").split(":")[1]
        deck = await flight.board()
        assert lesson_title in fd.world.messages_by_id[lobby.id].text  # the lesson stays in view
        hands = []
        for _phase in (1, 2):  # S1-1: two phases, untimed, each ends on both Finish presses
            for user in ("alice", "bob"):
                hand = await flight.station(user)
                hands.append(hand.text)
                await fd.click(hand, cid(hand, "finish"), user=user)
        result = await flight.result(timeout=60)
        saved = _piece(t(lang, "campaign.school.recorded"))
        progress = await fd.wait_for_message(saved, channel="bridge", timeout=WAIT)
        assert index_of(fd, result) < index_of(fd, progress)
        assert english_in([*_shown(fd, lobby.id, deck.id), *hands]) == []
        assert_clean(fd)


# "boss" is the Czech and Slovak gamers' word too (the ELITE refusals use it)
ELITE_ENGLISH = re.compile(
    r"\b(the|and|phase|event|spawn|alien|aliens|action|round|cluster|objective|weapons|dice|heroes|"
    r"exploration|swarm|timer|running|ready|setup|next|pause|peek|reveal|victory|defeat)\b",
    re.I,
)


@pytest.mark.parametrize("lang", ("cs", "sk"))
async def test_an_elite_game_is_set_up_and_run_in_czech_and_slovak(tmp_path: Path, lang: str) -> None:
    """ELITE had only English and Russian words: a Czech or Slovak server heard and read English."""
    async with fake_discord() as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=20)
        await _speak(fd, lang)
        options = {"map": "abandoned_lab", "mission": "exploration", "difficulty": "easy", "players": 2}
        picker = await answer(fd, await fd.slash("elite start", options, user="alice", channel="bridge"))
        assert t(lang, "elite.ui.pick_heroes", count=2) in picker.text
        await fd.click(picker, picker.custom_ids[0], user="alice", values=["kinje", "kara"])
        status = await fd.wait_for_message(
            "Project: ELITE", channel="bridge", predicate=lambda m: bool(m.buttons), timeout=WAIT
        )
        for _ in range(3):  # event phase, alien spawn, action phase
            shown = fd.world.messages_by_id[status.id]
            await fd.click(shown, cid(shown, "next"), user="alice")
        action = t(lang, "elite.phase.action")
        await fd.wait_for(lambda: action in fd.world.messages_by_id[status.id].text, WAIT, "the action phase")
        texts = [m.text for m in public(fd)] + [fd.world.messages_by_id[status.id].text]
        assert t(lang, "elite.mission.exploration") in "\n".join(texts)
        words = [w for text in texts for w in ELITE_ENGLISH.findall(text.replace("Project: ELITE", ""))]
        assert words == []
        labels = [b["label"] for b in fd.world.messages_by_id[status.id].buttons if b.get("label")]
        assert t(lang, "elite.ui.next") in labels or t(lang, "elite.ui.start") in labels
        shown = fd.world.messages_by_id[status.id]
        await fd.click(shown, cid(shown, "stop"), user="alice")
        assert_clean(fd)
