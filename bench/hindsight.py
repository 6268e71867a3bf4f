"""Hindsight speed (issue 29): the one-change and two-change answers over lost seeded missions.

Missions: the 16 official missions in turn, crews of four and five humans, each flight started
from its seed (threats drawn as on the intercom, hands dealt), and every human's board filled
from their own hand toward a plausible post (engine.random_game.plausible_plan: a card showing the
planned code, dealt by the turn's phase, else the turn stays empty).  Only lost missions count.
The search sees the hands (flips and plays of unplayed cards), as the bot's does.

Targets on one core: the one-change answer within 1 s and the two-change answer within 5 s, p95.
Times are CPU time of this process (`time.process_time`), so other work on a shared machine does
not skew them.  The two-change search runs to the end (no budget) unless `--budget-s` is given,
so its figure is the cost of the whole search.  Engine throughput (full-length missions per
second, as bench/engine.py counts it) is measured on the same games.  Ends with one JSON line.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine import Game, resolve
from engine.board import phase_of
from engine.flight.cards import card
from engine.flight.crew import Slot
from engine.flight.machine import Flight
from engine.flight.timeline import official_ids
from engine.hindsight import Board, hindsight
from engine.hindsight.flight_boards import flight_boards
from engine.random_game import plausible_plan
from engine.vocab import Half


def lost_missions(n: int, seed: int) -> list[tuple[str, Game, list[Board]]]:
    rng = random.Random(seed)
    missions = official_ids()
    out: list[tuple[str, Game, list[Board]]] = []
    i = 0
    while len(out) < n:
        mission = missions[i % len(missions)]
        crew = 4 + i % 2
        i += 1
        flight = Flight.start(
            {"crew": [f"P{k + 1}" for k in range(crew)], "mission": mission, "seed": rng.randrange(1 << 30)}
        )
        dealt = {m.name: {p: list(c) for p, c in m.pending.items()} for m in flight.members}
        flight.advance_to(10_000.0)  # every threat drawn, the round over
        for seat, m in enumerate(flight.members):
            hand = [(cid, phase) for phase, cards in sorted(dealt[m.name].items()) for cid in cards]
            m.board = {}
            for turn, code in enumerate(plausible_plan(rng, seat), start=1):
                pick = next(
                    (x for x in hand if x[1] <= phase_of(turn) and code in (card(x[0]).action, card(x[0]).move)), None
                )
                if pick is None:
                    continue
                hand.remove(pick)
                c = card(pick[0])
                half: Half = "action" if c.action == code else "move"
                m.board[turn] = Slot(pick[0], half, m.name)  # (placed as the station would: own hand, open phase)
            m.hand = [cid for cid, _ in hand]
        game = flight.to_game()
        if resolve(game).outcome == "destroyed":
            out.append((mission, game, flight_boards(flight)))
    return out


def _time_up(start: float, budget_s: float | None) -> Callable[[], bool] | None:
    if budget_s is None:
        return None
    deadline = start + budget_s
    return lambda: time.process_time() >= deadline


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("-n", type=int, default=100, help="lost missions")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--budget-s", type=float, default=None, help="stop the two-change search after this long")
    args = ap.parse_args()
    games = lost_missions(args.n, args.seed)
    hindsight(games[0][1], games[0][2])  # warm caches
    one: list[float] = []
    two: list[float] = []
    saved = {1: 0, 2: 0}
    searched = {1: 0, 2: 0}
    cut = 0
    for _, game, boards in games:
        t = time.process_time()
        a = hindsight(game, boards)
        one.append(time.process_time() - t)
        searched[1] += a.searched
        saved[1] += bool(a.changes)
        t = time.process_time()
        b = hindsight(game, boards, max_changes=2, time_up=_time_up(t, args.budget_s))
        two.append(time.process_time() - t)
        searched[2] += b.searched
        saved[2] += bool(b.changes)
        cut += not b.proven_minimal
    # Engine throughput on the same games, as bench/engine.py counts it.
    turns = 0
    t = time.process_time()
    for _ in range(20):
        for _, game, _ in games:
            r = resolve(game)
            turns += r.lost.turn if r.lost else 13
    full_per_s = turns / 13 / (time.process_time() - t)
    figures = {
        "n": len(games),
        "one_change_p50_s": round(statistics.median(one), 4),
        "one_change_p95_s": round(pct(one, 0.95), 4),
        "two_change_p50_s": round(statistics.median(two), 4),
        "two_change_p95_s": round(pct(two, 0.95), 4),
        "two_change_max_s": round(max(two), 4),
        "saved_by_one": saved[1],
        "saved_by_two": saved[2],
        "searched_one_mean": round(searched[1] / len(games)),
        "searched_two_mean": round(searched[2] / len(games)),
        "two_change_cut_by_budget": cut,
        "full_length_missions_per_s": round(full_per_s),
    }
    print(f"{len(games)} lost missions (16 official missions, crews of 4 and 5, hands known), CPU time:")
    print(
        f"  one change:  p50 {figures['one_change_p50_s']:.3f} s  p95 {figures['one_change_p95_s']:.3f} s  (target 1 s)"
    )
    print(
        f"  two changes: p50 {figures['two_change_p50_s']:.3f} s  p95 {figures['two_change_p95_s']:.3f} s  (target 5 s)"
    )
    print(f"  saved by one change: {saved[1]}, by two: {saved[2]}; engine: {full_per_s:,.0f} full-length missions/s")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
