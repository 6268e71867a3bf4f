"""A whole Scarlet Legion voyage through fakecord: four members (one of them the Legion agent), a
stranger pressing buttons, refusal duels to a mutiny, a station, a restart mid-voyage, the reveal
and the stored result; and no public message ever shows a side or a hand before the reveal."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.platform.i18n import t
from bot.platform.permissions import refusal
from tests.e2e.harness import WAIT, answer, assert_clean, fake_discord, kill_bot, start_bot

pytestmark = pytest.mark.e2e

CREW = ("alice", "bob", "carol", "dave")
NAMES = {"Alice": "alice", "Bob": "bob", "Carol": "carol", "Dave": "dave"}
STRANGER = "erin"
# Seed 29 on Reconnaissance: refusals win a mutiny, the ship visits a station, about 30 steps
# (tests/legion/test_adapter.py plays the same voyage without Discord).
MISSION, SEED = "reconnaissance", 29
RESTART_AT = 12  # steps before the bot is killed
# The default world, with Dave's DMs closed: his side reaches him through My hand only.
WORLD: dict[str, Any] = {
    "guild": {
        "members": [
            {"username": "alice", "global_name": "Alice", "roles": ["Captain", "Crew"], "voice": "Bridge Voice"},
            {"username": "bob", "global_name": "Bob", "roles": ["Crew"], "voice": "Bridge Voice"},
            {"username": "carol", "global_name": "Carol", "roles": ["Crew"], "voice": None},
            {"username": "dave", "global_name": "Dave", "roles": ["Crew"], "voice": None, "dm_open": False},
            {"username": "erin", "global_name": "Erin", "roles": [], "voice": None},
        ]
    }
}


def kind_of(custom_id: str) -> tuple[str, str]:
    """The table action and arg of a `gm:legion:<sid>:<action>:<arg>` id (bot/platform/tables.py)."""
    _, _, _, kind, arg = custom_id.split(":", 4)
    return kind, arg


def select_values(message: Any, kind: str) -> list[str]:
    for component in message.selects:
        if kind_of(component["custom_id"])[0] == kind:
            return [o["value"] for o in component["options"]]
    return []


def custom_id(message: Any, kind: str, arg: str = "-") -> str:
    for cid in message.custom_ids:
        if kind_of(cid) == (kind, arg) or (kind_of(cid)[0] == kind and kind.startswith("pick_")):
            return str(cid)
    raise AssertionError(f"no {kind}:{arg} on {message.text[:200]!r}: {message.custom_ids}")


def select_first(message: Any) -> list[str] | None:
    """The first option of the message's first component when it is a select, else None."""
    first = next((c for c in message.iter_components() if c.get("custom_id")), {})
    options = first.get("options") or []
    return [options[0]["value"]] if options else None


def versions(message: Any) -> list[str]:
    """Every text a message has shown: its edits' earlier contents, then the current one."""
    return [str(old.get("content") or "") for old in message.history] + [message.text]


def prefix(lang: str, key: str) -> str:
    """A text's words before its first value."""
    return t(lang, key).split("{")[0]


def pattern(lang: str, key: str) -> str:
    """A regex matching the text of `key` with any values."""
    return ".+?".join(re.escape(part) for part in re.split(r"\{\w+\}", t(lang, key)))


class Voyage:
    def __init__(self, fd: Any, lang: str) -> None:
        self.fd, self.lang = fd, lang
        self.bridge: Any = None
        self.hands: set[str] = set()  # every hand a private panel showed (two cards or more)
        self.sides: dict[str, str] = {}

    def said(self, key: str, **values: Any) -> str:
        return t(self.lang, key, **values)

    async def private(self, ix: Any) -> Any:
        message = await answer(self.fd, ix)
        assert message.ephemeral and message.visible_to == ix.user_id
        return message

    async def panel(self, user: str) -> Any:
        """`user` presses My hand; their private panel (remembered for the privacy check)."""
        ix = await self.fd.click(
            self.fd.world.messages_by_id[self.bridge.id], custom_id(self.bridge, "hand"), user=user
        )
        message = await self.private(ix)
        self.read_panel(user, message)
        return message

    def read_panel(self, user: str, message: Any) -> None:
        prefix = self.said("legion.panel.hand", cards="")
        for line in message.text.splitlines():
            if line.startswith(prefix) and ", " in line:
                self.hands.add(line[len(prefix) :])
        for side in ("crew", "legion"):
            if self.said("legion.panel.side", side=self.said(f"legion.side.{side}")) in message.text:
                self.sides[user] = side

    def waiting(self) -> str:
        """The member the bridge says the voyage waits for (the first one named)."""
        text = self.fd.world.messages_by_id[self.bridge.id].text
        head = self.said("legion.bridge.waiting", who="\x00", what="").split("\x00")[0]
        line = next(line for line in text.splitlines() if line.startswith(head))
        names = re.match(re.escape(head) + r"(.+?)\*\*", line)
        assert names, line
        return NAMES[names.group(1).split(", ")[0]]

    def public(self) -> list[Any]:
        fd = self.fd
        channel = fd.world.channel("bridge").id
        thread = fd.thread_of(self.bridge)
        where = {channel} | ({thread.id} if thread is not None else set())
        return [
            m
            for m in fd.world.all_messages()
            if m.author_id == fd.world.bot.id and not m.ephemeral and m.channel_id in where
        ]

    def public_text(self) -> str:
        return "\n".join(text for m in self.public() for text in versions(m))

    async def step(self, refuse: bool, panel: Any = None) -> None:
        """The member the voyage waits for makes a plain choice in their private panel."""
        fd = self.fd
        user = self.waiting()
        panel = panel or await self.panel(user)
        buttons = [kind_of(c)[1] for c in panel.custom_ids if kind_of(c)[0] == "act"]
        edits = len(fd.world.messages_by_id[self.bridge.id].history)
        if refuse and "refuse" in buttons:
            ix = await fd.click(panel, custom_id(panel, "act", "refuse"), user=user)
        else:
            ix = await self.choose(user, panel, buttons)
        assert ix.acked
        await fd.wait_for(
            lambda: len(fd.world.messages_by_id[self.bridge.id].history) > edits, WAIT, "the bridge's edit"
        )

    async def choose(self, user: str, panel: Any, buttons: list[str]) -> Any:
        fd = self.fd
        for arg in ("obey", "use", "end", "engage", "depart", "endure"):
            if arg in buttons:
                return await fd.click(panel, custom_id(panel, "act", arg), user=user)
        submits = [v for v in select_values(panel, "pick_card") if v.startswith("submit")]
        if submits:
            return await fd.click(panel, custom_id(panel, "pick_card"), user=user, values=[submits[0]])
        orders = [v for v in select_values(panel, "pick_move") if v.startswith("orders")]
        if orders:
            ix = await fd.click(panel, custom_id(panel, "pick_move"), user=user, values=[orders[0]])
            paying = ix.message
            cards = select_values(paying, "pick_pay")
            if not cards:
                return ix
            return await fd.click(paying, custom_id(paying, "pick_pay"), user=user, values=[cards[0]])
        if buttons:
            return await fd.click(panel, custom_id(panel, "act", buttons[0]), user=user)
        card = select_values(panel, "pick_card")[0]
        return await fd.click(panel, custom_id(panel, "pick_card"), user=user, values=[card])


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_whole_voyage_with_a_mutiny_a_restart_and_no_leaks(tmp_path: Path, lang: str) -> None:
    async with fake_discord(WORLD) as fd:
        first = await start_bot(fd, tmp_path / "bot", time_scale=30)
        voyage = Voyage(fd, lang)
        said = voyage.said
        await fd.slash(
            "legion start", {"mission": MISSION, "language": lang, "seed": SEED}, user="alice", channel="bridge"
        )
        lobby = await fd.wait_for_message(
            channel="bridge", predicate=lambda m: any(":join:" in c for c in m.custom_ids), timeout=WAIT
        )
        voyage.bridge = lobby

        # A stranger can neither start nor leave someone else's lobby; only the host starts.
        refused = await voyage.private(await fd.click(lobby, custom_id(lobby, "begin"), user=STRANGER))
        assert refused.text == refusal(lang, "host")
        early = await voyage.private(await fd.click(lobby, custom_id(lobby, "begin"), user="alice"))
        assert early.text == said("table.refused.too_few")
        for user in CREW[1:]:
            joined = await fd.click(lobby, custom_id(lobby, "join"), user=user)
            assert joined.ack_type == 7  # the lobby message itself shows who is aboard
        full = await voyage.private(await fd.click(lobby, custom_id(lobby, "join"), user=STRANGER))
        assert full.text == said("table.refused.full")
        not_host = await voyage.private(await fd.click(lobby, custom_id(lobby, "begin"), user="bob"))
        assert not_host.text == refusal(lang, "host")
        leave = await voyage.private(await fd.click(lobby, custom_id(lobby, "leave"), user=STRANGER))
        assert leave.text == refusal(lang, "seated")
        await fd.click(lobby, custom_id(lobby, "begin"), user="alice")
        await fd.wait_for(lambda: ":hand:" in " ".join(fd.world.messages_by_id[lobby.id].custom_ids), WAIT, "bridge")
        voyage.bridge = fd.world.messages_by_id[lobby.id]
        thread = await fd.wait_for(lambda: fd.thread_of(voyage.bridge), WAIT, "the voyage log thread")

        # Every member learns their side privately; exactly one is the Legion's agent (D-10).
        for user in CREW:
            await voyage.panel(user)
        assert sorted(voyage.sides.values()) == ["crew", "crew", "crew", "legion"]
        # The side also came by DM (optional), to everyone whose DMs are open.
        for user in CREW[:3]:
            dm = await fd.wait_for(lambda user=user: fd.dms_for(user), WAIT, f"{user}'s DM")
            assert said(f"legion.side.{voyage.sides[user]}") in dm[0].text
        assert not fd.dms_for("dave")
        stranger = await voyage.private(await fd.click(voyage.bridge, custom_id(voyage.bridge, "hand"), user=STRANGER))
        assert stranger.text == refusal(lang, "seated")
        stop = await fd.slash("legion stop", {}, user="bob", channel="bridge")  # only the host stops
        assert (await voyage.private(stop)).text == refusal(lang, "host")

        mutiny = said("legion.why.mutiny")
        steps = 0
        kept_panel: Any = None

        def revealed() -> bool:
            return any(re.search(pattern(lang, "legion.result.title"), m.text) for m in voyage.public())

        while prefix(lang, "legion.bridge.over") not in fd.world.messages_by_id[voyage.bridge.id].text:
            if steps == RESTART_AT:
                # A panel opened before the crash is pressed after it: the voyage resumes from the store.
                user = voyage.waiting()
                kept_panel = await voyage.panel(user)
                await kill_bot(fd, first)
                await start_bot(fd, tmp_path / "bot", time_scale=30)
                await voyage.step(refuse=mutiny not in voyage.public_text(), panel=kept_panel)
            else:
                await voyage.step(refuse=mutiny not in voyage.public_text())
            steps += 1
            assert steps < 120, "the voyage does not end"
        assert kept_panel is not None
        await fd.wait_for(revealed, WAIT, "the reveal")
        # The bridge's announcements and whose move it is were spoken where Alice and Bob sit.
        spoken = await fd.wait_for_utterances(3, timeout=WAIT)
        # A busy machine may stall the player long enough for fakecord to split one line in two
        # (a gap over 0.25 s), so the lines' audio is summed rather than each one's length.
        assert sum(u.duration for u in spoken[:3]) > 0.6
        final_bridge = fd.world.messages_by_id[voyage.bridge.id]
        assert [a.filename for a in final_bridge.attachments] == ["bridge.png"]  # the picture, replaced each step

        log = "\n".join(m.text for m in fd.messages(thread.id))
        assert re.search(pattern(lang, "legion.ev.duel"), log)  # the refusal duels were rolled and shown
        assert mutiny in log  # three unexecuted orders passed the captaincy
        assert said("legion.ev.tour_started", kind=said("legion.kindof.station")) in log

        # The reveal names every side; the result is stored for the records.
        reveal = next(m for m in voyage.public() if re.search(pattern(lang, "legion.result.seat"), m.text))
        for user, side in voyage.sides.items():
            name = next(n for n, u in NAMES.items() if u == user)
            seat = said("legion.result.seat", name=name, character="\x00", side=said(f"legion.side.{side}"))
            assert re.search(".+?".join(re.escape(part) for part in seat.split("\x00")), reveal.text)
        with sqlite3.connect(tmp_path / "bot" / "bot.sqlite3") as db:
            rows = db.execute("SELECT game, outcome, players FROM game_results").fetchall()
        assert len(rows) == 1 and rows[0][0] == "legion" and rows[0][1] in ("crew", "legion")
        assert '"role": "legion"' in rows[0][2]

        # Privacy, over every public message (bridge, pings, log thread, reveal) and every earlier
        # version of each: no private panel wording, no hand, and no side before the end (D-9),
        # except a character out or broken, whose side the engine reveals at once.
        endings = [prefix(lang, "legion.ev.voyage_over"), prefix(lang, "legion.bridge.over")]
        broke = re.search(
            pattern(lang, "legion.ev.character_out") + "|" + pattern(lang, "legion.ev.character_broken"), log
        )
        checked = 0
        for message in voyage.public():
            for text in versions(message):
                checked += 1
                for side in ("crew", "legion"):
                    assert said("legion.panel.side", side=said(f"legion.side.{side}")) not in text
                assert prefix(lang, "legion.panel.hand") not in text
                assert not any(hand in text for hand in voyage.hands)
                if any(ending in text for ending in endings) or message.id >= reveal.id:
                    continue
                for user, side in voyage.sides.items():
                    name = next(n for n, u in NAMES.items() if u == user)
                    side_word = said(f"legion.side.{side}")
                    assert said("legion.ev.side_revealed", seat=name, side=side_word) not in text, text
                assert not re.search(pattern(lang, "legion.result.seat"), text), text
                if not broke:
                    assert not re.search(pattern(lang, "legion.bridge.revealed"), text), text
        assert checked > 60
        assert len(voyage.hands) >= 4
        # Turn pings name whose move it is and may mention only them.
        crew_ids = {fd.user(u).id for u in CREW}
        pings = 0
        for call in fd.rest_log:
            body = call.json if isinstance(call.json, dict) else {}
            content = str(body.get("content") or "")
            if call.method == "POST" and content.startswith("<@"):
                named = {int(i) for i in re.findall(r"<@(\d+)>", content)}
                allowed = body.get("allowed_mentions") or {}
                assert named and named <= crew_ids
                assert {int(u) for u in allowed.get("users", [])} == named and not allowed.get("parse")
                pings += 1
        assert pings >= 5
        # The records show the voyage.
        board = await answer(fd, await fd.slash("legion board", {}, user="alice", channel="bridge"))
        crew_won = int(rows[0][1] == "crew")
        mission_line = t(
            "en",
            "legion.board.mission",
            mission=t("en", f"legion.mission.{MISSION}"),
            crew=crew_won,
            legion=1 - crew_won,
        )
        assert t("en", "legion.board.title", games=1) in board.text and mission_line in board.text
        agent = int(voyage.sides["alice"] == "legion")
        assert t("en", "legion.board.career", voyages=1, agent=agent, won=int(agent != crew_won)) in board.text
        assert_clean(fd)


async def test_one_voyage_per_channel_and_the_host_abandons_it(tmp_path: Path) -> None:
    """A second /legion start in a busy channel is refused; the host's /legion stop frees the
    channel, the bridge loses its buttons, and its old My hand answers that the game is over.  A
    lobby is cancelled by its host only (the table's Cancel), which frees the channel too."""
    async with fake_discord(WORLD) as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=30)
        lang = "cs"
        await fd.slash("legion start", {"language": lang, "seed": 4}, user="alice", channel="bridge")
        lobby = await fd.wait_for_message(
            channel="bridge", predicate=lambda m: any(":join:" in c for c in m.custom_ids), timeout=WAIT
        )
        busy = await answer(fd, await fd.slash("legion start", {"language": lang}, user="bob", channel="bridge"))
        assert busy.ephemeral and busy.text == t(lang, "legion.busy")
        for user in ("bob", "carol"):
            await fd.click(lobby, custom_id(lobby, "join"), user=user)
        await fd.click(lobby, custom_id(lobby, "begin"), user="alice")
        await fd.wait_for(lambda: ":hand:" in " ".join(fd.world.messages_by_id[lobby.id].custom_ids), WAIT, "bridge")
        bridge = fd.world.messages_by_id[lobby.id]
        assert t(lang, "legion.bridge.hand") in [b.get("label") for b in bridge.buttons]

        panels = []
        for user in ("alice", "bob", "carol"):
            panel = await answer(fd, await fd.click(bridge, custom_id(bridge, "hand"), user=user))
            if panel.custom_ids:
                panels.append((user, panel))
        assert panels  # the member the voyage waits for has choices

        stop = await answer(fd, await fd.slash("legion stop", {}, user="alice", channel="bridge"))
        assert not stop.ephemeral and stop.text == t(lang, "legion.stopped")
        await fd.wait_for(lambda: not fd.world.messages_by_id[lobby.id].custom_ids, WAIT, "the bridge without buttons")
        user, panel = panels[0]
        late = await answer(fd, await fd.click(panel, panel.custom_ids[0], user=user, values=select_first(panel)))
        assert late.ephemeral and late.text == t(lang, "table.over")

        again = await fd.slash("legion start", {"language": lang}, user="bob", channel="bridge")
        assert again.acked
        second = await fd.wait_for_message(
            channel="bridge",
            predicate=lambda m: m.id != lobby.id and any(":join:" in c for c in m.custom_ids),
            timeout=WAIT,
        )
        not_host = await answer(fd, await fd.click(second, custom_id(second, "cancel"), user="carol"))
        assert not_host.ephemeral and not_host.text == refusal(lang, "host")
        cancelled = await fd.click(second, custom_id(second, "cancel"), user="bob")
        assert cancelled.ack_type == 7  # the lobby post itself says so and loses its buttons
        await fd.wait_for(lambda: not fd.world.messages_by_id[second.id].custom_ids, WAIT, "the cancelled lobby")
        assert fd.world.messages_by_id[second.id].text == t(lang, "legion.stopped")
        third = await fd.slash("legion start", {"language": lang}, user="dave", channel="bridge")
        assert not (await answer(fd, third)).ephemeral  # the channel is free again
        assert_clean(fd)
