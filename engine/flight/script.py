"""The spoken script of a mission: every intercom line at its second, derived from a Timeline.

This is where the official soundtrack's fixed habits live: the warnings one minute and
twenty seconds before each phase end, the countdown whose "one" falls exactly on the phase end,
"phase has ended / begin next phase" right after it, the data-transfer countdown whose beep marks
the end of the giving window, and silence (apart from the failure lines themselves) while
communications are down.  The voice scheduler and the flight machine both consume these cues, so a
line is heard exactly when the rule it announces takes effect.

A line is a kind plus parameters, never words: the bot fills in each line's words in the flight's
language from the one text catalogue (bot/games/space_alert/intercom.py) before the voice speaks
it or the text shows it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from engine.flight.timeline import (
    COUNTDOWN_INTRO_S,
    ONE_MINUTE_WARNING_S,
    TRANSFER_BEEP_AFTER_S,
    TWENTY_SECONDS_WARNING_S,
    Timeline,
    fmt_time,
)

EFFECTS = ("alert", "beep", "static_start", "static_end")

#: every kind of spoken line (the catalogue's `intercom` area has words for each, in every language)
KINDS: tuple[str, ...] = (
    "mission_start",
    "threat",
    "incoming_data",
    "data_transfer",
    "transfer_countdown",
    "transfer_complete",
    "comm_down",
    "comm_restored",
    "one_minute_warning",
    "twenty_seconds_warning",
    "countdown",
    "count",
    "phase_ended",
    "phase_begins",
    "operation_ended",
)

#: what renders a line in words: (kind, language, parameters) -> text; the bot's, handed in
Say: TypeAlias = Callable[[str, str, Mapping[str, Any]], str]

# offsets inside a data-transfer announcement (seconds after its start)
# "data transfer in" follows the short lead-in closely: spoken by espeak-ng the Russian intro
# ("Завершение передачи данных через") takes about 2 s, and "five" is due 3 s after the start.
TRANSFER_COUNTDOWN_AT_S = 1.4
# offsets of the phase-end lines after the phase end
PHASE_ENDED_AFTER_S = 1
PHASE_BEGINS_AFTER_S = 3


@dataclass(frozen=True, slots=True)
class Cue:
    """One spoken line.  `effect` is a sound played at `at_s` before the line (or alone if text is empty).

    `duration_s` is set where the line opens a span the audio must fill (the static of a
    communications failure).  `params` are the phrase parameters, so any language can render it;
    `event_index` points at the Timeline event the line belongs to (None for derived lines).
    `text` is the line's words: empty as the engine makes it, filled in by the bot's renderer.
    """

    at_s: float
    kind: str
    lang: str
    effect: str | None = None
    duration_s: float | None = None
    params: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    event_index: int | None = None
    text: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "at_s": self.at_s,
            "kind": self.kind,
            "text": self.text,
            "lang": self.lang,
            "effect": self.effect,
            "duration_s": self.duration_s,
            "params": dict(self.params),
            "event_index": self.event_index,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Cue:
        return cls(**d)


def _cue(
    at: float,
    kind: str,
    lang: str,
    effect: str | None = None,
    index: int | None = None,
    duration: float | None = None,
    **params: Any,
) -> Cue:
    return Cue(float(at), kind, lang, effect, duration, params, index)


def intercom_script(timeline: Timeline, lang: str = "en") -> list[Cue]:
    """Every line of the mission, sorted by time (ties keep their spoken order)."""
    cues: list[Cue] = [_cue(0, "mission_start", lang, effect="alert")]
    for i, ev in enumerate(timeline.events):
        if ev.event == "threat":
            cues.append(
                _cue(
                    ev.t,
                    "threat",
                    lang,
                    "alert",
                    i,
                    turn=ev.turn,
                    zone=ev.zone,
                    serious=bool(ev.serious),
                    internal=bool(ev.internal),
                    unconfirmed=bool(ev.unconfirmed),
                    repeat=True,
                )
            )
        elif ev.event == "incoming_data":
            cues.append(_cue(ev.t, "incoming_data", lang, None, i))
        elif ev.event == "data_transfer":
            beep = ev.t + TRANSFER_BEEP_AFTER_S
            cues.append(_cue(ev.t, "data_transfer", lang, None, i))
            cues.append(_cue(ev.t + TRANSFER_COUNTDOWN_AT_S, "transfer_countdown", lang, None, i))
            cues += [_cue(beep - n, "count", lang, None, i, n=n) for n in (5, 4, 3, 2, 1)]
            # the "one" is spoken a second before the beep, like the CD's "... two, one, <beep>"
            cues.append(_cue(beep, "transfer_complete", lang, "beep", i))
        elif ev.event == "comm_down":
            assert ev.duration_s is not None
            cues.append(_cue(ev.t, "comm_down", lang, "static_start", i, duration=ev.duration_s))
            cues.append(_cue(ev.t + ev.duration_s, "comm_restored", lang, "static_end", i))
    for phase, end in enumerate(timeline.phase_end_s, start=1):
        last = phase == timeline.phases
        cues.append(_cue(end - ONE_MINUTE_WARNING_S, "one_minute_warning", lang, phase=phase, last=last))
        cues.append(_cue(end - TWENTY_SECONDS_WARNING_S, "twenty_seconds_warning", lang, phase=phase, last=last))
        cues.append(_cue(end - COUNTDOWN_INTRO_S, "countdown", lang, phase=phase, last=last))
        cues += [_cue(end - n + 1, "count", lang, n=n, phase=phase) for n in (5, 4, 3, 2, 1)]
        if last:
            cues.append(_cue(end + PHASE_ENDED_AFTER_S, "operation_ended", lang))
        else:
            cues.append(_cue(end + PHASE_ENDED_AFTER_S, "phase_ended", lang, phase=phase))
            cues.append(_cue(end + PHASE_BEGINS_AFTER_S, "phase_begins", lang, phase=phase + 1))
    cues = [c for c in cues if not _silenced(c, timeline)]
    order = {id(c): n for n, c in enumerate(cues)}
    cues.sort(key=lambda c: (c.at_s, order[id(c)]))
    return cues


def _silenced(cue: Cue, timeline: Timeline) -> bool:
    """True for a line that would fall inside a communications failure (only its own lines are heard)."""
    if cue.kind in ("comm_down", "comm_restored"):
        return False
    for ev in timeline.events:
        if ev.event == "comm_down" and ev.duration_s and ev.t < cue.at_s < ev.t + ev.duration_s:
            return True
    return False


def script_text(cues: list[Cue], say: Say | None = None) -> str:
    """The script as readable lines ("m:ss  text"), countdown numbers joined onto their sentence.

    The words are `say`'s (the bot's renderer); without one, a line's own `text`, else the line in
    codes (`kind key=value ...`): the engine holds no words."""
    lines: list[str] = []
    for cue in cues:
        prefix = f"[{cue.effect}] " if cue.effect else ""
        words = say(cue.kind, cue.lang, cue.params) if say is not None else cue.text or code_line(cue)
        if cue.kind == "count" and lines:
            lines[-1] += " " + prefix + words
            continue
        stamp = fmt_time(cue.at_s) if cue.at_s == int(cue.at_s) else f"{fmt_time(cue.at_s)}.{int(cue.at_s * 10) % 10}"
        lines.append(f"{stamp}  {prefix}{words}")
    return "\n".join(lines)


def code_line(cue: Cue) -> str:
    """A line in codes: its kind and parameters (`threat turn=3 zone=red serious=True ...`)."""
    return " ".join((cue.kind, *(f"{key}={value}" for key, value in cue.params.items())))
