"""Balance of the default Escape pack by simulation (issue 27: each mission won in 15-35 % of
games by simple policies, time running out in under 40 %).

Plays seeded digital games with the greedy policy (`engine.escape.policy.greedy`) for every
player and prints, per difficulty and player count, each mission's win rate (wins over games in
which that mission was dealt), the time-out rate and the mean game length in hours.
Usage: python bench/escape_balance.py [games per setting, default 1000]
"""

from __future__ import annotations

import random
import sys
from collections import Counter

from engine.escape.pack import default_pack
from engine.escape.policy import greedy
from engine.escape.rules import apply_in_place
from engine.escape.setup import new_digital_game
from engine.escape.state import Difficulty


def play(seed: int, difficulty: Difficulty, players: int) -> tuple[str | None, list[str], int]:
    state = new_digital_game(default_pack(), seed, difficulty, players)
    rng = random.Random(seed)
    for _ in range(5000):
        if state.over:
            break
        result = apply_in_place(state, greedy(state, rng))
        if isinstance(result, str):
            raise RuntimeError(f"policy gave an illegal command: {result}")
    dealt = [p.mission.id for p in state.players]
    winner = state.players[state.winner].mission.id if state.winner >= 0 else None
    return winner, dealt, state.hour


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    for difficulty in ("easy", "medium", "hard"):
        for players in (2, 3, 4):
            wins: Counter[str] = Counter()
            dealt: Counter[str] = Counter()
            timeouts = 0
            hours = 0
            for seed in range(games):
                winner, missions, hour = play(seed, difficulty, players)  # type: ignore[arg-type]
                dealt.update(missions)
                hours += hour
                if winner is None:
                    timeouts += 1
                else:
                    wins[winner] += 1
            rates = "  ".join(f"{m} {100 * wins[m] / max(dealt[m], 1):5.1f}%" for m in sorted(dealt))
            print(
                f"{difficulty:6} {players}p  {rates}  time-out {100 * timeouts / games:5.1f}%  "
                f"mean {hours / games:4.1f} h"
            )


if __name__ == "__main__":
    main()
