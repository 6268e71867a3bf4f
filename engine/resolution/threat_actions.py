"""Threat appearance (rulebook §3.1) and threat actions (§3.4).

Tokens move in the order of their numbers; a token moves `speed` spaces toward the ship and does
the X, Y or Z of every lettered space it crosses or stops on, in that order.  Z ends its life: the
crew "survived" it.  Same number on an internal and an external token: internal first, serious
before common (rules-decisions 13).
"""

from __future__ import annotations

from engine.resolution.internal_threats import destroy
from engine.state import Mission, ThreatState
from engine.threats.ops import run_op


def appear(m: Mission, t: ThreatState) -> None:
    """§3.1: the token goes on the first space of its track; internal ones also onto the ship."""
    t.appeared = True
    t.present = True
    t.position = t.track.length
    card = t.card
    if card.internal:
        if card.internal_type == "intruder" and not card.has("contamination"):
            t.station = card.stations[0]
            if card.has("slime"):
                t.slime = [[card.stations[0], card.health, True]]
                t.station = None
        else:
            t.stations = list(card.stations)
    m.emit(
        "threat_appears",
        threat=card.id,
        name=card.name,
        number=t.number,
        zone=t.zone,
        track=t.track.id,
        station=t.station or (t.stations[0] if t.stations else None),
    )
    if card.has("rockets_are_health"):
        # §7.2 Unstable Warheads: one health per rocket still aboard; none aboard -> destroyed at once.
        t.health = m.ship.rockets
        if t.health == 0:
            destroy(m, t, None, "no rockets aboard")


def threat_actions(m: Mission) -> None:
    for t in m.threats:  # kept in token order by build_mission
        if t.present:
            move_threat(m, t, t.speed)


def move_threat(m: Mission, t: ThreatState, spaces: int) -> None:
    """Move `spaces` toward the ship, acting on each X/Y/Z crossed (Z: the threat is survived)."""
    start = t.position
    letters = t.track.letters
    for _ in range(spaces):
        t.position -= 1
        letter = letters[t.position]
        if letter is None:
            continue
        if letter != "Z":
            t.breakpoints += 1
        m.emit("threat_action", threat=t.card.id, number=t.number, letter=letter, card_text=t.card.text.get(letter, ""))
        for op in t.card.actions[letter]:
            run_op(m, t, op)
            if t.fate is not None:  # e.g. Nemesis destroyed by its own attack
                return
        if letter == "Z":
            survive(m, t)
            return
    if m.log_enabled:
        m.emit("threat_moved", threat=t.card.id, number=t.number, frm=start, to=t.position)


def survive(m: Mission, t: ThreatState) -> None:
    """After Z the threat leaves the track.  A malfunction's system stays broken for good;
    slime and contamination tokens stay on the ship (§3.4, §7.2)."""
    t.set_fate("survived", m.turn)
    if t.card.internal_type == "malfunction":
        letter = t.card.damaged_by
        for st in t.stations:
            m.ship.broken.add((st, letter))
    m.emit("threat_survived", threat=t.card.id, name=t.card.name, number=t.number)
