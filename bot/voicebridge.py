"""The seam between a flight and the voice intercom (the `voice` package, issue 5).

A flight never depends on voice: every method here may fail or do nothing and the flight goes
on in text.  `NullVoice` is what runs when voice is off, when the `voice` package has no player
yet, or when the host is not in a voice channel.  `make_voice` picks the real player when it
can be imported, so wiring it in is one place.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

log = logging.getLogger(__name__)


class VoiceBridge(Protocol):
    async def prepare(
        self, flight_id: str, guild_id: int, channel_id: int, host_id: int, lang: str, cues: list[Any]
    ) -> str | None:
        """Join and pre-render; return None when ready, or the reason voice is unavailable."""

    async def start(self, flight_id: str, started_at: float, time_scale: float) -> None: ...

    async def stop(self, flight_id: str) -> None: ...


class NullVoice:
    """No voice: the text mirror in the channel carries the intercom."""

    def __init__(self, reason: str = "voice intercom is not available in this build") -> None:
        self.reason = reason

    async def prepare(
        self, flight_id: str, guild_id: int, channel_id: int, host_id: int, lang: str, cues: list[Any]
    ) -> str | None:
        return self.reason

    async def start(self, flight_id: str, started_at: float, time_scale: float) -> None:
        return None

    async def stop(self, flight_id: str) -> None:
        return None


class IntercomBridge:
    """The `voice` package's IntercomPlayer, one per flight, joined to the host's voice channel.

    The flight's clock is wall time (it survives restarts); the voice scheduler wants a monotonic
    instant for mission second 0, so it is derived from `started_at` at the moment of starting.
    """

    def __init__(self, bot: Any) -> None:
        from voice import VoiceConfig, VoiceService

        self.bot = bot
        self.service = VoiceService(VoiceConfig.from_env())
        self.players: dict[str, Any] = {}

    async def prepare(
        self, flight_id: str, guild_id: int, channel_id: int, host_id: int, lang: str, cues: list[Any]
    ) -> str | None:
        from voice.discord_sink import (
            DiscordVoiceSink,
            connect_voice,
            host_channel_resolver,
            voice_permission_problem,
        )

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
        vc, reason = await connect_voice(channel)
        if vc is None:
            return reason or "could not join the voice channel"
        sink = DiscordVoiceSink(vc, channel_resolver=host_channel_resolver(guild, host_id, channel_id))
        player = self.service.player(sink, time_scale=self.bot.settings.time_scale)
        await player.prepare(cues)
        self.players[flight_id] = player
        return None

    async def start(self, flight_id: str, started_at: float, time_scale: float) -> None:
        import time

        player = self.players.get(flight_id)
        if player is not None:
            player.start(time.monotonic() - (self.bot.clock() - started_at))

    async def stop(self, flight_id: str) -> None:
        player = self.players.pop(flight_id, None)
        if player is not None:
            await player.stop()


def make_voice(bot: Any) -> VoiceBridge:
    """The real intercom when the voice package and its native pieces load, else NullVoice."""
    try:
        return IntercomBridge(bot)
    except Exception as exc:  # voice must never stop the bot from starting
        log.warning("voice intercom unavailable: %s", exc)
        return NullVoice(f"voice intercom unavailable: {exc}")
