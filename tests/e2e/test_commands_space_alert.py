"""Space Alert's commands and buttons that no other e2e scenario presses, as a crew and its
bystanders would, against the real bot: the lobby's Leave and Cancel, /mission status and
/mission abort, then one flight and everything that reads it afterwards (/logbook,
/leaderboard, /stats, /whatif with its editor's selects and buttons), /campaign status, change
and end, and in Slovak the hand's controls (roles, the android select, Back, Draw, Agree,
Refresh), the intercom's Rejoin and the solo what-if's board select.  Strangers press what is
not theirs; each is refused privately and politely.

Why three start-ups only: a flight is the slow part, so one flight (nobody plays a card; it ends
on its own at a high time scale) feeds every command that reads the records.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import pytest

from bot.games.space_alert.campaign._text import tx as campaign_tx
from bot.games.space_alert.replay.text import text as replay_text
from bot.games.space_alert.stats._text import tx as stats_tx
from bot.platform.hosting._text import tx
from bot.platform.i18n import t
from tests.e2e.harness import ADMIN_WORLD as WORLD
from tests.e2e.harness import (
    WAIT,
    Flight,
    answer,
    assert_clean,
    cid,
    fake_discord,
    has,
    options,
    private,
    public,
    start_bot,
)

pytestmark = pytest.mark.e2e


async def set_language(fd: Any, lang: str) -> None:
    ix = await fd.slash("settings set", {"key": "language", "value": lang}, user="alice", channel="bridge")
    assert (await private(fd, ix)).text == tx(lang, "saved", key="language", value=lang)


def current(fd: Any, message: Any) -> Any:
    return fd.world.messages_by_id[message.id]


async def test_lobby_abort_flight_records_and_whatif(tmp_path: Path) -> None:
    async with fake_discord(WORLD) as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=60)

        # -- a lobby: join, leave, a stranger's Start and Cancel, /mission status, Cancel --------------------
        flight = Flight(fd, "bridge", None, "alice", ("alice", "bob"))
        lobby = await flight.open_lobby("S1-1", seed=5)
        status = await private(fd, await fd.slash("mission status", user="dave", channel="bridge"))
        assert "S1-1" in status.text and status.custom_ids == []  # a look, not a second lobby to press
        for user in ("bob", "carol"):
            await fd.click(lobby, cid(lobby, "join"), user=user)
        carol = str(fd.world.user("carol").id)
        await fd.wait_for(lambda: carol in current(fd, lobby).text, WAIT, "carol in the crew")
        left = await fd.click(lobby, cid(lobby, "leave"), user="carol")
        assert left.acked
        await fd.wait_for(lambda: carol not in current(fd, lobby).text, WAIT, "carol out of the crew")
        for action in ("start", "cancel"):
            refused = await private(fd, await fd.click(lobby, cid(lobby, action), user="bob"))
            assert refused.text == t("en", "lobby.host_only"), (action, refused.text)
        refused = await private(fd, await fd.slash("mission abort", user="erin", channel="bridge"))
        assert refused.text == t("en", "error.not_host_or_manager")
        await fd.click(lobby, cid(lobby, "cancel"), user="alice")
        await fd.wait_for(lambda: current(fd, lobby).custom_ids == [], WAIT, "the cancelled lobby to close")
        assert (await private(fd, await fd.slash("mission status", user="bob", channel="bridge"))).text == t(
            "en", "error.no_flight"
        )

        # -- a flight, left to end by itself; a stranger cannot open a station or abort it --------------------
        flight = Flight(fd, "bridge", None, "alice", ("alice", "bob"))
        await flight.open_lobby("S1-1", seed=5)
        deck = await flight.board()
        status = await private(fd, await fd.slash("mission status", user="erin", channel="bridge"))
        assert "Alice" in status.text and "Bob" in status.text
        station = await private(fd, await fd.click(deck, cid(deck, "station"), user="erin"))
        assert not has("pick")(station), station.custom_ids  # no hand for someone not in the crew
        refused = await private(fd, await fd.slash("mission abort", user="bob", channel="bridge"))
        assert refused.text == t("en", "error.not_host_or_manager")
        result = await flight.result(timeout=180)
        fid = flight.flight_id
        assert "Mission S1-1" in result.text

        # -- the records, in English, then in Russian ----------------------------------------------------------
        ix = await fd.slash("logbook", user="carol", channel="bridge")
        logbook = await answer(fd, ix)
        assert not logbook.ephemeral and t("en", "logbook.title") in logbook.text and "S1-1" in logbook.text
        ix = await fd.slash("leaderboard", user="dave", channel="bridge")
        board = await answer(fd, ix)
        assert not board.ephemeral and t("en", "leaderboard.title") in board.text
        # one mission's paged board: this flight on it, Previous / Next restart-proof buttons
        paged = await answer(fd, await fd.slash("leaderboard", {"mission": "s1-1"}, user="dave", channel="bridge"))
        assert stats_tx("en", "board.title", mission="S1-1", normal="white", serious="white") in paged.text
        pages = [c for c in paged.custom_ids if c.startswith("sa-board:")]
        assert len(pages) == 2 and paged.find_component(pages[0])["disabled"]  # Previous on page 1
        mine = await answer(fd, await fd.slash("stats", user="bob", channel="bridge"))
        assert mine.ephemeral and stats_tx("en", "stats.title", name="Bob") in mine.text
        assert [a.filename for a in mine.attachments] == ["scores.png"]
        nobody = await answer(fd, await fd.slash("stats", {"player": fd.world.user("erin").id}, user="bob"))
        assert stats_tx("en", "stats.none", name="Erin") in nobody.text

        await set_language(fd, "ru")
        logbook = await answer(fd, await fd.slash("logbook", user="carol", channel="bridge"))
        assert t("ru", "logbook.title") in logbook.text, logbook.text
        board = await answer(fd, await fd.slash("leaderboard", user="dave", channel="bridge"))
        assert t("ru", "leaderboard.title") in board.text, board.text
        theirs = await answer(fd, await fd.slash("stats", {"player": fd.world.user("alice").id}, user="bob"))
        assert not theirs.ephemeral and stats_tx("ru", "stats.title", name="Alice") in theirs.text

        # -- /whatif: a stranger is refused; bob edits his own plan with every control and runs it -------------
        refused = await private(fd, await fd.slash("whatif", {"flight": fid}, user="erin", channel="bridge"))
        assert refused.text == replay_text("en", "not_crew")  # the flight's language (it flew in English)
        editor = await private(fd, await fd.slash("whatif", {"flight": fid}, user="bob", channel="bridge"))
        assert replay_text("en", "whatif_title", name="Bob", mission="S1-1") in editor.text
        ids = set(editor.custom_ids)
        assert len(ids) == len(editor.custom_ids)  # Discord refuses repeated ids; fakecord too
        assert any(":wpick:" in c for c in ids) and any(":reset:" in c for c in ids) and any(":run:" in c for c in ids)

        picked = await fd.click(editor, cid(editor, "wpick"), user="bob", values=[options_of(editor, "wpick")[0]])
        editor = picked.message
        placed = await fd.click(editor, cid(editor, "wplace"), user="bob", values=[options_of(editor, "wplace")[0]])
        editor = placed.message
        assert "✎" in editor.text, editor.text  # the changed turn is marked
        # The planned turn, picked again, can be taken back; then placed once more.
        planned = [v for v in options_of(editor, "wpick") if v.startswith("t")]
        assert planned, options_of(editor, "wpick")
        editor = (await fd.click(editor, cid(editor, "wpick"), user="bob", values=[planned[0]])).message
        editor = (await fd.click(editor, cid(editor, "wback"), user="bob")).message
        assert "✎" not in editor.text, editor.text
        editor = (
            await fd.click(editor, cid(editor, "wpick"), user="bob", values=[options_of(editor, "wpick")[0]])
        ).message
        editor = (
            await fd.click(editor, cid(editor, "wplace"), user="bob", values=[options_of(editor, "wplace")[0]])
        ).message
        assert "✎" in editor.text
        reset = await fd.click(editor, cid(editor, "reset"), user="bob")
        assert "✎" not in reset.message.text
        editor = reset.message
        editor = (
            await fd.click(editor, cid(editor, "wpick"), user="bob", values=[options_of(editor, "wpick")[0]])
        ).message
        editor = (
            await fd.click(editor, cid(editor, "wplace"), user="bob", values=[options_of(editor, "wplace")[0]])
        ).message
        # (erin cannot press bob's editor at all: it is ephemeral, Discord shows it to bob alone)
        ran = await fd.click(editor, cid(editor, "run"), user="bob")
        compared = await answer(fd, ran, lambda m: bool(m.attachments))
        assert compared.ephemeral and re.search(r"\d", compared.text)
        assert sorted(a.filename for a in compared.attachments) == ["real.png", "whatif.png"]

        # Nothing of the what-if or the refusals reached the channel.
        assert not any("what" in m.text.lower() and "if" in m.text.lower() for m in public(fd))
        assert_clean(fd)


def options_of(message: Any, action: str) -> list[str]:
    component = message.find_component(cid(message, action))
    return [o["value"] for o in component["options"]]


def campaign_ids(message: Any, what: str) -> dict[str, str]:
    return {c.split(":")[3]: c for c in message.custom_ids if c.startswith("sa-camp:") and c.split(":")[2] == what}


async def test_campaign_status_change_and_end_in_russian(tmp_path: Path) -> None:
    async with fake_discord(WORLD) as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=60)
        await set_language(fd, "ru")

        none = await private(fd, await fd.slash("campaign status", user="bob", channel="bridge"))
        assert none.text == campaign_tx("ru", "none")
        nothing = await private(fd, await fd.slash("campaign change", {"mission": "S1-2"}, user="alice"))
        assert nothing.text == t("ru", "evening.campaign.nothing_due")

        bob = fd.world.user("bob").id
        vote = await answer(
            fd,
            await fd.slash("campaign start", {"p2": bob}, user="alice", channel="bridge"),
            lambda m: any(c.startswith("sa-camp:") for c in m.custom_ids),
        )
        shown = await private(fd, await fd.slash("campaign status", user="carol", channel="bridge"))
        assert shown.custom_ids == []  # the status is a look; the vote stays on the public message
        stranger = await private(fd, await fd.click(vote, campaign_ids(vote, "common")["white"], user="carol"))
        assert stranger.text == t("ru", "permissions.seated")
        for what in ("common", "serious"):
            for user in ("alice", "bob"):
                await fd.click(vote, campaign_ids(vote, what)["white"], user=user)
        announcement = await fd.wait_for_message(
            channel="bridge", predicate=lambda m: "/mission start" in m.text, timeout=WAIT
        )
        drawn = re.search(r"mission:(S\d-\d)", announcement.text)
        assert drawn, announcement.text

        due = await private(fd, await fd.slash("campaign status", user="carol", channel="bridge"))
        assert f"mission:{drawn[1]}" in due.text
        other = "S1-2" if drawn[1] != "S1-2" else "S1-3"
        refused = await private(fd, await fd.slash("campaign change", {"mission": other}, user="carol"))
        assert refused.text == t("ru", "permissions.host"), refused.text
        unknown = await private(fd, await fd.slash("campaign change", {"mission": "S9-9"}, user="alice"))
        assert unknown.text == t("ru", "error.unknown_mission", mission="S9-9"), unknown.text
        changed = await answer(fd, await fd.slash("campaign change", {"mission": other}, user="alice"))
        assert not changed.ephemeral and f"mission:{other}" in changed.text
        due = await private(fd, await fd.slash("campaign status", user="bob", channel="bridge"))
        assert f"mission:{other}" in due.text

        refused = await private(fd, await fd.slash("campaign end", user="dave", channel="bridge"))
        assert refused.text == t("ru", "permissions.host"), refused.text
        # bob flies in it but is not its host: refused as well
        refused = await private(fd, await fd.slash("campaign end", user="bob", channel="bridge"))
        assert refused.text == t("ru", "permissions.host"), refused.text
        ended = await answer(fd, await fd.slash("campaign end", user="alice", channel="bridge"))
        assert not ended.ephemeral
        after = await private(fd, await fd.slash("campaign status", user="bob", channel="bridge"))
        assert after.text == campaign_tx("ru", "ended_early"), after.text
        assert_clean(fd)


async def fresh_hand(fd: Any, flight: Flight, user: str, until: Any = None) -> Any:
    """`user` reopens My station until the hand shows what `until` asks for (a later phase, a
    Draw button): the hand is a snapshot, as a player's would be."""
    for _ in range(120):
        hand = await flight.station(user)
        if until is None or until(hand):
            return hand
        await asyncio.sleep(0.25)
    raise AssertionError(f"{user}'s hand never showed what was awaited: {hand.custom_ids}")


async def test_hand_controls_in_slovak_and_an_abort_in_flight(tmp_path: Path) -> None:
    async with fake_discord(WORLD) as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=40)
        await set_language(fd, "sk")

        # -- a solo flight: the androids' boards, voice's Rejoin, then /whatif's board select ---------------
        solo = Flight(fd, "general", None, "alice", ("alice",))
        await solo.open_lobby("S1-1", seed=2)
        deck = await solo.board()
        hand = await solo.station("alice")
        assert t("sk", "hand.refresh") in " ".join(str(b.get("label")) for b in hand.buttons)
        picked = await fd.click(hand, cid(hand, "pick"), user="alice", values=[options(hand, "pick")[0]])
        hand = picked.message
        offered = options(hand, "android")  # (a copy: the message object follows later edits)
        placed = await fd.click(hand, cid(hand, "android"), user="alice", values=[offered[0]])
        assert placed.acked and placed.errors == []
        # the android's own card now lies on its turn 1: that placement is no longer offered
        assert offered[0] not in options(placed.message, "android"), (
            offered[:3],
            options(placed.message, "android")[:3],
        )
        # A moderator disconnects the bot from voice: the line offers Rejoin, which is the host's.
        await fd.wait_for(lambda: len(fd.utterances()) >= 1, WAIT, "the intercom to speak")
        await fd.voice_disconnect_bot()
        line = await fd.wait_for_message(
            channel="general", predicate=lambda m: any(":rejoin:" in c for c in m.custom_ids), timeout=WAIT
        )
        assert line.text == t("sk", "voice.disconnected"), line.text
        refused = await private(fd, await fd.click(line, cid(line, "rejoin"), user="bob"))
        assert refused.text == t("sk", "voice.rejoin_host_only"), refused.text
        spoken = len(fd.utterances())
        back = await answer(fd, await fd.click(line, cid(line, "rejoin"), user="alice"))
        assert back.text == t("sk", "voice.rejoined"), back.text
        await fd.wait_for(lambda: len(fd.utterances()) > spoken, WAIT, "the intercom back in voice")

        # The solo flight ends; its what-if editor offers the android boards (wboard) to edit.
        await solo.result(timeout=180)
        editor = await private(
            fd, await fd.slash("whatif", {"flight": solo.flight_id}, user="alice", channel="general")
        )
        boards = options(editor, "wboard")
        assert len(boards) > 1, boards
        other = await fd.click(editor, cid(editor, "wboard"), user="alice", values=[boards[1]])
        assert other.errors == [] and other.message.ephemeral
        android = replay_text("sk", "editing_android", android="\0").split("\0")[0]
        assert android and android in other.message.text, other.message.text

        # -- another solo flight, aborted in flight by its host (not by a member who is not) ----------------
        solo = Flight(fd, "general", None, "alice", ("alice",))
        await solo.open_lobby("S1-1", seed=3)
        deck = await solo.board()
        hand = await solo.station("alice")
        refused = await private(fd, await fd.slash("mission abort", user="bob", channel="general"))
        assert refused.text == t("sk", "error.not_host_or_manager")
        aborted = await answer(fd, await fd.slash("mission abort", user="alice", channel="general"))
        assert not aborted.ephemeral and aborted.text == t(
            "sk", "flight.aborted", user=f"<@{fd.world.user('alice').id}>"
        )
        await fd.wait_for(lambda: current(fd, deck).custom_ids == [], WAIT, "the aborted deck's buttons to go")
        late = await private(fd, await fd.click(hand, cid(hand, "refresh"), user="alice"))
        assert late.text == t("sk", "error.flight_over") and late.custom_ids == [], late.text

        # -- a crew of two in S1-3: roles, take a card back, draw on incoming data, agree to end early ------
        flight = Flight(fd, "bridge", None, "alice", ("alice", "bob"))
        lobby = await flight.open_lobby("S1-3", seed=4)
        refused = await private(fd, await fd.click(lobby, cid(lobby, "roles"), user="erin", values=["security"]))
        assert refused.text == t("sk", "lobby.join_first")
        await fd.click(lobby, cid(lobby, "join"), user="bob")
        chose = await fd.click(lobby, cid(lobby, "roles"), user="bob", values=["comms"])
        assert chose.acked and chose.errors == []
        await fd.wait_for(
            lambda: t("sk", "role.comms").lower() in current(fd, lobby).text.lower(), WAIT, "bob's role in the lobby"
        )
        await fd.click(lobby, cid(lobby, "start"), user="alice")
        flight.deck = await fd.wait_for_message(channel="bridge", predicate=has("station"), timeout=WAIT)

        hand = await flight.station("alice")
        hand = await flight.place_first_card("alice", hand)
        planned = [v for v in options(hand, "pick") if v.startswith("t")]
        assert planned, options(hand, "pick")
        hand = (await fd.click(hand, cid(hand, "pick"), user="alice", values=[planned[0]])).message
        back = await fd.click(hand, cid(hand, "back"), user="alice")
        assert not [v for v in options(back.message, "pick") if v.startswith("t")], options(back.message, "pick")

        # Incoming data (1:10 in S1-3): Draw appears; drawing adds a card to the hand.
        hand = await fresh_hand(fd, flight, "bob", lambda h: any(":draw:" in c for c in h.custom_ids))
        cards = len([v for v in options(hand, "pick") if not v.startswith("t")])
        drew = await fd.click(hand, cid(hand, "draw"), user="bob")
        assert len([v for v in options(drew.message, "pick") if not v.startswith("t")]) == cards + 1

        # The third phase: both agree to end the round early; the flight ends before its recording does.
        for user in ("alice", "bob"):
            hand = await fresh_hand(fd, flight, user, lambda h: any(":agree:" in c for c in h.custom_ids))
            agreed = await fd.click(hand, cid(hand, "agree"), user=user)
            assert agreed.acked and agreed.errors == []
        result = await flight.result(timeout=120)
        assert "S1-3" in result.text
        assert_clean(fd)
