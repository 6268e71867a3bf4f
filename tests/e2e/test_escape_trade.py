"""Star World: Escape through fakecord: trading between players (rules doc D26) and, in referee
mode, an enemy card picked from the pack instead of typed (issue 27).

A referee game of three (the crew vouches that Bob and Carol share a tile, as for a duel): Bob
and Carol enter a gear card each, Bob offers Carol a swap in the panel's picks, Carol is pinged
and accepts it, both panels follow; a second offer is declined; a third is withdrawn and Carol's
older panel, still showing Accept, is refused politely; a stranger's press is refused at the
door; the public post names who traded with whom but never a card.  Then Bob picks his
encounter's enemy from the pack's list."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.harness import WAIT, answer, assert_clean, fake_discord, start_bot
from tests.e2e.test_escape import CREW, NO_VOICE, STRANGER, esc_id, open_game, versions

pytestmark = pytest.mark.e2e


def options_of(message: Any, action: str) -> list[str]:
    """The values of the message's select of this action (`pick_act`, `pick_trade`, ...)."""
    for select in message.selects:
        if select["custom_id"].split(":")[3] == action:
            return [o["value"] for o in select["options"]]
    return []


async def test_trades_accepted_declined_withdrawn_and_an_enemy_picked_from_the_pack(tmp_path: Path) -> None:
    async with fake_discord(NO_VOICE) as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=20)
        table = await open_game(fd, "bridge", "alice", CREW, mode="referee", difficulty="easy", seed=1)
        ping = await fd.wait_for_message("your move", channel="bridge", timeout=WAIT)
        assert ping.mention_ids == [fd.world.user("bob").id]  # seed 1: Bob moves first

        async def modal(user: str, panel: Any, value: str, numbers: str) -> Any:
            ix = await fd.click(panel, esc_id(panel, "pick_act"), user=user, values=[value])
            assert ix.modal is not None
            return await answer(fd, await fd.submit_modal({"numbers": numbers}, user=user, source=ix))

        async def esc_pick(user: str, message: Any, action: str, value: str) -> Any:
            ix = await fd.click(message, esc_id(message, action), user=user, values=[value])
            assert ix.ack_type == 7, (await answer(fd, ix)).text  # the panel redrawn in place
            return ix.message

        async def offer(give: str, ask: str) -> Any:
            """Bob's trade with Carol (seat 3) in three picks on his panel."""
            panel = await table.panel("bob")
            assert "trade.2" in options_of(panel, "pick_act"), options_of(panel, "pick_act")
            gives = await esc_pick("bob", panel, "pick_act", "trade.2")
            assert "Trade with Carol" in gives.text and give in options_of(gives, "pick_trade")
            asks = await esc_pick("bob", gives, "pick_trade", give)
            assert "What do you ask for" in asks.text
            offered = await esc_pick("bob", asks, "pick_trade", ask)
            assert "You offered Carol a trade" in offered.text, offered.text
            return offered

        async def shown(words: str) -> None:
            await fd.wait_for(lambda: words in fd.world.messages_by_id[table.post.id].text, WAIT, words)

        # Gear off the box's cards: Bob a one-handed gun, Carol an oxygen helmet.
        bob = await modal("bob", await table.panel("bob"), "ref_gear.-1.-1.-1", "0 2 3 1 4 0 0 0 0")
        carol = await modal("carol", await table.panel("carol"), "ref_gear.-1.-1.-1", "3 2 0 1 0 0 0 0 0")
        gun = re.search(r"Gear: (Ref\d+) \(damage 3", bob.text)
        helmet = re.search(r"Gear: (Ref\d+) \(weight 2", carol.text)
        assert gun and helmet, (bob.text, carol.text)
        ref1, ref2 = gun.group(1), helmet.group(1)

        # 1. An accepted swap.  Carol is pinged (who offers, not the cards); a stranger's press of
        # that ping's button is refused at the door.
        bob_panel = await offer("0", "0")
        trade_ping = await fd.wait_for_message("offers you a trade", channel="bridge", timeout=WAIT)
        assert trade_ping.mention_ids == [fd.world.user("carol").id] and "Ref" not in trade_ping.text
        refused = await answer(fd, await fd.click(trade_ping, esc_id(trade_ping, "panel"), user=STRANGER))
        assert refused.ephemeral and "only members seated" in refused.text
        carol = await table.panel("carol")
        assert "Bob offers you a trade" in carol.text and f"you get {ref1}" in carol.text
        carol = await table.press("carol", carol, esc_id(carol, "do", "accept_trade"))
        assert f"Gear: {ref1}" in carol.text and ref2 not in carol.text
        await shown("Seat 3 (Carol) accepts the trade with seat 2 (Bob)")
        # Bob's open panel follows the step he did not make.
        await fd.wait_for(
            lambda: f"Gear: {ref2}" in fd.world.messages_by_id[bob_panel.id].text, WAIT, "Bob's panel redrawn"
        )

        # 2. A declined offer: nothing changes hands.  Carol keeps an older panel open as well.
        await offer("0", "0")
        older = await table.panel("carol")
        carol = await table.panel("carol")
        carol = await table.press("carol", carol, esc_id(carol, "do", "decline_trade"))
        assert f"Gear: {ref1}" in carol.text
        await shown("Seat 3 (Carol) declines the trade with seat 2 (Bob)")

        # 3. A gift withdrawn by Bob; Carol's older panel still shows Accept: refused politely.
        withdrawn = await offer("0", "-1")
        withdrawn = await table.press("bob", withdrawn, esc_id(withdrawn, "do", "withdraw_trade"))
        assert f"Gear: {ref2}" in withdrawn.text and "You offered" not in withdrawn.text
        await shown("Seat 2 (Bob) withdraws the trade offered to seat 3 (Carol)")
        stale = await answer(fd, await fd.click(older, esc_id(older, "do", "accept_trade"), user="carol"))
        assert stale.ephemeral and "no trade offer for you to answer" in stale.text
        assert f"Gear: {ref2}" in (await table.panel("bob")).text  # still Bob's

        # Referee mode: the encounter's enemy picked from the pack's list, not typed.
        bob = await table.panel("bob")
        enemies = options_of(bob, "pick_enemy")
        assert "ref_encounter.-1.-1.-1.5.2.1.3.1" in enemies, enemies
        bob = await esc_pick("bob", bob, "pick_enemy", "ref_encounter.-1.-1.-1.5.2.1.3.1")
        await shown("Dialogue: seat 2 (Bob) rolls")

        # The public texts said who offered whom, and never named a card.
        texts = versions(fd)
        assert any("Seat 2 (Bob) offers seat 3 (Carol) a trade" in text for text in texts)
        for text in texts:
            assert ref1 not in text and ref2 not in text, text
        assert_clean(fd)
