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
    async def prepare(self, flight_id: str, guild_id: int, channel_id: int, lang: str, cues: list[Any]) -> str | None:
        """Join and pre-render; return None when ready, or the reason voice is unavailable."""

    async def start(self, flight_id: str, started_at: float, time_scale: float) -> None: ...

    async def stop(self, flight_id: str) -> None: ...


class NullVoice:
    """No voice: the text mirror in the channel carries the intercom."""

    async def prepare(self, flight_id: str, guild_id: int, channel_id: int, lang: str, cues: list[Any]) -> str | None:
        return "voice intercom is not available in this build"

    async def start(self, flight_id: str, started_at: float, time_scale: float) -> None:
        return None

    async def stop(self, flight_id: str) -> None:
        return None


def make_voice(bot: Any) -> VoiceBridge:
    """The real intercom if the voice package provides one, else NullVoice."""
    try:
        from voice import intercom  # type: ignore[attr-defined]
    except ImportError:
        log.info("voice.intercom not found; flights run with the text intercom only")
        return NullVoice()
    factory = getattr(intercom, "make_bridge", None)
    if factory is None:
        return NullVoice()
    try:
        bridge: VoiceBridge = factory(bot)
        return bridge
    except Exception as exc:  # voice must never stop the bot from starting
        log.warning("voice intercom unavailable: %s", exc)
        return NullVoice()
