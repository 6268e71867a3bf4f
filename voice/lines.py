"""From cues to playable lines.

`voice` depends on a tiny protocol, not on the flight engine: anything with `at_s`, `kind`, `text`,
`lang` and `effect` (and optionally `duration_s`) is a cue.  `engine.flight.script.Cue` fits once
the bot has filled in its words (`bot.games.space_alert.intercom.worded`: the engine's cues carry
codes, the text comes from the one catalogue), and so do the plain dataclasses the tests build.

Cue conventions (those of `engine.flight.script`):

* `effect` is a sound played at `at_s` *before* the text ("alert" before threats and the mission
  start, "beep" at the end of a data-transfer window, whose first sample is the closing instant);
  a cue may have an effect and no text.
* "static_start" opens a communications failure: after its line, static noise fills the span up to
  `at_s + duration_s` (or up to the next line when no duration is given); "static_end" closes it.
* Countdowns arrive as one cue per number, each at its own second, so "one" lands on the phase end
  by construction; the scheduler only has to start every line on time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from voice.audio import Clip
from voice.effects import ALERT, BEEP, STATIC, STATIC_END, STATIC_START, EffectBank

#: Effects that are audio placed before the line's speech.
PREFIX_EFFECTS = (ALERT, BEEP)
#: Effects that are markers for the background filler rather than audio of their own.
MARKER_EFFECTS = (STATIC_START, STATIC_END)


class CueLike(Protocol):
    """What `voice` needs from a cue.  Read-only attributes, so frozen dataclasses satisfy it."""

    @property
    def at_s(self) -> float: ...

    @property
    def kind(self) -> str: ...

    @property
    def text(self) -> str: ...

    @property
    def lang(self) -> str: ...

    @property
    def effect(self) -> str | None: ...


@dataclass(frozen=True, slots=True)
class Line:
    """One thing the intercom plays, at `start_s` mission seconds (before TIME_SCALE).

    `filler` names a looping background ("static") that plays after the line until `filler_until_s`
    (mission seconds) or until the next line starts, whichever is first.
    """

    index: int
    start_s: float
    kind: str
    text: str
    lang: str
    clip: Clip
    filler: str | None = None
    filler_until_s: float | None = None

    @property
    def duration_s(self) -> float:
        return self.clip.duration_s


def speech_items(cues: Sequence[CueLike]) -> list[tuple[str, str]]:
    """The distinct (text, lang) pairs a flight needs rendered."""
    return list(dict.fromkeys((c.text, c.lang) for c in cues if c.text.strip()))


def in_schedule_order(cues: Sequence[CueLike]) -> list[CueLike]:
    """Cues sorted by start time, stable for ties (the script's own order breaks them)."""
    return [c for _, c in sorted(enumerate(cues), key=lambda p: (p[1].at_s, p[0]))]


def compose_line(index: int, cue: CueLike, speech: Clip | None, effects: EffectBank) -> tuple[Line | None, list[str]]:
    """One cue with its effect and its rendered speech (None if it could not be rendered).

    Returns the line (None when there is nothing to play) and the problems found; the text
    channel still carries a line that cannot be played.
    """
    problems: list[str] = []
    parts: list[Clip] = []
    if cue.effect in PREFIX_EFFECTS:
        parts.append(effects.clip(cue.effect))
    elif cue.effect is not None and cue.effect not in MARKER_EFFECTS:
        problems.append(f"unknown effect {cue.effect!r} on {cue.kind} at {cue.at_s:g} s; playing the line without it")
    if cue.text.strip():
        if speech is None:
            problems.append(f"no audio for {cue.kind} at {cue.at_s:g} s ({cue.lang}): {cue.text!r}")
        else:
            parts.append(speech)
    filler = None
    until = None
    if cue.effect == STATIC_START:
        filler = STATIC
        duration = getattr(cue, "duration_s", None)
        until = cue.at_s + float(duration) if duration else None
    if not parts and filler is None:
        return None, problems
    clip = Clip.concat(parts, parts[-1].source) if parts else Clip((), "effect")
    line = Line(index, float(cue.at_s), cue.kind, cue.text, cue.lang, clip, filler=filler, filler_until_s=until)
    return line, problems


def build_lines(
    cues: Sequence[CueLike], speech: Mapping[tuple[str, str], Clip], effects: EffectBank
) -> tuple[list[Line], list[str]]:
    """Compose every cue with its effect into a `Line`, sorted by start time (stable for ties).

    Returns the lines and a list of problems (see `compose_line`).
    """
    problems: list[str] = []
    lines: list[Line] = []
    for cue in in_schedule_order(cues):
        line, found = compose_line(len(lines), cue, speech.get((cue.text, cue.lang)), effects)
        problems.extend(found)
        if line is not None:
            lines.append(line)
    return lines, problems
