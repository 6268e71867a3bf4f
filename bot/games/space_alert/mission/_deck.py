"""The flight deck: the public message every crew member sees, drawn from the engine's DeckView."""

from __future__ import annotations

from datetime import UTC, datetime

import discord

from bot.games.space_alert.mission import ids as _ids
from bot.games.space_alert.mission.components import FlightButton, view_of
from bot.games.space_alert.mission.render import COLOR_FLIGHT, ZONE_EMOJI, mission_label
from bot.games.space_alert.mission.storage import FlightRecord
from bot.games.space_alert.threat_names import threat_name, threat_text
from bot.platform.i18n import t
from bot.platform.text import plain_text
from engine.flight.views import DeckView, ThreatView


def wall_time(record: FlightRecord, flight_s: float, paused_s: float = 0.0) -> datetime:
    """When mission second `flight_s` happens on the wall clock (`paused_s`: the pauses so far)."""
    return datetime.fromtimestamp((record.started_at or 0.0) + (flight_s + paused_s) / record.time_scale, tz=UTC)


def threat_line(lang: str, threat: ThreatView) -> str:
    """A threat announcement: zone, T+, name in the flight's language, track, X/Y/Z texts."""
    zone = ZONE_EMOJI.get(threat.zone, "🟨")
    texts = " · ".join(f"{letter}: {text}" for letter in "XYZ" if (text := threat_text(lang, threat.id, letter)))
    line = f"⚠️ {zone} T+{threat.turn}: **{threat_name(lang, threat.id)}** → {threat.track}"
    return f"{line}\n> {texts}" if texts else line


def deck_message(record: FlightRecord, deck: DeckView | None) -> tuple[discord.Embed, discord.ui.View | None]:
    lang = record.language
    embed = discord.Embed(title=t(lang, "deck.title"), colour=COLOR_FLIGHT)
    label = mission_label(record.options, lang)
    if deck is None:
        embed.description = f"**{label}**\n" + t(lang, "deck.operation_ended")
        return embed, None
    lines = [f"**{label}** · " + t(lang, "deck.phase", phase=deck.phase, phases=deck.phases)]
    running = deck.status == "running" and record.status == "flying"
    if not running and deck.status != "ready":
        lines.append(t(lang, "deck.operation_ended"))
    paused = running and deck.paused_by is not None
    if paused:  # who paused it; the clock and every deadline stand still until Resume
        lines.append(t(lang, "pause.deck", by=plain_text(deck.paused_by or "")))
    if running:
        if deck.phase_ends_at_s is not None and record.started_at is not None and not paused:
            when = discord.utils.format_dt(wall_time(record, deck.phase_ends_at_s, deck.paused_s), "R")
            lines.append(t(lang, "deck.phase_ends", when=when))
        if deck.untimed:  # no deadline: who the phase's end still waits for
            lines.append(t(lang, "flight.untimed"))
            if deck.waiting_for:
                names = ", ".join(plain_text(name) for name in deck.waiting_for)
                lines.append(t(lang, "flight.waiting_finish", names=names))
        if deck.comm_down_until_s is not None:
            lines.append(t(lang, "deck.comm_down"))
        if deck.incoming_open:
            lines.append(t(lang, "deck.incoming"))
        if deck.transfer_closes_at_s is not None:
            lines.append(t(lang, "deck.transfer"))
        if deck.agreed_end:
            lines.append(t(lang, "flight.end_agreed_deck", n=len(deck.agreed_end), of=len(deck.humans)))
    embed.description = "\n".join(lines)
    threats = [
        f"{ZONE_EMOJI.get(th.zone, '🟨')} T+{th.turn} · {threat_name(lang, th.id)} · {th.track}" for th in deck.threats
    ]
    embed.add_field(name=t(lang, "deck.threats"), value="\n".join(threats)[:1024] or t(lang, "deck.none"), inline=False)
    embed.set_footer(
        text=t(lang, "deck.footer", crew=", ".join(plain_text(name) for name in deck.crew), flight=record.id)
    )
    if record.status != "flying":
        return embed, None
    button = FlightButton(
        _ids.make(record.id, "station"), label=t(lang, "deck.station"), style=discord.ButtonStyle.primary, emoji="🎴"
    )
    if deck.status != "running":
        return embed, view_of(button)
    action = "resume" if paused else "pause"
    style = discord.ButtonStyle.success if paused else discord.ButtonStyle.secondary
    toggle = FlightButton(
        _ids.make(record.id, action), label=t(lang, f"pause.{action}"), style=style, emoji="▶️" if paused else "⏸️"
    )
    return embed, view_of(button, toggle)
