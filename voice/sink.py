"""The boundary to the voice connection, and the flight's lateness report.

`VoiceSink` is all the scheduler knows about Discord.  The real one (`voice.discord_sink`) wraps a
`discord.VoiceClient`; tests use a fake that reads the mixer frame by frame on a virtual clock.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Protocol

from voice.mixer import FrameMixer


class VoiceSink(Protocol):
    """A voice connection that plays one long-lived frame source (the flight's `FrameMixer`).

    * `attach` makes the connection's player read from `mixer` (starting a player only if none is
      running on this connection; a running one is kept) and must not block.  Raises if it cannot.
    * `is_playing` is True while a player is reading from the mixer.
    * `member_disconnected` is True after someone else (a moderator's Disconnect, a deleted
      channel) took the bot out of voice on purpose: the intercom must not silently rejoin.
    * `reconnect` tries to get a working connection back (same channel, or wherever the host is
      now) and returns None on success or a short human-readable reason; it clears
      `member_disconnected`.
    * `close` stops the player and leaves the channel.
    """

    member_disconnected: bool

    def is_connected(self) -> bool: ...

    def is_playing(self) -> bool: ...

    def attach(self, mixer: FrameMixer) -> None: ...

    async def reconnect(self) -> str | None: ...

    async def close(self) -> None: ...


LineStatus = Literal["pending", "played", "interrupted", "no_voice", "stopped", "skipped"]


@dataclass
class LineRecord:
    """What happened to one line.  Times are on the scheduler's monotonic clock (seconds).

    * `due`: the scheduled instant (mission start + start_s / TIME_SCALE);
    * `earliest`: when it could physically start: `due`, or later if the previous line was still
      playing or the line itself was still rendering (a queued line);
    * `started`: when its first audible frame went out (not the lead-in frame before it);
    * `lateness_s` = started - due (what the crew hears), `jitter_s` = started - earliest (the
      scheduler's own delay, the figure the timing targets are about).
    """

    index: int
    kind: str
    text: str
    start_s: float
    duration_s: float
    due: float
    earliest: float | None = None
    started: float | None = None
    ended: float | None = None
    status: LineStatus = "pending"
    note: str = ""

    @property
    def lateness_s(self) -> float | None:
        return None if self.started is None else self.started - self.due

    @property
    def jitter_s(self) -> float | None:
        return None if self.started is None or self.earliest is None else self.started - self.earliest

    @property
    def queued(self) -> bool:
        return self.earliest is not None and self.earliest > self.due + 1e-9


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100); NaN for an empty list."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[min(rank, len(ordered)) - 1]


@dataclass
class VoiceReport:
    """The flight's voice log: one record per line, reconnects, and why voice stopped (if it did)."""

    lines: list[LineRecord] = field(default_factory=list)
    reconnects: int = 0
    disconnects: int = 0
    member_disconnects: int = 0
    voice_lost: str | None = None
    problems: list[str] = field(default_factory=list)

    def played(self) -> list[LineRecord]:
        return [r for r in self.lines if r.started is not None]

    def lateness_ms(self) -> list[float]:
        return [1000 * r.lateness_s for r in self.played() if r.lateness_s is not None]

    def jitter_ms(self) -> list[float]:
        return [1000 * r.jitter_s for r in self.played() if r.jitter_s is not None]

    def summary(self) -> dict[str, Any]:
        late = self.lateness_ms()
        jit = self.jitter_ms()
        return {
            "lines": len(self.lines),
            "played": len(self.played()),
            "queued": sum(1 for r in self.lines if r.queued),
            "interrupted": sum(1 for r in self.lines if r.status == "interrupted"),
            "no_voice": sum(1 for r in self.lines if r.status == "no_voice"),
            "skipped": sum(1 for r in self.lines if r.status == "skipped"),
            "dropped": sum(1 for r in self.lines if r.status in ("pending", "interrupted")),
            "lateness_p50_ms": percentile(late, 50),
            "lateness_p99_ms": percentile(late, 99),
            "lateness_max_ms": max(late) if late else math.nan,
            "jitter_p50_ms": percentile(jit, 50),
            "jitter_p99_ms": percentile(jit, 99),
            "reconnects": self.reconnects,
            "disconnects": self.disconnects,
            "voice_lost": self.voice_lost,
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "summary": self.summary(),
            "lines": [asdict(r) for r in self.lines],
            "problems": list(self.problems),
        }
