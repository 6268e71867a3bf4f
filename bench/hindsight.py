"""Hindsight speed (issue 29): the one-change and two-change answers over lost seeded missions.

Missions: the 16 official missions in turn, crews of four and five humans, each flight started
from its seed (threats drawn as on the intercom, hands dealt), and every human's board filled
from their own hand toward a plausible post (engine.random_game.plausible_plan: a card showing the
planned code, dealt by the turn's phase, else the turn stays empty).  Only lost missions count.
The search sees the hands (flips and plays of unplayed cards), as the bot's does.  `--humans 2,3`
measures crews of two and three humans instead: the androids' boards are filled from the humans'
left-over cards and searched with them (a human's unplayed card may go on an android's board).

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


def lost_missions(n: int, seed: int, humans: tuple[int, ...] = (4, 5)) -> list[tuple[str, Game, list[Board]]]:
    """`n` lost missions, crews of `humans` humans in turn (fewer than four: androids fill the crew,
    their boards planned with the humans' cards left over, as a crew of two or three does)."""
    rng = random.Random(seed)
    missions = official_ids()
    out: list[tuple[str, Game, list[Board]]] = []
    i = 0
    while len(out) < n:
        mission = missions[i % len(missions)]
        crew = humans[i % len(humans)]
        i += 1
        flight = Flight.start(
            {"crew": [f"P{k + 1}" for k in range(crew)], "mission": mission, "seed": rng.randrange(1 << 30)}
        )
        dealt = {m.name: {p: list(c) for p, c in m.pending.items()} for m in flight.members}
        flight.advance_to(10_000.0)  # every threat drawn, the round over
        hands = {
            m.name: [(cid, phase, m.name) for phase, cards in sorted(dealt[m.name].items()) for cid in cards]
            for m in flight.members
            if not m.android
        }
        for seat, m in enumerate(flight.members):
            if m.android:  # its own heroic card, and what the humans have left (not their heroic cards)
                hand = [(cid, 1, m.name) for cid in m.hand]
                hand += [x for h in hands.values() for x in h if not card(x[0]).heroic]
            else:
                hand = hands[m.name]
            m.board = {}
            for turn, code in enumerate(plausible_plan(rng, seat), start=1):
                if turn > flight.last_turn:  # a two-phase test run has turns 1-7
                    break
                pick = next(
                    (x for x in hand if x[1] <= phase_of(turn) and code in (card(x[0]).action, card(x[0]).move)), None
                )
                if pick is None:
                    continue
                hand.remove(pick)
                if pick[2] != m.name:
                    hands[pick[2]].remove(pick)
                c = card(pick[0])
                half: Half = "action" if c.action == code else "move"
                # (placed as the station would: a hand's card on a turn of an open phase)
                m.board[turn] = Slot(pick[0], half, pick[2] if pick[2] in hands else m.name)
            if m.android:
                m.hand = [cid for cid, _, owner in hand if owner == m.name]
        for m in flight.members:
            if not m.android:
                m.hand = [cid for cid, _, _ in hands[m.name]]
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
    ap.add_argument(
        "--humans", default="4,5", help="humans per crew, in turn (2,3: androids' boards planned with their cards)"
    )
    args = ap.parse_args()
    humans = tuple(int(h) for h in args.humans.split(","))
    games = lost_missions(args.n, args.seed, humans)
    hindsight(games[0][1], games[0][2])  # warm caches
    one: list[float] = []
    two: list[float] = []
    saved = {1: 0, 2: 0}
    searched = {1: 0, 2: 0}
    cut = 0
    on_androids = 0  # answers with a change on an android's board (crews of two and three)
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
        on_androids += any(c.actor != c.player for c in b.changes)
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
        "humans": list(humans),
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
        "answers_on_androids_boards": on_androids,
        "full_length_missions_per_s": round(full_per_s),
    }
    crews = " and ".join(str(h) for h in humans)
    print(f"{len(games)} lost missions (16 official missions, crews of {crews} humans, hands known), CPU time:")
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
