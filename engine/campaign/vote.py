"""The crew's votes before a campaign mission (rulebook §6): difficulty and going on.

All agree: that option.  Otherwise the option with the most votes; a tie among the leaders goes
to the most cautious of them (the Slovak rulebook lets caution decide every disagreement, the
Russian one the majority: this keeps the majority and uses caution where it is silent).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from typing import Any, Literal, TypeAlias, TypeVar

from engine.vocab import Difficulty

T = TypeVar("T", bound=Hashable)

Continue: TypeAlias = Literal["end", "continue"]
# Most cautious first.
DIFFICULTY_CAUTION: tuple[Difficulty, ...] = ("white", "mixed", "yellow")
CONTINUE_CAUTION: tuple[Continue, ...] = ("end", "continue")


def tally(votes: Mapping[Any, object], cautious_first: Sequence[T]) -> T:
    """The crew's decision from each voter's choice (voter -> option; options outside
    `cautious_first` are ignored); no votes at all choose the most cautious option."""
    counts = Counter(choice for choice in votes.values() if choice in cautious_first)
    if not counts:
        return cautious_first[0]
    best = max(counts.values())
    return next(option for option in cautious_first if counts[option] == best)


def difficulty_vote(votes: Mapping[Hashable, Difficulty]) -> Difficulty:
    return tally(votes, DIFFICULTY_CAUTION)


def continue_vote(votes: Mapping[Hashable, Continue]) -> Continue:
    return tally(votes, CONTINUE_CAUTION)
