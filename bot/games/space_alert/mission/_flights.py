"""Live flights: start, the clock-driven timer, clicks on a station, and the end of the operation.

The game is `engine.flight.machine.Flight`; this module only moves it between the store and
Discord.  Every entry point (a click, a timer tick) is one unit of work through `FlightStore`:
load the snapshot, advance the flight to "now", apply the command, save (with the events in the
flight's journal), all in a pure function the store may re-run on a stale version; then answer
and publish what that function found.  "Now" is derived from the stored `started_at` wall-clock
instant and TIME_SCALE, so after a restart the timeline re-arms at exactly the right second.
A snapshot that cannot be restored (written by a newer bot, or no upgrade leads from it) ends its
flight politely, once, instead of failing every tick.

Publishing is handed out: text to `ChannelPosts` (the intercom mirror and alerts), voice mutes
to `Comms`, station redraws to `LiveHands`, and the flight deck is re-drawn in the background;
none of them is awaited on the clock's path beyond queueing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.games.space_alert.campaign.handoff import FOLLOW_UPS
from bot.games.space_alert.intercom import cue_text
from bot.games.space_alert.mission import _catchup
from bot.games.space_alert.mission import ids as _ids
from bot.games.space_alert.mission._catchup import with_summary
from bot.games.space_alert.mission._comms import Comms
from bot.games.space_alert.mission._deck import deck_message, threat_line
from bot.games.space_alert.mission._hands import LiveHands
from bot.games.space_alert.mission._pause import Pauses, pause_line
from bot.games.space_alert.mission._posting import MISSED_AFTER_S, ChannelPosts, custom_ids_of
from bot.games.space_alert.mission._respond import FOREGROUND, Reply
from bot.games.space_alert.mission._station import Selection, command_for, station_message
from bot.games.space_alert.mission._store import Ending, FlightStore, abandon, journal
from bot.games.space_alert.mission._voice import VoiceLink
from bot.games.space_alert.mission.result import (
    generator_record,
    lesson_hindsight,
    logbook_entry,
    overview_description,
    overview_picture,
    resolve_flight,
    result_payload,
)
from bot.games.space_alert.mission.storage import FlightRecord
from bot.platform.i18n import t
from bot.platform.permissions import Seats, actor_of, decide
from bot.platform.storage import StaleWrite
from bot.platform.text import code_text
from bot.web.links import flight_link
from engine.flight.commands import FlightEvent, Rejected
from engine.flight.lobby import Seat, role_holder
from engine.flight.machine import Flight, FlightConfig, FlightError
from engine.flight.snapshot import SnapshotError, clock_of

if TYPE_CHECKING:
    from bot.games.space_alert.mission._missions import MissionCatalog
    from bot.platform.client import SpaceAlertBot

log = logging.getLogger(__name__)

RESULT_WAIT_S = 300.0  # a follow-up waits at most this long for its flight's result post
MAX_SLEEP_S = 5.0  # wake at least this often, so a changed clock or TIME_SCALE is noticed
STATION_ACTIONS = ("place", "android", "back", "give", "draw", "finish", "agree")
# what changes a player's station, so their open hand is redrawn (card_given: the receiver's)
REDRAW_ALL = {
    "incoming_data",
    "transfer_opened",
    "transfer_closed",
    "phase_ended",
    "comm_down",
    "comm_restored",
    "paused",
    "resumed",
}
REDRAW_DECK = REDRAW_ALL | {"round_started", "threat_drawn", "end_agreed", "round_ended"}


def reason_text(lang: str, rejected: Rejected) -> str:
    """Why the engine refused a command, in the flight's language."""
    return t(lang, f"reason.{rejected.reason}", **rejected.params)


def crew_seats(record: FlightRecord) -> Seats:
    """The flight's host and seated crew, by member id, for the platform's checks."""
    return Seats.of(record.host_id, (m.user_id for m in record.crew))


@dataclass
class Step:
    """What one run of a flight's change found (reset on every attempt: the store may re-run it)."""

    flight: Flight | None = None
    events: list[FlightEvent] = field(default_factory=list)
    refusal: str | None = None  # the click's private answer instead of a station
    unrestorable: bool = False  # the change ended the flight: its state cannot be restored
    name: str = ""  # the clicking crew member's seat
    sel: Selection = field(default_factory=Selection)
    said: list[list[str]] | None = None  # the posts staged in the outbox (`FlightService.stage`)
    row: int | None = None  # their outbox row
    muting: list[int] = field(default_factory=list)  # muted by the change: their mutes go out after it
    catch_up: bool = False  # the clicker joined voice late: their station shows what was said so far


class FollowUpFailed(Exception):
    """A cog's follow-ups of a flight failed inside the finish's transaction (rolled back whole);
    the flight is then finished without them rather than left flying."""


class FlightService:
    def __init__(self, bot: SpaceAlertBot, catalog: MissionCatalog) -> None:
        self.bot = bot
        self.catalog = catalog
        self.store = FlightStore(bot)
        self.posts = ChannelPosts(bot, self.store)
        self.comms = Comms(bot, self.store, self.posts)
        self.voice = VoiceLink(bot, self.store, self.posts)
        self.hands = LiveHands(self._render_hand)
        self.pauses = Pauses(self)
        self._timers: dict[str, asyncio.Task[None]] = {}
        self._wakers: dict[str, asyncio.Event] = {}  # a timer's sleep, cut short by Resume
        self._background: set[asyncio.Task[Any]] = set()
        self._results: dict[str, asyncio.Event] = {}  # flight -> set once its result post is out
        self._deck_busy: set[str] = set()
        self._deck_dirty: set[str] = set()
        self._deck_posting: set[str] = set()  # flights whose deck's first post is under way
        bot.cluster.watch(on_lost=self.lost_lease, on_sweep=self.claim_orphans)

    @property
    def shutdown_drain_s(self) -> float:
        return self.posts.shutdown_drain_s

    @shutdown_drain_s.setter
    def shutdown_drain_s(self, value: float) -> None:
        self.posts.shutdown_drain_s = value

    # -- lobby -> flight ----------------------------------------------------------------------------
    async def mission_part(self, record: FlightRecord) -> tuple[dict[str, Any], str | None]:
        """The config's mission part for the lobby's options, or why the flight cannot start.  Read
        before the start's unit of work: it may read files and the server's custom missions."""
        try:
            return await self._timeline(record), None
        except (ValueError, FlightError, ImportError) as exc:
            return {}, t(record.language, "error.start_failed", reason=str(exc).splitlines()[0][:300])

    def start(self, record: FlightRecord, mission: dict[str, Any], voice_channel_id: int | None) -> str | None:
        """Build the engine Flight from the lobby (in place on `record`; pure, so it can run inside
        a unit of work); a message if it cannot."""
        lang = record.language
        options = record.options
        seats = [Seat(m.user_id, m.name, list(m.roles)) for m in record.crew]  # type: ignore[arg-type]
        config: dict[str, Any] = {
            "crew": [{"name": m.name} for m in record.crew],
            "captain": role_holder(seats, "captain"),
            "communications_officer": role_holder(seats, "comms"),
            "security_chief": role_holder(seats, "security"),
            "normal_difficulty": options["normal"],
            "serious_difficulty": options["serious"],
            "seed": int(options["seed"]),
            "lang": lang,
            "untimed": bool(options.get("untimed")),  # a flight-school lesson flown without the clock
        }
        try:
            flight = Flight.start(FlightConfig.model_validate(config | mission))
        except (ValueError, FlightError) as exc:
            return t(lang, "error.start_failed", reason=str(exc).splitlines()[0][:300])
        record.state = flight.to_dict()
        record.status = "flying"
        record.started_at = self.bot.clock()
        record.notes["voice_channel_id"] = voice_channel_id
        return None

    async def _timeline(self, record: FlightRecord) -> dict[str, Any]:
        """The config's mission part: an official id, or a timeline (generated, a file, a server's own)."""
        options = record.options
        source = await self.catalog.timeline_source(record.guild_id, options["mission"])
        if source is None:
            raise FlightError(f"unknown mission {options['mission']}")
        if "official" in source:
            return {"mission": source["official"]}
        if "random" in source:
            from engine.flight.generator import GeneratorParams, generate, preset_params

            preset = options.get("preset", "mission")
            overrides = options.get("overrides")  # a flight-school lesson narrows its preset down
            params = (
                GeneratorParams.model_validate({**preset_params(preset).model_dump(), **overrides})
                if overrides
                else None
            )
            return {"timeline": generate(int(options["seed"]), preset=preset, params=params)}
        from engine.flight.timeline import load_timeline_file, parse_timeline

        return {"timeline": load_timeline_file(source["file"]) if "file" in source else parse_timeline(source["data"])}

    generator_record = staticmethod(generator_record)

    async def after_start(self, record: FlightRecord) -> None:
        """Post the flight deck, arm the timer, start the voice (all after the click is answered).

        The clock never waits for voice: the timer is armed first and voice joins and renders in
        the background, its 0 s line due at the flight's own start.

        The deck's first post is not an outbox row: the start commits `deck_message_id` None,
        which is the flag that it is due.  A process that takes the flight over (`_resume`) posts
        it when the id is still missing, after looking for a deck with this flight's buttons
        among the bot's recent messages (a crash between the send and the stored id), so a
        crash neither loses it nor shows it twice."""
        channel = self.bot.get_channel(record.channel_id)
        record = await self._post_deck(record, channel, look=False)
        self.arm(record.id)
        self._spawn(self._start_voice(record, resumed=False))

    async def _post_deck(self, record: FlightRecord, channel: Any, *, look: bool) -> FlightRecord:
        """Post the flight deck and store its id (`look`: first adopt one already sent)."""
        if record.id in self._deck_posting:
            return record
        self._deck_posting.add(record.id)
        try:
            embed, view = self.deck(record)
            message_id = await self._find_deck(channel, view) if look else None
            if message_id is None and channel is not None and hasattr(channel, "send"):
                try:
                    message = await channel.send(embed=embed, view=view or discord.utils.MISSING)
                    message_id = message.id
                except discord.HTTPException as exc:
                    log.warning("flight %s: cannot post the flight deck: %s", record.id, exc)
            if message_id is None:
                return record

            def remember_deck(fresh: FlightRecord) -> None:
                if fresh.deck_message_id is None:
                    fresh.deck_message_id = message_id

            return await self.store.update(record.id, remember_deck) or record
        finally:
            self._deck_posting.discard(record.id)

    async def _find_deck(self, channel: Any, view: discord.ui.View | None) -> int | None:
        """The id of a flight deck an earlier process sent but did not record: the bot's recent
        message carrying this deck's buttons (None when there is none)."""
        wanted = {cid for item in (view.children if view else []) if (cid := getattr(item, "custom_id", None))}
        if not wanted or channel is None or not hasattr(channel, "history"):
            return None
        me = getattr(self.bot.user, "id", None)
        try:
            async for message in channel.history(limit=25):
                if getattr(message.author, "id", None) == me and wanted & custom_ids_of(message):
                    return int(message.id)
        except (discord.HTTPException, AttributeError, TypeError) as exc:
            log.info("cannot read channel %s to look for the flight deck (%s)", getattr(channel, "id", "?"), exc)
        return None

    async def _restore_deck(self, record: FlightRecord) -> None:
        """A flight taken over before its deck was recorded: find it or post it (after the gateway
        is ready: never on the start-up path)."""
        channel = await self.posts.channel(record.channel_id)
        if channel is not None:
            await self._post_deck(record, channel, look=True)

    async def _start_voice(self, record: FlightRecord, *, resumed: bool) -> None:
        """Every line to voice (a "voice unavailable" line if it cannot speak); never on the clock's path."""
        try:
            flight = Flight.from_dict(record.state or {})
        except SnapshotError as exc:
            await self.end_unrestorable(record.id, exc)
            return
        if flight.paused_by is not None:
            return  # a flight restarted while paused speaks again on Resume
        if resumed:
            # After a restart flights resume before the gateway has delivered the servers: asked
            # now, voice would find no server ("the voice channel is gone") and stay text-only.
            await self.bot.until_ready()
        await self.voice.start(record, flight.timeline, resumed=resumed, paused_s=flight.paused_s)

    # -- the clock ------------------------------------------------------------------------------------
    def elapsed(self, record: FlightRecord) -> float:
        """Seconds since the start on the bot's clock, in mission seconds (TIME_SCALE applied),
        pauses included: what `Flight.clock` and `Flight.resume` take."""
        if record.started_at is None:
            return 0.0
        return max(0.0, (self.bot.clock() - record.started_at) * record.time_scale)

    def flight_time(self, record: FlightRecord) -> float:
        """Mission time now: the engine's clock rule on the stored state (`clock_of`), read without
        restoring the whole flight; standing still while paused, never before the start."""
        return max(0.0, clock_of(record.state or {}, self.elapsed(record)))

    def arm(self, flight_id: str) -> None:
        """Start the timer task for a flight (no-op in tests, which call `tick` themselves)."""
        if not self.bot.run_timers or flight_id in self._timers:
            return
        task = asyncio.create_task(self._timer(flight_id), name=f"flight-{flight_id}")
        self._timers[flight_id] = task
        task.add_done_callback(lambda _t: self._timers.pop(flight_id, None))

    async def _timer(self, flight_id: str) -> None:
        while True:
            try:
                delay = await self.tick(flight_id)
            except Exception:
                log.exception("flight %s: timer tick failed; retrying", flight_id)
                delay = 1.0
            if delay is None:
                self._wakers.pop(flight_id, None)
                return
            waker = self._wakers.setdefault(flight_id, asyncio.Event())
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(waker.wait(), delay)
            waker.clear()

    def wake(self, flight_id: str) -> None:
        """Tick the flight's timer now (after Resume: the next moment is due sooner than it slept)."""
        waker = self._wakers.get(flight_id)
        if waker is not None:
            waker.set()

    async def tick(self, flight_id: str) -> float | None:
        """Advance a flight to now and publish what fell due; seconds until the next due moment
        (None: the flight is over, the timer stops)."""
        current = await self.store.peek(flight_id)
        if current is None or current.status != "flying" or current.state is None:
            return None
        if not await self._runs_clock(current):
            return None  # another process runs this flight (its shard, or the lease, is theirs)
        step = Step()

        async def advance(record: FlightRecord) -> dict[str, Any] | None:
            nonlocal step
            step = Step()  # a retry starts from scratch
            if record.status != "flying" or record.state is None:
                return None
            try:
                flight = Flight.from_dict(record.state)
            except SnapshotError as exc:
                step.unrestorable = True
                entry = abandon(record, exc)
                step.row = await self.stage_goodbye(record)
                return entry
            step.flight, step.events = flight, flight.advance_to(max(flight.now_s, self.flight_time(record)))
            if not step.events:
                return None  # nothing fell due: nothing to write
            record.state = flight.to_dict()
            entry = journal(None, "clock", step.events)
            entry["payload"] |= {"process": self.bot.cluster.process, "at_s": flight.now_s}
            await self.stage(record, flight, step)
            return entry

        # a tick with nothing due (most of them) writes nothing: read it without the writer's lock
        record = await self.store.read_or_update(flight_id, advance, current)
        if record is not None and step.unrestorable:
            await self._unrestorable(record, step.row)
        flight, events = step.flight, step.events
        if record is None or flight is None:
            return None
        await self.publish(record, flight, events, step)
        if flight.complete:  # the round is over and its last line is out: resolve
            await self.finish(flight_id)
            return None
        due = flight.next_due_s()
        if due is None:
            return MAX_SLEEP_S
        wait = (due - self.flight_time(record)) / record.time_scale
        return min(MAX_SLEEP_S, max(0.0, wait))

    # -- publishing ---------------------------------------------------------------------------------
    def compose(
        self, record: FlightRecord, flight: Flight, events: list[FlightEvent], step: Step | None = None
    ) -> list[list[str]]:
        """What the channel is to be told of these events, as outbox items: ["line", text],
        ["alert", text] or ["phase", ""] (the next line starts a new message).  No Discord call,
        so it runs inside the change's unit of work and the items commit with it (`stage`).
        A communication failure also writes on `record` whom it mutes (`Comms.stage_down`; the
        mutes themselves go out after the commit, `step.muting`), so the alert, the muted list
        and the move of the game are one transaction: a crash after it loses and repeats none of
        them.  An intercom line whose moment passed while no process ran the flight is marked as
        missed."""
        lang, deck = record.language, flight.deck()
        now_s = self.flight_time(record)
        items: list[list[str]] = []
        for ev in events:
            if ev.private_to is not None:
                continue
            alert: str | None = None
            if ev.kind == "intercom" and ev.cue is not None and (words := cue_text(ev.cue)):
                line = f"{t(lang, 'intercom.prefix')} {words}"
                if (now_s - ev.at_s) / record.time_scale > MISSED_AFTER_S:
                    line = f"{t(lang, 'cluster.missed')} {line}"
                items.append(["line", line])
            elif ev.kind == "threat_drawn":
                threat = next((th for th in deck.threats if th.id == ev.data.get("id")), None)
                alert = threat_line(lang, threat) if threat is not None else None
            elif ev.kind == "transfer_opened":
                alert = t(lang, "deck.transfer")
            elif ev.kind == "end_agreed":
                alert = t(
                    lang, "flight.end_agreed", player=ev.data.get("player"), n=len(deck.agreed_end), of=len(deck.humans)
                )
            elif ev.kind == "round_ended" and ev.data.get("early"):
                alert = t(lang, "flight.ended_early")
            elif ev.kind == "phase_ended" and ev.data.get("phase", 0) < deck.phases:
                items.append(["phase", ""])
            elif ev.kind in ("paused", "resumed"):
                alert = pause_line(lang, ev)
            elif ev.kind == "comm_down":
                seconds = round(ev.data.get("until_s", ev.at_s) - ev.at_s)
                alert, muting = self.comms.stage_down(record, seconds)
                if step is not None:
                    step.muting = [*step.muting, *muting]
            elif ev.kind == "comm_restored":
                alert = t(lang, "comm.restored")
                if step is not None:  # a failure begun and ended in this one change muted nobody yet
                    self.comms.unstage(record, step.muting)
                    step.muting = []
            if alert:
                items.append(["alert", alert])
        return items

    async def stage(self, record: FlightRecord, flight: Flight, step: Step) -> None:
        """Inside the change's unit of work: the posts its events make due, into the outbox, so
        they commit with the change and a process taking over sends what this one did not."""
        step.said = self.compose(record, flight, step.events, step)
        if self.store.reading():  # a read pass: it runs again as a unit of work, which stages
            return
        if any(kind != "phase" for kind, _text in step.said):
            payload = {"op": "said", "channel_id": record.channel_id, "items": step.said, "at": self.bot.clock()}
            step.row = await self.bot.storage.stage_post(record.id, payload)

    async def publish(self, record: FlightRecord, flight: Flight, events: list[FlightEvent], step: Step) -> None:
        """After the change committed: the text mirror and alerts it staged (`stage`), the mutes
        and unmutes of its communication failures, station redraws; the deck redraw in the
        background."""
        if not events:
            return
        fid, channel_id = record.id, record.channel_id
        said = step.said if step.said is not None else self.compose(record, flight, events, step)
        self.posts.say_items(fid, channel_id, said, step.row)
        user_of = {m.name: m.user_id for m in record.crew}
        redraw: set[int] = set()
        deck = flight.deck()
        for ev in events:
            if ev.kind in REDRAW_ALL:
                redraw |= set(user_of.values())
            if ev.kind == "card_given" and ev.data.get("to") in user_of:
                redraw.add(user_of[ev.data["to"]])
            if ev.private_to is not None:
                continue
        # only the state the change ends in: a tick catching up over several failures (after a
        # stall or a takeover) mutes and unmutes nobody in between
        if step.muting:
            self.comms.mute(record, step.muting)
        if any(ev.kind == "comm_restored" for ev in events):
            await self.comms.unmute(record)
        if redraw:
            self.hands.changed(fid, redraw)
        # untimed: each Finish changes whom the phase's end waits for, which the deck shows
        if any(ev.kind in REDRAW_DECK or (deck.untimed and ev.kind == "phase_finished") for ev in events):
            self._spawn(self.refresh_deck(fid))

    def deck(self, record: FlightRecord) -> tuple[discord.Embed, discord.ui.View | None]:
        """The flight deck as stored (an unrestorable state draws as an ended operation)."""
        try:
            flight = Flight.from_dict(record.state) if record.state else None
        except SnapshotError:
            flight = None
        return deck_message(record, flight.deck() if flight is not None else None)

    async def refuse_unapplied(
        self,
        reply: Reply,
        record: FlightRecord | None,
        refusal: str | None,
        unrestorable: bool,
        row: int | None = None,
    ) -> None:
        """A click whose change did not apply: the engine's refusal, else "the flight is over"; a
        flight whose stored state cannot be restored is ended politely as well (`row`: the
        goodbye's outbox row, staged with the change that ended it)."""
        lang = record.language if record is not None else self.bot.settings.default_language
        await reply.reject(refusal or t(lang, "error.flight_over"))
        if record is not None and unrestorable:
            await self._unrestorable(record, row)

    async def refresh_deck(self, flight_id: str) -> None:
        """Redraw the flight deck from the stored flight.  The last edit wins: one edit per flight
        at a time, and a redraw asked for meanwhile runs once more after it, reading the flight
        then (two edits in flight could land in either order and leave "My station" under
        "Operation ended")."""
        if flight_id in self._deck_busy:
            self._deck_dirty.add(flight_id)
            return
        self._deck_busy.add(flight_id)
        try:
            while True:
                self._deck_dirty.discard(flight_id)
                await self._edit_deck(flight_id)
                if flight_id not in self._deck_dirty:
                    return
        finally:
            self._deck_busy.discard(flight_id)

    async def _edit_deck(self, flight_id: str) -> None:
        await FOREGROUND.quiet()  # the answers to clicks go out first
        record = await self.store.peek(flight_id)
        if record is None or record.deck_message_id is None:
            return
        channel = self.bot.get_channel(record.channel_id)
        if channel is None or not hasattr(channel, "get_partial_message"):
            return
        embed, view = self.deck(record)
        try:
            await channel.get_partial_message(record.deck_message_id).edit(embed=embed, view=view)
        except discord.HTTPException as exc:
            log.info("flight %s: deck edit failed: %s", flight_id, exc)

    # -- clicks -----------------------------------------------------------------------------------------
    async def on_component(self, interaction: discord.Interaction, cid: _ids.ComponentId, values: list[str]) -> None:
        if cid.action == "rejoin":  # the host brings voice back after a member's disconnect
            await self.voice.rejoin_clicked(interaction, cid.flight)
            return
        if cid.action in ("pause", "resume"):
            await self.pauses.clicked(interaction, cid)
            return
        user_id = interaction.user.id
        actor = actor_of(interaction)
        opening = cid.action == "station"
        step = Step()

        async def play(record: FlightRecord) -> dict[str, Any] | None:
            """The click as a pure change: checks, advance to now, the command; nothing is saved
            when it is refused (a rejection leaves the flight as it was, clock included)."""
            nonlocal step
            step = Step()  # a retry starts from scratch
            lang = record.language
            member = record.member(user_id)
            if record.status != "flying" or record.state is None:
                step.refusal = t(lang, "error.flight_over")
            elif member is None or decide(f"mission.{cid.action}", actor, crew_seats(record)) is not None:
                step.refusal = t(lang, "error.not_crew")
            elif not opening and cid.player != user_id:
                step.refusal = t(lang, "error.not_your_hand")
            if step.refusal is not None or member is None or record.state is None:
                return None
            try:
                flight = Flight.from_dict(record.state)
            except SnapshotError as exc:
                step.refusal, step.unrestorable = t(lang, "error.unrestorable"), True
                entry = abandon(record, exc)
                step.row = await self.stage_goodbye(record)
                return entry
            step.catch_up = _catchup.owed(record, user_id)
            if step.catch_up and opening:  # shown now: paid in the same unit of work
                _catchup.paid(record, user_id)
            events = flight.advance_to(max(flight.now_s, self.flight_time(record)))
            parts = cid.parts[1:] if not opening else []
            sel = Selection(values[0] if cid.action == "pick" and values else parts[0] if parts else "-")
            command = None
            if cid.action in STATION_ACTIONS:
                command = command_for(flight.station(member.name), cid.action, sel, values)
                outcome = flight.apply(command) if command is not None else None
                if outcome is None or isinstance(outcome, Rejected):
                    step.refusal = reason_text(lang, outcome) if outcome else t(lang, "reason.bad_input")
                    return None
                events, sel = [*events, *outcome.events], Selection()
            step.flight, step.events, step.name, step.sel = flight, events, member.name, sel
            if not events and command is None:
                return None  # opening the station at a quiet moment: nothing to write
            record.state = flight.to_dict()
            dumped = command.model_dump(mode="json") if command is not None else None
            await self.stage(record, flight, step)
            return journal(user_id, cid.action, events, dumped)

        async with Reply(interaction, update=not opening) as reply:
            try:
                if cid.action in STATION_ACTIONS:  # a command: always a unit of work
                    record = await self.store.update(cid.flight, play)
                else:  # opening the station, choosing a card: a write only when the clock moved
                    record = await self.store.read_or_update(cid.flight, play)
            except StaleWrite:  # the flight kept changing under every attempt: ask for another click
                await reply.reject(t(self.bot.settings.default_language, "error.busy"))
                return
            flight = step.flight
            if record is None or flight is None:
                await self.refuse_unapplied(reply, record, step.refusal, step.unrestorable, step.row)
                return
            embed, view = station_message(record.language, record.id, user_id, flight.station(step.name), step.sel)
            if step.catch_up:  # joined voice late: what was said so far
                embed = with_summary(embed, record.language, flight)
            await reply.send(embed=embed, view=view)
            self.hands.remember(record.id, user_id, interaction, step.sel)
        await self.publish(record, flight, step.events, step)
        if flight.complete:
            await self.finish(record.id)

    async def _render_hand(
        self, flight_id: str, user_id: int, sel: Selection
    ) -> tuple[discord.Embed, discord.ui.View] | None:
        """A player's station as stored now (for a redraw the player did not ask for)."""
        record = await self.store.peek(flight_id)
        member = record.member(user_id) if record is not None else None
        if record is None or member is None or record.state is None or record.status != "flying":
            return None
        try:
            flight = Flight.from_dict(record.state)
        except SnapshotError:
            return None  # the next tick or click ends the flight and says why
        embed, view = station_message(record.language, flight_id, user_id, flight.station(member.name), sel)
        if _catchup.owed(record, user_id):
            embed = with_summary(embed, record.language, flight)
        return embed, view

    async def voice_joined(self, member: discord.Member, channel_id: int) -> None:
        """A crew member came into a running flight's voice channel (late, or after a drop): they
        are owed a written summary of what the intercom said so far, shown in their station (an
        open one is redrawn now; otherwise the next time they open it)."""
        guild_id = getattr(getattr(member, "guild", None), "id", None)
        for record in await self.store.active_flights():
            if record.status != "flying" or record.guild_id != guild_id or record.member(member.id) is None:
                continue
            if record.notes.get("voice_channel_id") != channel_id:
                continue
            stored = await self.store.update(record.id, lambda r: _catchup.owe(r, member.id))
            if stored is not None and _catchup.owed(stored, member.id):
                self.hands.changed(record.id, {member.id})

    # -- the end of the operation ----------------------------------------------------------------------------
    async def finish(self, flight_id: str) -> None:
        """Resolve, then record the logbook entry and the finished status as one unit of work
        (once, however often this runs), then post the result and the captain's log."""
        outcome: dict[str, Any] = {}

        async def conclude(record: FlightRecord) -> Ending | None:
            outcome.clear()  # a retry starts from scratch
            if record.state is None:
                return None
            try:
                flight = Flight.from_dict(record.state)
            except SnapshotError as exc:
                outcome["unrestorable"] = True
                return Ending(abandon(record, exc))
            try:  # off the loop: the other flights' clocks keep ticking (the snapshots feed the picture)
                # a campaign mission starts from its carried ship (the options hold it)
                result, outcome["replay"] = await asyncio.to_thread(resolve_flight, flight, record.options)
                outcome["flight"] = flight
            except Exception as exc:  # the engine failing must not leave the flight stuck "flying"
                log.exception("flight %s: resolution failed", flight_id)
                outcome["failed"] = str(exc)
                record.status = "finished"
                record.notes["resolution_error"] = str(exc)
                return Ending({"kind": "resolution_failed", "payload": {"error": str(exc)}})
            outcome["result"], outcome["data"] = result, (data := result.to_json_dict(with_log=True))
            record.status = "finished"
            record.notes["result"] = result.to_json_dict()
            event = {"kind": "finished", "payload": {"outcome": data["outcome"]}}
            return Ending(event, logbook_entry(record, flight, data))

        staged: dict[str, Any] = {}

        async def then(record: FlightRecord, _ending: Ending) -> None:
            """In the finish's transaction: the outbox rows of what the end makes due."""
            staged.clear()
            if outcome.get("unrestorable"):
                staged["said"] = [["alert", t(record.language, "flight.unrestorable")]]
            elif "failed" in outcome:
                failed = t(record.language, "resolve.failed", reason=code_text(outcome["failed"], 300))
                staged["said"] = [["alert", failed]]
            else:
                payload = result_payload(record, outcome["data"], None, outcome["result"])
                staged["result"] = await self.bot.storage.stage_post(record.id, payload)
                if follow_ups:
                    staged["follow_ups"] = await self._stage_follow_ups(record, outcome["result"])
            if "said" in staged:
                said = {"op": "said", "channel_id": record.channel_id, "items": staged["said"], "at": self.bot.clock()}
                staged["row"] = await self.bot.storage.stage_post(record.id, said)

        follow_ups = True
        try:
            record = await self.store.finish(flight_id, conclude, then)
        except FollowUpFailed:  # a follow-up's failure must not leave the flight flying: end it without them
            log.exception("flight %s: its follow-ups could not be staged; finishing without them", flight_id)
            follow_ups = False
            record = await self.store.finish(flight_id, conclude, then)
        if record is None:
            return  # not flying any more: finished (or ended) by an earlier call
        if outcome.get("unrestorable"):
            await self._unrestorable(record, staged.get("row"))
            return
        if "failed" in outcome:  # no result, but the crew is unmuted and the intercom ends as usual
            self.posts.say_items(flight_id, record.channel_id, staged["said"], staged.get("row"))
            await self.comms.unmute(record)
            await self.voice.finish(record)
            self._wind_down(record.id)
            return
        data, result = outcome["data"], outcome["result"]
        await self.comms.unmute(record)
        await self.voice.finish(record)  # the last lines still play while the result goes out
        # the result's row committed with the finish: a crash from here on costs the picture at
        # most, never the result (the process taking over sends the stored row)
        picture = await overview_picture(outcome["replay"], record.language)  # None (logged) if drawing fails
        # queued behind the flight's last intercom lines, so the result never overtakes them
        alt = overview_description(outcome["replay"], record.language) if picture else None
        lesson = await lesson_hindsight(record, outcome["flight"], result)  # a lost school flight's hint
        payload = result_payload(record, data, picture, result, alt, lesson)
        link = await flight_link(self.bot.storage, self.bot.settings, record.guild_id, record.id)
        if link:  # a public server with the web logbook: the title opens the flight's page
            payload["embed"]["url"] = link
        self.posts.post_result(record.id, payload, row_id=staged.get("result"))
        self._mark_result(record.id)
        for row, follow in staged.get("follow_ups", []):  # after the result, in the same ordered outbox
            self.posts.post_follow_up(record.id, follow, row_id=row)
        self._wind_down(record.id)

    async def _stage_follow_ups(self, record: FlightRecord, result: Any) -> list[tuple[int, dict[str, Any]]]:
        """In the finish's transaction: each cog's follow-ups of the flight (`handoff.FOLLOW_UPS`:
        the campaign's step, the school's progress) applied, and their posts into the outbox
        behind the result's row; (row, payload) in sending order."""
        rows: list[tuple[int, dict[str, Any]]] = []
        for cog in list(self.bot.cogs.values()):
            make = getattr(cog, FOLLOW_UPS, None)
            if make is None:
                continue
            try:
                made = await make(record, result)
            except StaleWrite:
                raise  # the finish runs again on fresh state
            except Exception as exc:
                raise FollowUpFailed(f"{type(cog).__name__}: {exc}") from exc
            for payload in made:
                payload = {**payload, "at": self.bot.clock()}
                rows.append((await self.bot.storage.stage_post(record.id, payload), payload))
        return rows

    def _mark_result(self, flight_id: str) -> None:
        """Queue, behind the result post, the moment that releases the flight's follow-ups."""
        posted = self._results[flight_id] = asyncio.Event()

        async def mark() -> None:
            posted.set()
            if self._results.get(flight_id) is posted:  # a listener asking later finds it out already
                del self._results[flight_id]

        self.posts.outbox(flight_id).put(mark)

    async def result_posted(self, flight_id: str, timeout: float = RESULT_WAIT_S) -> None:
        """Return once the flight's result post is out (at once if none is queued here).

        Why: a follow-up sent outside the flight's outbox (`on_flight_resolved` called directly)
        must wait for the result, which itself waits behind the intercom's last lines; a
        campaign's next vote or the school's "progress saved" posted earlier would come before
        the result it follows.  The finish's own follow-ups queue behind the result instead."""
        posted = self._results.get(flight_id)
        if posted is None:
            return
        try:
            await asyncio.wait_for(posted.wait(), timeout)
        except TimeoutError:
            log.info("flight %s: the result post is late; its follow-ups go out anyway", flight_id)

    def _wind_down(self, flight_id: str) -> None:
        self.hands.forget(flight_id)
        self._spawn(self.refresh_deck(flight_id))
        self._spawn(self.posts.retire(flight_id))
        self._spawn(self.comms.retire(flight_id))
        self._spawn(self.bot.cluster.release(flight_id))

    # -- abort, restart, shutdown ---------------------------------------------------------------------------
    async def after_abort(self, record: FlightRecord) -> None:
        timer = self._timers.pop(record.id, None)
        if timer is not None and timer is not asyncio.current_task():  # a tick ending it returns None
            timer.cancel()
        await self.comms.unmute(record)
        await self.voice.abort(record)
        await self.refresh_deck(record.id)
        self._wind_down(record.id)

    async def end_unrestorable(self, flight_id: str, error: Exception) -> None:
        """End a flight whose stored state cannot be restored, found outside a tick or a click
        (at a restart, when the voice starts): aborted once, then the same goodbye as theirs."""
        ended = False
        row: int | None = None

        async def end(record: FlightRecord) -> dict[str, Any] | None:
            nonlocal ended, row
            ended = record.active
            if not ended:
                return None
            entry = abandon(record, error)
            row = await self.stage_goodbye(record)
            return entry

        record = await self.store.update(flight_id, end)
        if record is not None and ended:
            await self._unrestorable(record, row)

    def _goodbye(self, record: FlightRecord) -> list[list[str]]:
        return [["alert", t(record.language, "flight.unrestorable")]]

    async def stage_goodbye(self, record: FlightRecord) -> int | None:
        """Inside the change that ends a flight for an unrestorable state: its goodbye into the
        outbox, so it commits with the end (a crash after the commit cannot lose it, and the
        process taking over looks it up before sending it).  None on a read pass (it runs again
        as a unit of work, which stages)."""
        if self.store.reading():
            return None
        items = self._goodbye(record)
        payload = {"op": "said", "channel_id": record.channel_id, "items": items, "at": self.bot.clock()}
        return await self.bot.storage.stage_post(record.id, payload)

    async def _unrestorable(self, record: FlightRecord, row: int | None = None) -> None:
        """After a change ended the flight for an unrestorable state: say so once in its channel
        (`row`: the goodbye staged with that change), unmute the crew, stop the voice and the timer."""
        log.warning(
            "flight %s: stored state cannot be restored (%s); flight ended", record.id, record.notes.get("unrestorable")
        )
        self.posts.say_items(record.id, record.channel_id, self._goodbye(record), row)
        await self.after_abort(record)

    async def resume_all(self) -> None:
        """After a restart: re-queue the posts a shutdown stored (before anything new), put the
        voice mutes right, and re-arm every flying flight (overdue events fire on the first tick)."""
        await self.posts.restore()
        for record in await self.store.ended_flights_with_muted_members():
            if not self.bot.cluster.owns(record.guild_id):
                continue  # that guild's members are another process's to unmute
            log.info("flight %s ended with members still muted: unmuting them", record.id)
            await self.comms.unmute(record)
        for record in await self.store.active_flights():
            if record.status == "flying" and record.state is not None and self.bot.cluster.owns(record.guild_id):
                await self._resume(record)

    async def _resume(self, record: FlightRecord, *, sweep: bool = False) -> None:
        if record.state is None or not await self._runs_clock(record):
            if not sweep:
                log.info("flight %s: its clock runs in another process; taken over if that one stops", record.id)
            return
        log.info("resuming flight %s in channel %s", record.id, record.channel_id)
        try:
            deck = Flight.from_dict(record.state).deck()
        except SnapshotError as exc:
            await self.end_unrestorable(record.id, exc)
            return
        await self.comms.reconcile(record, deck.comm_down_until_s, self.flight_time(record))
        if record.deck_message_id is None:  # its start committed, its deck never recorded
            self._spawn(self._restore_deck(record))
        self.arm(record.id)
        if self.bot.run_timers:  # rejoin voice in the background; text goes on meanwhile
            self._spawn(self._start_voice(record, resumed=True))

    # -- several processes over one database (bot/platform/cluster.py) ------------------------------------------
    async def _runs_clock(self, record: FlightRecord) -> bool:
        """Only the process owning the flight's guild runs its clock, and only with the lease."""
        cluster = self.bot.cluster
        return cluster.owns(record.guild_id) and await cluster.acquire(record.id)

    async def claim_orphans(self) -> None:
        """The cluster keeper's sweep: flights of this process's guilds that nobody runs (their
        process died and its lease expired) are resumed here."""
        cluster = self.bot.cluster
        for record in await self.store.active_flights():
            mine = record.status == "flying" and cluster.owns(record.guild_id)
            if mine and record.id not in self._timers and not cluster.holds(record.id):
                await self._resume(record, sweep=True)

    async def lost_lease(self, flight_id: str) -> None:
        """Another process took the flight over (this one stalled past its lease): stop the
        clock and the voice here; the new holder runs both."""
        timer = self._timers.pop(flight_id, None)
        if timer is not None:
            timer.cancel()
        record = await self.store.peek(flight_id)
        if record is not None:
            await self.voice.abort(record)

    def stop_all(self) -> None:
        for task in list(self._timers.values()):
            task.cancel()
        self._timers.clear()
        self.posts.cancel()
        self.comms.cancel()

    async def close(self, timeout: float | None = None) -> None:
        """Shutdown: stop the timers, give queued posts and mutes `timeout` s (5 by default) to go
        out, then store the posts still unsent; the next start sends them, in order, once."""
        timeout = self.shutdown_drain_s if timeout is None else timeout
        self.voice.detach()
        for task in list(self._timers.values()):
            task.cancel()
        self._timers.clear()
        await asyncio.gather(
            self.posts.shutdown(timeout),
            self.comms.shutdown(timeout),
            self._settle([*self._background, *self.hands.tasks()], timeout),
        )

    @staticmethod
    async def _settle(tasks: list[asyncio.Task[Any]], timeout: float) -> None:
        if tasks:
            _done, pending = await asyncio.wait(tasks, timeout=timeout)
            for task in pending:
                task.cancel()

    def spawn(self, coro: Any) -> None:
        """Run `coro` in the background, drained like the posts (tests, shutdown)."""
        self._spawn(coro)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def drain(self) -> None:
        """Wait for background work: deck and station redraws, queued posts and mutes (tests, shutdown)."""
        while True:
            pending = [*self._background, *self.hands.tasks()]
            if pending:
                await asyncio.gather(*pending, return_exceptions=True)
                continue
            await self.comms.join()
            await self.posts.join()
            if not self._background and not self.hands.tasks():
                return


__all__ = ["FlightService", "reason_text"]
