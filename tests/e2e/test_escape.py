"""Star World: Escape through fakecord: a digital game of three members to a winner or to the
storm, a hostile stranger refused at every door, the bot killed and restarted in the middle, the
hours and turns spoken in the voice channel where the host sits, a second game in Russian, and no
public message ever naming a secret mission."""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import WAIT, answer, assert_clean, fake_discord, kill_bot, public, start_bot

pytestmark = pytest.mark.e2e

CREW = ("alice", "bob", "carol")
# The referee game's world: nobody sits in voice, so the station stays in text (and the test does
# not pay for speech it does not listen to).
NO_VOICE: dict[str, Any] = {
    "guild": {
        "members": [
            {"username": "alice", "global_name": "Alice", "roles": ["Captain", "Crew"], "voice": None},
            {"username": "bob", "global_name": "Bob", "roles": ["Crew"], "voice": None},
            {"username": "carol", "global_name": "Carol", "roles": ["Crew"], "voice": None},
            {"username": "dave", "global_name": "Dave", "roles": ["Crew"], "voice": None},
            {"username": "erin", "global_name": "Erin", "roles": [], "voice": None, "dm_open": False},
        ]
    }
}
STRANGER = "erin"
MISSIONS_EN = ("Smuggler", "Data thief", "Saboteur", "Usurper")
MISSIONS_RU = ("Контрабандист", "Похититель данных", "Диверсант", "Узурпатор")


def esc(action: str) -> Any:
    """A predicate: the message carries an Escape component of this action (the platform's table
    ids, `gm:escape:<session>:<action>:<arg>`)."""
    return lambda m: any(c.startswith("gm:escape:") and c.split(":")[3] == action for c in m.custom_ids)


def esc_id(message: Any, action: str, prefix: str = "") -> str:
    for custom_id in message.custom_ids:
        parts = custom_id.split(":")
        if parts[:2] == ["gm", "escape"] and parts[3] == action and parts[4].startswith(prefix):
            return str(custom_id)
    raise AssertionError(f"no {action}:{prefix} on {message.text[:300]!r}: {message.custom_ids}")


def enabled_moves(panel: Any) -> list[str]:
    return [
        b["custom_id"] for b in panel.buttons if ":do:move." in b.get("custom_id", "") and not b.get("disabled", False)
    ]


def select_values(panel: Any) -> list[str]:
    for select in panel.selects:
        return [o["value"] for o in select["options"]]
    return []


def versions(fd: Any, channel: str = "bridge") -> list[str]:
    """Every public text the bot ever showed in a channel: each message and each earlier version
    of it (the station post is edited after every step)."""
    texts = []
    for message in public(fd, channel):
        texts.append(message.text)
        texts += [str(old.get("content") or "") for old in message.history]
    return texts


def next_to_move(panel_text: str) -> str | None:
    """Whose move it is, as the panel says it ("Your move." or "Waiting for Bob.")."""
    found = re.search(r"(?:Waiting for|Ждём:) (\w+)\.", panel_text)
    return found.group(1).lower() if found else None


class Table:
    """The crew at one channel: opens panels from the station post and plays a simple policy."""

    def __init__(self, fd: Any, channel: str) -> None:
        self.fd, self.channel = fd, channel
        self.post: Any = None
        self.panels: dict[str, Any] = {}
        self.missions: dict[str, str] = {}
        self.enemy_rolls = 0

    async def panel(self, user: str) -> Any:
        post = self.fd.world.messages_by_id[self.post.id]
        ix = await self.fd.click(post, esc_id(post, "panel"), user=user)
        panel = await answer(self.fd, ix)
        assert panel.ephemeral and "\n" in panel.text, panel.text
        self.panels[user] = panel
        mission = re.search(r"\*\*([^*]+)\*\*:", panel.text.split("\n")[1])
        assert mission, panel.text
        self.missions[user] = mission.group(1)
        return panel

    async def press(self, user: str, panel: Any, custom_id: str, values: list[str] | None = None) -> Any:
        ix = await self.fd.click(panel, custom_id, user=user, values=values)
        assert ix.acked
        if ix.ack_type == 7:  # the panel edited in place
            return ix.message
        return await answer(self.fd, ix)

    async def turn(self, user: str, panel: Any) -> tuple[Any, str | None]:
        """Play `user`'s move until someone else is to move: fight when in a fight, drop or take
        a card when the game waits for it, take up to two steps, then end the turn."""
        steps = 0
        for _ in range(40):
            text = panel.text
            if "Waiting for" in text or "Ждём:" in text or "wins" in text or "Time is up" in text:
                return panel, next_to_move(text)
            values = select_values(panel)
            ends = [c for c in panel.custom_ids if ":do:end_turn." in c]
            flee = [c for c in panel.custom_ids if ":do:flee." in c]
            strike = [c for c in panel.custom_ids if ":do:enemy_strike." in c]
            attacks = [v for v in values if v.startswith("attack.")]
            if strike:  # the rulebook's way: this player rolls for the enemy in another's fight
                assert "You act out the enemy" in panel.text
                self.enemy_rolls += 1
                panel = await self.press(user, panel, strike[0])
            elif attacks:
                panel = await self.press(user, panel, esc_id(panel, "pick_act"), [attacks[-1]])
            elif flee:
                panel = await self.press(user, panel, flee[0])
            elif not ends and values:  # overweight or spoils: the game waits for a card
                panel = await self.press(user, panel, esc_id(panel, "pick_act"), [values[0]])
            elif steps < 2 and enabled_moves(panel):
                steps += 1
                panel = await self.press(user, panel, enabled_moves(panel)[-1])
            else:
                panel = await self.press(user, panel, ends[0])
        raise AssertionError(f"{user}'s turn does not end: {panel.text}")


async def open_game(fd: Any, channel: str, host: str, crew: tuple[str, ...], **options: Any) -> Table:
    ix = await fd.slash(
        "escape start", {"mode": "digital", "difficulty": "hard", **options}, user=host, channel=channel
    )
    lobby = await answer(fd, ix, esc("join"))
    assert not lobby.ephemeral
    for user in crew:
        if user != host:
            joined = await fd.click(lobby, esc_id(lobby, "join"), user=user)
            assert joined.ack_type == 7
    table = Table(fd, channel)
    begun = await fd.click(lobby, esc_id(lobby, "begin"), user=host)
    assert begun.acked
    table.post = await fd.wait_for_message(channel=channel, predicate=esc("panel"), timeout=WAIT)
    return table


async def test_a_digital_game_of_three_to_the_end_with_a_restart_in_the_middle(tmp_path: Path) -> None:
    async with fake_discord() as fd:
        first = await start_bot(fd, tmp_path / "bot", time_scale=20)
        options = {"mode": "digital", "difficulty": "hard", "seed": 5}  # seed 5: fights on the way
        ix = await fd.slash("escape start", options, user="alice", channel="bridge")
        lobby = await answer(fd, ix, esc("join"))
        for user in ("bob", "carol"):
            joined = await fd.click(lobby, esc_id(lobby, "join"), user=user)
            assert joined.ack_type == 7, (await answer(fd, joined)).text
        assert "(3/4)" in fd.world.messages_by_id[lobby.id].text

        # The stranger may look at the lobby but not start it; a second game here is refused.
        refused = await answer(fd, await fd.click(lobby, esc_id(lobby, "begin"), user=STRANGER))
        assert refused.ephemeral and "only the host" in refused.text
        again = await answer(
            fd, await fd.slash("escape start", {"mode": "referee", "difficulty": "easy"}, user="bob", channel="bridge")
        )
        assert again.ephemeral and "already has a game" in again.text

        await fd.click(lobby, esc_id(lobby, "begin"), user="alice")
        table = Table(fd, "bridge")
        table.post = await fd.wait_for_message(channel="bridge", predicate=esc("panel"), timeout=WAIT)
        assert table.post.attachments, "the station picture"
        ping = await fd.wait_for_message("your move", channel="bridge", timeout=WAIT)
        first_mover = next(u for u in CREW if fd.world.user(u).id in ping.mention_ids)
        assert len(ping.mention_ids) == 1

        # The stranger has no panel; a seated player whose move it is not is refused politely.
        stranger = await answer(fd, await fd.click(table.post, esc_id(table.post, "panel"), user=STRANGER))
        assert stranger.ephemeral and "only members seated" in stranger.text
        for user in CREW:
            own = await table.panel(user)
            assert own.attachments, "each player's own station picture, in their panel only"
        # A panel shows a waiting player no moves; a stale panel pressed out of turn is refused.
        waiting = next(u for u in CREW if u != first_mover)
        assert "Waiting for" in table.panels[waiting].text and not enabled_moves(table.panels[waiting])
        stale = await table.panel(first_mover)
        fresh = await table.panel(first_mover)
        ended = await table.press(first_mover, fresh, esc_id(fresh, "do", "end_turn"))
        assert "Waiting for" in ended.text
        out_of_turn = await answer(fd, await fd.click(stale, esc_id(stale, "do", "end_turn"), user=first_mover))
        assert out_of_turn.ephemeral and "not your turn" in out_of_turn.text
        first_mover = next_to_move(ended.text) or ""
        # The next player's panel, opened before that step, was redrawn by it: their move now.
        opened = table.panels[first_mover].id
        await fd.wait_for(lambda: enabled_moves(fd.world.messages_by_id[opened]), WAIT, "the panel redrawn")

        mover: str | None = first_mover
        restarted = False
        kept_panel: tuple[str, Any] | None = None
        kept_used = False
        for turns in range(1, 200):
            assert mover is not None
            if kept_panel is not None and kept_panel[0] == mover and restarted and not kept_used:
                panel, kept_used = kept_panel[1], True  # opened before the restart, pressed after it
            else:
                panel = await table.panel(mover)
            panel, nxt = await table.turn(mover, panel)
            table.panels[mover] = panel
            if nxt is None:
                break
            if not restarted and turns == 8:  # hour 3 (three players, one turn taken above)
                # Kill the bot mid-game; the next player's panel, opened before, still works after.
                kept = await table.panel(nxt)
                kept_panel = (nxt, kept)
                await kill_bot(fd, first)
                await start_bot(fd, tmp_path / "bot", time_scale=20)
                restarted = True
            mover = nxt
        assert restarted and kept_used, panel.text
        # Seed 5 leads a pawn into the station's people: the next player rolled for the enemy.
        assert table.enemy_rolls > 0 and "rolls for it" in "\n".join(versions(fd))
        result = await fd.wait_for(
            lambda: next((m for m in public(fd) if re.match(r"\*\*(\w+ wins|Time is up)\*\*", m.text)), None),
            WAIT,
            "the result",
        )

        # No public message ever named a loser's mission; the winner's only in the result.
        winner = next((u for u in CREW if result.text.startswith(f"**{fd.world.user(u).global_name} wins")), None)
        for text in versions(fd):  # every public message, every version of it
            for user, mission in table.missions.items():
                if user == winner and text == result.text:
                    continue
                assert mission not in text, (user, mission, text)
        post = await fd.wait_for(
            lambda: (m := fd.world.messages_by_id[table.post.id]) and not esc("panel")(m) and m,
            WAIT,
            "the finished station post without controls",
        )
        assert "Hour 10 of 10" in post.text or "wins" in post.text
        # The hours, the general events and whose move it is were spoken where Alice sits (the
        # platform's say_now, queued behind one another: a few are enough to know it speaks).
        spoken = await fd.wait_for_utterances(3, timeout=WAIT)
        # A busy machine may stall the player long enough for fakecord to split one line in two
        # (a gap over 0.25 s), so the lines' audio is summed rather than each one's length.
        assert sum(u.duration for u in spoken[:3]) > 0.6

        # The record was written with the last move.
        db = sqlite3.connect(tmp_path / "bot" / "bot.sqlite3")
        rows = db.execute("SELECT outcome, details FROM game_results WHERE game = 'escape'").fetchall()
        assert len(rows) == 1 and rows[0][0] == ("escaped" if winner else "time_out")
        assert '"mode": "digital"' in rows[0][1] and '"difficulty": "hard"' in rows[0][1]

        board = await answer(fd, await fd.slash("escape board", user=STRANGER, channel="bridge"))
        assert "1 games: " in board.text and not board.ephemeral

        # A second game, in Russian, in another channel: the lobby, the panel, the host's stop.
        ru = await open_game(fd, "general", "bob", ("bob", "dave"), language="ru")
        assert "Звёздный мир: Побег" in ru.post.text
        panel = await ru.panel("dave")
        assert "Секретная миссия" in panel.text and any(m in panel.text for m in MISSIONS_RU)
        refused = await answer(fd, await fd.slash("escape stop", user=STRANGER, channel="general"))
        assert refused.ephemeral
        stopped = await answer(fd, await fd.slash("escape stop", user="bob", channel="general"))
        assert "завершил" in stopped.text
        for text in versions(fd, "general"):
            assert not [m for m in MISSIONS_RU + MISSIONS_EN if m in text], text
        assert_clean(fd)


async def test_a_referee_game_of_three_to_a_winner_with_a_restart_mid_round(tmp_path: Path) -> None:
    """Seed 1 deals Bob the saboteur and the first move: he tries the reactor until it shuts
    down, takes the control center from guards the bot plays (numbers typed in a modal, a typo
    refused first), enters an oxygen helmet off a card and escapes.  Carol meets a trap; the bot
    is killed between Bob's and Carol's turns of a round.  Nobody sits in voice: nothing is said."""
    async with fake_discord(NO_VOICE) as fd:
        first = await start_bot(fd, tmp_path / "bot", time_scale=20)
        table = await open_game(fd, "bridge", "alice", CREW, mode="referee", difficulty="easy", seed=1)
        assert not table.post.attachments  # the board is on the table
        ping = await fd.wait_for_message("your move", channel="bridge", timeout=WAIT)
        assert ping.mention_ids == [fd.world.user("bob").id]
        for user in CREW:
            await table.panel(user)
        assert table.missions["bob"] == "Saboteur"

        async def modal(user: str, panel: Any, value: str, numbers: str) -> Any:
            ix = await fd.click(panel, esc_id(panel, "pick_act"), user=user, values=[value])
            assert ix.modal is not None
            return await answer(fd, await fd.submit_modal({"numbers": numbers}, user=user, source=ix))

        async def shown(words: str) -> bool:
            """The station post shows `words` (its edits are paced: wait for it)."""
            await fd.wait_for(lambda: words in fd.world.messages_by_id[table.post.id].text, WAIT, words)
            return True

        # Carol types her own character card off the box (the first hour only).
        carol = table.panels["carol"]
        card = await modal("carol", carol, "set_character", "2 6 3 12 11")
        assert "Character: Crew3 (Cyborg), 6 AP, unarmed damage 3" in card.text and "Health 11/11" in card.text

        mover, trapped, typo_seen, helmet, restarted = "bob", False, False, False, False
        shut_seen = center_seen = False
        for _ in range(200):
            panel = await table.panel(mover)
            values = select_values(panel)

            def pick(prefix: str, values: list[str] = values) -> str | None:
                return next((v for v in values if v.startswith(prefix)), None)

            end = esc_id(panel, "do", "end_turn") if ":do:end_turn." in " ".join(panel.custom_ids) else None
            if mover != "bob":
                if mover == "carol" and not trapped:  # a step on the table's board, then the trap
                    panel = await table.press(mover, panel, esc_id(panel, "pick_act"), [pick("ref_step.") or ""])
                    panel = await table.press(mover, panel, esc_id(panel, "pick_act"), [pick("ref_trap.") or ""])
                    trapped = await shown("Trap! Seat 3 (Carol) rolls")
                assert end is not None, panel.text
                panel = await table.press(mover, panel, esc_id(panel, "do", "end_turn"))
            elif pick("attack."):
                panel = await table.press(mover, panel, esc_id(panel, "pick_act"), [pick("attack.") or ""])
            elif pick("reactor."):
                panel = await table.press(mover, panel, esc_id(panel, "pick_act"), [pick("reactor.") or ""])
            elif pick("escape."):
                panel = await table.press(mover, panel, esc_id(panel, "pick_act"), [pick("escape.") or ""])
            elif "AP left 0" not in panel.text and pick("ref_guard.2."):
                if not typo_seen:
                    typo = await modal(mover, panel, pick("ref_guard.2.") or "", "six two")
                    assert typo.ephemeral and "out of range" in typo.text
                    typo_seen = True
                panel = await modal(mover, panel, pick("ref_guard.2.") or "", "1 1")
                assert "The bot plays it" in panel.text
            elif "AP left 0" not in panel.text and "Gravity off" in panel.text and not helmet:
                panel = await modal(mover, panel, pick("ref_gear.") or "", "3 2 0 1 0 0 0 0 0")
                helmet = True
            else:
                assert end is not None, panel.text
                panel = await table.press(mover, panel, end)
                if not restarted and "Gravity off" in panel.text:
                    await kill_bot(fd, first)  # mid-round: Bob has moved, Carol and Alice not yet
                    await start_bot(fd, tmp_path / "bot", time_scale=20)
                    restarted = True
            if "Gravity off" in panel.text and not shut_seen:
                shut_seen = await shown("Reactor shut down")
            if "Everything but the escape is done" in panel.text and not center_seen:
                center_seen = await shown("takes the Control Center")
            if "wins" in panel.text:
                break
            mover = next_to_move(panel.text) or mover
        assert restarted and trapped and helmet and shut_seen and center_seen
        result = await fd.wait_for(
            lambda: next((m for m in public(fd) if m.text.startswith("**Bob wins**")), None), WAIT, "Bob's win"
        )
        assert "Saboteur" in result.text
        await fd.wait_for(
            lambda: (m := fd.world.messages_by_id[table.post.id]) and not esc("panel")(m) and m,
            WAIT,
            "the finished station post",
        )
        assert "The enemy rolls" in "\n".join(versions(fd))  # the bot struck for the guards
        for text in versions(fd):  # every public message, every version of it
            for user in ("alice", "carol"):  # the losers' missions stay secret to the end
                assert table.missions[user] not in text, text
            if text != result.text:
                assert "Saboteur" not in text, text
        db = sqlite3.connect(tmp_path / "bot" / "bot.sqlite3")
        rows = db.execute("SELECT outcome, details FROM game_results WHERE game = 'escape'").fetchall()
        assert len(rows) == 1 and rows[0][0] == "escaped" and '"mission": "saboteur"' in rows[0][1]
        assert fd.utterances() == []  # no one in voice: the hours stayed in the station post
        assert_clean(fd)
