"""The mission's schedule: every spoken line and game effect of a timeline in the order they
happen (rulebook §2: the soundtrack drives the action round).

The machine walks this list with its clock; keeping it here means the rule "at equal times the
line comes before its effect" and "an untimed flight says no countdown" each live in one place.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.flight.script import Cue, intercom_script
from engine.flight.timeline import TRANSFER_BEEP_AFTER_S, Timeline


@dataclass(frozen=True, slots=True)
class Step:
    """One item of the schedule: a spoken line (cue) or a game effect (kind + event index/phase)."""

    at_s: float
    cue: Cue | None = None
    effect: str | None = None
    index: int | None = None  # timeline event index
    phase: int | None = None


# the lines that count down to a phase end: not said in an untimed flight, where no clock runs out
DEADLINE_LINES = ("one_minute_warning", "twenty_seconds_warning", "countdown")


def deadline_line(cue: Cue) -> bool:
    return cue.kind in DEADLINE_LINES or (cue.kind == "count" and "phase" in cue.params)


def build_schedule(timeline: Timeline, lang: str, untimed: bool = False) -> list[Step]:
    """Lines and effects in the order they happen; at equal times the line comes before its effect."""
    items: list[tuple[float, int, int, Step]] = []
    cues = intercom_script(timeline, lang)
    if untimed:
        cues = [c for c in cues if not deadline_line(c)]
    for n, cue in enumerate(cues):
        items.append((cue.at_s, 0, n, Step(cue.at_s, cue=cue)))
    effects: list[Step] = [Step(0.0, effect="start")]
    for i, ev in enumerate(timeline.events):
        if ev.event == "threat":
            effects.append(Step(float(ev.t), effect="threat", index=i))
        elif ev.event == "incoming_data":
            effects.append(Step(float(ev.t), effect="incoming", index=i))
        elif ev.event == "data_transfer":
            effects.append(Step(float(ev.t), effect="transfer_open", index=i))
            effects.append(Step(float(ev.t + TRANSFER_BEEP_AFTER_S), effect="transfer_close", index=i))
        elif ev.event == "comm_down":
            assert ev.duration_s is not None
            effects.append(Step(float(ev.t), effect="comm_down", index=i))
            effects.append(Step(float(ev.t + ev.duration_s), effect="comm_restored", index=i))
    for phase, end in enumerate(timeline.phase_end_s, start=1):
        effects.append(Step(float(end), effect="phase_end", phase=phase))
    for n, step in enumerate(effects):
        items.append((step.at_s, 1, n, step))
    items.sort(key=lambda it: (it[0], it[1], it[2]))
    return [it[3] for it in items]
