"""Per-turn snapshots of a resolution: what a picture of turn N needs, frozen and engine-free.

Why a copy: the engine mutates one `Mission` in place for speed, so the pictures cannot keep a
reference to it.  `resolve_with_states` passes an observer to `engine.resolve` that copies the few
fields a picture shows (crew, ship systems, threats, the events since the previous copy) into
frozen dataclasses.  The snapshots hold only plain values, so they can be rendered in a worker
thread, compared between a real flight and a what-if, and pickled.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine import board, resolve
from engine.model import Game, Result
from engine.state import Mission
from engine.vocab import Position, Zone


@dataclass(frozen=True, slots=True)
class CrewView:
    name: str
    station: Position
    knocked_out: bool
    bots: str | None  # None, "active" or "disabled"
    intercepting: bool


@dataclass(frozen=True, slots=True)
class ThreatView:
    id: str
    name: str
    number: int  # T+ turn: the number on its token
    internal: bool
    kind: str | None  # internal threats: "intruder", "malfunction" or "special"
    zone: Zone | None
    track: str
    track_length: int
    position: int  # spaces from the ship (Z = 1); 0 = not on the track yet
    health: int
    remaining: int
    shield: int
    appeared: bool
    visible: bool
    fate: str | None  # None while present; "destroyed" or "survived"
    fate_turn: int | None
    stations: tuple[str, ...]  # intruders, malfunctions, contamination, slime: where its tokens are


@dataclass(frozen=True, slots=True)
class TurnState:
    """The board after `turn` (0 = before turn 1; 13 = after the hyperspace jump)."""

    turn: int
    shields: dict[str, int]
    reactors: dict[str, int]
    damage: dict[str, tuple[str, ...]]
    fuel: int
    rockets: int
    rocket_flying: bool  # a rocket is on its track (fired this turn or hitting next damage step)
    depots: dict[str, str | None]
    crew: tuple[CrewView, ...]
    threats: tuple[ThreatView, ...]
    events: tuple[dict[str, Any], ...]  # what happened since the previous snapshot
    lost: bool = False

    def damage_count(self, zone: str) -> int:
        return len(self.damage[zone])


@dataclass(frozen=True, slots=True)
class Replay:
    """A resolved game with the board after every turn; `states[0]` is the start."""

    game: Game
    result: Result
    states: tuple[TurnState, ...]

    @property
    def last(self) -> TurnState:
        return self.states[-1]

    @property
    def turns(self) -> int:
        """The turns the resolution covers (the hyperspace jump is the turn after them): the one
        number behind "Turn 5/12" in a picture, its alt text and the replay's buttons.

        The engine resolves every mission on the full action board (`board.TURNS`), so a two-phase
        test run, whose crew plans turns 1-7, still flies turns 8-12 with its threats acting: its
        pictures count to 12 like the engine does.  Texts take the number from here, never a
        literal, so a change of the rules changes every place at once."""
        return board.TURNS

    @property
    def track_columns(self) -> dict[str, str]:
        """Picture column (the three zones, then "internal") -> the trajectory lying there."""
        t = self.game.tracks
        return {"red": t.red, "white": t.white, "blue": t.blue, "internal": t.internal}


def _threat_stations(t: Any) -> tuple[str, ...]:
    if t.station:
        return (t.station,)
    if t.slime:
        return tuple(str(tok[0]) for tok in t.slime)
    return tuple(t.stations)


def snapshot(m: Mission, events: list[dict[str, Any]]) -> TurnState:
    """Copy what a picture shows out of the live mission (read only)."""
    ship = m.ship
    crew = tuple(
        CrewView(
            name=p.name,
            station=p.station,
            knocked_out=p.knocked_out,
            bots=p.bots,
            intercepting=p.station == board.SPACE,
        )
        for p in m.crew
    )
    threats = tuple(
        ThreatView(
            id=t.card.id,
            name=t.card.name,
            number=t.number,
            internal=t.internal,
            kind=t.card.internal_type,
            zone=t.zone,
            track=t.track.id,
            track_length=t.track.length,
            position=t.position,
            health=t.health,
            remaining=t.remaining_health,
            shield=t.shield,
            appeared=t.appeared,
            visible=t.visible,
            fate=t.fate,
            fate_turn=t.fate_turn,
            stations=_threat_stations(t),
        )
        for t in sorted(m.threats, key=lambda t: t.sort_key)
    )
    return TurnState(
        turn=m.turn,
        shields={zone: n for zone, n in ship.shields.items()},
        reactors={zone: n for zone, n in ship.reactors.items()},
        damage={z: tuple(ship.damage[z]) for z in board.ZONES},
        fuel=ship.fuel,
        rockets=ship.rockets,
        rocket_flying=ship.rocket_launched or ship.rocket_in_flight,
        depots={st: state for st, state in ship.depots.items()},
        crew=crew,
        threats=threats,
        events=tuple(dict(e) for e in events),
        lost=m.lost is not None,
    )


def resolve_with_states(game: Game | dict[str, Any]) -> Replay:
    """Resolve `game` with the captain's log and a snapshot before turn 1 and after every turn.

    Same result as `engine.resolve(game, log=True)` (the observer only reads).  The last
    snapshot is the end: after turn 13, or the turn the ship was lost.
    """
    if not isinstance(game, Game):
        game = Game.model_validate(game)
    states: list[TurnState] = []
    seen = 0

    def observe(m: Mission) -> None:
        nonlocal seen
        states.append(snapshot(m, m.events[seen:]))
        seen = len(m.events)

    result = resolve(game, log=True, observer=observe)
    return Replay(game=game, result=result, states=tuple(states))
