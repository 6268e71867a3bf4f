"""A crew's evening as players see it (issue 24): a campaign whose announced command runs as printed
and whose follow-ups come after the flight's result, a school lesson whose text stays in view and
whose untimed phases end on everyone's Finish at TIME_SCALE=1, a flight in Slovak, and /help.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import WAIT, Flight, answer, assert_clean, cid, fake_discord, has, public, start_bot

pytestmark = pytest.mark.e2e

CAMPAIGN_ID = re.compile(r"^sa-camp:")
# words that betray English left in another language's output (command and option names aside)
ENGLISH_WORDS = re.compile(
    r"\b(the|and|threat|threats|phase|turn|zone|mission|crew|flight|station|finish|damage|score|captain|"
    r"log|join|leave|cancel|shield|reactor|destroyed|survived|repeat|incoming|transfer)\b",
    re.I,
)


def prose(text: str) -> str:
    """A message's words without what is code or a name: inline code, commands, custom ids, mentions,
    mission ids and the crew's names."""
    text = re.sub(r"`[^`]*`|\*\*/[a-z_ ]+\*\*|/[a-z_]+( [a-z_]+)*|<[@#][!&]?\d+>|<t:\d+(:\w)?>|\bS\d-\d\b", " ", text)
    return re.sub(r"\b(Alice|Bob|Carol|alice|bob|Space Alert|ELITE|Project|Discord|flight [0-9a-f]{8})\b", " ", text)


def english_in(texts: list[str]) -> list[str]:
    return [f"{w!r} in {t[:120]!r}" for t in texts for w in ENGLISH_WORDS.findall(prose(t))]


def campaign_buttons(message: Any, what: str) -> dict[str, str]:
    return {c.split(":")[3]: c for c in message.custom_ids if c.split(":")[2] == what}


def printed_command(text: str, name: str) -> tuple[str, dict[str, str]]:
    """The `/name opt:value ...` a message prints, as fakecord's slash takes it."""
    found = re.search(r"`/(" + re.escape(name) + r")((?: [a-z_]+:[^ `]+)*)`", text)
    assert found, text
    return found[1], dict(part.split(":", 1) for part in shlex.split(found[2]))


async def vote_white(fd: Any, message: Any, users: tuple[str, ...], *, end: bool = False) -> None:
    kinds = ("continue", "common", "serious") if end else ("common", "serious")
    for what in kinds:
        choice = "end" if what == "continue" else "white"
        for user in users:
            await fd.click(message, campaign_buttons(message, what)[choice], user=user)


def index_of(fd: Any, message: Any) -> int:
    return [m.id for m in public(fd)].index(message.id)


async def test_a_campaign_mission_as_announced_and_its_follow_ups_after_the_result(tmp_path: Path) -> None:
    crew = ("alice", "bob")
    async with fake_discord() as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=60)
        bob_id = fd.world.user("bob").id
        ix = await fd.slash("campaign start", {"p2": bob_id}, user="alice", channel="bridge")
        vote = await answer(fd, ix, lambda m: any(CAMPAIGN_ID.match(c) for c in m.custom_ids))
        stranger = await fd.click(vote, campaign_buttons(vote, "common")["yellow"], user="carol")
        assert "only members seated in this game" in (await answer(fd, stranger)).text
        await vote_white(fd, vote, crew)
        announcement = await fd.wait_for_message("Campaign mission 1", channel="bridge", timeout=WAIT)

        # the announcement's command, run exactly as printed
        name, opts = printed_command(announcement.text, "mission start")
        assert set(opts) == {"mission", "normal_threats", "serious_threats"}
        wrong = "S1-1"
        refused = await fd.slash("mission start", {**opts, "mission": wrong}, user="alice", channel="bridge")
        refusal = await answer(fd, refused)
        assert refusal.ephemeral and f"`/mission start mission:{opts['mission']}" in refusal.text
        ix = await fd.slash(name, opts, user="alice", channel="bridge")
        lobby = await fd.wait_for_message(channel="bridge", predicate=has("join"), timeout=WAIT)
        assert "Exploration campaign" in lobby.text and "Mission 1 of 3" in lobby.text
        assert "a ship without damage" in lobby.text and opts["mission"] in lobby.text

        flight = Flight(fd, "bridge", None, "alice", crew, lobby=lobby)
        flight.flight_id = cid(lobby, "join").split(":")[1]
        await flight.board()
        result = await flight.result(timeout=240)
        assert "Exploration campaign · mission 1 of 3" in result.text
        follow_up = await fd.wait_for_message(
            channel="bridge",
            predicate=lambda m: "Repairs after mission 1" in m.text or "final score" in m.text,
            timeout=WAIT,
        )
        assert index_of(fd, result) < index_of(fd, follow_up)  # the result first, then the campaign

        if "Repairs after mission 1" in follow_up.text:
            menu = next(c for c in follow_up.custom_ids if ":repairmenu:" in c)
            for user in crew:
                values = [o["value"] for o in follow_up.find_component(menu)["options"]]
                await fd.click(follow_up, menu, user=user, values=values[:1])
            vote2 = await fd.wait_for_message(
                channel="bridge",
                predicate=lambda m: "before mission 2" in m.text and bool(m.custom_ids),
                timeout=WAIT,
            )
            await vote_white(fd, vote2, crew, end=True)
            final = await fd.wait_for(
                lambda: next((m for m in public(fd) if "final score" in m.text), None), WAIT, "the final score"
            )
            assert "Total:" in final.text
        else:  # the ship was lost: the campaign says so, and /campaign end does not pretend otherwise
            lost = await fd.wait_for_message("The campaign ends here", channel="bridge", timeout=WAIT)
            assert index_of(fd, result) < index_of(fd, lost)
            end = await answer(fd, await fd.slash("campaign end", {}, user="alice", channel="bridge"))
            assert "already over" in end.text and "No campaign is running" not in end.text

        logbook = await answer(fd, await fd.slash("logbook", {}, user="bob", channel="bridge"))
        assert "🧭 campaign" in logbook.text
        assert_clean(fd)


async def test_a_school_lesson_keeps_its_text_and_ends_phases_on_finish(tmp_path: Path) -> None:
    """Lesson 1 untimed at TIME_SCALE=1: two players who both press Finish do not wait for the
    recording's minutes; the deck names whom it waits for; "Progress saved" follows the result."""
    async with fake_discord() as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=1)
        await fd.slash("mission school", {}, user="alice", channel="bridge")
        lobby = await fd.wait_for_message(channel="bridge", predicate=has("join"), timeout=WAIT)
        assert "Flight school 1/7" in lobby.text
        flight = Flight(fd, "bridge", None, "alice", ("alice", "bob"), lobby=lobby)
        flight.flight_id = cid(lobby, "join").split(":")[1]
        deck = await flight.board()
        started = fd.world.messages_by_id[lobby.id]
        assert "The flight has started" in started.text and "Flight school 1/7" in started.text  # still there

        phases = 2  # S1-1
        for phase in range(1, phases + 1):
            alice = await flight.station("alice")
            await fd.click(alice, cid(alice, "finish"), user="alice")
            if phase == 1:
                await fd.wait_for(
                    lambda: "Waiting for Finish: Bob" in fd.world.messages_by_id[deck.id].text, WAIT, "the deck"
                )
            bob = await flight.station("bob")
            await fd.click(bob, cid(bob, "finish"), user="bob")
        result = await flight.result(timeout=60)  # minutes of recording left, seconds of waiting
        saved = await fd.wait_for_message("Progress saved", channel="bridge", timeout=WAIT)
        assert index_of(fd, result) < index_of(fd, saved)
        assert_clean(fd)


SAVED = {"sk": "Uložené", "ru": "Сохранено", "cs": "Uloženo"}
LAST_LINE = {"sk": "hyperpriestoru", "ru": "Задание завершено", "cs": "hyperprostoru"}
HELP_STEPS = {"sk": "Prvý let v piatich krokoch", "ru": "Первый полёт в пять шагов", "cs": "První let v pěti krocích"}


@pytest.mark.parametrize("lang", ["sk", "ru", "cs"])
async def test_a_flight_speaks_the_server_language_everywhere(tmp_path: Path, lang: str) -> None:
    async with fake_discord() as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=30)
        ok = await answer(fd, await fd.slash("settings set", {"key": "language", "value": lang}, user="alice"))
        assert SAVED[lang] in ok.text
        flight = Flight(fd, "bridge", None, "alice", ("alice", "bob"))
        lobby = await flight.open_lobby("S1-1", seed=7)
        deck = await flight.board()
        hand = await flight.station("bob")
        hand = await flight.place_first_card("bob", hand)
        result = await flight.result(timeout=180)
        thread = await fd.wait_for(lambda: fd.thread_of(result), WAIT, "the captain's log thread")
        await fd.wait_for(lambda: len(fd.messages(thread.id)) >= 2, WAIT, "the captain's log")
        last_line = LAST_LINE[lang]
        await fd.wait_for(lambda: any(last_line in m.text for m in public(fd)), WAIT, "the intercom's last line")
        texts = [fd.world.messages_by_id[lobby.id].text, fd.world.messages_by_id[deck.id].text, hand.text]
        texts += [m.text for m in public(fd)] + [m.text for m in fd.messages(thread.id)]
        assert english_in(texts) == []
        assert fd.utterances()  # the intercom was spoken too (espeak-ng has a voice for each language)
        help_text = await answer(fd, await fd.slash("help", {}, user="bob"))
        assert HELP_STEPS[lang] in help_text.text
        assert_clean(fd)


async def test_help_in_every_language_and_a_russian_server_starts_in_russian(tmp_path: Path) -> None:
    """A server whose Discord locale is Russian and that has no language setting reads /help in
    Russian; after /settings set language it follows the setting (Czech)."""
    async with fake_discord({"guild": {"locale": "ru"}}) as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=20)
        first = await answer(fd, await fd.slash("help", {}, user="bob"))
        assert first.ephemeral and "`/mission start mission:S1-1`" in first.text
        assert HELP_STEPS["ru"] in first.text and english_in([first.text]) == []
        await answer(fd, await fd.slash("settings set", {"key": "language", "value": "cs"}, user="alice"))
        czech = await answer(fd, await fd.slash("help", {}, user="bob"))
        assert HELP_STEPS["cs"] in czech.text and english_in([czech.text]) == []
        assert_clean(fd)
