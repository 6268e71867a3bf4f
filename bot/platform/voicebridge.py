"""The seam between a flight and the voice intercom (the `voice` package).

A flight never depends on voice: every method here may fail or do nothing and the flight goes on
in text, and none of them waits for the voice connection or for speech synthesis.  `NullVoice`
is what runs when voice is off or cannot be imported.  `make_voice` picks the real intercom.

The calls a flight makes, in order:

* `prepare(...)`: cheap checks only (an engine, the channel, permissions); returns the reason
  voice is unavailable, or None.  Never joins, never renders.
* `start(flight_id, started_at, time_scale, resumed=None)`: from here voice joins and renders in
  the background; `started_at` is the flight's own start (the bot clock), so the 0 s line is due
  at Start even if voice is ready later.  `resumed` (default: inferred from how far the flight
  already is) lets lines long past be skipped after a restart.
* `finish(flight_id)` on a natural end (the last lines still play, bounded); `abort(flight_id)`
  on an abort (silence now).  `stop` is the old name of `abort`.
* `rejoin(flight_id)`: after a member disconnected the bot on purpose, the host brings voice back.

Events go to the bot through two optional attributes (set once by the cog): `on_text_only(flight_id,
reason)` when voice failed for good during a flight, and `on_member_disconnect(flight_id)` when a
member (a moderator's Disconnect) took the bot out of voice: the bot posts one line and offers
the host `rejoin`.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

log = logging.getLogger(__name__)

#: A flight further along than this (mission seconds) when voice starts is a resume.
RESUME_AFTER_S = 2.0
#: Why a flight speaks in text only while another flight of its server holds the voice connection.
# How long a voice client may stay after the bot left voice before it counts as the library's own
# reconnect (a Disconnect drops it within milliseconds).
DISCONNECT_VERDICT_S = 3.0
BUSY_REASON = "another flight in this server is using voice"

TextOnlyHandler = Callable[[str, str], Awaitable[None] | None]
DisconnectHandler = Callable[[str], Awaitable[None] | None]


class VoiceBridge(Protocol):
    async def prepare(
        self,
        flight_id: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        lang: str,
        cues: list[Any],
        *,
        tts: str = "gtts",
    ) -> str | None:
        """Cheap checks only; return None when voice will be attempted, or why it is unavailable.
        `tts` is the server's engine setting: "espeak" speaks with espeak-ng alone (no gTTS)."""

    async def start(
        self, flight_id: str, started_at: float, time_scale: float, *, resumed: bool | None = None
    ) -> None: ...

    async def finish(self, flight_id: str) -> None: ...

    async def abort(self, flight_id: str) -> None: ...

    async def stop(self, flight_id: str) -> None: ...

    async def rejoin(self, flight_id: str) -> str | None: ...


class NullVoice:
    """No voice: the text mirror in the channel carries the intercom."""

    on_text_only: TextOnlyHandler | None = None
    on_member_disconnect: DisconnectHandler | None = None

    def __init__(self, reason: str = "voice intercom is not available in this build") -> None:
        self.reason = reason

    async def prepare(
        self,
        flight_id: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        lang: str,
        cues: list[Any],
        *,
        tts: str = "gtts",
    ) -> str | None:
        return self.reason

    async def start(self, flight_id: str, started_at: float, time_scale: float, *, resumed: bool | None = None) -> None:
        return None

    async def finish(self, flight_id: str) -> None:
        return None

    async def abort(self, flight_id: str) -> None:
        return None

    async def stop(self, flight_id: str) -> None:
        return None

    async def rejoin(self, flight_id: str) -> str | None:
        return self.reason


class _Flight:
    """What the bridge holds for one flight between `prepare` and the end."""

    def __init__(self, guild_id: int, sink: Any, cues: list[Any], tts: str = "gtts") -> None:
        self.guild_id = guild_id
        self.sink = sink
        self.cues = cues
        self.tts = tts
        self.player: Any | None = None


class IntercomBridge:
    """The `voice` package's IntercomPlayer, one per flight, following the host's voice channel."""

    def __init__(self, bot: Any, service: Any | None = None) -> None:
        from voice import VoiceConfig, VoiceService

        self.bot = bot
        self.service = service if service is not None else VoiceService(VoiceConfig.from_env())
        self.flights: dict[str, _Flight] = {}
        self.on_text_only: TextOnlyHandler | None = None
        self.on_member_disconnect: DisconnectHandler | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        add_listener = getattr(bot, "add_listener", None)
        if callable(add_listener):
            add_listener(self._voice_state_update, "on_voice_state_update")

    # -- the flight's calls ---------------------------------------------------------------------

    async def prepare(
        self,
        flight_id: str,
        guild_id: int,
        channel_id: int,
        host_id: int,
        lang: str,
        cues: list[Any],
        *,
        tts: str = "gtts",
    ) -> str | None:
        from voice.discord_sink import DiscordVoiceSink, host_channel_resolver, voice_permission_problem

        reason = self.service.unavailable_reason()
        if reason:
            return reason
        guild = self.bot.get_guild(guild_id)
        channel = guild.get_channel(channel_id) if guild is not None else None
        if channel is None:
            return "the voice channel is gone"
        problem = voice_permission_problem(channel, guild.me)
        if problem:
            return problem
        if any(other.guild_id == guild_id for fid, other in self.flights.items() if fid != flight_id):
            # Discord gives a bot one voice connection per server: a second flight's join would
            # tear down the first one's handshake and both would end up silent.
            return BUSY_REASON
        old = self.flights.pop(flight_id, None)
        if old is not None and old.player is not None:
            old.player.abort()
        # No connection yet: the intercom's watchdog joins in the background once started.
        sink = DiscordVoiceSink(guild.voice_client, channel_resolver=host_channel_resolver(guild, host_id, channel_id))
        self.flights[flight_id] = _Flight(guild_id, sink, list(cues), tts)
        return None

    async def start(self, flight_id: str, started_at: float, time_scale: float, *, resumed: bool | None = None) -> None:
        flight = self.flights.get(flight_id)
        if flight is None or flight.player is not None:
            return
        elapsed_s = max(0.0, self.bot.clock() - started_at)
        if resumed is None:
            resumed = elapsed_s * time_scale > RESUME_AFTER_S
        player = self.service.player(
            flight.sink,
            time_scale=time_scale,
            on_problem=lambda why: self._emit(self.on_text_only, flight_id, why),
            on_member_disconnect=lambda: self._emit(self.on_member_disconnect, flight_id),
            offline_only=flight.tts == "espeak",
        )
        flight.player = player
        task = player.start(time.monotonic() - elapsed_s, flight.cues, resumed=resumed)
        task.add_done_callback(lambda _: self._ended(flight_id, flight))

    async def finish(self, flight_id: str) -> None:
        """Natural end: the intercom plays its last lines, then leaves (in the background)."""
        flight = self.flights.get(flight_id)
        if flight is None:
            return
        if flight.player is None:
            self.flights.pop(flight_id, None)
            await _close(flight.sink)
            return
        flight.player.finish()

    async def abort(self, flight_id: str) -> None:
        """Abort: silence at once and leave."""
        flight = self.flights.pop(flight_id, None)
        if flight is None:
            return
        if flight.player is not None:
            await flight.player.stop()
        else:
            await _close(flight.sink)

    async def stop(self, flight_id: str) -> None:
        """The old name of `abort` (immediate)."""
        await self.abort(flight_id)

    async def rejoin(self, flight_id: str) -> str | None:
        """Bring voice back after a deliberate disconnect; None on success, else why not."""
        flight = self.flights.get(flight_id)
        if flight is None or flight.player is None:
            return "this flight has no intercom running"
        result: str | None = await flight.player.rejoin()
        return result

    # -- events ---------------------------------------------------------------------------------

    async def _voice_state_update(self, member: Any, before: Any, after: Any) -> None:
        """The bot itself left voice without asking: a moderator's Disconnect (or a deleted channel).

        discord.py's own reconnect after a dropped voice connection leaves the channel too (and
        the event may arrive after it is back): that is no one's Disconnect.  The two differ in
        what the library does next: after a Disconnect it drops the guild's voice client at once,
        while reconnecting it keeps it.  So the verdict waits (briefly) for one or the other."""
        me = getattr(self.bot, "user", None)
        if me is None or getattr(member, "id", None) != me.id:
            return
        if getattr(before, "channel", None) is None or getattr(after, "channel", None) is not None:
            return
        guild = getattr(member, "guild", None)
        guild_id = getattr(guild, "id", None)
        if not await self._disconnected_by_someone(guild):
            log.info("voice in guild %s: the library reconnects by itself; the intercom goes on", guild_id)
            return
        for flight in self.flights.values():
            if flight.guild_id == guild_id:
                flight.sink.mark_member_disconnect()

    @staticmethod
    async def _disconnected_by_someone(guild: Any, *, wait_s: float | None = None) -> bool:
        """True when the guild's voice client goes away within `wait_s` (a Disconnect: the library
        cleans it up), False when it stays (the library's own reconnect keeps it)."""
        if guild is None or not hasattr(guild, "voice_client"):
            return True  # nothing to tell by: as before, a member's Disconnect
        deadline = time.monotonic() + (DISCONNECT_VERDICT_S if wait_s is None else wait_s)
        while guild.voice_client is not None:
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.05)
        return True

    def _emit(self, handler: Callable[..., Awaitable[None] | None] | None, *args: Any) -> None:
        if handler is None:
            return
        try:
            result = handler(*args)
        except Exception:
            log.exception("voice event handler failed")
            return
        if inspect.isawaitable(result):
            task = asyncio.ensure_future(result)
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _ended(self, flight_id: str, flight: _Flight) -> None:
        if self.flights.get(flight_id) is flight:
            self.flights.pop(flight_id, None)


async def _close(sink: Any) -> None:
    with contextlib.suppress(Exception):
        await sink.close()


def make_voice(bot: Any) -> VoiceBridge:
    """The real intercom when the voice package and its native pieces load, else NullVoice."""
    try:
        return IntercomBridge(bot)
    except Exception as exc:  # voice must never stop the bot from starting
        log.warning("voice intercom unavailable: %s", exc)
        return NullVoice(f"voice intercom unavailable: {exc}")
