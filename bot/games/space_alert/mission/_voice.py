"""The spoken intercom of a flight: every call to the voice bridge goes through here.

Voice is optional: whatever fails here, the flight goes on in text, and the crew is told why in
the flight's language.  The bridge explains a failure in English words of its own; the known
ones are shown translated, anything else as a translated "voice unavailable" with the detail.

The flight's clock never waits for anything here: the flight service arms its timer first and
starts voice in the background.  Voice gets every line of the mission, the 0 s one included; on
a resume the bridge itself skips the lines long past.  The bridge reports two things back (set
up when the cog loads): voice lost for good, which gets the usual "continues in text" line once,
and a member disconnecting the bot on purpose, which gets one line with a button only the host
may use to bring voice back (a restart-proof `rejoin` component, routed like every other one).
"""

from __future__ import annotations

import contextlib
import logging
import re
from typing import TYPE_CHECKING, Any

import discord

from bot.games.space_alert.intercom import worded
from bot.games.space_alert.mission import ids as _ids
from bot.games.space_alert.mission._respond import Reply
from bot.games.space_alert.mission.components import FlightButton, view_of
from bot.games.space_alert.mission.storage import FlightRecord
from bot.platform.hosting.server_settings import load_settings
from bot.platform.i18n import t
from bot.platform.permissions import Seats, actor_of, decide
from engine.flight.script import intercom_script
from engine.flight.timeline import Timeline

if TYPE_CHECKING:
    from bot.games.space_alert.mission._posting import ChannelPosts
    from bot.games.space_alert.mission._store import FlightStore
    from bot.platform.client import SpaceAlertBot

log = logging.getLogger(__name__)

# the bridge's English explanations -> locale keys (the channel name, when there is one, is kept)
_REASONS: tuple[tuple[str, str], ...] = (
    (r"the host is not in a voice channel", "voice.reason.host_not_in_voice"),
    (r"no voice channel to join", "voice.reason.host_not_in_voice"),
    (r"the voice channel is gone", "voice.reason.channel_gone"),
    (r"another flight in this server is using voice", "voice.reason.busy"),
    (r"I cannot see the voice channel (?P<name>.+)", "voice.reason.cannot_see"),
    (r"I lack the Connect permission in (?P<name>.+)", "voice.reason.no_connect"),
    (r"I lack the Speak permission in (?P<name>.+)", "voice.reason.no_speak"),
    (r"the voice channel (?P<name>.+) is full", "voice.reason.full"),
    (r"connecting to voice timed out", "voice.reason.timeout"),
    (r"no text-to-speech engine is installed.*", "voice.reason.no_tts"),
    (r"(voice support|libopus) is not installed.*", "voice.reason.not_installed"),
    (r"Discord requires end-to-end encrypted voice.*", "voice.reason.not_installed"),
    (r"voice intercom is not available in this build", "voice.reason.not_installed"),
    (r"this flight has no intercom running|the intercom is not running", "voice.reason.not_running"),
    (r"the flight is over", "voice.reason.not_running"),
)


def reason_text(lang: str, reason: str) -> str:
    """The bridge's reason in `lang`."""
    for pattern, key in _REASONS:
        match = re.fullmatch(pattern, reason.strip())
        if match:
            return t(lang, key, **match.groupdict())
    return t(lang, "voice.reason.other", detail=reason)


class VoiceLink:
    """One flight service's side of the voice bridge: start, finish, abort, and the bridge's reports."""

    def __init__(self, bot: SpaceAlertBot, store: FlightStore, posts: ChannelPosts) -> None:
        self.bot = bot
        self.store = store
        self.posts = posts
        self._told: set[str] = set()  # flights already told "the intercom continues in text"
        self._disconnected: set[str] = set()  # flights whose disconnect line is out, until a rejoin
        self.attach()

    # -- the bridge's reports ---------------------------------------------------------------------
    def attach(self) -> None:
        """Receive the bridge's reports (the cog loading); a bridge without the hooks is left alone."""
        voice: Any = self.bot.voice
        if voice is None:
            return
        with contextlib.suppress(AttributeError):
            voice.on_text_only = self.text_only
            voice.on_member_disconnect = self.member_disconnected

    def detach(self) -> None:
        """Stop receiving them (the cog unloading), unless a newer flight service took over."""
        voice: Any = self.bot.voice
        for name, mine in (("on_text_only", self.text_only), ("on_member_disconnect", self.member_disconnected)):
            if getattr(voice, name, None) == mine:
                with contextlib.suppress(AttributeError):
                    setattr(voice, name, None)

    async def text_only(self, flight_id: str, reason: str) -> None:
        """Voice was lost for good mid-flight: the usual line, once."""
        record = await self.store.peek(flight_id)
        if record is not None and record.status == "flying":
            self._tell(record, reason_text(record.language, reason))

    async def member_disconnected(self, flight_id: str) -> None:
        """A member took the bot out of voice: one line, with the host's button to bring it back."""
        if flight_id in self._disconnected:
            return
        self._disconnected.add(flight_id)
        record = await self.store.peek(flight_id)
        if record is None or record.status != "flying":
            self._disconnected.discard(flight_id)
            return
        lang, channel_id = record.language, record.channel_id
        button = FlightButton(
            _ids.make(flight_id, "rejoin"), label=t(lang, "voice.rejoin"), style=discord.ButtonStyle.primary
        )

        async def post() -> None:
            channel = await self.posts.channel(channel_id)
            if channel is not None:
                await channel.send(t(lang, "voice.disconnected"), view=view_of(button))

        # behind the lines already queued, with the outbox's retries on a 429
        self.posts.outbox(flight_id).put(post)

    async def rejoin_clicked(self, interaction: discord.Interaction, flight_id: str) -> None:
        """The disconnect line's button: the host brings voice back; anyone else is told politely."""
        async with Reply(interaction) as reply:
            record = await self.store.peek(flight_id)
            lang = record.language if record is not None else self.bot.settings.default_language
            if record is None or record.status != "flying":
                await reply.reject(t(lang, "error.flight_over"))
                return
            if decide("mission.rejoin", actor_of(interaction), Seats.of(record.host_id)) is not None:
                await reply.reject(t(lang, "voice.rejoin_host_only"))
                return
            reason = await self._rejoin(record)
            if reason is None:
                self._disconnected.discard(flight_id)
                self._told.discard(flight_id)
                await reply.send(t(lang, "voice.rejoined"))
            else:
                await reply.send(t(lang, "voice.rejoin_failed", reason=reason_text(lang, reason)))

    async def _rejoin(self, record: FlightRecord) -> str | None:
        voice = self.bot.voice
        if voice is None or not record.voice:
            return "the intercom is not running"
        try:
            reason: str | None = await voice.rejoin(record.id)
        except Exception as exc:  # voice is optional; the host gets the reason, the flight goes on
            log.warning("flight %s: voice rejoin failed: %s", record.id, exc)
            return str(exc)
        return reason

    def _tell(self, record: FlightRecord, reason: str) -> None:
        """Post "`reason` - the intercom continues in text" once per flight (again after a rejoin)."""
        if record.id in self._told:
            return
        self._told.add(record.id)
        self.posts.say(record.id, record.channel_id, alerts=[t(record.language, "voice.text_only", reason=reason)])

    # -- the flight's calls -----------------------------------------------------------------------
    async def start(
        self, record: FlightRecord, timeline: Timeline, *, resumed: bool | None = None, paused_s: float = 0.0
    ) -> str | None:
        """Hand voice every line of the mission and start it; the reason (translated, and posted) if not.

        No line is filtered out here: voice that gets ready late plays the 0 s line late, and on
        a resume (`resumed=True`) the bridge skips only the lines long past.  `paused_s` (mission
        seconds spent paused) moves the flight's start that much later for the voice's clock.
        """
        reason = await self._start(record, timeline, resumed, paused_s)
        if reason:
            self._tell(record, reason)
        return reason

    async def pause(self, record: FlightRecord) -> None:
        """The flight is paused: silence now (the bridge leaves voice; Resume brings it back)."""
        await self._end(record, "abort")

    async def resume(self, record: FlightRecord, timeline: Timeline, paused_s: float) -> None:
        """The flight runs again: voice from the mission second it stopped at (the lines said before
        the pause are skipped as long past, the one cut by the pause is said again)."""
        await self.start(record, timeline, resumed=True, paused_s=paused_s)

    async def _start(
        self, record: FlightRecord, timeline: Timeline, resumed: bool | None, paused_s: float = 0.0
    ) -> str | None:
        lang = record.language
        voice = self.bot.voice
        if not record.voice or voice is None:
            return None
        vc_id = record.notes.get("voice_channel_id")
        if vc_id is None:
            return reason_text(lang, "the host is not in a voice channel")
        try:
            cues = worded(intercom_script(timeline, lang))
            tts = (await load_settings(self.bot.storage, record.guild_id)).tts  # /settings, read per flight
            reason = await voice.prepare(record.id, record.guild_id, vc_id, record.host_id, lang, cues, tts=tts)
            if reason is None:
                start = (record.started_at or 0.0) + paused_s / record.time_scale
                await voice.start(record.id, start, record.time_scale, resumed=resumed)
                return None
            return reason_text(lang, reason)
        except Exception as exc:  # voice is optional; never let it break a flight
            log.warning("flight %s: voice failed to start: %s", record.id, exc)
            return reason_text(lang, str(exc))

    async def finish(self, record: FlightRecord) -> None:
        """Natural end: the last lines ("one.", "Mission complete...") still play, in the background."""
        await self._end(record, "finish")

    async def abort(self, record: FlightRecord) -> None:
        """Abort: silence now."""
        await self._end(record, "abort")

    async def _end(self, record: FlightRecord, how: str) -> None:
        self._told.discard(record.id)
        self._disconnected.discard(record.id)
        voice: Any = self.bot.voice
        if voice is None:
            return
        try:
            await getattr(voice, how)(record.id)
        except Exception as exc:  # voice is optional; the result is posted whatever happens here
            log.warning("flight %s: voice %s failed: %s", record.id, how, exc)
