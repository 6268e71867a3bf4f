"""The real-time action round (rulebook §2, §5) as a clock-driven state machine.

`Flight` never sleeps and never reads the wall clock.  The caller moves mission time forward with
`advance_to(t)` and gets back the events that fell due; players' inputs go through `apply(command)`
and are answered `Accepted(events)` or `Rejected(reason, message)` with a stable reason code.  The
whole state (decks, hands, boards, open windows, clock, position in the script) serializes to
plain JSON and restores exactly, mid-phase, so a restarted bot continues where it stopped.

An untimed flight (`FlightConfig.untimed`, the flight school's gentle mode) keeps the recording's
pace for everything *inside* a phase: threats, incoming data, data transfers (with their beep) and
communication failures come at their seconds, so the windows they open last as long as on the
recording.  Only the phase's end leaves the clock: the schedule holds at a phase end until every
human has pressed Finish for that phase (androids don't count; in the last phase Finish means "I
am done" and ends nothing else), and everything after it comes that much later (`delay_s`).  Untimed
means untimed both ways: when the last human presses Finish before the recording's phase end, the
phase ends at once, and whatever the recording still had to say in it (a threat, incoming data)
comes at once before it; the schedule after it moves earlier by the time saved (`delay_s` goes
negative).  The warnings and the countdown before a phase end are not said, since no clock runs
out.  The last phase's end ends the operation, as in a timed flight.

All randomness happens once, in `Flight.start`, from `random.Random(config.seed)`: trajectory
boards, the four threat decks, the action deck and the heroic cards.  After that the flight is a
pure function of the timeline, the commands and the times they arrive at.

Rule interpretations (where the rulebook leaves a gap) are marked "Interpretation:" below.
"""

from __future__ import annotations

import json
import random
from collections import OrderedDict
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from engine.board import TRACK_IDS
from engine.flight import rules, views
from engine.flight.cards import card, heroic_cards, normal_cards
from engine.flight.commands import (
    Accepted,
    Command,
    EventKind,
    FlightEvent,
    Rejected,
    parse_command,
)
from engine.flight.crew import Member, androids_needed, cards_per_phase
from engine.flight.schedule import Step, build_schedule
from engine.flight.script import Cue
from engine.flight.snapshot import SCHEMA_VERSION, SnapshotError, migrate, mission_clock
from engine.flight.timeline import TRANSFER_BEEP_AFTER_S, Timeline, load_official, official_ids
from engine.flight.views import DeckView, StationView
from engine.model import Game, PlayerPlan, Result, ThreatPlacement, Tracks
from engine.threats.catalog import base_cards
from engine.vocab import Difficulty, Language


class FlightError(ValueError):
    """Bad configuration, a clock moved backwards, or a snapshot that cannot be restored."""


class UnrestorableSnapshot(FlightError, SnapshotError):
    """A stored state no upgrade leads from (see engine/flight/snapshot.py): end that flight."""


# --- configuration ---------------------------------------------------------------------------------
class CrewMember(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=64)
    android: bool = False


class FlightConfig(BaseModel):
    """Everything chosen before the flight (rulebook §1 and §5)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    crew: Annotated[list[CrewMember], Field(min_length=1, max_length=5)]
    captain: str | None = None  # acts first; defaults to the first human
    communications_officer: str | None = None  # draws external threats; defaults to the captain
    security_chief: str | None = None  # draws internal threats; defaults to the captain
    android_as_fifth: bool = False  # §5.4: one more android so the crew is five
    normal_difficulty: Difficulty = "white"
    serious_difficulty: Difficulty = "white"
    seed: int = 0
    mission: str | None = None  # an official id (S1-1 ... S2-8)
    timeline: Timeline | None = None  # or a generated / custom one
    lang: Language = "en"
    untimed: bool = False  # a phase ends when every human has pressed Finish (see the module docstring)

    @field_validator("crew", mode="before")
    @classmethod
    def _names(cls, value: Any) -> Any:
        if isinstance(value, list):
            return [{"name": v} if isinstance(v, str) else v for v in value]
        return value

    @model_validator(mode="after")
    def _check(self) -> FlightConfig:
        names = [m.name for m in self.crew]
        if len(set(names)) != len(names):
            raise ValueError("crew names must be unique")
        humans = [m.name for m in self.crew if not m.android]
        if not humans:
            raise ValueError("the crew needs at least one human")
        if (self.mission is None) == (self.timeline is None):
            raise ValueError("give exactly one of mission (an official id) or timeline")
        if self.mission is not None and self.mission.upper() not in official_ids():
            raise ValueError(f"unknown mission {self.mission!r}")
        for role in ("captain", "communications_officer", "security_chief"):
            holder = getattr(self, role)
            if holder is not None and holder not in humans:
                raise ValueError(f"{role} must be a human crew member, got {holder!r}")
        h = len(humans)
        needed = androids_needed(h, self.android_as_fifth)
        listed = len(self.crew) - h
        if listed > needed:
            raise ValueError(f"{h} human(s) take {needed} android(s), but {listed} are listed")
        if self.android_as_fifth and h in (1, 5):
            raise ValueError("an android as fifth crew member needs 2-4 humans")
        return self

    def resolved_timeline(self) -> Timeline:
        if self.timeline is not None:
            return self.timeline
        assert self.mission is not None
        return load_official(self.mission)


# A snapshot's timeline and config never change during a flight, but validating them and building
# the schedule from them is most of what restoring a snapshot costs (~70%).  The bot restores a
# flight on every click, tick and redraw, so the decoded part is kept per distinct (timeline,
# config); every value in it is frozen, so flights share it safely.
_STATIC_PARTS: OrderedDict[str, tuple[Timeline, FlightConfig, tuple[Step, ...]]] = OrderedDict()
_STATIC_PARTS_MAX = 64


def _static_part(
    timeline_data: dict[str, Any], config_data: dict[str, Any]
) -> tuple[Timeline, FlightConfig, tuple[Step, ...]]:
    """The validated timeline and config of a snapshot and their schedule (memoised, see above)."""
    key = json.dumps([timeline_data, config_data], sort_keys=True, separators=(",", ":"), default=repr)
    found = _STATIC_PARTS.get(key)
    if found is not None:
        _STATIC_PARTS.move_to_end(key)
        return found
    timeline = Timeline.model_validate(timeline_data)
    cfg = dict(config_data)
    if cfg.get("mission") is None:
        cfg["timeline"] = timeline
    config = FlightConfig.model_validate(cfg)
    part = (timeline, config, tuple(build_schedule(timeline, config.lang, config.untimed)))
    _STATIC_PARTS[key] = part
    if len(_STATIC_PARTS) > _STATIC_PARTS_MAX:
        _STATIC_PARTS.popitem(last=False)
    return part


def _deck_key(serious: bool, internal: bool) -> str:
    return f"{'serious' if serious else 'common'}_{'internal' if internal else 'external'}"


def threat_decks(normal: Difficulty, serious: Difficulty, rng: random.Random) -> dict[str, list[str]]:
    """The four shuffled threat decks (rulebook §1.1-1.2): colour chosen per severity, same for both kinds."""
    decks: dict[str, list[str]] = {}
    for severity, level in (("common", normal), ("serious", serious)):
        colours = {"white": {"white"}, "yellow": {"yellow"}, "mixed": {"white", "yellow"}}[level]
        for kind in ("external", "internal"):
            key = f"{severity}_{kind}"
            ids = sorted(c.id for c in base_cards().values() if c.deck == key and c.color in colours)
            rng.shuffle(ids)
            decks[key] = ids
    return decks


# --- the machine --------------------------------------------------------------------------------------
class Flight:
    """One action round.  Build with `Flight.start(config)` or `Flight.from_dict(snapshot)`."""

    def __init__(self) -> None:  # use start() / from_dict()
        self.config: FlightConfig
        self.timeline: Timeline
        self.tracks: dict[str, str] = {}
        self.action_deck: list[str] = []
        self.threat_decks: dict[str, list[str]] = {}
        self.members: list[Member] = []  # on-board crew in action order, then the solo player
        self.threats: list[dict[str, Any]] = []
        self.ignored: list[dict[str, Any]] = []
        self.now_s: float = -1.0
        self.cursor = 0
        self.status: Literal["ready", "running", "ended"] = "ready"
        self.round_phase = 0  # 0 before the start, then the phase the intercom is in
        self.comm_down_until: float | None = None
        self.transfer: int | None = None  # index of the data transfer whose window is open
        self.incoming: list[int] = []  # open incoming-data windows (until their phase ends)
        self.ended_early = False
        self.seq = 0
        self.delay_s = 0.0  # untimed: phase ends moved by Finish presses (held: +, early: -); later steps follow
        self.paused_by: str | None = None  # who paused the flight (None: the clock runs)
        self.paused_s = 0.0  # the caller's elapsed seconds spent paused so far (see `clock`)
        self._steps: list[Step] = []

    # -- construction ----------------------------------------------------------------------------
    @classmethod
    def start(cls, config: FlightConfig | dict[str, Any]) -> Flight:
        """Set up the flight (rulebook §1, §5.1): decks, tracks, heroic cards, dealt hands."""
        if not isinstance(config, FlightConfig):
            config = FlightConfig.model_validate(config)
        self = cls()
        self.config = config
        self.timeline = config.resolved_timeline()
        self._steps = build_schedule(self.timeline, config.lang, config.untimed)
        rng = random.Random(config.seed)

        red, white, blue, internal = rng.sample(list(TRACK_IDS), 4)
        self.tracks = {"red": red, "white": white, "blue": blue, "internal": internal}
        self.threat_decks = threat_decks(config.normal_difficulty, config.serious_difficulty, rng)
        deck = [c.id for c in normal_cards()]
        rng.shuffle(deck)
        heroics = [c.id for c in heroic_cards()]
        rng.shuffle(heroics)

        humans = [m for m in config.crew if not m.android]
        solo = len(humans) == 1
        # action order: captain first, the rest as listed, missing androids at the end
        captain = config.captain or humans[0].name
        listed = [m for m in config.crew if m.name == captain] + [m for m in config.crew if m.name != captain]
        if solo:
            listed = [m for m in listed if m.android]
        names = {m.name for m in config.crew}
        missing = androids_needed(len(humans), config.android_as_fifth) - sum(m.android for m in config.crew)
        n = 1
        while missing > 0:
            name = f"Android {n}"
            n += 1
            if name not in names:
                listed.append(CrewMember(name=name, android=True))
                missing -= 1
        for m in listed:
            self.members.append(Member(m.name, m.android, on_board=True, heroic=heroics.pop(0)))
        if solo:
            self.members.append(Member(humans[0].name, False, on_board=False))

        counts = cards_per_phase(len(humans), config.android_as_fifth)
        for member in self.members:
            if member.android:
                member.hand = [member.heroic] if member.heroic else []
        if solo:  # §5.5: the whole deck lies face up before the solo player
            self.members[-1].pending[1] = deck
            deck = []
        else:
            for phase in range(1, self.timeline.phases + 1):
                for member in self.members:
                    if member.android:
                        continue
                    take = counts[phase - 1] - (1 if phase == 1 else 0)
                    member.pending[phase] = ([member.heroic] if phase == 1 and member.heroic else []) + deck[:take]
                    deck = deck[take:]
        self.action_deck = deck
        return self

    # -- helpers ---------------------------------------------------------------------------------
    @property
    def solo(self) -> bool:
        return any(not m.on_board for m in self.members)

    @property
    def crew_size(self) -> int:
        return sum(m.on_board for m in self.members)

    @property
    def last_turn(self) -> int:
        return 12 if self.timeline.phases == 3 else 7

    def member(self, name: str) -> Member | None:
        for m in self.members:
            if m.name == name:
                return m
        return None

    def humans(self) -> list[Member]:
        return [m for m in self.members if not m.android]

    def _role(self, role: str) -> str:
        value = getattr(self.config, role) or self.config.captain
        return value or self.humans()[0].name

    def emit(
        self,
        kind: EventKind,
        data: dict[str, Any] | None = None,
        cue: Cue | None = None,
        private_to: str | None = None,
    ) -> FlightEvent:
        self.seq += 1
        return FlightEvent(self.seq, self.now_s, kind, data or {}, cue, private_to)

    # -- the clock -------------------------------------------------------------------------------
    def clock(self, elapsed_s: float) -> float:
        """Mission time after `elapsed_s` seconds on the caller's clock since the start: pauses do
        not count, and while paused mission time stands still.  Callers advance to this."""
        return mission_clock(self.paused_by is not None, self.now_s, self.paused_s, elapsed_s)

    def pause(self, by: str) -> Accepted | Rejected:
        """Stop the clock at the current mission time (advance to `clock(elapsed)` first).

        Why here and not in the bot: a paused flight must stay paused across a restart and refuse
        commands with one reason code, so the pause is part of the stored state.  `by` is whoever
        paused (the host or a server manager, not necessarily in the crew)."""
        if self.status == "ready":
            return Rejected("not_started")
        if self.status == "ended":
            return Rejected("round_over")
        if self.paused_by is not None:
            return Rejected("paused", {"by": self.paused_by})
        self.paused_by = by
        return Accepted([self.emit("paused", {"by": by})])

    def resume(self, by: str, elapsed_s: float) -> Accepted | Rejected:
        """Run the clock again from where it stopped: everything still to come (phase ends, the
        transfer's beep, the end of a communications failure) comes that much later."""
        if self.paused_by is None:
            return Rejected("not_paused")
        pause_s = max(0.0, elapsed_s - self.paused_s - self.now_s)
        self.paused_s += pause_s
        data = {"by": by, "paused_by": self.paused_by, "pause_s": pause_s, "paused_s": self.paused_s}
        self.paused_by = None
        return Accepted([self.emit("resumed", data)])

    def advance_to(self, t_s: float) -> list[FlightEvent]:
        """Move mission time to `t_s` and return everything that fell due, in order (nothing
        while paused: mission time stands still)."""
        if t_s < self.now_s:
            raise FlightError(f"the clock cannot go back from {self.now_s} to {t_s}")
        if self.paused_by is not None:
            return []
        events: list[FlightEvent] = []
        while self.cursor < len(self._steps) and self._due(self._steps[self.cursor]) <= t_s:
            step = self._steps[self.cursor]
            if self._held(step):
                break  # untimed: the phase ends when the last human presses Finish (see _finish)
            self.cursor += 1
            self.now_s = max(self.now_s, self._due(step))
            if self.status == "ended" and (self.ended_early or step.cue is None):
                continue  # after an agreed early end the intercom falls silent
            if step.cue is not None:
                events.append(self.emit("intercom", {"kind": step.cue.kind}, step.cue))
            else:
                events += self._effect(step)
        self.now_s = t_s
        return events

    def next_due_s(self) -> float | None:
        """When the next scheduled line or effect is due (for the caller's timer), or None (also
        while an untimed flight waits for Finish presses or a paused flight for Resume: no time
        will move it on)."""
        if self.paused_by is not None:
            return None
        for step in self._steps[self.cursor :]:
            if self._held(step):
                return None
            if self.status != "ended" or (step.cue is not None and not self.ended_early):
                return self._due(step)
        return None

    def _due(self, step: Step) -> float:
        """The mission second `step` happens at: its time on the recording plus the holds so far."""
        return step.at_s + self.delay_s

    def _held(self, step: Step) -> bool:
        """An untimed flight's phase end waits while a human has not pressed Finish for that phase."""
        if not self.config.untimed or step.effect != "phase_end" or self.status != "running":
            return False
        assert step.phase is not None
        return not all(self._finished(m, step.phase) for m in self.humans())

    def _finished(self, m: Member, phase: int) -> bool:
        return m.phase > phase or (phase == self.timeline.phases and m.finished_last)

    @property
    def waiting_for(self) -> list[str]:
        """Untimed: the humans who have not pressed Finish for the phase the intercom is in."""
        if not self.config.untimed or self.status != "running":
            return []
        return [m.name for m in self.humans() if not self._finished(m, self.round_phase)]

    def _effect(self, step: Step) -> list[FlightEvent]:
        out: list[FlightEvent] = []
        ev = self.timeline.events[step.index] if step.index is not None else None
        if step.effect == "start":
            self.status = "running"
            self.round_phase = 1
            out.append(self.emit("round_started", {"phases": self.timeline.phases, "tracks": dict(self.tracks)}))
            for m in self.members:
                if m.android:
                    out.append(self.emit("android_revealed", {"android": m.name, "card": m.heroic}))
            for m in self.humans():
                out += self.deal(m, 1)
        elif step.effect == "threat":
            assert ev is not None and step.index is not None
            out.append(self._draw_threat(step.index))
        elif step.effect == "incoming":
            if not self.solo:  # §5.5: the solo player ignores incoming data and data transfers
                self.incoming.append(step.index or 0)
                out.append(self.emit("incoming_data", {"index": step.index}))
        elif step.effect == "transfer_open":
            if not self.solo:
                self.transfer = step.index
                out.append(
                    self.emit(
                        "transfer_opened",
                        {"index": step.index, "closes_at_s": self.now_s + TRANSFER_BEEP_AFTER_S},
                    )
                )
        elif step.effect == "transfer_close":
            if not self.solo:
                self.transfer = None
                out.append(self.emit("transfer_closed", {"index": step.index}))
        elif step.effect == "comm_down":
            assert ev is not None and ev.duration_s is not None
            if not self.solo:
                self.comm_down_until = ev.t + ev.duration_s + self.delay_s
                out.append(self.emit("comm_down", {"until_s": float(self.comm_down_until)}))
        elif step.effect == "comm_restored":
            if not self.solo:
                self.comm_down_until = None
                out.append(self.emit("comm_restored"))
        elif step.effect == "phase_end":
            assert step.phase is not None
            out += self._end_phase(step.phase)
        return out

    def _draw_threat(self, index: int) -> FlightEvent:
        ev = self.timeline.events[index]
        serious, internal = bool(ev.serious), bool(ev.internal)
        base = {
            "index": index,
            "turn": ev.turn,
            "zone": ev.zone,
            "serious": serious,
            "internal": internal,
            "unconfirmed": bool(ev.unconfirmed),
        }
        if ev.unconfirmed and self.crew_size < 5:  # §2.1: unconfirmed reports only count with five
            self.ignored.append({**base, "reason": "unconfirmed"})
            return self.emit("threat_ignored", {**base, "reason": "unconfirmed"})
        key = _deck_key(serious, internal)
        deck = self.threat_decks[key]
        if not deck:  # Interpretation: an exhausted deck (only possible in custom missions) skips the threat
            self.ignored.append({**base, "reason": "deck_empty"})
            return self.emit("threat_ignored", {**base, "reason": "deck_empty"})
        card_id = deck.pop(0)
        placed = {"id": card_id, "turn": ev.turn, "zone": ev.zone, "index": index}
        self.threats.append(placed)
        by = self._role("security_chief" if internal else "communications_officer")
        track = self.tracks["internal" if internal else str(ev.zone)]
        return self.emit(
            "threat_drawn",
            {**base, "id": card_id, "name": base_cards()[card_id].name, "track": track, "drawn_by": by},
        )

    def deal(self, m: Member, phase: int) -> list[FlightEvent]:
        cards = m.pending.pop(phase, None)
        if cards is None:
            return []
        m.hand += cards
        return (
            [self.emit("cards_dealt", {"player": m.name, "phase": phase, "count": len(cards)}, private_to=m.name)]
            if not self.solo
            else [self.emit("cards_dealt", {"player": m.name, "phase": phase, "count": len(cards)})]
        )

    def _end_phase(self, phase: int) -> list[FlightEvent]:
        out = [self.emit("phase_ended", {"phase": phase, "locked_turns": _turns(phase)})]
        # Interpretation: "each player may draw 1 card" has no deadline in §2.1; the offer lapses
        # when the phase it was announced in ends.
        self.incoming = []
        if phase == self.timeline.phases:
            self.status = "ended"
            self.round_phase = phase
            out.append(self.emit("round_ended", {"early": False}))
            return out
        self.round_phase = phase + 1
        for m in self.humans():
            if m.phase <= phase:
                m.phase = phase + 1
                out += self.deal(m, phase + 1)
        return out

    # -- commands --------------------------------------------------------------------------------
    # Each move's rule is one entry of engine/flight/rules.py's table: its check and its effect.
    def apply(self, command: Command | dict[str, Any]) -> Accepted | Rejected:
        """Answer one player input at the current mission time; a rejection leaves the state unchanged."""
        if isinstance(command, dict):
            command = parse_command(command)
        player = rules.actor(self, command.player)
        if isinstance(player, Rejected):
            return player
        rule = rules.RULES[command.type]
        plan = rule.check(self, player, command)
        if isinstance(plan, Rejected):
            return plan
        return Accepted(rule.apply(self, player, command, plan))

    def check(self, command: Command | dict[str, Any]) -> Rejected | None:
        """Why `apply(command)` would be rejected now (None: it would be accepted); changes nothing."""
        if isinstance(command, dict):
            command = parse_command(command)
        player = rules.actor(self, command.player)
        if isinstance(player, Rejected):
            return player
        plan = rules.RULES[command.type].check(self, player, command)
        return plan if isinstance(plan, Rejected) else None

    def legal_commands(self, name: str) -> list[Command]:
        """Every command `apply` would accept from `name` now (see engine.flight.rules)."""
        return rules.legal_commands(self, name)

    def release(self) -> list[FlightEvent]:
        """Untimed: the phase end comes now that the last human has finished, held past its time
        or early; the rest of the schedule moves by the difference (later after a wait, earlier
        when the crew was quicker than the recording)."""
        if not self.config.untimed:
            return []
        end = next((s for s in self._steps[self.cursor :] if s.effect == "phase_end"), None)
        if end is None or self._held(end):
            return []
        self.delay_s += self.now_s - self._due(end)  # the phase end's due moment becomes now
        return self.advance_to(self.now_s)

    # -- views ---------------------------------------------------------------------------------------
    @property
    def complete(self) -> bool:
        """The round is over and the intercom has said its last line: time to resolve."""
        return self.status == "ended" and self.next_due_s() is None

    def station(self, name: str) -> StationView:
        """What `name` may see and do now (see engine.flight.views)."""
        return views.station(self, name)

    def deck(self) -> DeckView:
        """What the whole crew sees on the flight deck (see engine.flight.views)."""
        return views.deck(self)

    # -- persistence -------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "config": self.config.model_dump(mode="json", exclude={"timeline"}),
            "timeline": self.timeline.model_dump(mode="json"),
            "tracks": dict(self.tracks),
            "action_deck": list(self.action_deck),
            "threat_decks": {k: list(v) for k, v in self.threat_decks.items()},
            "members": [m.to_dict() for m in self.members],
            "threats": [dict(t) for t in self.threats],
            "ignored": [dict(t) for t in self.ignored],
            "now_s": self.now_s,
            "cursor": self.cursor,
            "status": self.status,
            "round_phase": self.round_phase,
            "comm_down_until": self.comm_down_until,
            "transfer": self.transfer,
            "incoming": list(self.incoming),
            "ended_early": self.ended_early,
            "seq": self.seq,
            "delay_s": self.delay_s,
            "paused_by": self.paused_by,
            "paused_s": self.paused_s,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Flight:
        try:
            d = migrate(d)  # older shapes are upgraded step by step
        except SnapshotError as exc:
            raise UnrestorableSnapshot(str(exc)) from exc
        self = cls()
        self.timeline, self.config, steps = _static_part(d["timeline"], d["config"])
        self._steps = list(steps)
        self.tracks = dict(d["tracks"])
        self.action_deck = list(d["action_deck"])
        self.threat_decks = {k: list(v) for k, v in d["threat_decks"].items()}
        self.members = [Member.from_dict(m) for m in d["members"]]
        self.threats = [dict(t) for t in d["threats"]]
        self.ignored = [dict(t) for t in d["ignored"]]
        self.now_s = d["now_s"]
        self.cursor = d["cursor"]
        self.status = d["status"]
        self.round_phase = d["round_phase"]
        self.comm_down_until = d["comm_down_until"]
        self.transfer = d["transfer"]
        self.incoming = list(d["incoming"])
        self.ended_early = d["ended_early"]
        self.seq = d["seq"]
        self.delay_s = float(d["delay_s"])
        self.paused_by = d["paused_by"]
        self.paused_s = float(d["paused_s"])
        if not 0 <= self.cursor <= len(self._steps):
            raise FlightError("snapshot cursor is outside the mission schedule")
        return self

    # -- the hand-over to the resolver ----------------------------------------------------------------
    def to_game(self) -> Game:
        """The engine's Game: tracks, crew plans in action order as codes, threats with turns and zones."""
        players = []
        for m in self.members:
            if not m.on_board:
                continue
            codes = ["-"] * 12
            for turn, slot in m.board.items():
                codes[turn - 1] = card(slot.card).code(slot.half)
            players.append(PlayerPlan(name=m.name, actions=codes))
        threats = [ThreatPlacement(id=t["id"], turn=t["turn"], zone=t["zone"]) for t in self.threats]
        return Game(tracks=Tracks(**self.tracks), players=players, threats=threats, seed=self.config.seed)

    def resolve(self, *, log: bool = False) -> Result:
        """Resolve the finished flight with the rules engine (rulebook §3)."""
        from engine import resolve

        return resolve(self.to_game(), log=log)


def _turns(phase: int) -> list[int]:
    return {1: [1, 2, 3], 2: [4, 5, 6, 7], 3: [8, 9, 10, 11, 12]}[phase]
