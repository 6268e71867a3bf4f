"""Whole games through the state machine on a manual clock: 8 rounds with pauses and time changes,
victory, defeat at any time, a pack's swarm deck and boss health, and the logbook row."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine.common.clock import ManualClock
from engine.elite.datapack import DataPack, load_pack
from engine.elite.game import EliteGame, EventReveal, GameError
from engine.elite.logbook import LogbookRow
from engine.elite.setup import EliteConfig
from engine.elite.timer import TimerCall
from engine.elite.vocab import BOSSES, EliteDifficulty, MissionId


def make(
    mission: MissionId = "exploration",
    difficulty: EliteDifficulty = "medium",
    *,
    seed: int = 7,
    clock: ManualClock | None = None,
    pack: DataPack | None = None,
) -> EliteGame:
    cfg = EliteConfig(
        map="abandoned_lab", mission=mission, difficulty=difficulty, players=3, heroes=("kara", "akosha", "gerid")
    )
    return EliteGame(cfg, seed, clock or ManualClock(), pack)


def play_action_phase(
    game: EliteGame, clock: ManualClock, *, pause_s: float = 0, delta_s: float = 0
) -> list[TimerCall]:
    """Start, optionally pause for a while and change the time, then run to time's up in 20 ms polls."""
    game.start_timer()
    heard: list[TimerCall] = []
    clock.advance(20)
    heard += game.poll()
    if pause_s:
        game.pause()
        clock.advance(pause_s)
        assert game.poll() == []
        game.resume()
    if delta_s:
        game.adjust_time(delta_s)
    while game.timer is not None and game.timer.state == "running":
        clock.advance(0.02)
        heard += game.poll()
    return heard


def test_a_whole_eight_round_game_ends_in_defeat_on_time() -> None:
    clock = ManualClock(1000.0)
    game = make(mission="recon", clock=clock)
    phases_seen = []
    for rnd in range(1, 9):
        reveal = game.begin_round()
        assert isinstance(reveal, EventReveal) and reveal.round == rnd and game.round == rnd
        assert reveal.number == game.setup.event_timeline[rnd - 1]
        phases_seen.append(game.phase)
        game.spawn()
        game.open_action()
        start = clock()
        heard = play_action_phase(game, clock, pause_s=7 * rnd, delta_s=15 if rnd % 2 else -15)
        assert heard[-1] == TimerCall("times_up", 0)
        # Real time spent = 120 s of running time + the pause +/- the change.
        assert clock() - start == pytest.approx(120 + 7 * rnd + (15 if rnd % 2 else -15), abs=0.03)
        report = game.activate()
        assert report.round == rnd
        end = game.end_round()
        assert end.last_round == (rnd == 8)
    assert game.begin_round() is None
    assert (game.phase, game.result, game.cause) == ("over", "defeat", "time")
    row = game.logbook_row()
    assert row.rounds == 8 and row.result == "defeat" and row.cause == "time" and row.game == "elite"
    assert row.heroes == ("kara", "akosha", "gerid") and row.mission == "recon"
    with pytest.raises(GameError):
        game.advance()


def test_advance_walks_the_phases_in_order() -> None:
    game = make()
    order = []
    for _ in range(5):
        if game.phase == "action":
            assert game.timer is not None and isinstance(game.clock, ManualClock)
            game.timer.adjust(-200)  # a 1-second phase, the shortest the timer allows
            game.start_timer()
            game.clock.advance(1)
            assert game.poll()[-1] == TimerCall("times_up", 0)
        game.advance()
        order.append(game.phase)
    assert order == ["event", "spawn", "action", "activation", "end_of_round"]


def test_victory_only_at_end_of_round_and_defeat_any_time() -> None:
    game = make(mission="capture")
    game.begin_round()
    with pytest.raises(GameError, match=r"wrong_phase \(phase=event\)"):
        game.declare_victory()
    game.spawn()
    game.open_action()
    game.start_timer()
    game.declare_defeat("alien_in_start_zone")
    assert game.result == "defeat" and game.cause == "alien_in_start_zone"
    assert game.timer is not None and game.timer.state == "paused"  # the clock stops with the game
    with pytest.raises(GameError):
        game.spawn()

    won = make(mission="capture")
    for _ in range(3):
        won.begin_round()
        won.spawn()
        won.open_action()
        won.activate(force=True)
        won.end_round()
    won.declare_victory()
    row = won.logbook_row()
    assert (row.result, row.cause, row.rounds) == ("victory", None, 3)


def test_activation_waits_for_times_up_unless_forced() -> None:
    game = make()
    game.begin_round()
    game.spawn()
    game.open_action()
    game.start_timer()
    with pytest.raises(GameError, match="action_running"):
        game.activate()
    assert game.activate(force=True).round == 1


def test_timer_buttons_outside_the_action_phase_are_refused() -> None:
    game = make()
    with pytest.raises(GameError):
        game.start_timer()
    game.begin_round()
    with pytest.raises(GameError):
        game.pause()
    assert game.poll() == []


def test_revealed_tokens_change_the_next_spawn_and_activation() -> None:
    game = make(mission="exploration", seed=3)
    assert game.exploration is not None
    kinds = {}
    for cell in game.setup.objective_cells:
        kinds[cell] = game.exploration._tokens[cell].kind  # test-only look under the token
    game.begin_round()
    base = game.spawn()
    game.open_action()
    for cell, kind in kinds.items():
        if kind in ("swarm_alarm", "boss_alarm", "smell_of_battle", "scattered_alarm"):
            game.reveal(cell)
    want_swarm = sum(1 for k in kinds.values() if k == "swarm_alarm")
    want_boss = sum(1 for k in kinds.values() if k == "boss_alarm") - sum(
        1 for k in kinds.values() if k == "scattered_alarm"
    )
    want_move = sum(1 for k in kinds.values() if k == "smell_of_battle")
    assert game.activate(force=True).extra_move == want_move
    game.end_round()
    game.begin_round()
    nxt = game.spawn()
    assert nxt.swarm_cards == base.swarm_cards + want_swarm
    assert nxt.boss_cards == max(0, base.boss_cards + want_boss)
    assert (nxt.modifiers.extra_swarm, nxt.modifiers.extra_boss) == (want_swarm, want_boss)
    game.open_action()
    assert game.activate(force=True).extra_move == 0  # used once
    game.end_round()
    game.begin_round()
    assert game.spawn().swarm_cards == base.swarm_cards  # and gone after one spawn


def test_exploration_tokens_only_in_the_exploration_mission() -> None:
    game = make(mission="recon")
    with pytest.raises(GameError):
        game.peek(1, viewer=1)


PACK = {
    "swarm_spawn": [{"type": "hound", "count": 3, "cluster": 1}, {"type": "shooter", "count": 5}],
    "bosses": [{"id": b, "health": 2 + i % 3, "movement": 1} for i, b in enumerate(BOSSES)],
    "events": [{"number": n, "timer_change_s": -30} for n in range(1, 17)],
}


def test_a_pack_draws_swarm_cards_digitally_and_tracks_boss_health() -> None:
    game = make(difficulty="hard", pack=load_pack(PACK), seed=2)
    killed = 0
    for _ in range(8):
        reveal = game.begin_round()
        assert reveal is not None
        report = game.spawn()
        assert len(report.swarm_draws) == report.swarm_cards == 4
        for b in report.bosses:
            if b.boss is not None:
                assert b.health is not None and b.uid is not None
                hit = game.hit_boss(b.uid, 1)
                assert hit.health == b.health - 1 and not hit.killed
                if game.hit_boss(b.uid, 5).killed:
                    killed += 1
        timer = game.open_action()
        persistent = [n for n in game.active_events if n <= 16]
        assert timer.length_s == max(15, 120 - 30 * len(set(persistent) | ({reveal.number} & set(range(1, 17)))))
        for n in list(game.active_events):
            game.complete_event(n)
        game.activate(force=True)
        assert game.end_round().removed_events == tuple(persistent)
        assert game.active_events == []
    assert game.swarm_deck is not None and game.swarm_deck.reshuffles > 0  # 32 draws from 2 cards
    assert game.bosses_killed == killed == sum(1 for c in game.boss_deck.drawn if c) and not game.bosses
    with pytest.raises(GameError):
        game.hit_boss(99, 1)


def test_boss_health_without_a_pack_is_typed_in_or_the_boss_is_marked_killed() -> None:
    game = make(difficulty="hard", seed=4)
    uids = []
    while not uids:
        game.begin_round()
        uids = [b.uid for b in game.spawn().bosses if b.uid is not None]
        game.open_action()
        game.activate(force=True)
        game.end_round()
    with pytest.raises(GameError, match="boss_health_unknown"):
        game.hit_boss(uids[0], 1)
    game.set_boss_health(uids[0], 3)
    assert game.hit_boss(uids[0], 3).killed
    if len(uids) > 1:
        game.kill_boss(uids[1])
    assert game.bosses_killed == min(2, len(uids))


def test_the_same_seed_replays_the_same_game() -> None:
    def trace(seed: int) -> list[object]:
        game = make(seed=seed, difficulty="hard")
        out: list[object] = []
        for _ in range(8):
            out.append(game.begin_round())
            out.append(game.spawn())
            game.open_action()
            game.activate(force=True)
            game.end_round()
        return out

    assert trace(9) == trace(9)
    assert trace(9) != trace(10)


def test_logbook_row_validates_its_shape() -> None:
    with pytest.raises(GameError):
        make().logbook_row()
    with pytest.raises(ValidationError, match="cause"):
        LogbookRow(
            map="crash_site",
            mission="recon",
            difficulty="easy",
            players=2,
            heroes=("kara", "voker"),
            rounds=3,
            result="victory",
            cause="time",
            bosses_killed=0,
            seed=1,
        )


def test_leaderboard_counts_wins_per_difficulty_and_fewest_rounds() -> None:
    from engine.elite.logbook import leaderboard

    def row(difficulty: EliteDifficulty, mission: MissionId, rounds: int, won: bool) -> LogbookRow:
        return LogbookRow(
            map="crash_site",
            mission=mission,
            difficulty=difficulty,
            players=2,
            heroes=("kara", "voker"),
            rounds=rounds,
            result="victory" if won else "defeat",
            cause=None if won else "hero_died",
            bosses_killed=1,
            seed=0,
        )

    board = leaderboard(
        [
            row("easy", "recon", 6, True),
            row("easy", "recon", 4, True),
            row("medium", "capture", 7, True),
            row("hard", "capture", 2, False),
        ]
    )
    assert board.games == 4
    assert board.wins == {"easy": 2, "medium": 1, "hard": 0}
    assert board.fewest_rounds == {"recon": 4, "capture": 7}
    assert board.hardest_win == "medium"
    assert leaderboard([]).hardest_win is None
