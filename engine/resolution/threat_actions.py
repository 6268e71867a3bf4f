"""Threat appearance (rulebook §3.1) and the threat actions step (§3.4).

Tokens move in the order of their numbers (card_actions.follow_route does the moving and the X/Y/Z
crossed).  Same number on an internal and an external token: internal first, serious before
common (decision 13 in docs/rules.md).
"""

from __future__ import annotations

from engine.resolution.card_actions import follow_route
from engine.resolution.internal_threats import destroy
from engine.state import Mission, ThreatState


def appear(m: Mission, t: ThreatState) -> None:
    """§3.1: the token goes on the first space of its track; internal ones also onto the ship."""
    t.appeared = True
    t.present = True
    m.on_board.append(t)  # tokens appear in token order (play_one_turn)
    t.position = t.track.length
    card = t.card
    if not card.internal:
        m.externals.append(t)
    elif card.internal_type == "intruder" and "contamination" not in card.traits:
        t.station = card.stations[0]
        if "slime" in card.traits:
            t.slime = [[card.stations[0], card.health, True]]
            t.station = None
    else:
        t.stations = list(card.stations)
        if card.internal_type == "malfunction":
            t.stations_hit = set()
            for st in card.stations:  # the systems it covers: A/B/C there repair it
                m.systems_out.setdefault((st, card.damaged_by), []).append(t)
    if m.log_enabled:
        m.emit(
            "threat_appears",
            threat=card.id,
            number=t.number,
            zone=t.zone,
            track=t.track.id,
            station=t.station or (t.stations[0] if t.stations else (t.slime[0][0] if t.slime else None)),
        )
    if "rockets_are_health" in card.traits:
        # §7.2 Unstable Warheads: one health per rocket still aboard; none aboard -> destroyed at once.
        t.health = m.ship.rockets
        if t.health == 0:
            destroy(m, t, None, "no_rockets")


def threat_actions(m: Mission) -> None:
    """§3.4: every threat on its track moves by its speed, in token order, doing what it crosses."""
    log = m.log_enabled
    for t in m.on_board:  # in token order
        if t.present:
            end, crossings = t.routes[t.position]
            if crossings or log:
                follow_route(m, t, end, crossings)
            else:  # no lettered space crossed or reached: just move
                t.position = end
