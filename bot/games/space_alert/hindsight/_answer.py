"""Hindsight, the pure part: the search run on a logged flight (with the hands the flight knows)
and the answer in words, one sentence in the server's language."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, cast

from bot.games.space_alert.mission._cards import code_text
from bot.games.space_alert.threat_names import threat_name
from bot.platform.i18n import t
from bot.platform.text import user_text
from engine.flight.machine import Flight
from engine.hindsight import Board, Change, Hindsight, hindsight
from engine.hindsight.flight_boards import Gift, flight_boards
from engine.model import Game, Result
from engine.vocab import ActionCode

# The two-change search stops after this long (wall clock; the one-change search always runs
# whole, in tens of milliseconds): the answer then says a smaller change may exist.
SEARCH_BUDGET_S = 4.0


@dataclass(frozen=True)
class Found:
    answer: Hindsight
    game: Game  # the flight's game with the answer's plans (the real one when nothing helps)


def gifts_of(journal: Iterable[dict[str, Any]]) -> list[Gift]:
    """The data-transfer gifts of a flight's journal (the store's `flight_events`, each accepted
    command in its entry's payload), in order: when each given card arrived (engine.hindsight)."""
    out = []
    for entry in journal:
        payload = entry.get("payload")
        command = payload.get("command") if isinstance(payload, dict) else None
        if isinstance(command, dict) and command.get("type") == "give":
            giver, cid, to = command.get("player"), command.get("card"), command.get("to")
            if isinstance(giver, str) and isinstance(cid, str) and isinstance(to, str):
                out.append(Gift(giver, cid, to))
    return out


def boards_for(flight: Flight, game: Game, gifts: Sequence[Gift] | None = None) -> list[Board] | None:
    """The flight's boards with its hands (and the androids'); None (codes only) should a stored
    game's plans differ.  `gifts`: the journal's (`gifts_of`); None: unknown, a given card then
    counts as arriving as late as it can have."""
    boards = flight_boards(flight, gifts)
    if [b.plan for b in boards] != [tuple(p.actions) for p in game.players]:
        return None
    return boards


def search(flight: Flight, game: Game, budget_s: float = SEARCH_BUDGET_S, gifts: Sequence[Gift] | None = None) -> Found:
    """The smallest change for this flight (blocking, up to `budget_s`: run it in a thread).  The
    boards come with the hands the flight knows; a stored game whose plans differ from the flight's
    (it should not) is searched from its codes alone."""
    boards = boards_for(flight, game, gifts)
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
    """One change as a clause: "Bob had played ⬅️ to the red side in turn 5 instead of turn 6";
    on an android's board, by the human planning for it, the board is named."""
    clause = _clause(lang, change, played)
    if change.actor != change.player:
        clause += t(lang, "hindsight.on_board", board=user_text(change.player))
    return clause


def _clause(lang: str, change: Change, played: dict[str, str]) -> str:
    name = user_text(change.actor)
    if change.kind == "move":
        return t(
            lang,
            "hindsight.move",
            name=name,
            card=_card(lang, change.code),
            to_turn=change.to_turn,
            from_turn=change.from_turn,
        )
    if change.kind == "take_back":
        turn = change.from_turn or 0
        code = played[change.player][turn - 1] if turn else None
        return t(lang, "hindsight.take_back", name=name, card=_card(lang, code), turn=turn)
    if change.kind == "flip":
        turn = change.from_turn or 0
        before = played[change.player][turn - 1] if turn else None
        return t(lang, "hindsight.flip", name=name, card=_card(lang, change.code), was=_card(lang, before), turn=turn)
    return t(lang, "hindsight.play", name=name, card=_card(lang, change.code), turn=change.to_turn)


def summary(found: Found, played: Game) -> list[dict[str, Any]]:
    """The answer's changes as language-free JSON (kept for the web logbook's flight page): whose
    board, who would have made it, the card's code after it and, for a take-back or a flip, the
    code that was played there, which is all `summary_text` needs to word it again."""
    plans = {p.name: p.codes for p in played.players}
    out: list[dict[str, Any]] = []
    for c in found.answer.changes:
        turn = c.from_turn or 0
        was = plans[c.player][turn - 1] if turn and c.kind in ("take_back", "flip") else None
        out.append(
            {
                "player": c.player,
                "by": c.by,
                "kind": c.kind,
                "card": c.card,
                "from_turn": c.from_turn,
                "to_turn": c.to_turn,
                "code": c.code,
                "was": was,
            }
        )
    return out


def summary_text(lang: str, item: dict[str, Any]) -> str:
    """One kept change (an item of `summary`) as the very clause the answer used, in `lang`."""
    player = str(item.get("player") or "?")
    change = Change(
        player=player,
        kind=item.get("kind") or "play",
        card=str(item.get("card") or ""),
        from_turn=item.get("from_turn"),
        to_turn=item.get("to_turn"),
        code=item.get("code"),
        by=item.get("by"),
    )
    turn = change.from_turn or 0
    played = {player: ("-" * (turn - 1) + str(item.get("was") or "-")) if turn else ""}
    return change_text(lang, change, played)


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
        killer = _killer_destroyed(real, result)
        if killer is not None:
            outcome = t(lang, "hindsight.threat_destroyed", threat=threat_name(lang, killer), saved=outcome)
    else:
        outcome = t(lang, "hindsight.better", score=result.score.total, real=real.score.total)
    if answer.proven_minimal:
        note = t(lang, "hindsight.minimal")
    elif len(answer.changes) == 1:  # nothing is smaller than one change; two might score more
        note = t(lang, "hindsight.not_proven_better")
    else:
        note = t(lang, "hindsight.not_proven")
    return f"{t(lang, 'hindsight.if', changes=changes, outcome=outcome)} {note}"


def _killer_destroyed(real: Result, changed: Result) -> str | None:
    """The threat that destroyed the ship, when the change has it destroyed instead (the issue's
    "the Destroyer would have been destroyed"); None when the ship fell to damage or it survived."""
    cause = real.lost.cause if real.lost is not None else None
    if cause is None:
        return None
    fate = next((x.fate for x in changed.threats if x.id == cause), None)
    return cause if fate == "destroyed" else None


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
