"""The Discord side of trading (rules doc D26) and of picking a referee game's enemy from the pack:
the panel's words and picks, built from the engine's legal commands, and what stays private."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.escape import _doc
from bot.games.escape._render import (
    TRADE,
    enemy_options,
    event_lines,
    panel_controls,
    panel_text,
    station_text,
    trade_options,
)
from bot.platform.i18n import t
from engine.escape.policy import actor
from engine.escape.rules import Command
from engine.escape.snapshot import to_dict
from tests.escape.helpers import give, place
from tests.escape.test_adapter import game


def _trading(doc: dict[str, Any]) -> tuple[int, int]:
    """Put the mover and the next seat on one tile with a pistol and a helmet + the disk."""
    state = _doc.state_of(doc)
    seat = actor(state)
    rival = (seat + 1) % len(state.players)
    for p in state.players:
        p.items = []  # no drafted gear: the test names every card there is
    place(state, seat, (0, 2))
    place(state, rival, (0, 2))
    give(state, seat, "pistol")
    give(state, rival, "helmet")
    give(state, rival, "disk")
    doc["engine"] = to_dict(state)
    return seat, rival


def test_the_panel_offers_one_trade_entry_a_rival_and_only_legal_picks() -> None:
    doc = game(3)
    seat, rival = _trading(doc)
    state = _doc.state_of(doc)
    _, options = panel_controls(doc, state, seat)
    trades = [(label, v) for label, v in options if v.startswith(f"{TRADE}.")]
    assert trades == [(t("en", "escape.cmd.offer_trade", name=_doc.name_of(doc, rival)), f"{TRADE}.{rival}")]
    gives = trade_options(doc, state, seat, rival, None)
    assert [v for _, v in gives] == ["-1", "0"] and gives[0][0] == t("en", "escape.ui.nothing")
    asks = trade_options(doc, state, seat, rival, -1)
    assert [v for _, v in asks] == ["0"]  # the helmet; never the disk (a story item), never nothing for nothing
    assert [v for _, v in trade_options(doc, state, seat, rival, 0)] == ["-1", "0"]
    assert trade_options(doc, state, rival, seat, None) == []  # not the rival's turn


@pytest.mark.parametrize("lang", ["en", "ru", "cs", "sk"])
def test_an_offer_shows_its_cards_to_its_parties_only_and_buttons_to_answer(lang: str) -> None:
    doc = game(3, lang=lang)
    seat, rival = _trading(doc)
    third = 3 - seat - rival
    step = _doc.act(doc, doc["seats"][seat], Command("offer_trade", -1, target=rival, numbers=(0, 0)))
    assert isinstance(step, _doc.Step) and step.actor_after == rival
    state = _doc.state_of(doc)
    mine, theirs, other = (panel_text(doc, state, s) for s in (seat, rival, third))
    assert "Pistol" in mine and "Pistol" in theirs and "Pistol" not in other
    assert "Helmet" in theirs and "Helmet" not in other
    buttons, _ = panel_controls(doc, state, rival)
    assert [v.split(".")[0] for _, v, on in buttons if on] == ["accept_trade", "decline_trade"]
    buttons, options = panel_controls(doc, state, seat)
    assert [v.split(".")[0] for _, v, on in buttons if on] == ["withdraw_trade", "end_turn"] and options == []
    _doc.add_log(doc, event_lines(lang, doc, step.events))
    public = station_text(doc, state)
    assert "Pistol" not in public and "Helmet" not in public and _doc.name_of(doc, rival) in public


def test_referee_mode_offers_the_packs_enemies_beside_the_modal() -> None:
    doc = game(3, mode="referee")
    state = _doc.state_of(doc)
    seat = actor(state)
    picks = enemy_options(doc, state, seat)
    encounters = [v for _, v in picks if v.startswith("ref_encounter.")]
    assert encounters and len(encounters) == len(set(encounters)) and len(picks) <= 25
    assert "ref_encounter.-1.-1.-1.5.2.1.3.1" in encounters  # o_guard1: Health 5, damage 2, bands 1/3, level 1
    step = _doc.act(doc, doc["seats"][seat], _doc.decode(encounters[0]) or Command("end_turn", -1))
    assert isinstance(step, _doc.Step) and "dialogue" in [e.code for e in step.events]
    waiting = (seat + 1) % 3
    assert not [v for _, v in enemy_options(doc, _doc.state_of(doc), waiting) if v.startswith("ref_encounter.")]
    assert enemy_options(game(2), _doc.state_of(game(2)), 0) == []  # digital mode draws its own cards


async def test_the_cog_walks_the_picks_to_an_offer_pings_the_rival_and_refuses_stale_picks() -> None:
    """Digital mode through the cog's handlers: Trade with … → give → ask → the offer; the rival's
    ping names the offerer, no card; a pick for nobody, the rival's pick and a pick after the
    offer are each refused politely."""
    from bot.games.escape import _cog
    from bot.platform.sessions import GameSession
    from tests.escape.test_panels import click
    from tests.escape.test_voice import Store, Voice, bot

    doc = game(3)
    seat, rival = _trading(doc)
    store = Store(GameSession("sid123456789", "escape", 1, 2, 101, "running", doc))
    cog = _cog.EscapeCog(bot(Voice(), {}, store))
    mover, other = doc["seats"][seat], doc["seats"][rival]
    name = _doc.name_of(doc, rival)

    async def press(member: int, action: str, arg: str, values: list[str]) -> dict[str, Any]:
        ix = click(member, f"tok{member}")
        await cog.on_press(ix, store.session, action, arg, values)
        return dict(ix.response.edits[-1], channel=ix.channel)

    gives = await press(mover, "pick_act", "-", [f"{TRADE}.{rival}"])
    assert t("en", "escape.ui.trade_give", name=name) == gives["content"] and gives["view"] is not None
    asks = await press(mover, "pick_trade", str(rival), ["0"])
    assert "you give Pistol" in asks["content"]
    nobody = await press(mover, "pick_trade", "7", ["0"])
    assert nobody["content"] == t("en", "escape.ui.trade_none") and nobody["ephemeral"]
    theirs = await press(other, "pick_act", "-", [f"{TRADE}.{seat}"])
    assert theirs["content"] == t("en", "escape.ui.trade_none")  # not the rival's turn
    forged = await press(mover, "pick_trade", "x", ["0"])
    assert forged["content"] == t("en", "escape.reject.unknown_command")
    offered = await press(mover, "pick_trade", f"{rival}.0", ["-1"])
    state = _doc.state_of(store.session.state)
    assert state.offer is not None and (state.offer.by, state.offer.to, state.offer.give) == (seat, rival, 0)
    assert t("en", "escape.ui.trade_mine", name=name, give="", ask="").split(":")[0] in offered["content"]
    # the ping is staged with the offer (the session outbox sends it after the commit)
    ping = [p for p in store.session.posts if p.get("render") == "ping"][-1]
    assert ping["mentions"] == [other]
    assert f"<@{other}>" in ping["content"] and _doc.name_of(doc, seat) in ping["content"]
    assert "Pistol" not in ping["content"]
    again = await press(mover, "pick_trade", f"{rival}.0", ["-1"])
    assert again["content"] == t("en", "escape.reject.trade_pending")
    await cog._refreshers["sid123456789"]


def test_a_crowded_referee_panel_keeps_the_card_entries_within_discords_25_options() -> None:
    doc = game(3, mode="referee")
    state = _doc.state_of(doc)
    seat = actor(state)
    for gear in ("pistol", "stim1", "medkit", "vest", "knife", "helmet", "stim2", "stim3", "boots"):
        give(state, seat, gear)
    doc["engine"] = to_dict(state)
    _, options = panel_controls(doc, state, seat)
    kinds = [v.split(".")[0] for _, v in options]
    assert len(options) == 25 and kinds[-3:] == ["ref_gear", "ref_damage", "ref_encounter"]
