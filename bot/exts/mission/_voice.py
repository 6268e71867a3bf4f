"""The spoken intercom of a flight: every call to the voice bridge goes through here.

Voice is optional: whatever fails here, the flight goes on in text, and the crew is told why in
the flight's language.  The bridge explains a failure in English words of its own; the known
ones are shown translated, anything else as a translated "voice unavailable" with the detail.
"""

from __future__ import annotations

import contextlib
import logging
import re
from typing import TYPE_CHECKING

from bot.i18n import t
from bot.storage import FlightRecord
from engine.flight.script import intercom_script
from engine.flight.timeline import Timeline

if TYPE_CHECKING:
    from bot.client import SpaceAlertBot

log = logging.getLogger(__name__)

# the bridge's English explanations -> locale keys (the channel name, when there is one, is kept)
_REASONS: tuple[tuple[str, str], ...] = (
    (r"the host is not in a voice channel", "voice.reason.host_not_in_voice"),
    (r"no voice channel to join", "voice.reason.host_not_in_voice"),
    (r"the voice channel is gone", "voice.reason.channel_gone"),
    (r"I cannot see the voice channel (?P<name>.+)", "voice.reason.cannot_see"),
    (r"I lack the Connect permission in (?P<name>.+)", "voice.reason.no_connect"),
    (r"I lack the Speak permission in (?P<name>.+)", "voice.reason.no_speak"),
    (r"the voice channel (?P<name>.+) is full", "voice.reason.full"),
    (r"connecting to voice timed out", "voice.reason.timeout"),
    (r"no text-to-speech engine is installed.*", "voice.reason.no_tts"),
    (r"(voice support|libopus) is not installed.*", "voice.reason.not_installed"),
    (r"Discord requires end-to-end encrypted voice.*", "voice.reason.not_installed"),
    (r"voice intercom is not available in this build", "voice.reason.not_installed"),
)


def reason_text(lang: str, reason: str) -> str:
    """The bridge's reason in `lang`."""
    for pattern, key in _REASONS:
        match = re.fullmatch(pattern, reason.strip())
        if match:
            return t(lang, key, **match.groupdict())
    return t(lang, "voice.reason.other", detail=reason)


class VoiceLink:
    def __init__(self, bot: SpaceAlertBot) -> None:
        self.bot = bot

    async def start(self, record: FlightRecord, timeline: Timeline, now_s: float) -> str | None:
        """Join and start speaking the lines from `now_s` on; the reason (in the flight's language) if not."""
        lang = record.language
        if not record.voice or self.bot.voice is None:
            return None
        vc_id = record.notes.get("voice_channel_id")
        if vc_id is None:
            return reason_text(lang, "the host is not in a voice channel")
        try:
            cues = [c for c in intercom_script(timeline, lang) if c.at_s >= now_s]
            reason = await self.bot.voice.prepare(record.id, record.guild_id, vc_id, record.host_id, lang, cues)
            if reason is None:
                await self.bot.voice.start(record.id, record.started_at or 0.0, record.time_scale)
                return None
            return reason_text(lang, reason)
        except Exception as exc:  # voice is optional; never let it break a flight
            log.warning("flight %s: voice failed to start: %s", record.id, exc)
            return reason_text(lang, str(exc))

    async def stop(self, record: FlightRecord) -> None:
        if self.bot.voice is None:
            return
        with contextlib.suppress(Exception):
            await self.bot.voice.stop(record.id)
