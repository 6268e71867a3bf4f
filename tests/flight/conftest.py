"""A scripted crew that plays a flight with a fake clock (no wall time, no sleeping)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from engine.flight.commands import DrawCard, FinishPhase, FlightEvent, GiveCard, MoveCard, PlaceCard
from engine.flight.machine import Flight
from engine.flight.views import BoardView


def _open_empty_turns(board: BoardView) -> list[int]:
    return [s.turn for s in board.slots if s.open]


def crew_step(flight: Flight, events: list[FlightEvent], log: list[Any]) -> None:
    """React like a sensible crew: draw, give, fill open turns, plan for androids, finish early once."""
    humans = [m.name for m in flight.humans()]
    kinds = {e.kind for e in events}
    for name in humans:
        if "incoming_data" in kinds:
            log.append(flight.apply(DrawCard(player=name)))
        if "transfer_opened" in kinds and len(humans) > 1 and flight.member(name).on_board:
            view = flight.station(name)
            normal = [c.id for c in view.hand if not c.heroic]
            if normal:
                target = humans[(humans.index(name) + 1) % len(humans)]
                log.append(flight.apply(GiveCard(player=name, card=normal[-1], to=target)))
    if flight.status != "running":
        return
    for n, name in enumerate(humans):
        view = flight.station(name)
        hand = [c.id for c in view.hand]
        if view.board is not None:
            for i, turn in enumerate(_open_empty_turns(view.board)):
                if not hand or (turn % 3 == 0 and n % 2):  # leave some turns blank
                    continue
                cid = hand.pop(0)
                half = "action" if (turn + i + n) % 2 else "move"
                log.append(flight.apply(PlaceCard(player=name, card=cid, turn=turn, half=half)))
        # the first human plans for the androids: their heroic card first, then one normal card
        if n == 0:
            for info in view.androids:
                free = _open_empty_turns(info)
                if not free:
                    continue
                if info.heroic is not None:
                    log.append(
                        flight.apply(
                            PlaceCard(player=name, card=info.heroic.id, turn=free[0], half="action", board=info.owner)
                        )
                    )
                elif hand and flight.solo:
                    log.append(
                        flight.apply(
                            PlaceCard(player=name, card=hand.pop(0), turn=free[0], half="action", board=info.owner)
                        )
                    )
        if n == 1 and view.planning_phase == 1 and flight.now_s >= 100:
            log.append(flight.apply(FinishPhase(player=name)))
    if flight.solo and flight.now_s >= 30:
        # solo may change plans until the phase ends: turn the first android's newest card around
        solo = humans[0]
        android = next(m for m in flight.members if m.android)
        turns = sorted(t for t in android.board if t >= {1: 1, 2: 4, 3: 8}[flight.round_phase])
        if turns:
            log.append(
                flight.apply(
                    MoveCard(player=solo, board=android.name, from_turn=turns[-1], to_turn=turns[-1], half="move")
                )
            )


def play(
    flight: Flight,
    *,
    step_s: float = 1.0,
    until_s: float | None = None,
    snapshot_at: set[float] | None = None,
    act: Callable[[Flight, list[FlightEvent], list[Any]], None] = crew_step,
) -> tuple[Flight, list, list]:
    """Drive the flight second by second; optionally snapshot and restore from JSON at given instants."""
    end = until_s if until_s is not None else flight.timeline.end_s + 5
    events: list[dict[str, Any]] = []
    log: list[Any] = []
    t = 0.0
    while t <= end:
        batch = flight.advance_to(t)
        events += [e.to_dict() for e in batch]
        act(flight, batch, log)
        if snapshot_at and t in snapshot_at:
            flight = Flight.from_dict(json.loads(json.dumps(flight.to_dict())))
        t += step_s
    return flight, events, log


@pytest.fixture
def play_flight() -> Callable[..., tuple[Flight, list, list]]:
    """The scripted-crew driver (a fixture: with --import-mode=importlib tests cannot import conftest)."""
    return play
