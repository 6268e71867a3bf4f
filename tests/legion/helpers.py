"""Shared helpers for the Scarlet Legion engine tests: scripted dice and a stacked flight deck."""

from __future__ import annotations

import random

from engine.legion.commands import Command, Event, Rejected
from engine.legion.pack import Content, default_pack
from engine.legion.rules import step
from engine.legion.setup import new_voyage
from engine.legion.state import State

CONTENT: Content = default_pack()


class Dice(random.Random):
    """Rolls the scripted d6 values first, then falls back to a seeded generator."""

    def __init__(self, rolls: list[int] | None = None) -> None:
        super().__init__(0)
        self.rolls = list(rolls or [])

    def __reduce__(self) -> tuple[object, ...]:  # type: ignore[override]
        return (_dice, (list(self.rolls), self.getstate()))

    def randint(self, a: int, b: int) -> int:
        if self.rolls:
            return self.rolls.pop(0)
        return super().randint(a, b)


def _dice(rolls: list[int], state: tuple[object, ...]) -> Dice:
    twin = Dice(rolls)
    twin.setstate(state)
    return twin


def voyage(players: int = 4, seed: int = 1, mission: str = "delivery", ship: str = "kestrel") -> State:
    state, _ = new_voyage(CONTENT, players, seed, mission=mission, ship=ship)
    return state


def do(state: State, command: Command) -> list[Event]:
    """Apply in place and fail loudly on a refusal."""
    result = step(state, command)
    assert not isinstance(result, Rejected), f"{command} refused: {result.code}"
    return result


def codes(events: list[Event]) -> list[str]:
    return [event.code for event in events]


def stack(state: State, card: str) -> None:
    """Put `card` on top of the flight deck (the next one drawn)."""
    state.flight_deck.append(card)


def to_combat(state: State, card: str) -> None:
    """Leave the shop and meet the combat card `card`, engaging if the card offers a choice."""
    stack(state, card)
    do(state, _depart(state))
    if state.phase == "contact":
        from engine.legion.commands import Engage

        do(state, Engage(state.captain))
    assert state.phase == "orders"


def _depart(state: State) -> Command:
    from engine.legion.commands import Depart

    return Depart(state.captain)


def seat(state: State, role: str) -> int:
    found = state.seat_of_role(role)  # type: ignore[arg-type]
    assert found is not None
    return found
