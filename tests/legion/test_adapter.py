"""The Discord-free half of the Scarlet Legion adapter (bot/games/legion/_play.py): a voyage played
only through the choices the private panel offers reaches its end, no public line leaks a side or
a hand, and forged component values never reach the engine."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.games.legion import _play as play
from bot.platform import tables
from bot.platform.i18n import t
from engine.legion import commands as c
from engine.legion.commands import Event
from engine.legion.pack import PackRefusal, default_pack, load_pack
from engine.legion.snapshot import SnapshotError
from engine.legion.state import State

CONTENT = default_pack()
USERS = [101, 202, 303, 404]


def lobby(players: int = 4, lang: str = "en", seed: int = 7, mission: str | None = "reconnaissance") -> dict[str, Any]:
    doc = play.new_lobby(USERS[0], "Ann", lang, seed, mission)
    for user, name in zip(USERS[1:players], ("Bo", "Cy", "Di"), strict=False):
        assert tables.join(doc, play.RULES, user, name) is None
    return doc


def choose(doc: dict[str, Any], state: State, seat: int) -> tuple[str, str, str]:
    """A plain player's choice among what the panel offers: (kind, arg, value)."""
    panel = play.panel(doc, state, seat)
    buttons = [arg for arg, _ in panel.buttons]
    for arg in ("obey", "use", "end", "engage", "depart", "endure"):
        if arg in buttons:
            return "act", arg, ""
    submits = [v for v, _ in panel.cards if v.startswith("submit")]
    if submits:
        return "pick_card", "", submits[0]
    orders = [v for v, _ in panel.picks if v.startswith("orders")]
    if orders:
        return "pick_move", "", orders[0]
    assert panel.buttons or panel.cards or panel.picks, f"seat {seat} waited for with nothing to do"
    if panel.buttons:
        return "act", buttons[0], ""
    return "pick_card", "", panel.cards[0][0]


def play_out(doc: dict[str, Any], limit: int = 3000) -> tuple[State, list[str]]:
    public: list[str] = list(doc["last"])
    for _ in range(limit):
        state = play.load(doc, CONTENT)
        if state.winner is not None:
            return state, public
        seat = play.waiting_for(state)[0]
        kind, arg, value = choose(doc, state, seat)
        if kind == "pick_move" and play.needs_card(state, seat, value):
            kind, arg, value = "pick_pay", value, sorted(state.seats[seat].hand)[0]
        command = play.command_of(seat, kind, arg, value)
        assert command is not None
        outcome = play.act(doc, CONTENT, command)
        assert outcome.refused is None, (command, outcome.refused)
        public += outcome.lines
    raise AssertionError("the voyage did not end")


def test_the_lobby_seats_three_or_four_members_by_id() -> None:
    """The lobby is the platform's table sized by seed 3.1.1 (3-4 players); the engine deals for
    the members in seat order."""
    doc = play.new_lobby(1, "Host", "en", 1, None)
    assert (play.RULES.min_players, play.RULES.max_players) == (3, 4)
    assert tables.ready(doc, play.RULES) == "too_few"
    assert play.begin(doc, CONTENT) == "player_count"  # the engine refuses too, should it be asked
    assert tables.join(doc, play.RULES, 2, "B") is None
    assert tables.join(doc, play.RULES, 3, "C") is None and tables.join(doc, play.RULES, 4, "D") is None
    assert tables.join(doc, play.RULES, 5, "E") == "full"
    assert tables.ready(doc, play.RULES) is None and play.begin(doc, CONTENT) is None
    assert play.begin(doc, CONTENT) == "started"  # a voyage is dealt once
    assert [tables.seat_of(doc, u) for u in (1, 2, 3, 4, 5)] == [0, 1, 2, 3, None]
    state = play.load(doc, CONTENT)
    assert len(state.seats) == 4 and doc["pinged"] == [state.captain]


@pytest.mark.parametrize(("players", "lang", "seed"), [(4, "en", 7), (3, "ru", 11), (4, "cs", 3), (3, "sk", 5)])
def test_a_voyage_played_through_the_panel_ends_and_leaks_nothing(players: int, lang: str, seed: int) -> None:
    doc = lobby(players, lang, seed)
    assert play.begin(doc, CONTENT) is None
    start = play.load(doc, CONTENT)
    hands = {seat: play.hand_line(lang, s.hand) for seat, s in enumerate(start.seats)}
    state, public = play_out(doc)
    assert state.winner in ("crew", "legion")
    reveal = "\n".join(play.reveal_lines(doc, state))
    for seat in state.seats:
        assert t(lang, f"legion.side.{seat.side}") in reveal
    first_reveal = t(
        lang, "legion.ev.side_revealed", seat=tables.name_of(doc, 0), side=t(lang, f"legion.side.{state.seats[0].side}")
    )
    over = public.index(first_reveal)  # the end reveals every side (D-9), then names the winner
    assert public_over(lang, state) in public[over:]
    early = "\n".join(public[:over])
    for index, who in enumerate(state.seats):
        side = t(lang, f"legion.side.{who.side}")
        assert t(lang, "legion.panel.side", side=side) not in "\n".join(public)  # the private wording
        if not (who.out or who.broken):  # D-9: only a character out or broken is revealed early
            assert t(lang, "legion.ev.side_revealed", seat=tables.name_of(doc, index), side=side) not in early
    for hand in hands.values():
        assert hand not in "\n".join(public)
    assert "legion." not in "\n".join(public)  # every line found its words
    result = play.session_result(doc, state)
    assert result.outcome == state.winner
    assert [p["user_id"] for p in result.players] == USERS[:players]
    assert sum(p["role"] == "legion" for p in result.players) == 1  # D-10


def public_over(lang: str, state: State) -> str:
    return t(
        lang,
        "legion.ev.voyage_over",
        winner=t(lang, f"legion.side.{state.winner}"),
        reason=t(lang, f"legion.end.{state.reason}"),
    )


def test_the_panel_shows_only_its_own_seat_secrets() -> None:
    doc = lobby()
    play.begin(doc, CONTENT)
    state = play.load(doc, CONTENT)
    for seat, who in enumerate(state.seats):
        text = play.panel_text(doc, state, seat)
        assert t("en", f"legion.side.{who.side}") in text
        assert play.hand_line("en", who.hand) in text
        others = [play.hand_line("en", s.hand) for i, s in enumerate(state.seats) if i != seat]
        assert not any(hand in text for hand in others)
    bridge = play.bridge_text(doc, state)
    assert "Loyal crew" not in bridge and "Your hand" not in bridge
    assert all(tables.name_of(doc, i) in bridge for i in range(4))


def test_every_waiting_seat_is_offered_a_choice_and_others_are_not_given_turns() -> None:
    doc = lobby()
    play.begin(doc, CONTENT)
    for _ in range(60):
        state = play.load(doc, CONTENT)
        if state.winner is not None:
            break
        waiting = play.waiting_for(state)
        for seat in range(4):
            offered = play.panel(doc, state, seat)
            if seat in waiting:
                assert offered.buttons or offered.cards or offered.picks
        kind, arg, value = choose(doc, state, waiting[0])
        if kind == "pick_move" and play.needs_card(state, waiting[0], value):
            kind, arg, value = "pick_pay", value, state.seats[waiting[0]].hand[0]
        command = play.command_of(waiting[0], kind, arg, value)
        assert command is not None and play.act(doc, CONTENT, command).refused is None


def test_a_refusal_is_a_duel_and_three_give_a_mutiny() -> None:
    """Seed 3.1.5 through the adapter: Refuse words the duel; three unexecuted orders pass the
    captaincy (the public lines say so without naming a side)."""
    lines: list[str] = []
    for seed in range(40):
        doc = lobby(seed=seed)
        play.begin(doc, CONTENT)
        for _ in range(400):
            state = play.load(doc, CONTENT)
            if state.winner is not None:
                break
            seat = play.waiting_for(state)[0]
            buttons = [a for a, _ in play.panel(doc, state, seat).buttons]
            if "refuse" in buttons:
                outcome = play.act(doc, CONTENT, c.Refuse(seat))
                assert outcome.refused is None
                lines += outcome.lines
                continue
            kind, arg, value = choose(doc, state, seat)
            if kind == "pick_move" and play.needs_card(state, seat, value):
                kind, arg, value = "pick_pay", value, state.seats[seat].hand[0]
            command = play.command_of(seat, kind, arg, value)
            assert command is not None
            lines += play.act(doc, CONTENT, command).lines
        if any("mutiny" in line for line in lines):
            break
    assert any("refuses the order! Duel" in line for line in lines)
    assert any("new captain" in line and "mutiny" in line for line in lines)


@pytest.mark.parametrize(
    ("kind", "arg", "value"),
    [
        ("act", "fly", ""),
        ("pick_card", "", "submit"),
        ("pick_card", "", "ability~x~y"),
        ("pick_move", "", "orders~a-b-c"),
        ("pick_move", "", "roles~1-2"),
        ("pick_pay", "nothing", "card"),
        ("hand", "", ""),
        ("zap", "", ""),
    ],
)
def test_forged_choices_never_reach_the_engine(kind: str, arg: str, value: str) -> None:
    assert play.command_of(0, kind, arg, value) is None


def test_a_choice_out_of_turn_is_refused_by_the_engine_and_changes_nothing() -> None:
    doc = lobby()
    play.begin(doc, CONTENT)
    state = play.load(doc, CONTENT)
    other = next(s for s in range(4) if s != state.captain)
    before = dict(doc)
    outcome = play.act(doc, CONTENT, c.Depart(other))
    assert outcome.refused == "not_captain" and doc == before


def test_orders_are_worded_as_energy_and_roles_as_members() -> None:
    doc = lobby()
    play.begin(doc, CONTENT)
    state = play.load(doc, CONTENT)
    given = Event("orders_given", {"gunner": 2, "pilot": 1, "officer": 0})
    assigned = Event("roles_assigned", {"officer": 1, "gunner": 2, "pilot": 3})
    orders, roles = play.public_lines(doc, state, [given, assigned])
    assert orders == "The captain's orders: gunner 2, pilot 1, officer 0 energy."
    assert roles == "Roles: officer Bo, gunner Cy, pilot Di."


def test_a_server_pack_travels_in_the_document_and_plays() -> None:
    """A server's own pack is stored with the lobby, so a later upload never changes a voyage under
    way, and every click rebuilds the voyage with that very pack."""
    data = json.loads(json.dumps(CONTENT.pack.model_dump(mode="json")))
    data["id"] = "house_rules"
    data["ships"] = [dict(data["ships"][0], id="old_tub", hull=30)]
    doc = play.new_lobby(USERS[0], "Ann", "en", 3, "delivery", data)
    for user, name in zip(USERS[1:], ("Bo", "Cy"), strict=False):
        tables.join(doc, play.RULES, user, name)
    assert play.begin(doc, play.content_of(doc)) is None
    state = play.load(doc, play.content_of(doc))
    assert state.ship.card == "old_tub" and state.ship.max_hull == 30
    assert "Old Tub" in play.bridge_text(doc, state)
    assert play.content_of(doc) is play.content_of(json.loads(json.dumps(doc)))  # validated once
    with pytest.raises(SnapshotError):  # the snapshot names its pack: ours cannot load it
        play.load(doc, CONTENT)


def test_a_refused_pack_is_worded_with_its_place_made_inert() -> None:
    refusal = load_pack(json.dumps({"format": 1, "id": "x", "missions": "@everyone"}))
    assert isinstance(refusal, PackRefusal)
    text = play.pack_refusal("en", refusal)
    assert text.startswith("The pack does not match the schema at") and "legion." not in text
    sneaky = play.pack_refusal("en", PackRefusal("reference", "<@&1> @everyone"))
    assert "@everyone" not in sneaky and "<@&1>" not in sneaky
