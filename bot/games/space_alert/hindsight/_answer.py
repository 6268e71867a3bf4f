"""Hindsight, the pure part: the search run on a logged flight (with the hands the flight knows)
and the answer in words, one sentence in the server's language."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, cast

from bot.games.space_alert.mission._cards import code_text
from bot.platform.i18n import t
from bot.platform.text import user_text
from engine.flight.machine import Flight
from engine.hindsight import Board, Change, Hindsight, hindsight
from engine.hindsight.flight_boards import flight_boards
from engine.model import Game
from engine.vocab import ActionCode

# The two-change search stops after this long (wall clock; the one-change search always runs
# whole, in tens of milliseconds): the answer then says a smaller change may exist.
SEARCH_BUDGET_S = 4.0


@dataclass(frozen=True)
class Found:
    answer: Hindsight
    game: Game  # the flight's game with the answer's plans (the real one when nothing helps)


def boards_for(flight: Flight, game: Game) -> list[Board] | None:
    """The flight's boards with its hands; None (codes only) should a stored game's plans differ."""
    boards = flight_boards(flight)
    if [b.plan for b in boards] != [tuple(p.actions) for p in game.players]:
        return None
    return boards


def search(flight: Flight, game: Game, budget_s: float = SEARCH_BUDGET_S) -> Found:
    """The smallest change for this flight (blocking, up to `budget_s`: run it in a thread).  The
    boards come with the hands the flight knows; a stored game whose plans differ from the flight's
    (it should not) is searched from its codes alone."""
    boards = boards_for(flight, game)
    deadline = time.monotonic() + budget_s
    answer = hindsight(game, boards, max_changes=2, time_up=lambda: time.monotonic() >= deadline)
    plans = answer.plans
    changed = game.model_copy(
        update={"players": [p.model_copy(update={"actions": list(plans[p.name])}) for p in game.players]}
    )
    return Found(answer, changed)


def _card(lang: str, code: str | None) -> str:
    return code_text(lang, cast(ActionCode, code)) if code else "?"


def change_text(lang: str, change: Change, played: dict[str, str]) -> str:
    """One change as a clause: "Bob had played ⬅️ to the red side in turn 5 instead of turn 6"."""
    turn = change.from_turn or 0
    was = played[change.player][turn - 1] if turn and change.kind in ("take_back", "flip") else None
    return _clause(lang, change.kind, change.player, change.code, change.from_turn, change.to_turn, was)


def _clause(
    lang: str, kind: str, player: str, code: str | None, from_turn: int | None, to_turn: int | None, was: str | None
) -> str:
    name = user_text(player)
    if kind == "move":
        return t(lang, "hindsight.move", name=name, card=_card(lang, code), to_turn=to_turn, from_turn=from_turn)
    if kind == "take_back":
        return t(lang, "hindsight.take_back", name=name, card=_card(lang, was), turn=from_turn or 0)
    if kind == "flip":
        return t(lang, "hindsight.flip", name=name, card=_card(lang, code), was=_card(lang, was), turn=from_turn or 0)
    return t(lang, "hindsight.play", name=name, card=_card(lang, code), turn=to_turn)


def summary(found: Found, played: Game) -> list[dict[str, Any]]:
    """The answer's changes as language-free JSON (kept for the web logbook's flight page): each
    with the code it shows and, for a take-back or a flip, the code that was played there."""
    plans = {p.name: p.codes for p in played.players}
    out: list[dict[str, Any]] = []
    for change in found.answer.changes:
        turn = change.from_turn or 0
        was = plans[change.player][turn - 1] if turn and change.kind in ("take_back", "flip") else None
        out.append({**change.to_json(), "code": change.code, "was": was})
    return out


def summary_text(lang: str, item: dict[str, Any]) -> str:
    """One kept change (an item of `summary`) as the same clause the answer used, in `lang`."""
    return _clause(
        lang,
        str(item.get("kind")),
        str(item.get("player", "?")),
        item.get("code"),
        item.get("from_turn"),
        item.get("to_turn"),
        item.get("was"),
    )


def sentence(lang: str, found: Found, played: Game) -> str:
    """The answer in one sentence, and whether a smaller change could exist."""
    answer = found.answer
    real = answer.played
    real_outcome = (
        t(lang, "hindsight.destroyed")
        if real.outcome == "destroyed"
        else t(lang, "hindsight.score", score=real.score.total)
    )
    if not answer.changes:
        key = "hindsight.none_lost" if real.outcome == "destroyed" else "hindsight.none_better"
        note = "" if answer.proven_minimal else " " + t(lang, "hindsight.not_proven_none")
        return t(lang, key) + note
    plans = {p.name: p.codes for p in played.players}
    clauses = [change_text(lang, c, plans) for c in answer.changes]
    changes = t(lang, "hindsight.and").join(clauses)
    result = answer.result
    if real.outcome == "destroyed":
        outcome = t(lang, "hindsight.saved", score=result.score.total, real=real_outcome)
    else:
        outcome = t(lang, "hindsight.better", score=result.score.total, real=real.score.total)
    note = t(lang, "hindsight.minimal" if answer.proven_minimal else "hindsight.not_proven")
    return f"{t(lang, 'hindsight.if', changes=changes, outcome=outcome)} {note}"


def lesson_line(flight: Flight, game: Game, lang: str) -> str | None:
    """A lost flight-school flight's hint: the one change that would have passed the lesson (a
    lesson is passed by surviving it), None when no single change does.  One change only, searched
    whole (tens of milliseconds; blocking: run it in a thread)."""
    answer = hindsight(game, boards_for(flight, game), max_changes=1)
    if answer.played.outcome != "destroyed" or not answer.changes:
        return None
    plans = {p.name: p.codes for p in game.players}
    change = change_text(lang, answer.changes[0], plans)
    return t(lang, "hindsight.lesson", change=change, score=answer.result.score.total)
