"""Shared inputs of the picture tests: the golden flight and a synthetic crowded board."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from bot.games.space_alert.pictures import CrewView, Replay, ThreatView, TurnState, resolve_with_states

HERE = Path(__file__).resolve().parent
GOLDEN = HERE / "golden"


def flight_game() -> dict[str, Any]:
    """Traced game §6 case 2 with five named crew (one Cyrillic): survives all 13 turns, score 16."""
    data: dict[str, Any] = json.loads((HERE / "flight.json").read_text(encoding="utf-8"))
    return data


def flight_replay() -> Replay:
    return resolve_with_states(flight_game())


def crowded(replay: Replay) -> Replay:
    """The golden flight's turn 7 with eight threats on the red track at neighbouring spaces and all
    five crew (one knocked out, two with battlebots) in one station: the worst case for overlaps."""
    base = replay.states[7]
    threats = tuple(
        ThreatView(
            id="E1-07",
            name="Fighter",
            number=n,
            internal=False,
            kind=None,
            zone="red",
            track="T2",
            track_length=11,
            position=1 + n // 2,
            health=4,
            remaining=4 - n % 3,
            shield=2,
            appeared=True,
            visible=True,
            fate=None,
            fate_turn=None,
            stations=(),
        )
        for n in range(1, 9)
    )
    crew = tuple(
        CrewView(
            name=name,
            station="upper_white",
            knocked_out=i == 2,
            bots="active" if i == 0 else "disabled" if i == 3 else None,
            intercepting=False,
        )
        for i, name in enumerate(("Alexandra the Great", "Bartholomew", "Чеслава", "Dagmar Nováková", "Eve"))
    )
    return with_state(replay, 7, replace(base, threats=threats, crew=crew))


def overlaps(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def with_state(replay: Replay, index: int, state: TurnState) -> Replay:
    return replace(replay, states=(*replay.states[:index], state, *replay.states[index + 1 :]))


def threat_card(threat_id: str, number: int, zone: str, position: int) -> ThreatView:
    """A threat on an external track (the narrowest cards), present and unhurt."""
    return ThreatView(
        id=threat_id,
        name=threat_id,
        number=number,
        internal=False,
        kind=None,
        zone=zone,  # type: ignore[arg-type]
        track="T2",
        track_length=11,
        position=position,
        health=4,
        remaining=3,
        shield=1,
        appeared=True,
        visible=True,
        fate=None,
        fate_turn=None,
        stations=(),
    )


# The longest crew names a picture must show whole: a long display name, a single long word, the
# engine's androids (drawn in the picture's language) and a Cyrillic name; with battlebots.
LONG_CREW = ("Alexandra the Great", "Bartholomew", "Android 1", "Чеслава Ярославовна", "Android 2")


def with_threats(replay: Replay, threat_ids: list[str], crew: tuple[str, ...] = LONG_CREW) -> Replay:
    """The golden flight's turn 7 with these threats, up to four on each of the three external
    tracks, and `crew` together in one station (two columns of pills, the narrowest)."""
    base = replay.states[7]
    zones = ("red", "white", "blue")
    threats = tuple(threat_card(tid, n + 1, zones[n % 3], 2 + 2 * (n // 3)) for n, tid in enumerate(threat_ids))
    people = tuple(
        CrewView(
            name=name,
            station="upper_blue",
            knocked_out=i == 4,
            bots="active" if i in (0, 2) else None,
            intercepting=False,
        )
        for i, name in enumerate(crew)
    )
    return with_state(replay, 7, replace(base, threats=threats, crew=people))


def longest_threats(lang: str, count: int = 12) -> list[str]:
    """The `count` threat cards whose names are widest in `lang` (at the card's bold 17 px)."""
    from bot.games.space_alert.pictures.draw import font
    from bot.games.space_alert.threat_names import threat_name
    from engine.threats.catalog import base_cards

    width = font(17, True).getlength
    return sorted(base_cards(), key=lambda tid: -width(threat_name(lang, tid)))[:count]
