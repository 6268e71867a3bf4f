"""Live flights: start, the clock-driven timer, clicks on a station, and the end of the operation.

The game is `engine.flight.machine.Flight`; this module only moves it between the store and
Discord.  Every entry point (a click, a timer tick) runs: take the flight's lock, load the
snapshot, advance the flight to "now", apply the command, save (with the events in the flight's
journal), release, then publish.  "Now" is derived from the stored `started_at` wall-clock
instant and TIME_SCALE, so after a restart the timeline re-arms at exactly the right second.

Publishing is handed out: text to `ChannelPosts` (the intercom mirror and alerts), voice mutes
to `Comms`, station redraws to `LiveHands`, and the flight deck is re-drawn in the background;
none of them is awaited on the clock's path beyond queueing.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.exts.mission import _ids
from bot.exts.mission._comms import Comms
from bot.exts.mission._deck import deck_message, threat_line
from bot.exts.mission._hands import LiveHands
from bot.exts.mission._posting import ChannelPosts
from bot.exts.mission._respond import Reply
from bot.exts.mission._result import generator_record, logbook_entry, overview_picture, resolve_flight, result_payload
from bot.exts.mission._station import Selection, command_for, station_message
from bot.exts.mission._store import FlightStore, journal
from bot.exts.mission._voice import VoiceLink
from bot.i18n import t
from bot.storage import FlightRecord
from bot.text import code_text
from engine.flight.lobby import Seat, role_holder
from engine.flight.machine import Flight, FlightConfig, FlightError, FlightEvent, Rejected

if TYPE_CHECKING:
    from bot.client import SpaceAlertBot
    from bot.exts.mission._missions import MissionCatalog

log = logging.getLogger(__name__)

MAX_SLEEP_S = 5.0  # wake at least this often, so a changed clock or TIME_SCALE is noticed
STATION_ACTIONS = ("place", "android", "back", "give", "draw", "finish", "agree")
# what changes a player's station, so their open hand is redrawn (card_given: the receiver's)
REDRAW_ALL = {"incoming_data", "transfer_opened", "transfer_closed", "phase_ended", "comm_down", "comm_restored"}
REDRAW_DECK = REDRAW_ALL | {"round_started", "threat_drawn", "end_agreed", "round_ended"}


def reason_text(lang: str, rejected: Rejected) -> str:
    """Why the engine refused a command, in the flight's language."""
    return t(lang, f"reason.{rejected.reason}", **rejected.params)


class FlightService:
    def __init__(self, bot: SpaceAlertBot, catalog: MissionCatalog) -> None:
        self.bot = bot
        self.catalog = catalog
        self.store = FlightStore(bot)
        self.posts = ChannelPosts(bot, self.store)
        self.comms = Comms(bot, self.store, self.posts)
        self.voice = VoiceLink(bot, self.store, self.posts)
        self.hands = LiveHands(self._render_hand)
        self._timers: dict[str, asyncio.Task[None]] = {}
        self._background: set[asyncio.Task[Any]] = set()
        bot.cluster.watch(on_lost=self.lost_lease, on_sweep=self.claim_orphans)

    @property
    def shutdown_drain_s(self) -> float:
        return self.posts.shutdown_drain_s

    @shutdown_drain_s.setter
    def shutdown_drain_s(self, value: float) -> None:
        self.posts.shutdown_drain_s = value

    # -- lobby -> flight ----------------------------------------------------------------------------
    async def start(self, record: FlightRecord, interaction: discord.Interaction) -> str | None:
        """Build the engine Flight from the lobby (in place on `record`); a message if it cannot."""
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
        }
        try:
            config |= await self._timeline(record)
            flight = Flight.start(FlightConfig.model_validate(config))
        except (ValueError, FlightError, ImportError) as exc:
            return t(lang, "error.start_failed", reason=str(exc).splitlines()[0][:300])
        record.state = flight.to_dict()
        record.status = "flying"
        record.started_at = self.bot.clock()
        user: Any = interaction.user
        voice_channel = getattr(getattr(user, "voice", None), "channel", None)
        record.notes["voice_channel_id"] = voice_channel.id if voice_channel is not None else None
        record.notes["muted"] = []
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
        the background, its 0 s line due at the flight's own start."""
        channel = self.bot.get_channel(record.channel_id)
        embed, view = self.deck(record)
        message_id = None
        if channel is not None and hasattr(channel, "send"):
            try:
                message = await channel.send(embed=embed, view=view or discord.utils.MISSING)
                message_id = message.id
            except discord.HTTPException as exc:
                log.warning("flight %s: cannot post the flight deck: %s", record.id, exc)
        if message_id is not None:
            async with self.store.locked(record.id) as fresh:
                if fresh is not None:
                    fresh.deck_message_id = message_id
                    await self.store.save(fresh)
                    record.deck_message_id = message_id
                    record.version = fresh.version
        self.arm(record.id)
        self._spawn(self._start_voice(record, resumed=False))

    async def _start_voice(self, record: FlightRecord, *, resumed: bool) -> None:
        """Every line to voice (a "voice unavailable" line if it cannot speak); never on the clock's path."""
        await self.voice.start(record, Flight.from_dict(record.state or {}).timeline, resumed=resumed)

    # -- the clock ------------------------------------------------------------------------------------
    def flight_time(self, record: FlightRecord) -> float:
        if record.started_at is None:
            return 0.0
        return max(0.0, (self.bot.clock() - record.started_at) * record.time_scale)

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
                return
            await asyncio.sleep(delay)

    async def tick(self, flight_id: str) -> float | None:
        """Advance a flight to now and publish what fell due; seconds until the next due moment."""
        async with self.store.locked(flight_id) as record:
            if record is None or record.status != "flying" or record.state is None:
                return None
            if not await self._runs_clock(record):
                return None  # another process runs this flight (its shard, or the lease, is theirs)
            flight = Flight.from_dict(record.state)
            events = flight.advance_to(max(flight.now_s, self.flight_time(record)))
            record.state = flight.to_dict()
            if events:
                entry = journal(None, "clock", events)
                entry["payload"] |= {"process": self.bot.cluster.process, "at_s": flight.now_s}
                await self.store.save(record, entry)
        await self.publish(record, flight, events)
        if flight.complete:  # the round is over and its last line is out: resolve
            await self.finish(flight_id)
            return None
        due = flight.next_due_s()
        if due is None:
            return MAX_SLEEP_S
        wait = (due - self.flight_time(record)) / record.time_scale
        return min(MAX_SLEEP_S, max(0.0, wait))

    # -- publishing ---------------------------------------------------------------------------------
    async def publish(self, record: FlightRecord, flight: Flight, events: list[FlightEvent]) -> None:
        """Text mirror and alerts, mutes, station redraws; the deck redraw in the background."""
        if not events:
            return
        lang, fid, channel_id = record.language, record.id, record.channel_id
        deck = flight.deck()
        user_of = {m.name: m.user_id for m in record.crew}
        redraw: set[int] = set()
        for ev in events:
            if ev.kind in REDRAW_ALL:
                redraw |= set(user_of.values())
            if ev.kind == "card_given" and ev.data.get("to") in user_of:
                redraw.add(user_of[ev.data["to"]])
            if ev.private_to is not None:
                continue
            alert: str | None = None
            if ev.kind == "intercom" and ev.cue is not None and ev.cue.text:
                self.posts.say(fid, channel_id, lines=[f"{t(lang, 'intercom.prefix')} {ev.cue.text}"])
            elif ev.kind == "threat_drawn":
                threat = next((th for th in deck.threats if th.id == ev.data.get("id")), None)
                alert = threat_line(lang, threat) if threat is not None else None
            elif ev.kind == "transfer_opened":
                alert = t(lang, "deck.transfer")
            elif ev.kind == "comm_down":
                alert = await self.comms.down(record, round(ev.data.get("until_s", ev.at_s) - ev.at_s))
            elif ev.kind == "comm_restored":
                alert = await self.comms.restored(record)
            elif ev.kind == "end_agreed":
                alert = t(
                    lang, "flight.end_agreed", player=ev.data.get("player"), n=len(deck.agreed_end), of=len(deck.humans)
                )
            elif ev.kind == "round_ended" and ev.data.get("early"):
                alert = t(lang, "flight.ended_early")
            elif ev.kind == "phase_ended" and ev.data.get("phase", 0) < deck.phases:
                self.posts.new_phase(fid, channel_id)
            if alert:
                self.posts.say(fid, channel_id, alerts=[alert])
        if redraw:
            self.hands.changed(fid, redraw)
        if any(ev.kind in REDRAW_DECK for ev in events):
            self._spawn(self.refresh_deck(fid))

    def deck(self, record: FlightRecord) -> tuple[discord.Embed, discord.ui.View | None]:
        flight = Flight.from_dict(record.state) if record.state else None
        return deck_message(record, flight.deck() if flight is not None else None)

    async def refresh_deck(self, flight_id: str) -> None:
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
        user_id = interaction.user.id
        opening = cid.action == "station"
        accepted: list[FlightEvent] = []
        async with Reply(interaction, update=not opening) as reply:
            async with self.store.locked(cid.flight) as record:
                lang = record.language if record else self.bot.settings.default_language
                if record is None or record.status != "flying" or record.state is None:
                    await reply.reject(t(lang, "error.flight_over"))
                    return
                member = record.member(user_id)
                if member is None:
                    await reply.reject(t(lang, "error.not_crew"))
                    return
                if not opening and cid.player != user_id:
                    await reply.reject(t(lang, "error.not_your_hand"))
                    return
                flight = Flight.from_dict(record.state)
                events = flight.advance_to(max(flight.now_s, self.flight_time(record)))
                parts = cid.parts[1:] if not opening else []
                sel = Selection(values[0] if cid.action == "pick" and values else parts[0] if parts else "-")
                command = None
                if cid.action in STATION_ACTIONS:
                    command = command_for(flight.station(member.name), cid.action, sel, values)
                    outcome = flight.apply(command) if command is not None else None
                    if outcome is None or isinstance(outcome, Rejected):
                        # nothing is saved: a rejection leaves the flight as it was (clock included)
                        text = reason_text(lang, outcome) if outcome else t(lang, "reason.bad_input")
                        await reply.reject(text)
                        return
                    accepted, sel = outcome.events, Selection()
                if events or command is not None:
                    record.state = flight.to_dict()
                    dumped = command.model_dump(mode="json") if command is not None else None
                    await self.store.save(record, journal(user_id, cid.action, [*events, *accepted], dumped))
                embed, view = station_message(lang, record.id, user_id, flight.station(member.name), sel)
                await reply.send(embed=embed, view=view)
            self.hands.remember(record.id, user_id, interaction, sel)
        await self.publish(record, flight, [*events, *accepted])
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
        flight = Flight.from_dict(record.state)
        return station_message(record.language, flight_id, user_id, flight.station(member.name), sel)

    # -- the end of the operation ----------------------------------------------------------------------------
    async def finish(self, flight_id: str) -> None:
        """Lock, resolve, record in the logbook, then post the result and the captain's log."""
        async with self.store.locked(flight_id) as record:
            if record is None or record.status != "flying" or record.state is None:
                return
            flight = Flight.from_dict(record.state)
            try:  # off the loop: the other flights' clocks keep ticking (the snapshots feed the picture)
                # a campaign mission starts from its carried ship (the options hold it)
                result, replay = await asyncio.to_thread(resolve_flight, flight, record.options)
            except Exception as exc:  # the engine failing must not leave the flight stuck "flying"
                log.exception("flight %s: resolution failed", flight_id)
                record.status = "finished"
                record.notes["resolution_error"] = str(exc)
                await self.store.save(record, {"kind": "resolution_failed", "payload": {"error": str(exc)}})
                failed = t(record.language, "resolve.failed", reason=code_text(exc, 300))
                self.posts.say(flight_id, record.channel_id, alerts=[failed])
                return
            data = result.to_json_dict(with_log=True)
            await self.store.add_logbook_entry(logbook_entry(record, flight, data))
            record.status = "finished"
            record.notes["result"] = result.to_json_dict()
            await self.store.save(record, {"kind": "finished", "payload": {"outcome": data["outcome"]}})
        self.comms.unmute(record)
        await self.voice.finish(record)  # the last lines still play while the result goes out
        picture = await overview_picture(replay, record.language)  # None (logged) if drawing fails
        # queued behind the flight's last intercom lines, so the result never overtakes them
        self.posts.post_result(record.id, result_payload(record, data, picture, result))
        self._wind_down(record.id)
        self._resolved(record, result)

    def _resolved(self, record: FlightRecord, result: Any) -> None:
        """`flight_resolved(record, result)` to the cogs listening (campaign: next vote or score;
        school: progress), as background work drained like the posts (`bot.dispatch` would need a
        logged-in client); a listener's failure is logged, never the flight's."""

        async def call(listener: Any) -> None:
            try:
                await listener(record, result)
            except Exception:
                log.exception("flight %s: a flight_resolved listener failed", record.id)

        for listener in self.bot.extra_events.get("on_flight_resolved", []):
            self._spawn(call(listener))

    def _wind_down(self, flight_id: str) -> None:
        self.hands.forget(flight_id)
        self._spawn(self.refresh_deck(flight_id))
        self._spawn(self.posts.retire(flight_id))
        self._spawn(self.comms.retire(flight_id))
        self._spawn(self.bot.cluster.release(flight_id))

    # -- abort, restart, shutdown ---------------------------------------------------------------------------
    async def after_abort(self, record: FlightRecord) -> None:
        timer = self._timers.pop(record.id, None)
        if timer is not None:
            timer.cancel()
        self.comms.unmute(record)
        await self.voice.abort(record)
        await self.refresh_deck(record.id)
        self._wind_down(record.id)

    async def resume_all(self) -> None:
        """After a restart: re-queue the posts a shutdown stored (before anything new), put the
        voice mutes right, and re-arm every flying flight (overdue events fire on the first tick)."""
        await self.posts.restore()
        for record in await self.store.ended_flights_with_muted_members():
            if not self.bot.cluster.owns(record.guild_id):
                continue  # that guild's members are another process's to unmute
            log.info("flight %s ended with members still muted: unmuting them", record.id)
            self.comms.unmute(record)
        for record in await self.store.active_flights():
            if record.status == "flying" and record.state is not None and self.bot.cluster.owns(record.guild_id):
                await self._resume(record)

    async def _resume(self, record: FlightRecord, *, sweep: bool = False) -> None:
        if record.state is None or not await self._runs_clock(record):
            if not sweep:
                log.info("flight %s: its clock runs in another process; taken over if that one stops", record.id)
            return
        log.info("resuming flight %s in channel %s", record.id, record.channel_id)
        deck = Flight.from_dict(record.state).deck()
        await self.comms.reconcile(record, deck.comm_down_until_s, self.flight_time(record))
        self.arm(record.id)
        if self.bot.run_timers:  # rejoin voice in the background; text goes on meanwhile
            self._spawn(self._start_voice(record, resumed=True))

    # -- several processes over one database (bot/cluster.py) ------------------------------------------
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
