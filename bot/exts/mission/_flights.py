"""Live flights: start, the clock-driven timer, the private hands, and the end of the operation.

The game is `engine.flight.machine.Flight`; this module only moves it between the store and
Discord.  Every entry point (a click, a timer tick) runs: take the flight's lock, load the
snapshot, advance the flight to "now", apply the command, save (with the event in the flight's
journal), release, then render.  "Now" is derived from the stored `started_at` wall-clock
instant and TIME_SCALE, so after a restart the timeline re-arms at exactly the right second.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import discord

from bot.exts.mission import _ids
from bot.exts.mission._components import FlightButton, FlightSelect, view_of
from bot.exts.mission._poster import Entry, Outbox
from bot.exts.mission._render import (
    COLOR_FLIGHT,
    ZONE_EMOJI,
    captains_log,
    closed_embed,
    mission_label,
    result_embed,
    threat_points,
)
from bot.exts.mission._respond import Reply
from bot.i18n import t, threat_name, threat_text
from bot.storage import FlightRecord, LogbookCrew, LogbookEntry
from engine.flight.cards import card as action_card
from engine.flight.machine import (
    AgreeEnd,
    DrawCard,
    FinishPhase,
    Flight,
    FlightConfig,
    FlightError,
    FlightEvent,
    GiveCard,
    MoveCard,
    PlaceCard,
    Rejected,
    TakeBack,
    androids_needed,
)

if TYPE_CHECKING:
    from bot.client import SpaceAlertBot
    from bot.exts.mission._missions import MissionCatalog

log = logging.getLogger(__name__)

MAX_SLEEP_S = 5.0  # wake at least this often, so a changed clock or TIME_SCALE is noticed
_CARD_ENC = str.maketrans({"<": "L", ">": "R", "^": "U"})
_CARD_DEC = str.maketrans({"L": "<", "R": ">", "U": "^"})
_MOVE_KEY = {"<": "card.red", ">": "card.blue", "^": "card.lift"}  # heroic moves 1-6: card.heroic_<n>
SHUTDOWN_DRAIN_S = 5.0  # at shutdown, queued posts get this long to go out; the rest is stored
MUTE_REASON = "Space Alert: communications down"  # audit-log reasons (for moderators, in English)
UNMUTE_REASON = "Space Alert: communications restored"


def enc_card(card_id: str) -> str:
    return card_id.translate(_CARD_ENC)


def dec_card(text: str) -> str:
    return text.translate(_CARD_DEC)


def _move_text(lang: str, code: str) -> str | None:
    key = _MOVE_KEY.get(code) or (f"card.heroic_{code}" if code in "123456" and len(code) == 1 else None)
    return t(lang, key) if key else None


def card_text(card_id: str, lang: str = "en") -> str:
    """Both halves of a card: 'A | ⬅️ red', heroic cards marked with a star."""
    c = action_card(card_id)
    move = _move_text(lang, c.move) or c.move
    return f"{'★' if c.heroic else ''}{c.action.upper() if not c.heroic else c.action} | {move}"


def _code_text(code: str | None, lang: str = "en") -> str:
    if code is None:
        return ""
    return _move_text(lang, code) or code.upper()


def threat_line(lang: str, data: dict[str, Any]) -> str:
    """A threat announcement: zone, T+, name in the flight's language, id, track, X/Y/Z texts."""
    tid = str(data.get("id"))
    zone = ZONE_EMOJI.get(data.get("zone"), "🟨")
    texts = " · ".join(f"{letter}: {text}" for letter in "XYZ" if (text := threat_text(lang, tid, letter)))
    line = f"⚠️ {zone} T+{data.get('turn')}: **{threat_name(lang, tid)}** ({tid}) → {data.get('track')}"
    return f"{line}\n> {texts}" if texts else line


class ResultPost:
    """The result embed, a thread under it, then the captain's log in the thread: one outbox job.

    It remembers how far it got, so a 429 retry (or a restart, through `spec()`) resumes after the
    last piece that went out instead of posting the result twice.
    """

    def __init__(self, service: FlightService, payload: dict[str, Any]) -> None:
        self.service = service
        self.state = dict(payload)
        self.state.setdefault("sent", 0)
        self._message: Any = None
        self._target: Any = None

    def spec(self) -> dict[str, Any]:
        return dict(self.state)

    async def __call__(self) -> None:
        state, service = self.state, self.service
        channel = await service._channel(state["channel_id"])
        if channel is None:
            log.info("result for channel %s: the channel is gone; dropped", state["channel_id"])
            return
        if state.get("message_id") is None:
            self._message = await channel.send(embed=discord.Embed.from_dict(state["embed"]))
            state["message_id"] = self._message.id
        if not state.get("thread_tried"):
            message = self._message or channel.get_partial_message(state["message_id"])
            try:
                self._target = await message.create_thread(name=state["thread_name"])
                state["target_id"] = self._target.id
            except discord.HTTPException as exc:
                if exc.status == 429:
                    raise
                log.info("no thread for the captain's log (%s); posting in the channel", exc)
            except (AttributeError, ValueError, TypeError) as exc:
                log.info("no thread for the captain's log (%s); posting in the channel", exc)
            state["thread_tried"] = True
        target = self._target
        if target is None and state.get("target_id") is not None:
            target = await service._channel(state["target_id"])
        target = target or channel
        chunks = state.get("chunks") or []
        while state["sent"] < len(chunks):
            await target.send(chunks[state["sent"]])
            state["sent"] += 1


class FlightService:
    def __init__(self, bot: SpaceAlertBot, catalog: MissionCatalog) -> None:
        self.bot = bot
        self.catalog = catalog
        self._timers: dict[str, asyncio.Task[None]] = {}
        self._background: set[asyncio.Task[Any]] = set()
        self._outboxes: dict[str, Outbox] = {}  # channel posts, one ordered queue per flight
        self._voice_ops: dict[str, Outbox] = {}  # server mute / unmute, a sibling queue per flight
        self.shutdown_drain_s = SHUTDOWN_DRAIN_S

    # -- lobby -> flight ----------------------------------------------------------------------------
    @staticmethod
    def androids(humans: int) -> int:
        return androids_needed(humans, False) if humans else 0

    async def start(self, record: FlightRecord, interaction: discord.Interaction) -> str | None:
        """Build the engine Flight from the lobby (in place on `record`); a message if it cannot."""
        lang = record.language
        options = record.options
        source = await self.catalog.timeline_source(record.guild_id, options["mission"])
        roles = {r: m.name for m in record.crew for r in m.roles}
        config: dict[str, Any] = {
            "crew": [{"name": m.name} for m in record.crew],
            "captain": roles.get("captain"),
            "communications_officer": roles.get("comms"),
            "security_chief": roles.get("security"),
            "normal_difficulty": options["normal"],
            "serious_difficulty": options["serious"],
            "seed": int(options["seed"]),
            "lang": lang,
        }
        try:
            if source is None:
                raise FlightError(f"unknown mission {options['mission']}")
            if "official" in source:
                config["mission"] = source["official"]
            elif "random" in source:
                config["timeline"] = self._generated_timeline(int(options["seed"]), options.get("preset", "mission"))
            elif "file" in source:
                from engine.flight.timeline import load_timeline_file

                config["timeline"] = load_timeline_file(source["file"])
            else:
                from engine.flight.timeline import parse_timeline

                config["timeline"] = parse_timeline(source["data"])
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

    @staticmethod
    def _generated_timeline(seed: int, preset: str = "mission") -> Any:
        """The seeded generator's mission: the same (seed, preset) always gives the same timeline."""
        from engine.flight.generator import generate

        return generate(seed, preset=preset)

    @staticmethod
    def generator_record(options: dict[str, Any], timeline: Any) -> dict[str, Any]:
        """What the logbook keeps of a random mission: seed, preset, every parameter, the timeline."""
        from engine.flight.generator import preset_params

        preset = options.get("preset", "mission")
        return {
            "seed": int(options["seed"]),
            "preset": preset,
            "params": preset_params(preset).model_dump(mode="json"),
            "timeline": timeline.to_json_dict(),
        }

    async def after_start(self, record: FlightRecord) -> None:
        """Post the flight deck, arm the timer, start the voice (all after the click is answered)."""
        channel = self.bot.get_channel(record.channel_id)
        embed, view = self.deck(record)
        message_id = None
        if channel is not None and hasattr(channel, "send"):
            try:
                message = await channel.send(embed=embed, view=view)  # type: ignore[union-attr]
                message_id = message.id
            except discord.HTTPException as exc:
                log.warning("flight %s: cannot post the flight deck: %s", record.id, exc)
        if message_id is not None:
            async with self.bot.locks.get(record.id):
                fresh = await self.bot.storage.load_flight(record.id)
                if fresh is not None:
                    fresh.deck_message_id = message_id
                    await self.bot.storage.save_flight(fresh)
                    record.deck_message_id = message_id
                    record.version = fresh.version
        await self._start_voice(record)
        self.arm(record.id)

    async def _start_voice(self, record: FlightRecord) -> None:
        if not record.voice or self.bot.voice is None:
            return
        vc_id = record.notes.get("voice_channel_id")
        reason = None
        try:
            if vc_id is None:
                reason = t(record.language, "voice.host_not_in_voice")
            else:
                flight = Flight.from_dict(record.state or {})
                from engine.flight.script import intercom_script

                now = self.flight_time(record)  # after a restart only the lines still to come
                cues = [c for c in intercom_script(flight.timeline, record.language) if c.at_s >= now]
                reason = await self.bot.voice.prepare(
                    record.id, record.guild_id, vc_id, record.host_id, record.language, cues
                )
                if reason is None:
                    await self.bot.voice.start(record.id, record.started_at or 0.0, record.time_scale)
        except Exception as exc:  # voice is optional; never let it break a flight
            reason = str(exc)
        if reason:
            await self._say(record, t(record.language, "voice.text_only", reason=reason))

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
        async with self.bot.locks.get(flight_id):
            record = await self.bot.storage.load_flight(flight_id)
            if record is None or record.status != "flying" or record.state is None:
                return None
            flight = Flight.from_dict(record.state)
            events = flight.advance_to(max(flight.now_s, self.flight_time(record)))
            record.state = flight.to_dict()
            if events:
                await self.bot.storage.save_flight(record, self._journal(None, "clock", events))
        await self.publish(record, flight, events)
        if flight.status == "ended":
            await self.finish(flight_id)
            return None
        due = flight.next_due_s()
        if due is None:
            return MAX_SLEEP_S
        wait = (due - self.flight_time(record)) / record.time_scale
        return min(MAX_SLEEP_S, max(0.0, wait))

    @staticmethod
    def _journal(actor: int | None, kind: str, events: list[FlightEvent], extra: Any = None) -> dict[str, Any]:
        payload: dict[str, Any] = {"events": [e.kind for e in events]}
        if extra is not None:
            payload["command"] = extra
        return {"kind": kind, "actor_id": actor, "payload": payload}

    # -- publishing ---------------------------------------------------------------------------------
    async def publish(self, record: FlightRecord, flight: Flight, events: list[FlightEvent]) -> None:
        """Text mirror of the intercom, threats, comm failures; the deck refresh in the background."""
        if not events:
            return
        lang = record.language
        lines: list[str] = []
        refresh_deck = False
        for ev in events:
            if ev.private_to is not None:
                continue
            if ev.kind == "intercom" and ev.cue is not None and ev.cue.text:
                lines.append(f"{t(lang, 'intercom.prefix')} {ev.cue.text}")
            elif ev.kind == "threat_drawn":
                lines.append(threat_line(lang, ev.data))
                refresh_deck = True
            elif ev.kind == "comm_down":
                await self._comm_down(record, ev, lines)
                refresh_deck = True
            elif ev.kind == "comm_restored":
                await self._comm_restored(record, lines)
                refresh_deck = True
            elif ev.kind == "end_agreed":
                humans = flight.humans()
                agreed = sum(1 for m in humans if m.agreed_end)
                lines.append(t(lang, "flight.end_agreed", player=ev.data.get("player"), n=agreed, of=len(humans)))
                refresh_deck = True
            elif ev.kind == "round_ended" and ev.data.get("early"):
                lines.append(t(lang, "flight.ended_early"))
                refresh_deck = True
            elif ev.kind in (
                "round_started",
                "phase_ended",
                "incoming_data",
                "transfer_opened",
                "transfer_closed",
                "round_ended",
            ):
                refresh_deck = True
        if lines:
            await self._say(record, "\n".join(lines))
        if refresh_deck:
            self._spawn(self.refresh_deck(record.id))

    async def _say(self, record: FlightRecord, text: str) -> None:
        """Queue text for the channel; returns at once (the flight's outbox sends it, in order)."""
        for start in range(0, len(text), 1900):
            chunk = text[start : start + 1900]
            self._queue_post(record.id, {"op": "text", "channel_id": record.channel_id, "content": chunk})

    def _queue_post(self, flight_id: str, payload: dict[str, Any], row_id: int | None = None) -> None:
        """Queue one storable post (`payload` is what a shutdown writes to the outbox table)."""
        if payload.get("op") == "result":
            post = ResultPost(self, payload)
            self.outbox(flight_id).put(post, spec=post.spec, row_id=row_id)
            return
        channel_id, content = int(payload["channel_id"]), str(payload.get("content", ""))

        async def send() -> None:
            channel = await self._channel(channel_id)
            if channel is None:
                log.info("flight %s: channel %s is gone; a post is dropped", flight_id, channel_id)
                return
            await channel.send(content)

        self.outbox(flight_id).put(send, spec=lambda: payload, row_id=row_id)

    async def _channel(self, channel_id: int | None) -> Any:
        """A channel or thread to post in, resolved when the post goes out (after a restart the
        cache fills only once the gateway is ready; until then wait for it, then ask the API)."""
        if channel_id is None:
            return None
        channel = self.bot.get_channel(channel_id)
        if channel is not None:
            return channel
        if not self.bot.is_ready():
            with contextlib.suppress(RuntimeError, TimeoutError):  # RuntimeError: never logged in (tests)
                await asyncio.wait_for(self.bot.wait_until_ready(), timeout=60)
            channel = self.bot.get_channel(channel_id)
            if channel is not None:
                return channel
        try:
            return await self.bot.fetch_channel(channel_id)
        except discord.HTTPException as exc:
            if exc.status == 429:
                raise
            log.info("cannot fetch channel %s: %s", channel_id, exc)
        except Exception as exc:  # not logged in: nothing to ask
            log.info("cannot fetch channel %s: %s", channel_id, exc)
        return None

    def outbox(self, record: FlightRecord | str) -> Outbox:
        flight_id = record if isinstance(record, str) else record.id
        box = self._outboxes.get(flight_id)
        if box is None:

            async def forbidden(exc: discord.Forbidden) -> None:
                await self._forbidden(flight_id, exc)

            box = Outbox(flight_id, on_forbidden=forbidden, on_settled=self._post_settled)
            self._outboxes[flight_id] = box
        return box

    async def _post_settled(self, entry: Entry) -> None:
        """A post restored from the outbox table went out (or was given up): forget its row."""
        if entry.row_id is not None:
            await self.bot.storage.delete_post(entry.row_id)

    async def _forbidden(self, flight_id: str, exc: discord.Forbidden) -> None:
        """Posting was refused mid-flight (a permission was taken away): say so once, fly on."""
        async with self.bot.locks.get(flight_id):
            record = await self.bot.storage.load_flight(flight_id)
            if record is None or record.notes.get("forbidden_notice"):
                log.debug("flight %s: still forbidden to post: %s", flight_id, exc)
                return
            record.notes["forbidden_notice"] = True
            await self.bot.storage.save_flight(record)
        log.warning(
            "flight %s: Discord refused a post in channel %s (%s); the flight goes on, the host is told",
            flight_id,
            record.channel_id,
            exc,
        )
        guild = self.bot.get_guild(record.guild_id)
        host = guild.get_member(record.host_id) if guild is not None else None
        if host is None:
            return
        try:
            await host.send(t(record.language, "perms.lost", channel=f"<#{record.channel_id}>"))
        except discord.HTTPException as dm_exc:
            log.info("flight %s: cannot tell the host either: %s", flight_id, dm_exc)

    def _spawn(self, coro: Any) -> None:
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def drain(self) -> None:
        """Wait for background renders (deck edits) and queued posts; used by tests and at shutdown."""
        while True:
            if self._background:
                await asyncio.gather(*list(self._background), return_exceptions=True)
                continue
            for box in [*self._voice_ops.values(), *self._outboxes.values()]:
                await box.join()
            if not self._background:
                return

    async def _retire_outbox(self, flight_id: str) -> None:
        for boxes in (self._voice_ops, self._outboxes):
            box = boxes.get(flight_id)
            if box is None:
                continue
            await box.join()
            if boxes.get(flight_id) is box and not box.pending:
                del boxes[flight_id]
                await box.close()

    async def refresh_deck(self, flight_id: str) -> None:
        record = await self.bot.storage.load_flight(flight_id)
        if record is None or record.deck_message_id is None:
            return
        channel = self.bot.get_channel(record.channel_id)
        if channel is None or not hasattr(channel, "get_partial_message"):
            return
        embed, view = self.deck(record)
        try:
            await channel.get_partial_message(record.deck_message_id).edit(embed=embed, view=view)  # type: ignore[union-attr]
        except discord.HTTPException as exc:
            log.info("flight %s: deck edit failed: %s", flight_id, exc)

    # -- communication failures ---------------------------------------------------------------------
    # Server mute / unmute are Discord calls that can be slow or throttled, so like the posts they
    # never run inside the tick: the tick records who is to be muted (notes["muted"], written
    # before any call, so a restart knows whom to unmute) and queues one job per member on the
    # flight's voice queue (ordered, retried on 429 with retry_after, 5xx backed off).  A refusal
    # is reported in the channel once per flight.
    def _crew_in_voice(self, record: FlightRecord) -> tuple[list[Any], str | None]:
        lang = record.language
        guild = self.bot.get_guild(record.guild_id)
        vc_id = record.notes.get("voice_channel_id")
        if guild is None or vc_id is None:
            return [], t(lang, "mute.no_voice")
        channel = guild.get_channel(vc_id)
        if channel is None:
            return [], t(lang, "mute.voice_gone")
        me = guild.me
        if me is None or not channel.permissions_for(me).mute_members:
            return [], t(lang, "mute.no_permission")
        ids = {m.user_id for m in record.crew}
        return [m for m in getattr(channel, "members", []) if m.id in ids], None

    def voice_ops(self, flight_id: str) -> Outbox:
        box = self._voice_ops.get(flight_id)
        if box is None:

            async def forbidden(exc: discord.Forbidden) -> None:
                await self._mute_failed(flight_id, exc)

            box = Outbox(f"{flight_id}-voice", on_forbidden=forbidden)
            self._voice_ops[flight_id] = box
        return box

    async def _comm_down(self, record: FlightRecord, ev: FlightEvent, lines: list[str]) -> None:
        lang = record.language
        duration = round(ev.data.get("until_s", ev.at_s) - ev.at_s)
        members, problem = self._crew_in_voice(record)
        if problem:
            if not record.notes.get("mute_notice_sent"):
                lines.append(t(lang, "comm.cannot_mute", s=duration, reason=problem))
                await self._set_note(record.id, "mute_notice_sent", True)
            else:
                lines.append(t(lang, "comm.down", s=duration))
            return
        await self._update_muted(record.id, add={m.id for m in members})
        for member in members:
            self.voice_ops(record.id).put(self._mute_job(record.id, record.guild_id, member.id, True, member))
        lines.append(t(lang, "comm.muted", s=duration))

    async def _comm_restored(self, record: FlightRecord, lines: list[str]) -> None:
        fresh = await self.bot.storage.load_flight(record.id)
        await self._unmute(fresh or record)
        lines.append(t(record.language, "comm.restored"))

    async def _unmute(self, record: FlightRecord) -> None:
        """Queue an unmute for everyone the bot muted (or meant to); returns at once."""
        for user_id in list(record.notes.get("muted") or []):
            self.voice_ops(record.id).put(self._mute_job(record.id, record.guild_id, user_id, False))

    def _mute_job(self, flight_id: str, guild_id: int, user_id: int, mute: bool, member: Any = None) -> Any:
        async def job() -> None:
            guild = self.bot.get_guild(guild_id)
            target = (guild.get_member(user_id) if guild is not None else None) or member
            if target is None:  # left the server: nothing to undo
                await self._update_muted(flight_id, remove={user_id})
                return
            try:
                await target.edit(mute=mute, reason=MUTE_REASON if mute else UNMUTE_REASON)
            except discord.Forbidden:
                if mute:
                    await self._update_muted(flight_id, remove={user_id})
                raise  # reported once by the queue's on_forbidden
            except discord.HTTPException as exc:
                if exc.status == 429 or exc.status >= 500:
                    raise  # the queue retries after retry_after / a back-off
                # 4xx: e.g. the member is no longer in a voice channel; nothing to keep track of
                log.info("flight %s: cannot %s %s: %s", flight_id, "mute" if mute else "unmute", user_id, exc)
                await self._update_muted(flight_id, remove={user_id})
                if mute:
                    await self._mute_failed(flight_id, exc)
                return
            # success: muted ids are re-added (an unmute queued earlier may have removed them)
            await self._update_muted(flight_id, add={user_id} if mute else set(), remove=set() if mute else {user_id})

        return job

    async def _mute_failed(self, flight_id: str, exc: discord.HTTPException) -> None:
        """Discord refused a server mute: tell the channel once per flight, then carry on."""
        async with self.bot.locks.get(flight_id):
            record = await self.bot.storage.load_flight(flight_id)
            if record is None or record.notes.get("mute_error_sent"):
                log.debug("flight %s: mute refused again: %s", flight_id, exc)
                return
            record.notes["mute_error_sent"] = True
            await self.bot.storage.save_flight(record)
        log.warning("flight %s: server mute refused: %s", flight_id, exc)
        await self._say(record, t(record.language, "comm.mute_failed", error=getattr(exc, "text", "") or exc.status))

    async def _update_muted(
        self, flight_id: str, *, add: set[int] | None = None, remove: set[int] | None = None
    ) -> None:
        add, remove = add or set(), remove or set()
        async with self.bot.locks.get(flight_id):
            record = await self.bot.storage.load_flight(flight_id)
            if record is None:
                return
            before = list(record.notes.get("muted") or [])
            after = [u for u in before if u not in remove] + sorted(u for u in add if u not in before)
            if after != before:
                record.notes["muted"] = after
                await self.bot.storage.save_flight(record)

    async def _reconcile_mutes(self, record: FlightRecord) -> None:
        """After a restart: mute again whoever should be muted, unmute whoever should not be."""
        muted = list(record.notes.get("muted") or [])
        if not muted or record.state is None:
            return
        until = record.state.get("comm_down_until")  # flight seconds; the stored state may be stale
        if record.status == "flying" and until is not None and float(until) > self.flight_time(record):
            for user_id in muted:
                self.voice_ops(record.id).put(self._mute_job(record.id, record.guild_id, user_id, True))
        else:
            await self._unmute(record)

    async def _set_note(self, flight_id: str, key: str, value: Any) -> None:
        async with self.bot.locks.get(flight_id):
            record = await self.bot.storage.load_flight(flight_id)
            if record is not None:
                record.notes[key] = value
                await self.bot.storage.save_flight(record)

    # -- the flight deck --------------------------------------------------------------------------------
    def deck(self, record: FlightRecord) -> tuple[discord.Embed, discord.ui.View | None]:
        lang = record.language
        state = record.state or {}
        timeline = state.get("timeline", {})
        phases = int(timeline.get("phases", 3))
        phase = max(1, int(state.get("round_phase", 0) or 1))
        embed = discord.Embed(title=t(lang, "deck.title"), colour=COLOR_FLIGHT)
        lines = [f"**{mission_label(record.options)}** · " + t(lang, "deck.phase", phase=phase, phases=phases)]
        if state.get("status") == "ended" or record.status != "flying":
            lines.append(t(lang, "deck.operation_ended"))
        else:
            ends = timeline.get("phase_end_s", [])
            if record.started_at is not None and len(ends) >= phase:
                when = datetime.fromtimestamp(record.started_at + ends[phase - 1] / record.time_scale, tz=UTC)
                lines.append(t(lang, "deck.phase_ends", when=discord.utils.format_dt(when, "R")))
            if state.get("comm_down_until") is not None:
                lines.append(t(lang, "deck.comm_down"))
            if state.get("incoming"):
                lines.append(t(lang, "deck.incoming"))
            if state.get("transfer") is not None:
                lines.append(t(lang, "deck.transfer"))
        embed.description = "\n".join(lines)
        threats = []
        for threat in state.get("threats", []):
            zone = ZONE_EMOJI.get(threat.get("zone"), "🟨")
            track = state.get("tracks", {}).get(threat.get("zone") or "internal", "?")
            threats.append(f"{zone} T+{threat['turn']} · {threat_name(lang, threat['id'])} ({threat['id']}) · {track}")
        embed.add_field(
            name=t(lang, "deck.threats"),
            value="\n".join(threats)[:1024] or t(lang, "deck.none"),
            inline=False,
        )
        crew = ", ".join(m.name for m in record.crew)
        embed.set_footer(text=t(lang, "deck.footer", crew=crew, flight=record.id))
        if record.status != "flying":
            return embed, None
        view = view_of(
            FlightButton(
                _ids.make(record.id, "station"),
                label=t(lang, "deck.station"),
                style=discord.ButtonStyle.primary,
                emoji="🎴",
            )
        )
        return embed, view

    # -- hands ------------------------------------------------------------------------------------------
    def hand(
        self,
        record: FlightRecord,
        flight: Flight,
        name: str,
        user_id: int,
        sel: str = "-",
        half: str = "action",
        note: str | None = None,
    ) -> tuple[discord.Embed, discord.ui.View]:
        """The private station: board 1-12 (locked/open), hand with both halves, and the controls."""
        lang = record.language
        view_data = flight.view(name)
        embed = discord.Embed(title=t(lang, "hand.title", name=name), colour=COLOR_FLIGHT)
        if view_data.get("agreed_end") and view_data["status"] == "running":
            note = "\n".join(x for x in (note, t(lang, "hand.agreed")) if x)
        if note:
            embed.description = note
        board = view_data.get("board") or []
        board_lines = []
        for slot in board:
            status = "🔒" if slot["locked"] else ("🟢" if slot["open"] else "⏳")
            text = ""
            if slot["card"]:
                text = f"{card_text(slot['card'], lang)} → **{_code_text(slot['code'], lang)}**"
            board_lines.append(f"`{slot['turn']:>2}` {status} {text}")
        if board_lines:
            embed.add_field(name=t(lang, "hand.board"), value="\n".join(board_lines)[:1024], inline=True)
        hand_lines = [f"`{enc_card(c['id'])}` {card_text(c['id'], lang)}" for c in view_data["hand"]]
        embed.add_field(
            name=t(lang, "hand.cards"),
            value="\n".join(hand_lines)[:1024] or t(lang, "hand.empty"),
            inline=True,
        )
        for android, data in view_data["androids"].items():
            cells = [f"{s['turn']}:{_code_text(s['code'], lang)}" for s in data["board"] if s["card"]]
            embed.add_field(name=f"🤖 {android}", value=" ".join(cells) or "—", inline=False)
        embed.set_footer(text=t(lang, "hand.footer", flight=record.id, phase=view_data["planning_phase"]))

        fid, uid = record.id, user_id
        items: list[discord.ui.Item[Any]] = []
        running = view_data["status"] == "running"
        open_turns = [s["turn"] for s in board if s["open"]]
        pick_options = [
            discord.SelectOption(
                label=card_text(c["id"], lang)[:100],
                value=f"h{enc_card(c['id'])}",
                default=sel == f"h{enc_card(c['id'])}",
            )
            for c in view_data["hand"]
        ]
        pick_options += [
            discord.SelectOption(
                label=f"{t(lang, 'hand.turn', n=s['turn'])}: {card_text(s['card'], lang)}"[:100],
                value=f"t{s['turn']}",
                default=sel == f"t{s['turn']}",
            )
            for s in board
            if s["card"] and s["open"]
        ]
        if running and pick_options:
            items.append(
                FlightSelect(
                    _ids.make(fid, "pick", uid),
                    options=pick_options[:25],
                    placeholder=t(lang, "hand.pick"),
                    row=0,
                )
            )
        if running and sel != "-" and open_turns:
            items.append(
                FlightSelect(
                    _ids.make(fid, "place", uid, sel, half),
                    options=[discord.SelectOption(label=t(lang, "hand.turn", n=n), value=str(n)) for n in open_turns],
                    placeholder=f"{t(lang, 'hand.place')} ({t(lang, 'hand.' + half)})",
                    row=1,
                )
            )
        buttons_row = 2
        if running and sel != "-":
            other = "move" if half == "action" else "action"
            items.append(
                FlightButton(_ids.make(fid, "half", uid, sel, other), label=t(lang, f"hand.{other}"), row=buttons_row)
            )
            if sel.startswith("t"):
                items.append(
                    FlightButton(_ids.make(fid, "back", uid, sel), label=t(lang, "hand.back"), row=buttons_row)
                )
        if running and view_data["can_draw"]:
            items.append(
                FlightButton(
                    _ids.make(fid, "draw", uid),
                    label=t(lang, "hand.draw"),
                    style=discord.ButtonStyle.success,
                    row=buttons_row,
                )
            )
        if running and view_data["planning_phase"] < flight.timeline.phases:
            items.append(
                FlightButton(
                    _ids.make(fid, "finish", uid),
                    label=t(lang, "hand.finish"),
                    style=discord.ButtonStyle.danger,
                    row=buttons_row,
                )
            )
        if running and view_data["round_phase"] > 2 and not view_data["agreed_end"]:
            # rulebook §2.1: once phase 2 has ended the whole crew may agree to end the round early
            items.append(
                FlightButton(
                    _ids.make(fid, "agree", uid),
                    label=t(lang, "hand.agree"),
                    emoji="✋",
                    style=discord.ButtonStyle.danger,
                    row=buttons_row,
                )
            )
        items.append(
            FlightButton(_ids.make(fid, "refresh", uid), label=t(lang, "hand.refresh"), emoji="🔄", row=buttons_row)
        )
        if running and sel.startswith("h") and not action_card(dec_card(sel[1:])).heroic:
            android_options = [
                discord.SelectOption(label=f"🤖 {a} · {t(lang, 'hand.turn', n=s['turn'])}", value=f"{i}.{s['turn']}")
                for i, (a, data) in enumerate(view_data["androids"].items())
                for s in data["board"]
                if s["open"] and not s["card"]
            ]
            if android_options:
                items.append(
                    FlightSelect(
                        _ids.make(fid, "android", uid, sel, half),
                        options=android_options[:25],
                        placeholder=t(lang, "hand.android"),
                        row=3,
                    )
                )
            if view_data["can_give"]:
                humans = [m.name for m in flight.humans() if m.name != name]
                if humans:
                    items.append(
                        FlightSelect(
                            _ids.make(fid, "give", uid, sel),
                            options=[discord.SelectOption(label=h[:100], value=str(i)) for i, h in enumerate(humans)],
                            placeholder=t(lang, "hand.give"),
                            row=4,
                        )
                    )
        return embed, view_of(*items)

    # -- clicks -----------------------------------------------------------------------------------------
    async def on_component(self, interaction: discord.Interaction, cid: _ids.ComponentId, values: list[str]) -> None:
        user_id = interaction.user.id
        opening = cid.action == "station"
        async with Reply(interaction, update=not opening) as reply, self.bot.locks.get(cid.flight):
            record = await self.bot.storage.load_flight(cid.flight)
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
            sel = parts[0] if parts else "-"
            half = "action"
            command = None
            if cid.action == "pick" and values:
                sel = values[0]
            elif cid.action == "half" and len(parts) >= 2:
                half = parts[1] if parts[1] in ("action", "move") else "action"
            elif cid.action in ("place", "android", "back", "give", "draw", "finish", "agree"):
                half = parts[1] if len(parts) >= 2 and parts[1] in ("action", "move") else "action"
                command = self._command(flight, member.name, cid.action, sel, half, values)
                if isinstance(command, Rejected):
                    await reply.reject(self._reason(lang, command))
                    return
            accepted_events: list[FlightEvent] = []
            if command is not None:
                outcome = flight.apply(command)
                if isinstance(outcome, Rejected):
                    # nothing is saved: a rejection leaves the flight as it was (clock included)
                    await reply.reject(self._reason(lang, outcome))
                    return
                accepted_events = outcome.events
                sel, half = "-", "action"
            record.state = flight.to_dict()
            if events or command is not None:
                await self.bot.storage.save_flight(
                    record,
                    self._journal(
                        user_id,
                        cid.action,
                        [*events, *accepted_events],
                        command.model_dump(mode="json") if command is not None else None,
                    ),
                )
            embed, view = self.hand(record, flight, member.name, user_id, sel, half)
            await reply.send(embed=embed, view=view)
        await self.publish(record, flight, [*events, *accepted_events])
        if flight.status == "ended":
            await self.finish(record.id)

    def _command(self, flight: Flight, name: str, action: str, sel: str, half: str, values: list[str]) -> Any:
        """Turn a click into an engine command (no rule checks here: the machine does those)."""
        hand_card = dec_card(sel[1:]) if sel.startswith("h") else None
        turn = int(sel[1:]) if sel.startswith("t") and sel[1:].isdigit() else None
        value = values[0] if values else ""
        try:
            if action == "draw":
                return DrawCard(player=name)
            if action == "finish":
                return FinishPhase(player=name)
            if action == "agree":
                return AgreeEnd(player=name)
            if action == "place":
                to_turn = int(value)
                if hand_card is not None:
                    return PlaceCard(player=name, card=hand_card, turn=to_turn, half=half)  # type: ignore[arg-type]
                if turn is not None:
                    return MoveCard(player=name, from_turn=turn, to_turn=to_turn, half=half)  # type: ignore[arg-type]
            if action == "back" and turn is not None:
                return TakeBack(player=name, turn=turn)
            if action == "android" and hand_card is not None:
                index, to_turn = (int(x) for x in value.split("."))
                androids = [m.name for m in flight.members if m.android]
                return PlaceCard(
                    player=name,
                    card=hand_card,
                    turn=to_turn,
                    half=half,  # type: ignore[arg-type]
                    board=androids[index],
                )
            if action == "give" and hand_card is not None:
                humans = [m.name for m in flight.humans() if m.name != name]
                return GiveCard(player=name, card=hand_card, to=humans[int(value)])
        except (ValueError, IndexError):
            pass
        return Rejected("bad_input", "Choose a card first, then a turn.")

    @staticmethod
    def _reason(lang: str, rejected: Rejected) -> str:
        key = f"reason.{rejected.reason}"
        text = t(lang, key)
        return text if text != key else rejected.message[:1].upper() + rejected.message[1:] + "."

    # -- the end of the operation ----------------------------------------------------------------------------
    async def finish(self, flight_id: str) -> None:
        """Lock, resolve, record in the logbook, then post the result and the captain's log."""
        async with self.bot.locks.get(flight_id):
            record = await self.bot.storage.load_flight(flight_id)
            if record is None or record.status != "flying" or record.state is None:
                return
            flight = Flight.from_dict(record.state)
            try:
                result = flight.resolve(log=True)
            except Exception as exc:  # the engine failing must not leave the flight stuck "flying"
                log.exception("flight %s: resolution failed", flight_id)
                record.status = "finished"
                record.notes["resolution_error"] = str(exc)
                await self.bot.storage.save_flight(
                    record, {"kind": "resolution_failed", "payload": {"error": str(exc)}}
                )
                await self._say(record, t(record.language, "resolve.failed", reason=str(exc)[:300]))
                return
            data = result.to_json_dict(with_log=True)
            entry = self._logbook_entry(record, flight, data)
            await self.bot.storage.add_logbook_entry(entry)
            record.status = "finished"
            record.notes["result"] = result.to_json_dict()
            await self.bot.storage.save_flight(record, {"kind": "finished", "payload": {"outcome": data["outcome"]}})
        await self._unmute(record)
        if self.bot.voice is not None and record.voice:
            with contextlib.suppress(Exception):
                await self.bot.voice.stop(record.id)
        await self.post_result(record, data)
        self._spawn(self.refresh_deck(record.id))
        self._spawn(self._retire_outbox(record.id))

    def _logbook_entry(self, record: FlightRecord, flight: Flight, data: dict[str, Any]) -> LogbookEntry:
        ids = {m.name: m for m in record.crew}
        crew = [
            LogbookCrew(
                name=m.name,
                user_id=ids[m.name].user_id if m.name in ids else None,
                roles=ids[m.name].roles if m.name in ids else ["android"] if m.android else [],
            )
            for m in flight.members
        ]
        destroyed, survived = threat_points(data)
        score = data["score"]
        mission = record.options["mission"]
        return LogbookEntry(
            flight_id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            flown_at=datetime.now(UTC).isoformat(timespec="seconds"),
            mission_id=mission,
            generator=self.generator_record(record.options, flight.timeline) if mission == "random" else None,
            seed=int(record.options["seed"]),
            normal_difficulty=record.options["normal"],
            serious_difficulty=record.options["serious"],
            language=record.language,
            outcome=data["outcome"],
            crew=crew,
            result={k: v for k, v in data.items() if k != "log"},
            destroyed_by=(data.get("lost") or {}).get("cause"),
            threat_points_destroyed=destroyed,
            threat_points_survived=survived,
            penalties={k: score[k] for k in ("damage", "worst_zone", "knocked_out", "battlebots")},
            observation=score["observation"],
            total=score["total"],
        )

    async def post_result(self, record: FlightRecord, data: dict[str, Any]) -> None:
        lang = record.language
        names = {t_["id"]: threat_name(lang, t_["id"]) for t_ in data.get("threats", [])}
        embed = result_embed(
            lang, data, title=t(lang, "result.title", mission=mission_label(record.options)), names=names
        )
        # Queued behind the flight's last intercom lines, so the result never overtakes them.  One
        # storable job: the embed, the thread, then the captain's log (retried on 429 from where it
        # stopped; stored with its progress if the bot shuts down before it is through).
        self._queue_post(
            record.id,
            {
                "op": "result",
                "channel_id": record.channel_id,
                "embed": embed.to_dict(),
                "thread_name": t(lang, "result.log_thread")[:100],
                "chunks": captains_log(lang, data.get("log") or []),
            },
        )

    # -- abort, restart, shutdown ---------------------------------------------------------------------------
    async def after_abort(self, record: FlightRecord) -> None:
        timer = self._timers.pop(record.id, None)
        if timer is not None:
            timer.cancel()
        await self._unmute(record)
        if self.bot.voice is not None:
            with contextlib.suppress(Exception):
                await self.bot.voice.stop(record.id)
        await self.refresh_deck(record.id)
        self._spawn(self._retire_outbox(record.id))

    async def resume_all(self) -> None:
        """After a restart: re-queue the posts a shutdown stored (before anything new), put the
        voice mutes right, and re-arm every flying flight (overdue events fire on the first tick)."""
        for post_id, flight_id, payload in await self.bot.storage.pending_posts():
            log.info("flight %s: re-sending a post left unsent at shutdown", flight_id)
            self._queue_post(flight_id, payload, row_id=post_id)
        for record in await self.bot.storage.ended_flights_with_muted_members():
            log.info("flight %s ended with members still muted: unmuting them", record.id)
            await self._unmute(record)
        for record in await self.bot.storage.active_flights():
            if record.status == "flying":
                log.info("resuming flight %s in channel %s", record.id, record.channel_id)
                await self._reconcile_mutes(record)
                self.arm(record.id)
                if self.bot.run_timers:  # rejoin voice in the background; text goes on meanwhile
                    self._spawn(self._start_voice(record))

    def stop_all(self) -> None:
        for task in list(self._timers.values()):
            task.cancel()
        self._timers.clear()
        for box in [*self._outboxes.values(), *self._voice_ops.values()]:
            box.cancel()
        self._outboxes.clear()
        self._voice_ops.clear()

    async def close(self, timeout: float | None = None) -> None:
        """Shutdown: stop the timers, give queued posts and mutes `timeout` s (5 by default) to go
        out, then store the posts still unsent; the next start sends them, in order, once."""
        timeout = self.shutdown_drain_s if timeout is None else timeout
        for task in list(self._timers.values()):
            task.cancel()
        self._timers.clear()
        posts, self._outboxes = dict(self._outboxes), {}
        voice, self._voice_ops = list(self._voice_ops.values()), {}
        background = list(self._background)
        results = await asyncio.gather(
            *(box.shutdown(timeout) for box in posts.values()),
            *(box.shutdown(timeout) for box in voice),
            self._settle_background(background, timeout),
        )
        for flight_id, left in zip(posts, results[: len(posts)], strict=True):
            await self._store_unsent(flight_id, left)

    @staticmethod
    async def _settle_background(tasks: list[asyncio.Task[Any]], timeout: float) -> list[Any]:
        if tasks:
            _done, pending = await asyncio.wait(tasks, timeout=timeout)
            for task in pending:
                task.cancel()
        return []

    async def _store_unsent(self, flight_id: str, entries: list[Entry]) -> None:
        fresh: list[dict[str, Any]] = []
        for entry in entries:
            payload = entry.spec() if entry.spec is not None else None
            if payload is None:
                log.warning("flight %s: a queued post cannot be stored; lost at shutdown", flight_id)
            elif entry.row_id is not None:
                await self.bot.storage.update_post(entry.row_id, payload)  # already stored: keep its place
            else:
                fresh.append(payload)
        if fresh:
            await self.bot.storage.store_posts(flight_id, fresh)
            log.info("flight %s: %d post(s) stored at shutdown, sent after the restart", flight_id, len(fresh))


__all__ = ["FlightService", "card_text", "closed_embed", "dec_card", "enc_card"]
