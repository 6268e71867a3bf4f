"""Open panels follow the game: after one player's step, every other seat's private panel is edited
through the token of the interaction that answered with it (kept per seat in the session
document), and a token Discord refuses, or one older than its 15 minutes, is dropped."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

import discord

from bot.games.escape import _cog, _doc
from bot.games.escape._render import panel_text
from bot.platform.i18n import t
from bot.platform.sessions import GameSession
from engine.escape.policy import actor
from engine.escape.rules import Command
from tests.escape.test_adapter import game
from tests.escape.test_voice import Channel, Response, Store, Voice, bot


def test_a_seats_newest_panel_is_kept_and_found_stale_after_a_step() -> None:
    doc = game(3)
    _doc.remember_panel(doc, 0, "old", 100.0)
    _doc.remember_panel(doc, 0, "new", 110.0)
    _doc.remember_panel(doc, 1, "bob", 120.0)
    _doc.remember_panel(doc, 9, "nobody", 120.0)  # no such seat: ignored
    assert set(doc["panels"]) == {"0", "1"} and doc["panels"]["0"]["token"] == "new"
    assert _doc.stale_panels(doc, 130.0) == []  # drawn at the current step
    _doc.count_step(doc)
    assert _doc.stale_panels(doc, 130.0) == [(0, "new"), (1, "bob")]
    assert _doc.stale_panels(doc, 110.0 + _doc.PANEL_TOKEN_S) == [(1, "bob")]  # seat 0's has expired
    assert _doc.forget_panels(doc, {"bob"}, 130.0) and set(doc["panels"]) == {"0"}
    assert _doc.forget_panels(doc, set(), 110.0 + _doc.PANEL_TOKEN_S) and doc["panels"] == {}
    assert not _doc.forget_panels(doc, {"x"}, 0.0)


class Refused(discord.HTTPException):
    def __init__(self, status: int) -> None:
        self.status, self.code, self.text = status, 50027, "Invalid Webhook Token"


def cog_with_edits(store: Store, refuse: dict[str, int] | None = None) -> tuple[Any, list[tuple[str, dict[str, Any]]]]:
    cog = _cog.EscapeCog(bot(Voice(), {}, store))
    edits: list[tuple[str, dict[str, Any]]] = []

    async def edit(token: str, **fields: Any) -> None:
        if token in (refuse or {}):
            raise Refused((refuse or {})[token])
        edits.append((token, fields))

    cog._edit_panel = edit
    return cog, edits


def click(member_id: int, token: str) -> Any:
    return SimpleNamespace(
        user=SimpleNamespace(id=member_id),
        response=Response(),
        channel=Channel(),
        channel_id=2,
        guild_id=1,
        token=token,
    )


async def test_another_players_step_redraws_my_open_panel_and_not_the_movers() -> None:
    store = Store(GameSession("sid123456789", "escape", 1, 2, 101, "running", game(3)))
    cog, edits = cog_with_edits(store)
    for member in store.session.state["seats"]:  # everyone opens My panel
        await cog._send_panel(click(member, f"tok{member}"), store.session)
    doc = store.session.state
    mover = actor(_doc.state_of(doc))
    nxt = (mover + 1) % 3
    await cog.play(click(doc["seats"][mover], "tok-step"), "sid123456789", Command("end_turn", -1))
    await cog._refreshers["sid123456789"]  # the refresh runs after the answer, in the background
    doc = store.session.state
    assert sorted(token for token, _ in edits) == sorted(f"tok{doc['seats'][s]}" for s in range(3) if s != mover)
    fields = dict(edits)[f"tok{doc['seats'][nxt]}"]
    assert fields["content"] == panel_text(doc, _doc.state_of(doc), nxt)
    assert t("en", "escape.ui.your_move") in fields["content"] and fields["view"] is not None
    assert [a.filename for a in fields["attachments"]] == ["my-station.png"]  # their own station
    third = dict(edits)[f"tok{doc['seats'][(mover + 2) % 3]}"]
    assert third["attachments"] is discord.utils.MISSING  # a waiting seat keeps its map: text only
    assert doc["panels"][str(mover)]["token"] == "tok-step"  # the mover's panel is the one just answered
    edits.clear()
    await cog.refresh_panels("sid123456789")  # nothing new happened: nothing is edited twice
    assert edits == []


async def test_a_refused_or_expired_token_is_dropped_and_the_game_goes_on() -> None:
    store = Store(GameSession("sid123456789", "escape", 1, 2, 101, "running", game(3)))
    doc = store.session.state
    mover = actor(_doc.state_of(doc))
    others = [s for s in range(3) if s != mover]
    cog, edits = cog_with_edits(store, refuse={"gone": 401, "busy": 500})
    _doc.remember_panel(store.session.state, others[0], "gone", time.time())
    _doc.remember_panel(store.session.state, others[1], "busy", time.time())
    _doc.remember_panel(store.session.state, mover, "ancient", 1.0)  # long expired
    _doc.count_step(store.session.state)
    await cog.refresh_panels("sid123456789")
    panels = store.session.state["panels"]
    assert set(panels) == {str(others[1])}  # refused for good and expired are gone; a 500 may pass
    assert edits == []


async def test_the_end_of_the_game_clears_every_panel_and_its_token() -> None:
    store = Store(GameSession("sid123456789", "escape", 1, 2, 101, "running", game(3)))
    cog, edits = cog_with_edits(store)
    for member in store.session.state["seats"]:
        await cog._send_panel(click(member, f"tok{member}"), store.session)
    snap = store.session.state["engine"]
    snap["timed_out"] = True  # the Federation storms the station
    _doc.count_step(store.session.state)
    await cog.refresh_panels("sid123456789")
    assert len(edits) == 3 and all(fields["view"] is None for _, fields in edits)  # no controls left
    assert store.session.state["panels"] == {}
