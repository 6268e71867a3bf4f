"""The Discord adapter's pure parts (bot/games/escape/_doc.py, _render.py, _picture.py, _logbook.py):
the lobby, seats by member id, commands as component values, what is public and what private."""

from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest
from PIL import Image

from bot.games.escape import _doc
from bot.games.escape._logbook import result_row, session_result
from bot.games.escape._picture import CELL, HEAD, MARGIN, UNSEEN, station_png
from bot.games.escape._render import event_line, lobby_text, panel_controls, panel_text, result_text, station_text
from bot.platform import tables
from bot.platform.i18n import t
from engine.escape import codes
from engine.escape.policy import actor, greedy
from engine.escape.rules import Command, Event, legal_commands
from engine.escape.views import public_view

ALICE, BOB, CAROL, DAVE, ERIN = 101, 102, 103, 104, 105
LANGS = ("en", "ru", "cs", "sk")


def lobby(mode: str = "digital", lang: str = "en", seed: int = 7) -> dict[str, Any]:
    return _doc.new_document(lang, mode, "medium", seed, ALICE, "Alice")


def game(players: int = 3, mode: str = "digital", lang: str = "en", seed: int = 7) -> dict[str, Any]:
    doc = lobby(mode, lang, seed)
    for member, name in ((BOB, "Bob"), (CAROL, "Carol"), (DAVE, "Dave"))[: players - 1]:
        assert tables.join(doc, _doc.RULES, member, name) is None
    assert _doc.begin(doc) is None
    return doc


def mission_words(lang: str) -> list[str]:
    """Every text that would give a secret mission away: its name and its goals' sentences."""
    keys = [f"escape.mission.{m}" for m in ("smuggler", "thief", "saboteur", "usurper")]
    keys += [f"escape.goal.{g}" for g in ("take_cargo", "take_disk", "shutdown_reactor", "hold_center")]
    return [t(lang, k) for k in keys]


def test_the_lobby_seats_members_by_id_two_to_four() -> None:
    doc = lobby()
    assert tables.ready(doc, _doc.RULES) == "too_few" and _doc.begin(doc) == "too_few"
    for member in (BOB, CAROL, DAVE):
        assert tables.join(doc, _doc.RULES, member, str(member)) is None
    assert tables.join(doc, _doc.RULES, ERIN, "Erin") == "full"
    assert tables.leave(doc, DAVE) is None
    assert doc["seats"] == [ALICE, BOB, CAROL] and _doc.seat_of(doc, CAROL) == 2 and _doc.seat_of(doc, DAVE) == -1
    assert _doc.begin(doc) is None and doc["engine"] is not None
    assert _doc.begin(doc) == "started"  # a retried unit of work never deals twice


def test_a_command_is_played_by_the_clicking_members_own_seat() -> None:
    doc = game(3)
    state = _doc.state_of(doc)
    mover = actor(state)
    other = (mover + 1) % 3
    members = doc["seats"]
    assert _doc.act(doc, ERIN, Command("end_turn", mover)) == "seated"
    # A forged command naming the mover's seat, clicked by another member, is that member's own.
    assert _doc.act(doc, members[other], Command("end_turn", mover)) == "not_your_turn"
    step = _doc.act(doc, members[mover], Command("end_turn", -1))
    assert isinstance(step, _doc.Step)
    assert step.actor_before == mover and step.actor_after == (mover + 1) % 3
    assert _doc.state_of(doc).turn == (mover + 1) % 3 and doc["actor"] == step.actor_after


def test_every_legal_command_survives_its_component_value() -> None:
    doc = game(4, seed=3)
    state = _doc.state_of(doc)
    rng = random.Random(1)
    for _ in range(60):
        seat = actor(state)
        for command in legal_commands(state, seat):
            value = _doc.encode(command)
            assert tables.TABLE.make("escape", "AbCdEfGh1234", "do", value)  # fits the platform's id kind
            back = _doc.decode(value)
            assert back is not None and back == Command(command.kind, -1, command.target, command.cell, command.numbers)
        step = _doc.act(doc, doc["seats"][seat], greedy(state, rng))
        assert isinstance(step, _doc.Step)
        state = _doc.state_of(doc)
        if state.over:
            break
    for junk in ("", "move", "rm -rf.1.2.3", "move.x.1.1", "move.1.1", "move." + ".".join("1" * 20)):
        assert _doc.decode(junk) is None


@pytest.mark.parametrize("lang", LANGS)
def test_the_public_post_never_names_a_mission_until_the_winner(lang: str) -> None:
    """A whole digital game played by the greedy policy through the adapter: every public text
    (the post with its log) is free of mission names and goals; each panel shows only its own."""
    doc = game(3, lang=lang, seed=11)
    rng = random.Random(5)
    secret = mission_words(lang)
    for _ in range(3000):
        state = _doc.state_of(doc)
        if state.over:
            break
        public = station_text(doc, state)
        assert not [w for w in secret if w in public], public
        for seat in range(3):
            panel = panel_text(doc, state, seat)
            own = t(lang, f"escape.mission.{state.players[seat].mission.id}")
            others = {t(lang, f"escape.mission.{p.mission.id}") for i, p in enumerate(state.players) if i != seat}
            assert own in panel and not [w for w in others if w in panel]
        seat = actor(state)
        step = _doc.act(doc, doc["seats"][seat], greedy(state, rng))
        assert isinstance(step, _doc.Step)
        from bot.games.escape._render import event_lines

        _doc.add_log(doc, event_lines(lang, doc, step.events))
    state = _doc.state_of(doc)
    assert state.over
    assert "{" not in station_text(doc, state)
    ending = result_text(doc, state)
    if state.winner >= 0:
        assert t(lang, f"escape.mission.{state.players[state.winner].mission.id}") in ending
    row = result_row(doc, state)
    assert row["hours"] == state.hour and row["result"] == ("won" if state.winner >= 0 else "stormed")


@pytest.mark.parametrize("lang", LANGS)
def test_every_event_is_worded_without_a_bare_placeholder(lang: str) -> None:
    doc = game(2, lang=lang)
    special = {"winner": -1, "loser": 1, "target": 0, "opponent": -1, "site": 2, "item": 1}
    special |= {"outcome": 2, "escaped": 1, "row": 0, "col": 4}
    for code in codes.EVENT_CODES:
        names = set(re.findall(r"{(\w+)}", t("en", f"escape.event.{code}")))
        values = tuple((n, special.get(n, 3)) for n in sorted(names - {"player"}))
        line = event_line(lang, doc, Event(code, 0 if "player" in names else -1, values))
        assert "{" not in line and ("Alice" in line) == ("player" in names), (code, line)


def test_the_panel_offers_moves_as_buttons_and_the_rest_in_a_select() -> None:
    doc = game(2)
    state = _doc.state_of(doc)
    seat = actor(state)
    buttons, options = panel_controls(doc, state, seat)
    moves = [b for b in buttons if b[1].startswith("move.")]
    assert len(moves) == 4 and sum(enabled for _, _, enabled in moves) == 2  # a corner: two ways out
    assert any(b[1].startswith("end_turn.") for b in buttons)
    assert len(options) <= 25 and all(len(label) <= 100 for label, _ in options)
    other = 1 - seat
    _, options_other = panel_controls(doc, state, other)
    assert not [b for b in panel_controls(doc, state, other)[0] if b[2] and b[1].startswith("move.")]
    assert all(not v.startswith(("move.", "end_turn.")) for _, v in options_other)


def _pixel(png: bytes, row: int, col: int) -> tuple[int, ...]:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    x = MARGIN + col * CELL + CELL - 10
    y = HEAD + MARGIN + row * CELL + 10
    return tuple(image.getpixel((x, y)))  # type: ignore[arg-type]


def test_the_picture_shows_only_tiles_everyone_has_seen() -> None:
    doc = game(2)
    state = _doc.state_of(doc)
    png = station_png("en", public_view(state))
    assert png.startswith(b"\x89PNG")
    assert _pixel(png, 0, 0) == UNSEEN  # seat 0's start: only seat 0 has seen it
    for p in state.players:
        p.seen.add((0, 0))
    shown = station_png("en", public_view(state))
    assert _pixel(shown, 0, 0) != UNSEEN and _pixel(shown, 2, 2) == UNSEEN
    assert station_png("ru", public_view(state)) != shown  # the tile names are in the game's language


def test_the_record_names_the_mode_difficulty_hours_and_winner() -> None:
    doc = game(2, mode="referee")
    state = _doc.state_of(doc)
    state.hour, state.timed_out = 15, True
    stormed = session_result(doc, state)
    assert stormed.outcome == "time_out" and not any(p["won"] for p in stormed.players)
    assert stormed.details["mode"] == "referee" and stormed.details["hours"] == 15
    assert stormed.details["mission"] is None  # nobody's secret mission is recorded
    state.timed_out, state.winner = False, 1
    won = session_result(doc, state)
    assert won.outcome == "escaped" and [p["won"] for p in won.players] == [False, True]
    assert won.details["winner_id"] == BOB and won.details["mission"] == state.players[1].mission.id
    assert [p["user_id"] for p in won.players] == [ALICE, BOB]


def test_referee_mode_deals_missions_and_offers_the_crews_numbers() -> None:
    doc = game(3, mode="referee")
    state = _doc.state_of(doc)
    assert state.mode == "referee" and len({p.mission.id for p in state.players}) == 3
    seat = actor(state)
    buttons, options = panel_controls(doc, state, seat)
    values = [v for _, v in options]
    assert not [b for b in buttons if b[1].startswith("move.")]
    assert any(v.startswith("ref_step.") for v in values) and any(v.startswith("ref_encounter.") for v in values)
    step = _doc.act(doc, doc["seats"][seat], Command("ref_step", -1))
    assert isinstance(step, _doc.Step) and [e.code for e in step.events] == ["local_event_due"]
    step = _doc.act(doc, doc["seats"][seat], Command("ref_encounter", -1, numbers=(5, 2, 1, 3, 1)))
    assert isinstance(step, _doc.Step) and "dialogue" in [e.code for e in step.events]


def test_the_board_counts_escapes_storms_missions_and_a_career() -> None:
    from types import SimpleNamespace

    from bot.games.escape._logbook import board_text

    assert board_text("en", []) == t("en", "escape.ui.board_empty")
    doc = game(2)
    state = _doc.state_of(doc)
    state.winner, state.hour = 0, 7
    won = session_result(doc, state)
    state.winner, state.timed_out, state.hour = -1, True, 15
    lost = session_result(doc, state)
    rows = [SimpleNamespace(outcome=r.outcome, players=r.players, details=r.details) for r in (won, lost, won)]
    text = board_text("en", rows, ALICE)
    assert "3 games: 2 won by an escape, 1 stormed" in text
    mission = t("en", f"escape.mission.{state.players[0].mission.id}")
    assert f"Wins by mission: {mission} 2" in text
    assert "Medium (15 hours): 3 games, 2 won, 9.7 hours on average" in text
    assert f"Career of <@{ALICE}>: 3 games, 2 won." in text


def test_a_server_pack_is_dealt_with_its_own_missions() -> None:
    import copy
    import json

    from bot.games.escape._render import mission_name
    from engine.escape.pack import default_pack

    raw = copy.deepcopy(default_pack().raw)
    raw["id"] = "ours2"
    raw["missions"] = [{"id": f"courier{i}", "goals": ["take_disk", "escape"]} for i in range(4)]
    doc = _doc.new_document("en", "digital", "easy", 3, ALICE, "Alice", json.loads(json.dumps(raw)))
    for member in (BOB, CAROL):
        tables.join(doc, _doc.RULES, member, str(member))
    assert _doc.begin(doc) is None
    state = _doc.state_of(doc)
    assert state.pack.id == "ours2" and all(p.mission.id.startswith("courier") for p in state.players)
    assert mission_name("en", "courier1") == "Courier1" and mission_name("ru", "smuggler") == "Контрабандист"
    assert "Courier" in panel_text(doc, state, 0)
    broken = _doc.new_document("en", "digital", "easy", 3, ALICE, "Alice", {"format": 99})
    assert _doc.pack_of(broken).id == "default"  # a stored pack that no longer loads: ours


def test_the_cog_sits_at_the_platforms_table() -> None:
    """The table (bot/platform/tables.py) calls `rules`, `begin`, `on_lobby` and `on_press`."""
    from types import SimpleNamespace

    from bot.games.escape._cog import EscapeCog
    from bot.platform.sessions import GameSession

    cog = EscapeCog(SimpleNamespace())
    assert cog.rules.game == "escape" and (cog.rules.min_players, cog.rules.max_players) == (2, 4)
    doc = lobby()
    session = GameSession("AbCdEfGh1234", "escape", 1, 2, ALICE, "lobby", doc)
    assert cog.begin(session) == "too_few"
    tables.join(doc, cog.rules, BOB, "Bob")
    assert cog.begin(session) is None and doc["engine"] is not None
    assert cog.begin(session) == "started"
    assert callable(cog.on_lobby) and callable(cog.on_press)


@pytest.mark.parametrize("lang", LANGS)
def test_an_admins_pack_is_refused_with_its_reason_or_counted(lang: str) -> None:
    import json

    from bot.games.escape._cog import pack_answer
    from engine.escape.pack import default_pack

    pack, text = pack_answer(lang, b"{not json", "mine.json")
    assert pack is None and text == t(
        lang, "escape.ui.pack_refused", why=t(lang, "escape.pack.not_json", where="mine.json")
    )
    pack, text = pack_answer(lang, json.dumps({"format": 1, "id": "x"}).encode(), "@everyone.json")
    assert pack is None and "{" not in text and "@everyone" not in text  # the file name is made inert
    pack, text = pack_answer(lang, b"", "big.json", too_large=True)
    assert pack is None and t(lang, "escape.pack.too_large", where="big.json") in text
    pack, text = pack_answer(lang, json.dumps(default_pack().raw).encode(), "ours.json")
    assert pack is not None and pack.id == "default" and "default" in text and "6" in text


def test_in_referee_mode_a_seat_types_its_own_character_card_in_the_first_hour() -> None:
    doc = game(2, mode="referee")
    state = _doc.state_of(doc)
    seat = actor(state)
    member = doc["seats"][seat]
    assert "set_character" in [v for _, v in panel_controls(doc, state, seat)[1]]
    assert _doc.set_character(doc, ERIN, (0, 7, 2, 10, 10)) == "no_such_player"
    assert _doc.set_character(doc, member, (3, 7, 2, 10, 10)) == "bad_numbers"
    assert _doc.set_character(doc, member, (0, 7, 2)) == "bad_numbers"
    assert _doc.set_character(doc, member, (2, 4, 3, 12, 9)) is None
    state = _doc.state_of(doc)
    char = state.character(seat)
    assert (char.kind, char.ap, char.unarmed, char.max_weight, char.health) == ("cyborg", 4, 3, 12, 9)
    assert state.players[seat].health == 9 and state.players[seat].ap <= 4
    assert "Cyborg" in station_text(doc, state)
    assert _doc.set_character(game(2), ALICE, (0, 7, 2, 10, 10)) == "referee_only"
    doc["engine"]["hour"] = 1
    assert _doc.set_character(doc, member, (0, 7, 2, 10, 10)) == "game_over"


def test_the_hosts_mission_texts_are_dealt_privately_and_claimed() -> None:
    doc = lobby("referee")
    doc["mission_texts"] = _doc.mission_texts("Get the **cargo** out | Hold the bridge | | Sink the reactor @everyone")
    assert len(doc["mission_texts"]) == 3 and "@everyone" not in doc["mission_texts"][2]
    assert "3 mission texts" in lobby_text(doc) and "cargo" not in lobby_text(doc)
    for member in (BOB, CAROL, DAVE):
        tables.join(doc, _doc.RULES, member, str(member))
    assert _doc.begin(doc) == "mission_texts"  # four players, three texts
    tables.leave(doc, DAVE)
    assert _doc.begin(doc) is None
    state = _doc.state_of(doc)
    texts = [doc["dealt_texts"][p.mission.id] for p in state.players]
    assert sorted(texts) == sorted(doc["mission_texts"])
    for seat in range(3):
        panel = panel_text(doc, state, seat)
        assert texts[seat] in panel and not [x for i, x in enumerate(texts) if i != seat and x in panel]
    assert not [x for x in texts if x in station_text(doc, state)]
    seat = actor(state)
    assert "claim_mission.-1.-1.-1" in [v for _, v in panel_controls(doc, state, seat)[1]]
    step = _doc.act(doc, doc["seats"][seat], Command("claim_mission", -1))
    assert isinstance(step, _doc.Step) and step.over
    assert texts[seat] in result_text(doc, _doc.state_of(doc))


def test_a_panel_says_who_rolls_for_the_enemy() -> None:
    doc = game(3)
    state = _doc.state_of(doc)
    assert state.next_plays_enemy  # digital games: the rulebook's way (D29)
    t0 = state.turn
    from engine.escape.state import Fight

    state.fight = Fight(t0, -1, 6, 2, "encounter", (t0 + 1) % 3, 1, (t0 + 1) % 3, True)
    names = [_doc.name_of(doc, i) for i in range(3)]
    assert f"{names[(t0 + 1) % 3]} rolls its strikes" in panel_text(doc, state, t0)
    helper = panel_text(doc, state, (t0 + 1) % 3)
    assert f"You act out the enemy in {names[t0]}'s fight" in helper
    buttons, _ = panel_controls(doc, state, (t0 + 1) % 3)
    assert [b[1] for b in buttons] == ["enemy_strike.-1.-1.-1"]
    referee = game(3, mode="referee")
    assert not _doc.state_of(referee).next_plays_enemy  # the bot plays the enemy (issue 27)
