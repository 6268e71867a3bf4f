"""Space Alert's data transfer, pressed as players press it: the hand's Give select.

Why a custom mission at TIME_SCALE 1: the giving window lasts 8 mission seconds from the
announcement to the beep (rulebook §2.2, engine/flight/timeline.py TRANSFER_BEEP_AFTER_S), which
is 0.4 s at the other tests' TIME_SCALE 20, too short for a loaded machine to press anything.  At
TIME_SCALE 1 it is 8 real seconds, as at a table; a custom timeline (uploaded through /mission
custom add, as an admin would) opens it 10 s after the start instead of the official 1:30, so the
test stays short without touching the rule.  The flight is aborted once the window has closed.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bot.platform.i18n import t
from engine.flight.timeline import load_official
from tests.e2e.harness import ADMIN_WORLD as WORLD
from tests.e2e.harness import WAIT, Flight, answer, assert_clean, cid, fake_discord, has, private, start_bot

pytestmark = pytest.mark.e2e

TRANSFER_AT_S = 10


def early_transfer() -> bytes:
    """S1-1 with a data transfer 10 s after the start (its first threat moved to 0:25 to keep the
    intercom's reserved gaps); every other line as on the recording."""
    data = load_official("S1-1").to_json_dict()
    events = data["events"]
    events[0]["t"] = 25
    events[0].pop("time", None)
    data["events"] = [{"t": TRANSFER_AT_S, "event": "data_transfer"}, *events]
    return json.dumps(data | {"id": "GIFT-1", "name": "Early transfer"}).encode()


def now(fd: Any, message: Any) -> Any:
    """The message as its owner sees it now (live redraws edit it)."""
    return fd.world.messages_by_id[message.id]


def held(hand: Any) -> int:
    """How many cards the hand says it holds."""
    before, after = t("en", "hand.cards", n="\0").split("\0")
    found = re.search(re.escape(before) + r"(\d+)" + re.escape(after), hand.text)
    assert found, hand.text
    return int(found[1])


def gift(hand: Any, to: str, other_than: str = "") -> tuple[str, str]:
    """The first Give option to `to` (of a card other than the option value `other_than`'s):
    (its value, the card's text as the hand lists it)."""
    for option in hand.find_component(cid(hand, "give"))["options"]:
        card, _, receiver = option["label"].rpartition(" → ")
        if receiver == to and option["value"].split(".")[0] != other_than.split(".")[0]:
            return option["value"], card
    raise AssertionError(f"no gift to {to}: {hand.find_component(cid(hand, 'give'))}")


async def test_a_card_given_in_a_data_transfer_moves_between_two_hands(tmp_path: Path) -> None:
    async with fake_discord(WORLD) as fd:
        await start_bot(fd, tmp_path / "bot", time_scale=1)
        ix = await fd.slash(
            "mission custom add", {"file": ("gift.json", early_transfer())}, user="alice", channel="bridge"
        )
        assert (await private(fd, ix)).text == t("en", "custom.saved", mission="GIFT-1")

        flight = Flight(fd, "bridge", None, "alice", ("alice", "bob", "carol"))
        await flight.open_lobby("GIFT-1", seed=5)
        deck = await flight.board()
        hands = {user: await flight.station(user) for user in flight.crew}
        assert not any(has("give")(h) for h in hands.values())  # no transfer yet: nothing to give

        # The announcement opens the window: every open hand is redrawn with the Give select.
        for user in flight.crew:
            await fd.wait_for(lambda u=user: has("give")(now(fd, hands[u])), WAIT, f"{user}'s Give select")
        alice, bob = now(fd, hands["alice"]), now(fd, hands["bob"])
        assert t("en", "deck.transfer") in alice.text and t("en", "deck.transfer") in bob.text
        alice_had, bob_had = held(alice), held(bob)
        value, card = gift(alice, "Bob")
        bob_copies = bob.text.count(card)

        # Alice gives Bob a card: it leaves her hand, and Bob's open hand shows it without a click.
        gave = await fd.click(alice, cid(alice, "give"), user="alice", values=[value])
        assert gave.acked and gave.errors == []
        alice = now(fd, hands["alice"])
        assert held(alice) == alice_had - 1 and not has("give")(alice), alice.text  # one card per transfer
        await fd.wait_for(lambda: held(now(fd, hands["bob"])) == bob_had + 1, WAIT, "the card in Bob's hand")
        bob = now(fd, hands["bob"])
        assert bob.text.count(card) == bob_copies + 1, (card, bob.text)
        assert has("give")(bob)  # Bob has not given yet: his window is still open

        # Carol tries to give two cards in one transfer with two quick presses: one goes, the
        # other is refused privately with the rule's reason, and only one card left her hand.
        carol = now(fd, hands["carol"])
        carol_had = held(carol)
        first, _ = gift(carol, "Alice")
        second, _ = gift(carol, "Bob", other_than=first)
        presses = [
            await fd.click(carol, cid(carol, "give"), user="carol", values=[v], wait=False) for v in (first, second)
        ]
        for press in presses:
            await fd.wait_for(lambda p=press: p.acked, WAIT, "carol's press answered")
        refusals = [m.text for p in presses for m in p.messages if m.ephemeral and not m.loading and m.embeds == []]
        assert refusals == [t("en", "reason.already_gave")], refusals
        await fd.wait_for(lambda: held(now(fd, hands["carol"])) == carol_had - 1, WAIT, "one card gone")

        # A member outside the crew gets no hand, so nothing to give.
        stranger = await private(fd, await fd.click(deck, cid(deck, "station"), user="erin"))
        assert stranger.text == t("en", "error.not_crew") and not has("give")(stranger)

        # The beep closes the window: Bob's hand loses the Give select he did not use.
        await fd.wait_for(lambda: not has("give")(now(fd, hands["bob"])), WAIT, "the beep")
        assert t("en", "deck.transfer") not in now(fd, hands["bob"]).text

        aborted = await answer(fd, await fd.slash("mission abort", user="alice", channel="bridge"))
        assert not aborted.ephemeral
        assert_clean(fd)
