"""The search: the smallest set of plan changes that would have saved the ship (or, for a ship that
survived, raised the score most).

One change is searched exhaustively; two changes best first, within a budget: first changes that
pushed the loss later, then second changes near the (new) turn of loss and by a player standing in
the zone that was lost.  Every changed plan is resolved from the turn it first differs in
(engine.resolution.resume): from the real flight's checkpoints, or from the first change's own
run when the second change comes later.  A lost mission only turns on changes up to the turn of
loss, so later ones are not resolved at all.

What counts as better, in order: fewer changes; for a lost ship, saving it, then fewer players
involved, the earlier turn (and last, the higher score); for a surviving ship, the higher score,
then fewer players involved, the earlier turn.  The engine has no clock: the caller passes the budget as a
number of resolutions and, if it wants one, a `time_up` callable (the CLI and the bot read their
clock there), so a search with a count budget is deterministic.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from operator import itemgetter
from typing import Any

from engine import board
from engine.hindsight.boards import Board, Change
from engine.model import Game, Result
from engine.resolution.resume import (
    Checkpoints,
    resolve_with_checkpoints,
    resume,
    resume_if_survived,
    resume_with_checkpoints,
)


@dataclass(frozen=True, slots=True)
class Hindsight:
    """The answer: the changes (none when nothing within the limits helps), every player's plan
    with them, the result they give, whether no smaller set of changes does it, and how many
    changed plans were looked at."""

    changes: tuple[Change, ...]
    plans: dict[str, str]
    result: Result
    proven_minimal: bool
    searched: int
    played: Result  # the real flight's result

    def to_json(self) -> dict[str, Any]:
        return {
            "changes": [c.to_json() for c in self.changes],
            "plans": dict(self.plans),
            "result": self.result.to_json_dict(),
            "proven_minimal": self.proven_minimal,
            "searched": self.searched,
        }


@dataclass(slots=True)
class _Tried:
    """A set of changes, the boards after them, and the result (with checkpoints when it may be a
    first change of two)."""

    changes: tuple[Change, ...]
    boards: tuple[Board, ...]
    result: Result
    points: Checkpoints | None = None


def hindsight(
    game: Game | dict[str, Any],
    boards: Sequence[Board] | None = None,
    *,
    max_changes: int = 1,
    budget: int | None = None,
    time_up: Callable[[], bool] | None = None,
) -> Hindsight:
    """Search the changes to `game`'s plans.  `boards`: what each player (in the game's order) had;
    None: only the codes of the GAME.json (take-backs and moves).  `budget`: at most this many
    changed plans resolved for two changes (one change is always searched whole); `time_up`:
    asked between resolutions of the two-change search, True stops it."""
    if not isinstance(game, Game):
        game = Game.model_validate(game)
    if max_changes not in (1, 2):
        raise ValueError("max_changes is 1 or 2")
    if boards is None:
        boards = [Board.from_codes(p.name, p.actions) for p in game.players]
    boards = tuple(boards)
    for b, p in zip(boards, game.players, strict=True):
        if b.name != p.name or list(b.plan) != list(p.actions):
            raise ValueError(f"the board of {b.name} is not the plan of {p.name}")
    base = resolve_with_checkpoints(game)
    goal = _Goal(base.result)
    searched = 0
    singles: list[_Tried] = []
    keep = max_changes == 2
    for seat, b in enumerate(boards):
        done: dict[tuple[str, ...], _Tried] = {}  # the same plan made by another human (an android's board)
        for change, new in b.changed():
            k = change.turn
            changed = (*boards[:seat], new, *boards[seat + 1 :])
            searched += 1
            if k > base.last_turn:  # after the turn of loss: the same result
                continue
            same = done.get(new.plan)
            if same is not None:
                singles.append(_Tried((change,), changed, same.result, same.points))
            elif keep:
                points = resume_with_checkpoints(base, k, {seat: new.plan})
                singles.append(_Tried((change,), changed, points.result, points))
            else:
                singles.append(_Tried((change,), changed, resume(base, k, {seat: new.plan})))
            done[new.plan] = singles[-1]
    best = _best(goal, singles)
    exhausted = True
    if best is None and max_changes == 2:
        pairs, searched_pairs, exhausted = _pairs(goal, base, boards, singles, budget, time_up)
        searched += searched_pairs
        best = _best(goal, pairs)
    elif best is not None and max_changes == 2 and not goal.lost:
        # A surviving ship: two changes may raise the score more than the best single one.
        pairs, searched_pairs, exhausted = _pairs(goal, base, boards, singles, budget, time_up)
        searched += searched_pairs
        two = _best(goal, pairs)
        if two is not None and goal.key(two.result) > goal.key(best.result):
            best = two
    if best is None:
        return Hindsight((), _plans(boards), base.result, exhausted, searched, base.result)
    if len(best.changes) == 1:
        # no smaller set; for a surviving ship, no bigger one raising it more unless a pair search stopped
        proven = goal.lost or exhausted
    else:
        proven = True  # every single change was tried and failed
    return Hindsight(best.changes, _plans(best.boards), best.result, proven, searched, base.result)


class _Goal:
    """What helps: saving a lost ship, or a higher score for a surviving one."""

    def __init__(self, played: Result) -> None:
        self.played = played
        self.lost = played.outcome == "destroyed"
        self.zone = _lost_zone(played)
        self.turn = played.lost.turn if played.lost else board.TURNS + 1

    def helps(self, result: Result) -> bool:
        if self.lost:
            return result.outcome == "survived"
        return result.outcome == "survived" and result.score.total > self.played.score.total

    def key(self, result: Result) -> tuple[int, int]:
        return (result.outcome == "survived", result.score.total)


def _rank(goal: _Goal, tried: _Tried) -> tuple[int, int, int, int]:
    """Smaller is better.  A lost ship: fewer changes, then (ties) fewer players (the humans making
    the changes, an android's board counting as its planner's), the earlier turn, and last the
    higher score.  A surviving ship: fewer changes, the higher score, then fewer players and the
    earlier turn."""
    changes = tried.changes
    players = len({c.actor for c in changes})
    turn = min(c.turn for c in changes)
    score = -tried.result.score.total
    if goal.lost:
        return (len(changes), players, turn, score)
    return (len(changes), score, players, turn)


def _best(goal: _Goal, tried: Sequence[_Tried]) -> _Tried | None:
    helping = [t for t in tried if goal.helps(t.result)]
    return min(helping, key=lambda t: _rank(goal, t)) if helping else None


def _pairs(
    goal: _Goal,
    base: Checkpoints,
    boards: tuple[Board, ...],
    singles: list[_Tried],
    budget: int | None,
    time_up: Callable[[], bool] | None,
) -> tuple[list[_Tried], int, bool]:
    """Two changes, best first.  Returns what was resolved, how many pairs were looked at, and
    whether every pair was."""
    # Plans already resolved (None: lost, or the flight itself, or a single change's plans): the
    # same plans made by other humans are not resolved again.
    resolved: dict[tuple[tuple[str, ...], ...], Result | None] = {tuple(b.plan for b in boards): None}
    resolved.update((tuple(b.plan for b in t.boards), None) for t in singles)
    made: set[tuple[tuple[tuple[str, ...], ...], frozenset[str]]] = set()
    candidates: list[tuple[tuple[int, int, int], int, _Tried, int, Change, Board]] = []
    order = 0
    for first in singles:
        after = _Goal(first.result)  # the first change's loss: where a second one should act
        for seat, b in enumerate(first.boards):
            for change, new in b.changed():
                order += 1
                priority = _priority(goal, base, first, after, seat, change)
                candidates.append((priority, order, first, seat, change, new))
    candidates.sort(key=_by_priority)
    tried: list[_Tried] = []
    searched = 0
    # A lost ship: once a pair saves it, a last look at the next pairs in line (for a better score,
    # fewer players or an earlier turn) and done; the pair is minimal whichever it is.
    stop_at: int | None = None
    for n, (_, _, first, seat, change, new) in enumerate(candidates):
        if stop_at is not None and searched >= stop_at:
            return tried, searched, True
        if (budget is not None and searched >= budget) or (time_up is not None and n % 16 == 0 and time_up()):
            return tried, searched, False
        if change.kind == "play" and change.card in _played(first.changes):
            # the first change played this very card (on another board): a copy of it, or nothing
            swapped = _copy_of(first.boards[seat], change, _played(first.changes))
            if swapped is None:
                continue
            change, new = swapped
        boards2 = (*first.boards[:seat], new, *first.boards[seat + 1 :])
        plans = tuple(b.plan for b in boards2)
        pair = (*first.changes, change)
        key = (plans, frozenset(c.actor for c in pair))
        if key in made:
            continue  # the same plans by the same players as another pair
        made.add(key)
        if plans in resolved:
            known = resolved[plans]
            if known is not None:
                tried.append(_Tried(pair, boards2, known))
            continue  # resolved already (or the flight itself, or a single change's plans)
        searched += 1
        k2 = change.turn
        assert first.points is not None
        if k2 >= first.changes[0].turn:
            if k2 > first.points.last_turn:
                continue  # after the first change's turn of loss: its result, which did not help
            result = resume_if_survived(first.points, k2, {seat: new.plan})
        else:  # the second change comes first: resume the flight itself from there
            if k2 > base.last_turn:
                continue
            changed = {i: b2.plan for i, (b, b2) in enumerate(zip(boards, boards2, strict=True)) if b.plan != b2.plan}
            result = resume_if_survived(base, k2, changed)
        resolved[plans] = result
        if result is None:
            continue  # lost: helps neither goal
        tried.append(_Tried(pair, boards2, result))
        if stop_at is None and goal.lost and goal.helps(result):
            stop_at = searched + max(_LAST_LOOK, searched // 4)
    return tried, searched, True


def _played(changes: Sequence[Change]) -> set[str]:
    return {c.card for c in changes if c.kind == "play"}


def _copy_of(b: Board, change: Change, used: set[str]) -> tuple[Change, Board] | None:
    """`change` made with a copy of its card not in `used` (one hand feeds several boards: a
    human's own and the androids'), and the board after it; None when the hand has no such copy."""
    held = next((h for h in b.unplayed if h.card == change.card or change.card in h.copies), None)
    spare = next((c for c in (held.card, *held.copies) if c not in used), None) if held is not None else None
    if spare is None:
        return None
    swapped = replace(change, card=spare)
    return swapped, b.apply(swapped)


_LAST_LOOK = 200  # pairs looked at after the first that saves a lost ship (at least)


_by_priority = itemgetter(0, 1)


def _priority(
    goal: _Goal, base: Checkpoints, first: _Tried, after: _Goal, seat: int, change: Change
) -> tuple[int, int, int]:
    """Best first: a first change that pushed the loss furthest, then a second change near the
    turn the ship was then lost in, by a player standing in the zone lost."""
    pushed = -min(after.turn, board.TURNS + 1) if goal.lost else -first.result.score.total
    near = abs(change.turn - min(after.turn, board.TURNS))
    points = first.points if first.points is not None and change.turn <= first.points.last_turn else base
    turn = min(change.turn, points.last_turn)
    station = points.at(turn).crew[seat].station
    zone = None if station == board.SPACE else station.split("_", 1)[1]
    return (pushed, near, 0 if after.zone is None or zone == after.zone else 1)


def _lost_zone(result: Result) -> str | None:
    """The zone the ship was lost in: the destroyed zone, or the zone of the threat that did it."""
    if result.lost is None:
        return None
    cause = result.lost.cause
    if cause.startswith("zone "):
        return cause.split()[1]
    for t in result.threats:
        if t.id == cause:
            return t.zone
    return None


def _plans(boards: Sequence[Board]) -> dict[str, str]:
    return {b.name: "".join(b.plan) for b in boards}


def changed_plans(played: Game, changes: Sequence[Change], boards: Sequence[Board] | None = None) -> Game:
    """`played` with `changes` applied, each checked as the station checks it (ValueError naming the
    reason code otherwise): what the tests resolve again to confirm an answer."""
    if boards is None:
        boards = [Board.from_codes(p.name, p.actions) for p in played.players]
    by_name: dict[str, Board] = {b.name: b for b in boards}
    used: set[str] = set()
    for change in changes:
        b = by_name.get(change.player)
        if b is None:
            raise ValueError("not_in_crew")
        problem = b.problem(change)
        if problem is None and change.kind == "play" and change.card in used:
            problem = "not_your_card"  # played already, on another board fed by the same hand
        if problem is not None:
            raise ValueError(problem)
        if change.kind == "play":
            used.add(change.card)
        by_name[change.player] = b.apply(change)
    data = played.model_dump()
    for p in data["players"]:
        p["actions"] = list(by_name[p["name"]].plan)
    return Game.model_validate(data)
