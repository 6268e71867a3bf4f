"""What happens to crew members: delays, knock-outs, entering a station (rulebook §3.2, §3.4).

Delay ("Задержка"): the card of the delayed turn moves one turn right, pushing the following
cards until one lands on an empty turn; a card pushed off turn 12 is lost.  Several delays in the
same turn do not add up (rulebook, Slime note; decision 3).
"""

from __future__ import annotations

from engine import board
from engine.state import CrewMember, Mission
from engine.vocab import DelayCause, MoveHow, Position


def delay(m: Mission, p: CrewMember, turn: int, cause: DelayCause | str) -> None:
    """Delay `p`'s action of `turn` (1..12) by one turn.  `cause`: a code, or the card id."""
    if turn > board.TURNS or p.knocked_out or turn in p.delayed_turns:
        return
    p.delayed_turns.add(turn)
    acts = p.actions
    i = turn - 1
    # The first empty turn from the delayed one on takes the push, else the last card falls off
    # (looked for without list.index raising: most boards have no empty turn left to find).
    gap = acts.index(board.BLANK, i) if board.BLANK in acts[i:] else _LAST
    lost = acts[gap] if acts[gap] != board.BLANK else None
    del acts[gap]
    acts.insert(i, board.BLANK)
    if m.log_enabled:
        m.emit("delay", player=p.name, delayed_turn=turn, cause=cause, lost_card=lost)


_LAST = board.TURNS - 1  # the index of the last turn on an action board


def knock_out(m: Mission, p: CrewMember, cause: str) -> None:
    """Unconscious for the rest of the mission; a squad it leads is disabled with it.  `cause`:
    the card id of the threat that did it."""
    if p.knocked_out:
        return
    p.knocked_out = True
    p.knocked_out_turn = m.turn
    p.intercepting = False
    if p.bots == "active":
        p.bots = "disabled"
    if m.log_enabled:
        m.emit("knocked_out", player=p.name, station=p.station, cause=cause)


def enter(m: Mission, p: CrewMember, st: Position, how: MoveHow) -> None:
    """Move a crew member into `st`, applying what waits there (slime, contamination after Z)."""
    frm = p.station
    p.station = st
    if m.log_enabled:
        m.emit("move", player=p.name, frm=frm, to=st, how=how)
    for t in m.slimes:
        if t.appeared and any(tok[0] == st for tok in t.slime):
            # Slime (§7.2): entering a slimed station delays your next action.
            delay(m, p, m.turn + 1, cause=t.card.id)
            break
    contaminated = m.ship.contaminated_entry  # (space is never contaminated)
    if contaminated and st in contaminated:
        knock_out(m, p, cause=contaminated[st])
