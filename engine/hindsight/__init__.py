"""Hindsight: the smallest change to the crew's plans that would have saved the ship (issue 29).

Pure and deterministic like the rest of the engine: `hindsight(game, boards)` searches the changes
the action round allowed (engine.hindsight.boards) and resolves each changed plan from the turn it
first differs in (engine.resolution.resume).
"""

from engine.hindsight.boards import CHANGE_KINDS, Board, Change, ChangeKind, Held
from engine.hindsight.search import Hindsight, changed_plans, hindsight

__all__ = ["CHANGE_KINDS", "Board", "Change", "ChangeKind", "Held", "Hindsight", "changed_plans", "hindsight"]
