"""The action round state machine: whole flights, deals, every event kind and rejection, snapshots."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine.flight.cards import card, normal_cards
from engine.flight.commands import (
    EVENT_KINDS,
    REASONS,
    Accepted,
    AgreeEnd,
    DrawCard,
    FinishPhase,
    GiveCard,
    MoveCard,
    PlaceCard,
    Rejected,
    TakeBack,
    parse_command,
)
from engine.flight.crew import cards_per_phase
from engine.flight.machine import Flight, FlightConfig, FlightError
from engine.model import Game
from engine.threats.catalog import base_cards


def _resolve_or_skip(flight: Flight) -> Any:
    try:
        return flight.resolve()
    except NotImplementedError:
        pytest.skip("engine.resolve is not implemented yet")


def _config(crew: list[Any], mission: str = "S2-1", **kw: Any) -> FlightConfig:
    return FlightConfig(crew=crew, mission=mission, **kw)


# --- whole flights --------------------------------------------------------------------------------------
def test_s2_1_scripted_crew_flies_the_whole_mission(play_flight) -> None:
    """The whole S2-1 recording on the injected clock (its speed is bench/, not a timed test)."""
    play = play_flight
    flight = Flight.start(_config(["Ann", "Bob", "Cy", "Dee"], seed=11, captain="Cy"))
    flight, events, log = play(flight)
    game = flight.to_game()
    assert flight.status == "ended" and not flight.ended_early
    assert all(isinstance(o, Accepted) for o in log), [o for o in log if isinstance(o, Rejected)]
    assert isinstance(game, Game) and [p.name for p in game.players] == ["Cy", "Ann", "Bob", "Dee"]
    # every player planned: cards on phase-1..3 turns, blanks elsewhere
    for plan in game.players:
        assert sum(code != "-" for code in plan.actions) >= 8
    # the heroic card of each human was played (it was dealt in phase 1 and the crew plays hand order)
    heroic_codes = set("ABX123456")
    assert all(any(c in heroic_codes for c in p.actions) for p in game.players)
    # S2-1: five confirmed threats, the unconfirmed internal T+3 ignored with four crew
    assert [(t.turn, t.zone) for t in game.threats] == [(2, "white"), (4, "blue"), (5, None), (6, "blue"), (7, "red")]
    assert [e["data"]["reason"] for e in events if e["kind"] == "threat_ignored"] == ["unconfirmed"]
    assert events[-1]["kind"] == "intercom" and events[-1]["cue"]["kind"] == "operation_ended"
    result = _resolve_or_skip(flight)
    assert result.outcome in ("survived", "destroyed")
    assert {t.id for t in result.threats} == {t.id for t in game.threats}


def test_test_run_two_phases(play_flight) -> None:
    play = play_flight
    flight = Flight.start(_config(["Ann", "Bob", "Cy", "Dee", "Eve"], mission="S1-1", seed=2))
    flight, events, log = play(flight)
    assert flight.status == "ended" and flight.timeline.phases == 2
    assert [e["data"]["phase"] for e in events if e["kind"] == "phase_ended"] == [1, 2]
    assert all(isinstance(o, Accepted) for o in log)
    game = flight.to_game()
    assert all(p.actions[7:] == ["-"] * 5 for p in game.players)  # turns 8-12 do not exist
    assert all(any(c != "-" for c in p.actions[3:7]) for p in game.players)
    assert len(game.threats) == 3 and all(not base_cards()[t.id].serious for t in game.threats)
    # turn 8 is not part of a two-phase mission
    late = Flight.start(_config(["Ann", "Bob", "Cy", "Dee"], mission="S1-1"))
    late.advance_to(0)
    assert late.apply(PlaceCard(player="Ann", card=late.members[0].hand[0], turn=8, half="move")).reason == "bad_turn"
    _resolve_or_skip(flight)


def test_solo_flight(play_flight) -> None:
    play = play_flight
    flight = Flight.start(_config(["Solo"], mission="S2-2", seed=5))
    assert flight.solo and flight.crew_size == 4
    assert [m.android for m in flight.members if m.on_board] == [True] * 4
    solo = flight.member("Solo")
    assert solo is not None and not solo.on_board
    flight, events, log = play(flight)
    assert flight.status == "ended"
    kinds = {e["kind"] for e in events}
    # §5.5: incoming data, data transfers and communications failures have no effect in solo
    assert not kinds & {"incoming_data", "transfer_opened", "transfer_closed", "comm_down", "comm_restored"}
    assert {e["cue"]["kind"] for e in events if e["kind"] == "intercom"} >= {
        "incoming_data",
        "data_transfer",
        "comm_down",
    }
    assert all(isinstance(o, Accepted) for o in log), [o for o in log if isinstance(o, Rejected)]
    assert any(type(o.events[0].kind) is str and o.events[0].kind == "card_moved" for o in log)
    game = flight.to_game()
    assert len(game.players) == 4 and all(p.name.startswith("Android") for p in game.players)
    assert all(sum(c != "-" for c in p.actions) >= 3 for p in game.players)
    # the unconfirmed report of S2-2 is ignored with four androids
    assert any(e["kind"] == "threat_ignored" for e in events)
    _resolve_or_skip(flight)


def test_the_clock_never_goes_back_and_big_jumps_are_fine() -> None:
    flight = Flight.start(_config(["Ann", "Bob", "Cy", "Dee"]))
    assert flight.next_due_s() == 0.0
    first = flight.advance_to(700)
    assert flight.status == "ended" and first[-1].cue is not None
    assert flight.advance_to(800) == [] and flight.next_due_s() is None
    with pytest.raises(FlightError):
        flight.advance_to(10)
    assert [e.seq for e in first] == list(range(1, len(first) + 1))


# --- setup and deal ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("humans", "fifth", "androids", "counts"),
    [
        (5, False, 0, (5, 5, 5)),
        (4, False, 0, (5, 5, 5)),
        (4, True, 1, (6, 5, 5)),
        (3, False, 1, (6, 6, 6)),
        (3, True, 2, (7, 6, 6)),
        (2, False, 2, (9, 6, 6)),
        (2, True, 3, (10, 6, 6)),
    ],
)
def test_deal_per_rulebook(humans: int, fifth: bool, androids: int, counts: tuple[int, int, int]) -> None:
    names = [f"P{i}" for i in range(humans)]
    flight = Flight.start(_config(names, android_as_fifth=fifth, seed=9))
    assert cards_per_phase(humans, fifth) == counts
    assert sum(m.android for m in flight.members) == androids
    assert flight.crew_size == humans + androids
    seen: set[str] = set()
    for m in flight.members:
        if m.android:
            assert m.hand == [m.heroic] and not m.pending
            continue
        assert [len(m.pending[p]) for p in (1, 2, 3)] == list(counts)
        assert m.pending[1][0] == m.heroic and card(m.heroic).heroic  # the heroic card replaces one card
        assert not any(card(c).heroic for c in m.pending[1][1:] + m.pending[2] + m.pending[3])
        seen |= set(m.pending[1] + m.pending[2] + m.pending[3])
    heroics = [m.heroic for m in flight.members if m.on_board]
    assert len(set(heroics)) == len(heroics)
    assert len(seen) + len(flight.action_deck) == 90 + humans  # nothing lost or duplicated
    assert not flight.members[0].hand  # cards are taken when phase 1 begins
    events = flight.advance_to(0)
    dealt = [e for e in events if e.kind == "cards_dealt"]
    assert [e.data["count"] for e in dealt] == [counts[0]] * humans and all(e.private_to for e in dealt)
    assert len([e for e in events if e.kind == "android_revealed"]) == androids


def test_android_heroic_face_down_until_phase_one() -> None:
    flight = Flight.start(_config(["Ann", "Bob"], seed=1))
    before = flight.station("Ann")
    assert all(a.heroic is None for a in before.androids) and before.hand == ()
    events = flight.advance_to(0)
    revealed = {e.data["android"]: e.data["card"] for e in events if e.kind == "android_revealed"}
    assert set(revealed) == {"Android 1", "Android 2"}
    after = flight.station("Ann")
    assert {a.owner: a.heroic.id for a in after.androids if a.heroic} == revealed


def test_config_rules() -> None:
    with pytest.raises(ValueError, match="exactly one of mission"):
        FlightConfig(crew=["A"])
    with pytest.raises(ValueError, match="unique"):
        _config(["A", "A"])
    with pytest.raises(ValueError, match="at least one human"):
        _config([{"name": "R2", "android": True}])
    with pytest.raises(ValueError, match="take 0 android"):
        _config(["A", "B", "C", "D", {"name": "R2", "android": True}])
    with pytest.raises(ValueError, match="captain must be a human"):
        _config(["A", "B", {"name": "R2", "android": True}], captain="R2")
    with pytest.raises(ValueError, match="unknown mission"):
        _config(["A"], mission="S7-7")
    with pytest.raises(ValueError, match="2-4 humans"):
        _config(["A"], android_as_fifth=True)
    # androids listed by name keep their seat in the action order
    flight = Flight.start(_config(["A", {"name": "R2", "android": True}, "B"], seed=3))
    assert [m.name for m in flight.members] == ["A", "R2", "B", "Android 1"]
    from engine.flight.timeline import load_official

    custom = Flight.start(FlightConfig(crew=["A", "B", "C", "D"], timeline=load_official("S1-4"), lang="cs"))
    from bot.games.space_alert.intercom import cue_text

    first = custom.advance_to(0)[0].cue
    assert custom.timeline.id == "S1-4" and first is not None and "Detekována" in cue_text(first)


def test_tracks_and_threat_decks_are_seeded() -> None:
    a = Flight.start(_config(["A", "B", "C", "D"], seed=123))
    b = Flight.start(_config(["A", "B", "C", "D"], seed=123))
    c = Flight.start(_config(["A", "B", "C", "D"], seed=124))
    assert a.to_dict() == b.to_dict() and a.to_dict() != c.to_dict()
    assert len(set(a.tracks.values())) == 4
    cards = base_cards()
    for normal, serious in (("white", "yellow"), ("yellow", "white"), ("mixed", "mixed")):
        f = Flight.start(_config(["A", "B", "C", "D"], seed=4, normal_difficulty=normal, serious_difficulty=serious))
        for key, deck in f.threat_decks.items():
            level = normal if key.startswith("common") else serious
            colours = {cards[i].color for i in deck}
            assert all(cards[i].deck == key for i in deck)
            assert colours == ({"white", "yellow"} if level == "mixed" else {level})
            expected = sum(1 for x in cards.values() if x.deck == key and x.color in colours)
            assert len(deck) == expected


def test_threat_drawn_from_the_top_of_the_right_deck_onto_its_track() -> None:
    flight = Flight.start(_config(["A", "B", "C", "D", "E"], seed=8, communications_officer="B", security_chief="C"))
    decks = {k: list(v) for k, v in flight.threat_decks.items()}
    events = flight.advance_to(flight.timeline.end_s)
    drawn = [e.data for e in events if e.kind == "threat_drawn"]
    assert len(drawn) == 6  # five crew: the unconfirmed report counts too
    taken: dict[str, int] = {}
    for d in drawn:
        key = f"{'serious' if d['serious'] else 'common'}_{'internal' if d['internal'] else 'external'}"
        assert d["id"] == decks[key][taken.get(key, 0)]
        taken[key] = taken.get(key, 0) + 1
        assert d["track"] == flight.tracks["internal" if d["internal"] else d["zone"]]
        assert d["drawn_by"] == ("C" if d["internal"] else "B")
    assert [t.turn for t in flight.to_game().threats] == [2, 3, 4, 5, 6, 7]


# --- event kinds and rejections ---------------------------------------------------------------------------
def _first_turn_free(flight: Flight, name: str, phase: int) -> int:
    member = flight.member(name)
    return next(t for t in {1: (1, 2, 3), 2: (4, 5, 6, 7), 3: (8, 9, 10, 11, 12)}[phase] if t not in member.board)


def test_every_event_kind_and_every_rejection_reason() -> None:
    kinds: set[str] = set()
    reasons: set[str] = set()

    def expect(outcome: Accepted | Rejected, reason: str | None = None) -> Accepted | Rejected:
        if reason is None:
            assert isinstance(outcome, Accepted), outcome
            kinds.update(e.kind for e in outcome.events)
        else:
            assert isinstance(outcome, Rejected) and outcome.reason == reason, (reason, outcome)
            reasons.add(reason)
        return outcome

    # three humans and two androids (one as fifth): unconfirmed reports count, androids are planned for
    flight = Flight.start(_config(["Ann", "Bob", "Cy"], android_as_fifth=True, seed=21))
    ann, bob = flight.member("Ann"), flight.member("Bob")
    expect(flight.apply(DrawCard(player="Ann")), "not_started")
    kinds.update(e.kind for e in flight.advance_to(0))
    hand = list(ann.hand)
    normal = [c for c in hand if not card(c).heroic]
    expect(flight.apply(PlaceCard(player="Zed", card=normal[0], turn=1, half="action")), "not_in_crew")
    expect(flight.apply(PlaceCard(player="Android 1", card=normal[0], turn=1, half="action")), "android_cannot_act")
    expect(flight.apply(PlaceCard(player="Ann", card=normal[0], turn=1, half="action", board="Bob")), "not_your_board")
    expect(flight.apply(PlaceCard(player="Ann", card=normal[0], turn=1, half="action", board="Nobody")), "not_in_crew")
    expect(flight.apply(PlaceCard(player="Ann", card=bob.hand[0], turn=1, half="action")), "not_your_card")
    expect(
        flight.apply(PlaceCard(player="Ann", card=ann.heroic, turn=1, half="action", board="Android 1")),
        "heroic_owner_only",
    )
    android = flight.member("Android 1")
    expect(
        flight.apply(PlaceCard(player="Ann", card=android.heroic, turn=1, half="action", board="Android 2")),
        "not_your_card",
    )
    expect(flight.apply(PlaceCard(player="Ann", card=normal[0], turn=13, half="action")), "bad_turn")
    expect(flight.apply(PlaceCard(player="Ann", card=normal[0], turn=5, half="action")), "turn_of_other_phase")
    expect(flight.apply(PlaceCard(player="Ann", card=normal[0], turn=1, half="action")))
    expect(flight.apply(PlaceCard(player="Ann", card=normal[1], turn=1, half="move")), "slot_taken")
    expect(flight.apply(MoveCard(player="Ann", from_turn=1, to_turn=2)))
    expect(flight.apply(MoveCard(player="Ann", from_turn=1, to_turn=3)), "slot_empty")
    expect(flight.apply(TakeBack(player="Ann", turn=3)), "slot_empty")
    expect(flight.apply(TakeBack(player="Ann", turn=2)))
    assert normal[0] in ann.hand
    # android boards: face up, never moved again; the android's own heroic card only there
    expect(flight.apply(PlaceCard(player="Ann", card=android.heroic, turn=2, half="action", board="Android 1")))
    expect(flight.apply(PlaceCard(player="Ann", card=normal[0], turn=1, half="move", board="Android 1")))
    expect(flight.apply(MoveCard(player="Ann", board="Android 1", from_turn=1, to_turn=3)), "card_fixed")
    expect(flight.apply(TakeBack(player="Bob", board="Android 1", turn=2)), "card_fixed")
    assert next(s for s in flight.station("Bob").androids[0].slots if s.card).code == card(normal[0]).move
    expect(flight.apply(AgreeEnd(player="Ann")), "too_early")
    expect(flight.apply(DrawCard(player="Ann")), "no_incoming_data")
    expect(flight.apply(GiveCard(player="Ann", card=normal[1], to="Bob")), "transfer_closed")
    # run the clock to the first incoming data and the first data transfer
    timeline = flight.timeline
    incoming = next(e.t for e in timeline.events if e.event == "incoming_data")
    kinds.update(e.kind for e in flight.advance_to(incoming))
    expect(flight.apply(DrawCard(player="Ann")))
    expect(flight.apply(DrawCard(player="Ann")), "already_drew")
    saved = list(flight.action_deck)
    flight.action_deck.clear()
    expect(flight.apply(DrawCard(player="Bob")), "deck_empty")
    flight.action_deck[:] = saved
    transfer = next(e.t for e in timeline.events if e.event == "data_transfer")
    kinds.update(e.kind for e in flight.advance_to(transfer))
    assert flight.station("Ann").giveable
    expect(flight.apply(GiveCard(player="Ann", card=ann.heroic, to="Bob")), "heroic_not_transferable")
    expect(flight.apply(GiveCard(player="Ann", card=bob.hand[0], to="Cy")), "not_your_card")
    expect(flight.apply(GiveCard(player="Ann", card=normal[1], to="Ann")), "bad_target")
    expect(flight.apply(GiveCard(player="Ann", card=normal[1], to="Android 1")), "bad_target")
    expect(flight.apply(GiveCard(player="Ann", card=normal[1], to="Bob")))
    assert normal[1] in bob.hand and normal[1] not in ann.hand
    expect(flight.apply(GiveCard(player="Ann", card=normal[2], to="Bob")), "already_gave")
    kinds.update(e.kind for e in flight.advance_to(transfer + 8))
    expect(flight.apply(GiveCard(player="Bob", card=normal[1], to="Ann")), "transfer_closed")
    # finishing early deals the next phase at once and locks the finished turns for that player
    expect(flight.apply(FinishPhase(player="Cy")))
    cy = flight.member("Cy")
    assert cy.phase == 2 and len(cy.hand) == 7 + 6  # 3 humans + android as fifth: 7, 6, 6
    expect(flight.apply(PlaceCard(player="Cy", card=cy.hand[0], turn=3, half="move")), "phase_over")
    expect(flight.apply(PlaceCard(player="Cy", card=cy.hand[0], turn=4, half="move")))
    # the end of phase 1 locks turns 1-3 for everybody
    kinds.update(e.kind for e in flight.advance_to(timeline.phase_end_s[0]))
    spare = next(c for c in ann.hand if not card(c).heroic)
    expect(flight.apply(PlaceCard(player="Ann", card=spare, turn=3, half="move")), "phase_over")
    expect(flight.apply(PlaceCard(player="Ann", card=spare, turn=2, half="move", board="Android 2")), "phase_over")
    ann = flight.member("Ann")
    assert ann is not None
    shown = ann.phase
    expect(flight.apply(FinishPhase(player="Ann", phase=shown)))
    # the same Finish pressed twice (a double click names the phase it saw): not the next phase too
    expect(flight.apply(FinishPhase(player="Ann", phase=shown)), "already_finished")
    assert ann.phase == shown + 1
    expect(flight.apply(FinishPhase(player="Ann")), "no_next_phase")
    kinds.update(e.kind for e in flight.advance_to(timeline.phase_end_s[1] + 1))
    # a pause: no command is taken and a second pause is refused until the host resumes
    expect(flight.pause("Host"))
    expect(flight.apply(DrawCard(player="Ann")), "paused")
    expect(flight.pause("Host"), "paused")
    expect(flight.resume("Host", flight.now_s + 30.0))
    expect(flight.resume("Host", flight.now_s + 30.0), "not_paused")
    # early end: after phase 2, when every human agrees
    expect(flight.apply(AgreeEnd(player="Ann")))
    expect(flight.apply(AgreeEnd(player="Ann")), "already_agreed")
    expect(flight.apply(AgreeEnd(player="Bob")))
    last = expect(flight.apply(AgreeEnd(player="Cy")))
    assert isinstance(last, Accepted) and last.events[-1].kind == "round_ended"
    assert last.events[-1].data == {"early": True} and last.events[-1].cue.kind == "operation_ended"
    assert flight.status == "ended" and flight.ended_early
    expect(flight.apply(DrawCard(player="Ann")), "round_over")
    assert flight.advance_to(timeline.end_s + 10) == []  # the intercom falls silent after an early end
    # the threats of a five-crew flight include the unconfirmed report; four crew would ignore it
    four = Flight.start(_config(["A", "B", "C", "D"]))
    kinds.update(e.kind for e in four.advance_to(60))
    assert kinds == set(EVENT_KINDS), set(EVENT_KINDS) - kinds
    assert reasons == set(REASONS), set(REASONS) - reasons


def test_a_finish_names_its_phase() -> None:
    """Two presses of one Finish button finish one phase; a Finish left over from a phase the clock
    has ended finishes nothing (each says why, in words that fit)."""
    flight = Flight.start(_config(["Ann", "Bob"], seed=5))
    flight.advance_to(0)
    ann = flight.member("Ann")
    assert ann is not None and ann.phase == 1
    assert isinstance(flight.apply(FinishPhase(player="Ann", phase=1)), Accepted)
    again = flight.apply(FinishPhase(player="Ann", phase=1))
    assert isinstance(again, Rejected) and again.reason == "already_finished" and ann.phase == 2
    flight.advance_to(flight.timeline.phase_end_s[0] + 1)  # phase 1 ends for Bob too
    late = flight.apply(FinishPhase(player="Bob", phase=1))
    assert isinstance(late, Rejected) and late.reason == "phase_over"
    assert isinstance(flight.apply(FinishPhase(player="Bob", phase=2)), Accepted)


def test_privacy_of_events_and_views() -> None:
    flight = Flight.start(_config(["Ann", "Bob", "Cy", "Dee"], seed=2))
    flight.advance_to(0)
    cid = flight.member("Ann").hand[1]
    placed = flight.apply(PlaceCard(player="Ann", card=cid, turn=1, half="action"))
    assert placed.events[0].private_to == "Ann" and placed.events[0].data["card"] is None
    mine = flight.station("Ann").board.slots[0]
    assert mine.card.id == cid and mine.code == card(cid).action and mine.movable and not mine.locked
    assert flight.station("Bob").board.slots[0].card is None  # Bob sees only his own board
    assert flight.station("Ann").board.slots[4].open is False  # phase-2 turn
    flight.advance_to(flight.timeline.phase_end_s[0])
    assert flight.station("Ann").board.slots[0].locked
    with pytest.raises(FlightError):
        flight.station("Nobody")


def test_parse_command_and_dict_commands() -> None:
    flight = Flight.start(_config(["Ann", "Bob", "Cy", "Dee"]))
    flight.advance_to(0)
    cid = flight.member("Ann").hand[2]
    cmd = parse_command({"type": "place", "player": "Ann", "card": cid, "turn": 2, "half": "move"})
    assert isinstance(cmd, PlaceCard)
    assert flight.apply({"type": "place", "player": "Ann", "card": cid, "turn": 2, "half": "move"}).ok
    assert flight.to_game().players[0].actions[1] == card(cid).move
    with pytest.raises(ValueError):
        parse_command({"type": "teleport", "player": "Ann"})


# --- snapshots ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_snapshot_at_random_instants_continues_identically(seed: int, play_flight) -> None:
    play = play_flight
    crews = [
        ["Ann", "Bob", "Cy", "Dee"],
        ["Ann", "Bob"],
        ["Ann", "Bob", "Cy"],
        ["Solo"],
        ["Ann", "Bob", "Cy", "Dee", "Eve"],
        ["Ann", "Bob", "Cy", "Dee"],
    ]
    missions = ["S2-1", "S2-5", "S1-7", "S2-8", "S1-2", "S2-6"]
    config = _config(crews[seed], mission=missions[seed], seed=seed, android_as_fifth=seed == 5)
    rng = random.Random(seed)
    instants = {float(rng.randint(0, 640)) for _ in range(5)}
    straight, events_a, log_a = play(Flight.start(config))
    restored, events_b, log_b = play(Flight.start(config), snapshot_at=instants)
    assert restored is not straight
    assert events_a == events_b
    assert log_a == log_b
    assert restored.to_dict() == straight.to_dict()
    assert restored.to_game() == straight.to_game()


def test_snapshot_mid_phase_is_plain_json_and_exact() -> None:
    flight = Flight.start(_config(["Ann", "Bob", "Cy", "Dee"], seed=6))
    flight.advance_to(187.5)  # inside the first data transfer
    flight.apply(PlaceCard(player="Bob", card=flight.member("Bob").hand[0], turn=3, half="move"))
    snap = json.loads(json.dumps(flight.to_dict()))
    copy = Flight.from_dict(snap)
    assert copy.to_dict() == flight.to_dict() and copy.now_s == 187.5 and copy.transfer is not None
    assert copy.station("Bob") == flight.station("Bob")
    assert [e.to_dict() for e in copy.advance_to(400)] == [e.to_dict() for e in flight.advance_to(400)]
    with pytest.raises(FlightError):
        Flight.from_dict({**snap, "schema_version": 99})


def test_action_codes_from_card_halves() -> None:
    codes = {c.code("action") for c in normal_cards()} | {c.code("move") for c in normal_cards()}
    assert codes == set("abcx<>^")
    assert {card(h).code("action") + card(h).code("move") for h in ("H1", "H2", "H3", "H4", "H5", "H6")} == {
        "A3",
        "A1",
        "B4",
        "B6",
        "X5",
        "X2",
    }


def test_exhausted_threat_deck_skips_the_threat() -> None:
    from engine.flight.timeline import parse_timeline

    def si(t: int, turn: int) -> dict:
        return {
            "t": t,
            "event": "threat",
            "turn": turn,
            "zone": None,
            "internal": True,
            "serious": True,
            "unconfirmed": False,
        }

    tl = parse_timeline(
        {
            "id": "six-si",
            "phases": 3,
            "phase_end_s": [225, 450, 600],
            "events": [si(10, 1), si(40, 2), si(70, 3), si(240, 5), si(270, 6), si(300, 7)],
        }
    )
    flight = Flight.start(FlightConfig(crew=["A", "B", "C", "D"], timeline=tl, serious_difficulty="yellow"))
    events = flight.advance_to(400)
    assert len(flight.threat_decks["serious_internal"]) == 0
    assert [e.data["turn"] for e in events if e.kind == "threat_drawn"] == [1, 2, 3, 5, 6]
    assert [(e.data["turn"], e.data["reason"]) for e in events if e.kind == "threat_ignored"] == [(7, "deck_empty")]
