"""Small helpers for the per-card threat tests (test_threats_external.py / test_threats_internal.py).

A scenario is built from a list of threats and a list of action strings, turned into a `Mission`
with `build_mission`, and played turn by turn with `play_one_turn` so the tests can look at the
ship, the crew and the threats between turns.
"""

from __future__ import annotations

from typing import Any

from engine import board, resolve
from engine.model import Result
from engine.state import CrewMember, Mission, ThreatState
from tests.engine.helpers import ext, inn, play, start

__all__ = ["ext", "inn", "play", "start"]  # re-exported: the per-card tests import them from here

KEEPER = "c--c---c----"  # computer maintenance in turns 1, 4 and 8 from upper white
BLANK = "-" * 12
# Token order for every zone: the first tokens drawn have no effect on energy or cannons.
TOKENS = ["structural", "lift", "lower_cannon", "upper_cannon", "reactor", "shield"]


def game(
    threats: list[dict[str, Any]],
    *actions: str,
    keeper: bool = False,
    red: str = "T5",
    white: str = "T5",
    blue: str = "T5",
    internal: str = "T5",
) -> dict[str, Any]:
    """Players are named P0, P1, ... in action order; `keeper` appends a computer keeper 'K'."""
    players = [{"name": f"P{i}", "actions": a} for i, a in enumerate(actions or (BLANK,))]
    if keeper:
        players.append({"name": "K", "actions": KEEPER})
    return {
        "tracks": {"red": red, "white": white, "blue": blue, "internal": internal},
        "players": players,
        "threats": threats,
        "seed": 1,
        "damage_tokens": {z: list(TOKENS) for z in board.ZONES},
    }


def run(data: dict[str, Any]) -> Result:
    return resolve(data, log=True)


def dmg(m: Mission) -> tuple[int, int, int]:
    """Damage tokens taken by (red, white, blue)."""
    r, w, b = (len(m.ship.damage[z]) for z in board.ZONES)
    return r, w, b


def shields(m: Mission) -> tuple[int, int, int]:
    r, w, b = (m.ship.shields[z] for z in board.ZONES)
    return r, w, b


def reactors(m: Mission) -> tuple[int, int, int]:
    r, w, b = (m.ship.reactors[z] for z in board.ZONES)
    return r, w, b


def threat(m: Mission, card_id: str, nth: int = 0) -> ThreatState:
    return [t for t in m.threats if t.card.id == card_id][nth]


def player(m: Mission, name: str) -> CrewMember:
    return next(p for p in m.crew if p.name == name)


def events(m: Mission, kind: str, **match: Any) -> list[dict[str, Any]]:
    return [e for e in m.events if e["kind"] == kind and all(e.get(k) == v for k, v in match.items())]


def letters(m: Mission, card_id: str) -> list[tuple[int, str]]:
    """(turn, letter) of every X/Y/Z action the card performed so far."""
    return [(e["turn"], e["letter"]) for e in events(m, "threat_action", threat=card_id)]


def knocked_out(m: Mission) -> dict[str, int | None]:
    return {p.name: p.knocked_out_turn for p in m.crew if p.knocked_out}


def rocket_ignores(card_id: str) -> Mission:
    """A rocket fired in turn 2 from lower blue hits in turn 3: the card (blue, T3, T+1) is at range 2
    or nearer, alone on the board; a rocket-immune card is not a valid target (§3.3, §7.1)."""
    m = start(game([ext(card_id, 1, "blue")], "3c" + "-" * 10, keeper=True, blue="T3"))
    play(m, 3)
    return m
