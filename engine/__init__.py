"""Space Alert rules engine: pure, deterministic resolution of a mission (rulebook §3-§4).

No Discord, no I/O, no wall clock.  `resolve(game)` takes a `Game` (or a dict of the same shape)
and returns a `Result`; every draw goes through a `random.Random` seeded from the game.
"""

from engine.model import Game, Result
from engine.resolution.mission import resolve

__all__ = ["Game", "Result", "resolve"]
