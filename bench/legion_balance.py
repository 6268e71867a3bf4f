"""Scarlet Legion balance: seeded voyages played by the simple policies, win rates per mission.

Usage: python -m bench.legion_balance [games per mission and crew size] [first seed]

Prints, for each mission and crew size (3 and 4), the crew's and the Legion's win rate, the
average number of flights and of commands per voyage, and how the voyages ended.  The default
pack is tuned so every win rate stays between 35 % and 65 % (docs/legion-rules.md, "Balance").
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter

from engine.legion.pack import default_pack
from engine.legion.policies import play_out
from engine.legion.setup import new_voyage


def run(games: int, first_seed: int) -> dict[tuple[str, int], tuple[Counter[str], float, float]]:
    content = default_pack()
    results = {}
    for mission in content.pack.missions:
        for players in (3, 4):
            outcomes: Counter[str] = Counter()
            flights = commands = 0
            for seed in range(first_seed, first_seed + games):
                state, _ = new_voyage(content, players, seed, mission=mission.id)
                commands += play_out(state, random.Random(seed))
                flights += state.flight
                outcomes[f"{state.winner}:{state.reason}"] += 1
            results[(mission.id, players)] = (outcomes, flights / games, commands / games)
    return results


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    started = time.perf_counter()
    results = run(games, first)
    print(f"{'mission':<16}{'crew':>5}{'crew %':>8}{'legion %':>10}{'flights':>9}{'commands':>10}  endings")
    total: Counter[str] = Counter()
    for (mission, players), (outcomes, flights, commands) in results.items():
        crew = sum(n for key, n in outcomes.items() if key.startswith("crew:"))
        legion = games - crew
        total["crew"] += crew
        total["legion"] += legion
        endings = ", ".join(f"{key.split(':')[1]} {n}" for key, n in sorted(outcomes.items()))
        print(
            f"{mission:<16}{players:>5}{100 * crew / games:>7.1f}%{100 * legion / games:>9.1f}%"
            f"{flights:>9.1f}{commands:>10.0f}  {endings}"
        )
    played = total["crew"] + total["legion"]
    crew_rate, legion_rate = 100 * total["crew"] / played, 100 * total["legion"] / played
    print(f"all: {played} voyages, crew {crew_rate:.1f} %, legion {legion_rate:.1f} %")
    print(f"elapsed {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()
