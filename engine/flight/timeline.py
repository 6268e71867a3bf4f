"""Mission timelines: the intercom soundtrack as data (official tracks, generated and custom missions).

A timeline is the list of things the ship's computer announces and when.  The derived
announcements (one-minute and twenty-second warnings, the phase-end countdown, "begin next
phase") are *not* stored: they follow from `phase_end_s` by one rule (`derived_slots`), so a custom
file cannot contradict them.  The JSON shape is the one of the official mission files in scenarios/official/
minus its `mission_start`/`phase_end` rows, which are accepted on input and checked against
`phase_end_s` so a file copied from the reference loads unchanged.

Validation is strict because a server admin may hand us any file: the first problem found is
reported in one sentence, and the official tracks pass the very same checks.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import unicodedata
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from engine.documents import MAX_TIMELINE_BYTES, DocumentError, check_size, decode_json

EventKind = Literal["threat", "incoming_data", "data_transfer", "comm_down"]
Zone = Literal["red", "white", "blue"]

# --- timing rules (as the official soundtracks time them; a player convention for the warnings) ----------
ONE_MINUTE_WARNING_S = 60  # "... ends in one minute" starts this long before the phase end
TWENTY_SECONDS_WARNING_S = 20
COUNTDOWN_INTRO_S = 7  # "... ends in" starts 7 s before the end; "five" at -4 ... "one" exactly at the end
COUNTDOWN_AFTER_S = 5  # "phase has ended" + "begin next phase" take the 5 s after the end
TRANSFER_BEEP_AFTER_S = 8  # the data-transfer beep (end of the giving window) this long after the announcement

# Seconds each announcement keeps the intercom busy; nothing else may start inside that span.  The
# values are the smallest gaps found in the 16 official tracks , so every official
# track passes and a TTS voice always has the time the CD voice had.
RESERVED_S: dict[str, int] = {
    "mission_start": 10,
    "threat": 20,
    "data_transfer": 10,
    "incoming_data": 10,
    "one_minute_warning": 5,
    "twenty_seconds_warning": 5,
}
COMM_RESTORED_RESERVED_S = 5  # after "communications restored"

MAX_COMM_DOWN_S = 120

# --- bounds on a file a server admin hands in (the official tracks use a fraction of each) -------
MAX_MISSION_S = 30 * 60  # official missions end by 10:20; half an hour is a generous ceiling
MAX_PHASE_S = 12 * 60  # official phases last 140-250 s
MAX_EVENTS = 100  # official tracks hold 12-20 events
MAX_ID_CHARS = 32
MAX_LABEL_CHARS = 100  # name, group, source: shown in menus (Discord's option label is 100)
_ID_CHARS = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


class TimelineError(DocumentError):
    """A timeline file or object breaks a rule; the message names the first problem found."""


def _printable_label(value: str | None) -> str | None:
    """Names are shown to players: no control, bidirectional-override or other format characters."""
    if value is None:
        return value
    for ch in value:
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            raise ValueError(f"contains the invisible or control character U+{ord(ch):04X}")
    if not value.strip():
        raise ValueError("must not be blank")
    return value


def fmt_time(t: float) -> str:
    """m:ss as printed on the scenario cards."""
    t = int(t)
    return f"{t // 60}:{t % 60:02d}"


class TimelineEvent(BaseModel):
    """One scripted announcement.  Threat fields are present exactly for threats."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    t: int = Field(ge=0)
    event: EventKind
    turn: int | None = Field(default=None, ge=1, le=8)
    zone: Zone | None = None
    internal: bool | None = None
    serious: bool | None = None
    unconfirmed: bool | None = None
    duration_s: int | None = Field(default=None, ge=1, le=MAX_COMM_DOWN_S)

    @model_validator(mode="before")
    @classmethod
    def _readable_time(cls, data: Any) -> Any:
        """Files may carry "time": "m:ss" for readers; it must agree with t and is then dropped."""
        if isinstance(data, dict) and "time" in data:
            data = dict(data)
            shown, t = data.pop("time"), data.get("t")
            if isinstance(t, int) and shown != fmt_time(t):
                raise ValueError(f"time {shown!r} does not match t={t} ({fmt_time(t)})")
        return data

    @model_validator(mode="after")
    def _shape(self) -> TimelineEvent:
        threat_fields = (self.turn, self.internal, self.serious, self.unconfirmed)
        if self.event == "threat":
            if any(v is None for v in threat_fields):
                raise ValueError("a threat needs turn, internal, serious and unconfirmed")
            if self.internal and self.zone is not None:
                raise ValueError("an internal threat has no zone")
            if not self.internal and self.zone is None:
                raise ValueError("an external threat needs a zone (red, white or blue)")
        elif any(v is not None for v in (*threat_fields, self.zone)):
            raise ValueError(f"{self.event} takes no threat fields")
        if self.event == "comm_down" and self.duration_s is None:
            raise ValueError("comm_down needs duration_s")
        if self.event != "comm_down" and self.duration_s is not None:
            raise ValueError(f"{self.event} takes no duration_s")
        return self

    @property
    def units(self) -> int:
        """Threat units (normal 1, serious 2) as the generators count them; 0 for non-threats."""
        if self.event != "threat":
            return 0
        return 2 if self.serious else 1

    def reserved_s(self) -> int:
        if self.event == "comm_down":
            assert self.duration_s is not None
            return self.duration_s + COMM_RESTORED_RESERVED_S
        return RESERVED_S[self.event]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"t": self.t, "time": fmt_time(self.t), "event": self.event}
        if self.event == "threat":
            data |= {
                "turn": self.turn,
                "zone": self.zone,
                "internal": self.internal,
                "serious": self.serious,
                "unconfirmed": self.unconfirmed,
            }
        if self.event == "comm_down":
            data["duration_s"] = self.duration_s
        return data


class Timeline(BaseModel):
    """A whole mission soundtrack: 2 or 3 phases, their end times, and the scripted events."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str = Field(min_length=1, max_length=MAX_ID_CHARS)
    phases: Literal[2, 3]
    phase_end_s: list[int] = Field(min_length=2, max_length=3)
    events: list[TimelineEvent] = Field(max_length=MAX_EVENTS)
    name: str | None = Field(default=None, max_length=MAX_LABEL_CHARS)
    group: str | None = Field(default=None, max_length=MAX_LABEL_CHARS)
    source: str | None = Field(default=None, max_length=MAX_LABEL_CHARS)

    @field_validator("id")
    @classmethod
    def _id_charset(cls, value: str) -> str:
        if not _ID_CHARS.fullmatch(value):
            raise ValueError("use only letters, digits, '-', '_' and '.', starting with a letter or digit")
        return value

    @field_validator("name", "group", "source")
    @classmethod
    def _label(cls, value: str | None) -> str | None:
        return _printable_label(value)

    @model_validator(mode="before")
    @classmethod
    def _drop_reference_rows(cls, data: Any) -> Any:
        """Accept the reference file's mission_start/phase_end rows, checked and then dropped."""
        if not isinstance(data, dict) or not isinstance(data.get("events"), list):
            return data
        ends = data.get("phase_end_s")
        kept = []
        for i, ev in enumerate(data["events"]):
            kind = ev.get("event") if isinstance(ev, dict) else None
            if kind == "mission_start":
                if ev.get("t") != 0:
                    raise ValueError(f"event {i + 1}: mission_start must be at t=0")
                continue
            if kind == "phase_end":
                phase = ev.get("phase")
                if not isinstance(ends, list) or not isinstance(phase, int) or not 1 <= phase <= len(ends):
                    raise ValueError(f"event {i + 1}: phase_end names no phase of phase_end_s")
                if ends[phase - 1] != ev.get("t"):
                    raise ValueError(
                        f"event {i + 1}: phase_end {phase} at t={ev.get('t')} but phase_end_s says {ends[phase - 1]}"
                    )
                continue
            if isinstance(ev, dict):
                ev = {k: v for k, v in ev.items() if k not in ("alt_android", "alt_flash_code", "only_in", "note")}
            kept.append(ev)
        return {**data, "events": kept}

    @model_validator(mode="after")
    def _rules(self) -> Timeline:
        problem = first_problem(self)
        if problem:
            raise ValueError(problem)
        return self

    # --- queries ---------------------------------------------------------------------------------
    @property
    def end_s(self) -> int:
        return self.phase_end_s[-1]

    def phase_at(self, t: float) -> int:
        """The phase (1-based) running at mission time t; the last phase for t past the end."""
        for i, end in enumerate(self.phase_end_s, start=1):
            if t < end:
                return i
        return self.phases

    def phase_start_s(self, phase: int) -> int:
        return 0 if phase == 1 else self.phase_end_s[phase - 2]

    def threats(self) -> list[TimelineEvent]:
        return [e for e in self.events if e.event == "threat"]

    def to_json_dict(self) -> dict[str, Any]:
        """The public JSON shape: {"id", "phases", "phase_end_s", "events"} (+ name/group if known)."""
        data: dict[str, Any] = {"id": self.id}
        if self.name:
            data["name"] = self.name
        if self.group:
            data["group"] = self.group
        data |= {"phases": self.phases, "phase_end_s": list(self.phase_end_s)}
        data["events"] = [e.to_json() for e in self.events]
        return data


def dumps_timeline(data: dict[str, Any]) -> str:
    """JSON with one event per line: readable, and a changed event is a one-line diff."""
    head = {k: v for k, v in data.items() if k != "events"}
    lines = ["{"]
    lines += [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in head.items()]
    events = ",\n".join("    " + json.dumps(e, ensure_ascii=False) for e in data.get("events", []))
    lines += ['  "events": [', events, "  ]", "}"] if events else ['  "events": []', "}"]
    return "\n".join(lines)


def derived_slots(phase_end_s: list[int]) -> list[tuple[int, int, str]]:
    """(start, reserved length, what) of the announcements that follow from the phase ends."""
    slots: list[tuple[int, int, str]] = [(0, RESERVED_S["mission_start"], "mission start")]
    for i, end in enumerate(phase_end_s, start=1):
        slots.append((end - ONE_MINUTE_WARNING_S, RESERVED_S["one_minute_warning"], f"phase {i} one-minute warning"))
        slots.append(
            (
                end - TWENTY_SECONDS_WARNING_S,
                RESERVED_S["twenty_seconds_warning"],
                f"phase {i} twenty-second warning",
            )
        )
        slots.append((end - COUNTDOWN_INTRO_S, COUNTDOWN_INTRO_S + COUNTDOWN_AFTER_S, f"phase {i} end countdown"))
    return slots


def _describe(ev: TimelineEvent) -> str:
    if ev.event == "threat":
        return f"threat T+{ev.turn} at {fmt_time(ev.t)}"
    return f"{ev.event} at {fmt_time(ev.t)}"


def first_problem(tl: Timeline) -> str | None:
    """The first broken rule of a structurally valid timeline, or None.

    Checked in this order: phase count and lengths, sorting, times inside the phases, rising T+
    numbers, overlapping announcements.
    """
    ends = tl.phase_end_s
    if len(ends) != tl.phases:
        return f"phase_end_s has {len(ends)} values but phases is {tl.phases}"
    prev = 0
    for i, end in enumerate(ends, start=1):
        # a phase must hold its own warnings and countdown after the previous phase's countdown
        min_len = ONE_MINUTE_WARNING_S + COUNTDOWN_AFTER_S
        if end - prev < min_len:
            return f"phase {i} ends at {fmt_time(end)}, less than {min_len} s after it starts"
        if end - prev > MAX_PHASE_S:
            return f"phase {i} lasts {end - prev} s, more than {MAX_PHASE_S} s"
        if end > MAX_MISSION_S:
            return f"phase {i} ends at {fmt_time(end)}, after the {fmt_time(MAX_MISSION_S)} a mission may last"
        prev = end
    if any(b.t < a.t for a, b in zip(tl.events, tl.events[1:], strict=False)):
        for a, b in zip(tl.events, tl.events[1:], strict=False):
            if b.t < a.t:
                return f"events are not sorted by time: {_describe(b)} comes after {_describe(a)}"
    for ev in tl.events:
        if ev.t <= 0 or ev.t >= tl.end_s:
            return f"{_describe(ev)} is outside the phases (0:00-{fmt_time(tl.end_s)})"
    # T+ numbers rise within a phase (one external and one internal may share a number: two token sets)
    last: dict[int, TimelineEvent] = {}
    for ev in tl.threats():
        phase = tl.phase_at(ev.t)
        before = last.get(phase)
        if before is not None:
            assert before.turn is not None and ev.turn is not None
            same_ok = ev.turn == before.turn and bool(ev.internal) != bool(before.internal)
            if ev.turn < before.turn or (ev.turn == before.turn and not same_ok):
                return f"{_describe(ev)} does not rise after T+{before.turn} in phase {phase}"
        last[phase] = ev
    # nothing may start while another announcement (or a communications failure) is running
    spans: list[tuple[int, int, str]] = [*derived_slots(ends)]
    spans += [(ev.t, ev.reserved_s(), _describe(ev)) for ev in tl.events]
    spans.sort(key=lambda s: (s[0], s[1]))
    for (t1, len1, what1), (t2, _len2, what2) in itertools.pairwise(spans):
        if t2 < t1 + len1:
            return f"{what2} overlaps {what1} (which keeps the intercom busy until {fmt_time(t1 + len1)})"
    last_span = max(spans, key=lambda s: s[0] + s[1])
    if last_span[0] + last_span[1] > tl.end_s + COUNTDOWN_AFTER_S:
        return f"{last_span[2]} runs past the end of the operation"
    return None


# --- loading ---------------------------------------------------------------------------------------
_OFFICIAL_IDS = [f"S1-{i}" for i in range(1, 9)] + [f"S2-{i}" for i in range(1, 9)]


def official_ids() -> list[str]:
    """S1-1..S1-8 (2 test runs, 3 simulations, 3 advanced simulations) and S2-1..S2-8 (missions)."""
    return list(_OFFICIAL_IDS)


def _format_error(err: ValidationError) -> str:
    """`event N: problem (field)` for an event, `field: problem` otherwise; the value is never echoed."""
    first = err.errors(include_url=False, include_input=False)[0]
    parts = [str(p) for p in first["loc"] if not str(p).startswith("function-")]
    msg = str(first["msg"]).removeprefix("Value error, ")
    if len(parts) >= 2 and parts[0] == "events" and parts[1].isdigit():
        field = f" ({'.'.join(parts[2:])})" if parts[2:] else ""
        return f"event {int(parts[1]) + 1}: {msg}{field}"
    return f"{'.'.join(parts)}: {msg}" if parts else msg


def parse_timeline(data: Any) -> Timeline:
    """Validate a decoded JSON object as a timeline (strict types), raising TimelineError naming the
    first problem."""
    if not isinstance(data, dict):
        raise TimelineError("a timeline must be a JSON object with id, phases, phase_end_s and events")
    try:
        return Timeline.model_validate(data, strict=True)
    except ValidationError as err:
        raise TimelineError(_format_error(err)) from None


def timeline_from_bytes(raw: bytes) -> Timeline:
    """The one verdict on a timeline document, whoever hands it in (CLI --file, SCENARIO_DIRS,
    `/mission custom add`): size, UTF-8, bounded JSON, then the model and the timing rules."""
    try:
        data = decode_json(raw, MAX_TIMELINE_BYTES)
    except TimelineError:
        raise
    except DocumentError as err:
        raise TimelineError(str(err)) from None
    return parse_timeline(data)


def read_capped(path: str | Path, limit: int) -> bytes:
    """A file's bytes, refused by size (stat, then a bounded read) before it is read whole.

    Raises DocumentError for a file too large or unreadable, naming the path once.
    """
    try:
        with open(path, "rb") as fh:
            check_size(os.fstat(fh.fileno()).st_size, limit)
            raw = fh.read(limit + 1)  # a file that grew (or a pipe) still cannot exceed the cap
    except OSError as err:
        raise DocumentError(f"cannot read {path}: {err.strerror or err}") from None
    check_size(len(raw), limit)
    return raw


def load_timeline_file(path: str | Path) -> Timeline:
    """Load and validate a custom mission file (same format as the official ones)."""
    try:
        raw = read_capped(path, MAX_TIMELINE_BYTES)
    except DocumentError as err:
        raise TimelineError(str(err)) from None
    return timeline_from_bytes(raw)


@cache
def _official(mission_id: str) -> Timeline:
    return timeline_from_bytes(resources.files("scenarios").joinpath("official", f"{mission_id}.json").read_bytes())


def load_official(mission_id: str) -> Timeline:
    """One of the 16 official soundtrack timelines by its scenario-card id (e.g. "S2-1")."""
    key = mission_id.strip().upper()
    if key not in _OFFICIAL_IDS:
        raise TimelineError(f"unknown mission {mission_id!r}: use one of {', '.join(_OFFICIAL_IDS)}")
    return _official(key)
