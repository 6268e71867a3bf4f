"""The rules table (engine/flight/rules.py) against the machine: `legal_commands` lists exactly the
commands `apply` accepts, at many moments of many random flights, so a control the station shows
is always a legal move and no legal move is missing from it."""

from __future__ import annotations

import random

import pytest

from engine.flight import rules
from engine.flight.commands import (
    AgreeEnd,
    Command,
    DrawCard,
    FinishPhase,
    GiveCard,
    MoveCard,
    PlaceCard,
    TakeBack,
)
from engine.flight.machine import Flight
from engine.vocab import HALVES


def every_command(flight: Flight, name: str) -> list[Command]:
    """Every command worth asking: all known cards x turns 0-13 x halves x boards, every move and
    take-back, and the phase, data and agreement moves (the legal ones among many illegal ones)."""
    boards: list[str | None] = [None, *(m.name for m in flight.members)]
    cards = sorted(
        {c for m in flight.members for c in m.hand} | {s.card for m in flight.members for s in m.board.values()}
    )
    out: list[Command] = []
    for board in boards:
        for turn in range(0, flight.last_turn + 2):
            out.append(TakeBack(player=name, turn=turn, board=board))
            for cid in cards:
                for half in HALVES:
                    out.append(PlaceCard(player=name, card=cid, turn=turn, half=half, board=board))
            for to in range(0, flight.last_turn + 2):
                for half in (None, *HALVES):
                    out.append(MoveCard(player=name, from_turn=turn, to_turn=to, half=half, board=board))
    out += [FinishPhase(player=name), DrawCard(player=name), AgreeEnd(player=name)]
    for cid in cards:
        for m in flight.members:
            out.append(GiveCard(player=name, card=cid, to=m.name))
    return out


def same_move(command: Command) -> Command:
    """Naming one's own board is the same move as naming none (the form the station uses)."""
    if getattr(command, "board", None) == command.player:
        return command.model_copy(update={"board": None})
    return command


def checkpoints(seed: int) -> list[Flight]:
    """Copies of one random flight at a dozen moments, played with random legal moves between them."""
    rng = random.Random(seed)
    humans = rng.choice([1, 2, 3, 4, 5])
    crew = [f"P{i}" for i in range(humans)]
    flight = Flight.start({"crew": crew, "mission": rng.choice(["S1-1", "S1-2", "S2-3", "S2-6"]), "seed": seed})
    moments = []
    t = 0.0
    flight.advance_to(t)
    while not flight.complete and len(moments) < 12:
        t += rng.uniform(5, 40)
        flight.advance_to(t)
        for _ in range(rng.randint(0, 6)):
            name = rng.choice(crew)
            legal = flight.legal_commands(name)
            if legal:
                flight.apply(rng.choice(legal))
        moments.append(Flight.from_dict(flight.to_dict()))
    return moments


@pytest.mark.parametrize("seed", range(6))
def test_legal_commands_are_exactly_what_apply_accepts(seed: int) -> None:
    checked = 0
    for moment in checkpoints(seed):
        for human in moment.humans():
            legal = set(moment.legal_commands(human.name))
            for command in every_command(moment, human.name):
                accepted = moment.check(command) is None
                assert accepted == (same_move(command) in legal), (command, moment.check(command))
                checked += 1
            for command in legal:  # and apply agrees with check, on a copy
                copy = Flight.from_dict(moment.to_dict())
                assert copy.apply(command).ok, command
    assert checked > 1000


def test_every_command_type_has_one_rule_with_a_rulebook_name() -> None:
    kinds = {
        cls.model_fields["type"].default
        for cls in (PlaceCard, MoveCard, TakeBack, FinishPhase, DrawCard, GiveCard, AgreeEnd)
    }
    assert set(rules.RULES) == kinds
    assert all(rule.name and rule.section.startswith("§") for rule in rules.RULES.values())
