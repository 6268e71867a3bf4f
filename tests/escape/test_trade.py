"""Trading between players (the seed's action table: "Fight another player, or trade | 1 AP | Both
must be on the same tile"), as rules doc D26 settles it: the active player offers, the rival on
the tile accepts or declines, nothing else happens meanwhile, no story item changes hands, no
trade leaves anyone overloaded, and an unanswered offer lapses with the offerer's turn."""

from __future__ import annotations

import json

from engine.escape.policy import actor
from engine.escape.rules import Command, Rejected, apply, legal_commands
from engine.escape.snapshot import from_dict, to_dict
from engine.escape.state import State
from engine.escape.views import player_view, public_view
from tests.escape.helpers import codes, digital, give, ok, place, referee


def _two_on_a_tile() -> tuple[State, int, int]:
    s = digital()
    t = s.turn
    o = 1 - t
    place(s, t, (0, 2))
    place(s, o, (0, 2))
    give(s, t, "pistol")
    give(s, o, "helmet")
    give(s, o, "knife")
    return s, t, o


def test_an_accepted_trade_swaps_the_cards_for_one_ap_of_the_offerer_d26() -> None:
    s, t, o = _two_on_a_tile()
    s.players[t].items[0].charges = 1  # a used pistol keeps its charges in the new hands
    ap, rival_ap = s.players[t].ap, s.players[o].ap
    offer = Command("offer_trade", t, target=o, numbers=(0, 1))
    assert offer in legal_commands(s, t)
    s, events = ok(s, offer)
    assert codes(events) == ["trade_offered"] and events[0].get("target") == o
    assert s.players[t].ap == ap - 1 and s.offer is not None and actor(s) == o
    assert legal_commands(s, o) == [Command("accept_trade", o), Command("decline_trade", o)]
    s, events = ok(s, Command("accept_trade", o))
    assert codes(events) == ["trade_accepted"] and events[0].player == o and events[0].get("target") == t
    assert [i.gear for i in s.players[t].items] == ["knife"]
    assert [i.gear for i in s.players[o].items] == ["helmet", "pistol"]
    assert s.players[o].items[1].charges == 1
    assert s.players[t].ap == ap - 1 and s.players[o].ap == rival_ap  # the rival pays nothing
    assert s.offer is None and actor(s) == t


def test_a_gift_or_a_plain_ask_is_one_card_one_way_d26() -> None:
    s, t, o = _two_on_a_tile()
    s1, _ = ok(s, Command("offer_trade", t, target=o, numbers=(0, -1)))
    s1, _ = ok(s1, Command("accept_trade", o))
    assert s1.players[t].items == [] and [i.gear for i in s1.players[o].items] == ["helmet", "knife", "pistol"]
    s2, _ = ok(s, Command("offer_trade", t, target=o, numbers=(-1, 0)))
    s2, _ = ok(s2, Command("accept_trade", o))
    assert [i.gear for i in s2.players[t].items] == ["pistol", "helmet"]
    assert apply(s, Command("offer_trade", t, target=o, numbers=(-1, -1))) == Rejected("bad_slot")
    assert apply(s, Command("offer_trade", t, target=o, numbers=(3, -1))) == Rejected("bad_slot")
    assert apply(s, Command("offer_trade", t, target=o, numbers=(0,))) == Rejected("bad_slot")


def test_a_declined_trade_changes_no_card_and_the_ap_stays_spent_d26() -> None:
    s, t, o = _two_on_a_tile()
    ap = s.players[t].ap
    s, _ = ok(s, Command("offer_trade", t, target=o, numbers=(0, 0)))
    s, events = ok(s, Command("decline_trade", o))
    assert codes(events) == ["trade_declined"] and events[0].player == o
    assert [i.gear for i in s.players[t].items] == ["pistol"]
    assert [i.gear for i in s.players[o].items] == ["helmet", "knife"]
    assert s.players[t].ap == ap - 1 and s.offer is None
    # Answering again (a stale button) is refused: there is no offer any more.
    assert apply(s, Command("accept_trade", o)) == Rejected("no_trade_offer")
    assert apply(s, Command("withdraw_trade", t)) == Rejected("no_trade_offer")


def test_only_the_rival_answers_and_nothing_else_happens_meanwhile_d26() -> None:
    s = digital(players=3)
    t = s.turn
    o, third = (t + 1) % 3, (t + 2) % 3
    for seat in (t, o, third):
        place(s, seat, (0, 2))
    give(s, t, "pistol")
    s, _ = ok(s, Command("offer_trade", t, target=o, numbers=(0, -1)))
    assert apply(s, Command("accept_trade", t)) == Rejected("no_trade_offer")  # the offerer cannot accept
    assert apply(s, Command("accept_trade", third)) == Rejected("no_trade_offer")
    assert apply(s, Command("move", t, target=1)) == Rejected("trade_pending")
    assert apply(s, Command("offer_trade", t, target=third, numbers=(0, -1))) == Rejected("trade_pending")
    assert apply(s, Command("end_turn", o)) == Rejected("trade_pending")
    assert apply(s, Command("drop", o, target=0)) == Rejected("trade_pending")
    s, events = ok(s, Command("withdraw_trade", t))
    assert codes(events) == ["trade_withdrawn"] and s.offer is None
    assert [i.gear for i in s.players[t].items] == ["pistol"]


def test_an_offer_lapses_when_the_offerers_turn_ends_d26() -> None:
    s, t, o = _two_on_a_tile()
    s, _ = ok(s, Command("offer_trade", t, target=o, numbers=(0, 1)))
    s, events = ok(s, Command("end_turn", t))
    assert codes(events)[:2] == ["trade_lapsed", "turn_ended"] and s.offer is None and s.turn == o
    assert apply(s, Command("accept_trade", o)) == Rejected("no_trade_offer")
    assert [i.gear for i in s.players[o].items] == ["helmet", "knife"]


def test_same_tile_one_ap_and_a_rival_not_oneself_seed_action_table() -> None:
    s, t, o = _two_on_a_tile()
    place(s, o, (0, 3))
    assert apply(s, Command("offer_trade", t, target=o, numbers=(0, 0))) == Rejected("not_same_tile")
    assert not [c for c in legal_commands(s, t) if c.kind == "offer_trade"]
    place(s, o, (0, 2))
    assert apply(s, Command("offer_trade", t, target=t, numbers=(0, -1))) == Rejected("bad_target")
    assert apply(s, Command("offer_trade", o, target=t, numbers=(0, 0))) == Rejected("not_your_turn")
    s.players[t].ap = 0
    assert apply(s, Command("offer_trade", t, target=o, numbers=(0, 0))) == Rejected("no_ap")


def test_story_items_never_change_hands_d26_as_spoils_d21() -> None:
    s, t, o = _two_on_a_tile()
    disk = give(s, o, "disk")
    cargo = give(s, t, "cargo")
    assert apply(s, Command("offer_trade", t, target=o, numbers=(-1, disk))) == Rejected("story_item")
    assert apply(s, Command("offer_trade", t, target=o, numbers=(cargo, -1))) == Rejected("story_item")
    offers = [c for c in legal_commands(s, t) if c.kind == "offer_trade"]
    assert offers and all(disk not in (c.numbers[1],) and cargo != c.numbers[0] for c in offers)


def test_no_trade_overloads_either_side_while_there_is_gravity_d26() -> None:
    s, t, o = _two_on_a_tile()
    while sum(s.gear(i.gear).weight for i in s.players[o].items) <= s.character(o).max_weight - 2:
        give(s, o, "vest")
    heavy = give(s, t, "rifle")  # weight 5: too much for the rival's free carry
    assert apply(s, Command("offer_trade", t, target=o, numbers=(heavy, -1))) == Rejected("too_heavy")
    swap = Command("offer_trade", t, target=o, numbers=(heavy, 2))  # the rival gives a vest for it
    assert apply(s, swap) == Rejected("too_heavy")
    s.gravity_off = True  # no limit without gravity (seed §2.1.8 step 6)
    s, _ = ok(s, Command("offer_trade", t, target=o, numbers=(heavy, -1)))
    s, _ = ok(s, Command("accept_trade", o))
    assert s.overweight == -1 and s.players[o].items[-1].gear == "rifle"


def test_referee_mode_the_crew_vouches_for_the_tile_d26() -> None:
    s = referee()
    t = s.turn
    o = (t + 1) % 3
    give(s, t, "pistol")
    s, _ = ok(s, Command("offer_trade", t, target=o, numbers=(0, -1)))
    assert legal_commands(s, o) == [Command("accept_trade", o), Command("decline_trade", o)]
    assert not [c for c in legal_commands(s, (t + 2) % 3) if c.kind in ("ref_gear", "ref_damage")]
    s, _ = ok(s, Command("accept_trade", o))
    assert [i.gear for i in s.players[o].items][-1] == "pistol"


def test_a_pending_offer_survives_a_snapshot_and_shows_its_cards_only_to_its_parties_d26() -> None:
    s = digital(players=3)
    t = s.turn
    o, third = (t + 1) % 3, (t + 2) % 3
    place(s, t, (0, 2))
    place(s, o, (0, 2))
    give(s, t, "pistol")
    give(s, o, "helmet")
    s, _ = ok(s, Command("offer_trade", t, target=o, numbers=(0, 0)))
    data = to_dict(s)
    assert data["offer"] == {"by": t, "to": o, "give": 0, "ask": 0}
    restored = from_dict(json.loads(json.dumps(data)))
    assert to_dict(restored) == data
    assert ok(restored, Command("accept_trade", o))[0].players[t].items[0].gear == "helmet"
    assert player_view(s, o)["offer"] == {"by": t, "to": o, "give": "pistol", "ask": "helmet"}
    assert player_view(s, third)["offer"] == {"by": t, "to": o}
    assert public_view(s)["offer"] == {"by": t, "to": o}
    assert "pistol" not in json.dumps(public_view(s))


def test_a_version_1_snapshot_migrates_to_no_offer() -> None:
    data = to_dict(digital())
    data["schema_version"] = 1
    del data["offer"]
    assert from_dict(data).offer is None


def test_the_listed_offers_are_exactly_the_offers_check_accepts_d26() -> None:
    """`trade_offers` builds the legal offers without `check` (speed): it must agree with it."""
    from engine.escape.rules import check, trade_offers

    for gravity_off in (False, True):
        s, t, o = _two_on_a_tile()
        s.gravity_off = gravity_off
        give(s, t, "cargo")
        give(s, o, "rifle")
        while sum(s.gear(i.gear).weight for i in s.players[o].items) <= s.character(o).max_weight - 2:
            give(s, o, "vest")
        listed = set(trade_offers(s, t))
        every = {
            Command("offer_trade", t, target=o, numbers=(g, a))
            for g in range(-1, len(s.players[t].items))
            for a in range(-1, len(s.players[o].items))
        }
        assert listed == {c for c in every if check(s, c) is None} and listed
        assert all(c in legal_commands(s, t) for c in listed)
        assert trade_offers(s, o) == []
