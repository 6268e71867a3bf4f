"""Pausing a running flight: the deck's Pause and Resume buttons (issue 24).

Why: the soundtrack CD and the mission apps can pause a mission; a dropped player or a doorbell
must not cost the crew theirs.  The pause lives in the engine's state (`Flight.pause`/`resume`),
so the clock, the intercom's text and the phase ends stop together, commands are refused with one
reason, and a restart while paused stays paused.  Here: who may press (the host, or a member with
Manage Server), the unit of work, and the voice (silenced on pause; on resume started again with
its start shifted by the time spent paused, so each line is said at its mission second).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.games.space_alert.mission._respond import Reply
from bot.games.space_alert.mission._store import abandon, journal
from bot.games.space_alert.mission.storage import FlightRecord
from bot.platform.i18n import t
from bot.platform.storage import StaleWrite
from bot.platform.text import user_text
from engine.flight.commands import FlightEvent, Rejected
from engine.flight.machine import Flight
from engine.flight.snapshot import SnapshotError

if TYPE_CHECKING:
    from bot.games.space_alert.mission._flights import FlightService, Step
    from bot.games.space_alert.mission.ids import ComponentId


def duration_text(lang: str, seconds: float) -> str:
    """A pause's length as players read it: "4 min 05 s", "45 s"."""
    total = max(0, round(seconds))
    minutes, secs = divmod(total, 60)
    if minutes:
        return t(lang, "pause.minutes", m=minutes, s=f"{secs:02d}")
    return t(lang, "pause.seconds", s=secs)


def pause_line(lang: str, event: FlightEvent) -> str:
    """The channel's line for a `paused` or `resumed` event."""
    by = user_text(str(event.data.get("by", "?")))  # a display name, inert in a channel message
    if event.kind == "paused":
        return t(lang, "pause.paused_line", by=by)
    return t(
        lang,
        "pause.resumed_line",
        by=by,
        duration=duration_text(lang, float(event.data.get("pause_s", 0.0))),
    )


def paused_total(record: FlightRecord) -> float:
    """The time a flight spent paused, as its stored state says (0 for a flight never paused)."""
    return float((record.state or {}).get("paused_s") or 0.0)


def may_pause(interaction: discord.Interaction, record: FlightRecord) -> bool:
    """The host, or a member with Manage Server in this channel (as for abort)."""
    permissions = getattr(interaction, "permissions", None)
    return interaction.user.id == record.host_id or bool(permissions and permissions.manage_guild)


@dataclass
class _Found:
    """What one run of the pause's change found (reset on every attempt: the store may re-run it)."""

    flight: Flight | None = None
    events: list[FlightEvent] = field(default_factory=list)
    refusal: str | None = None
    unrestorable: bool = False
    goodbye: int | None = None  # the unrestorable flight's goodbye, staged in the outbox
    step: Step | None = None  # what the change staged for the channel


class Pauses:
    """The flight service's Pause and Resume."""

    def __init__(self, service: FlightService) -> None:
        self.service = service

    async def clicked(self, interaction: discord.Interaction, cid: ComponentId) -> None:
        from bot.games.space_alert.mission._flights import Step  # _flights imports this module

        service = self.service
        user = interaction.user
        resume = cid.action == "resume"
        found = _Found()

        async def change(record: FlightRecord) -> dict[str, Any] | None:
            nonlocal found
            found = _Found()
            lang = record.language
            if record.status != "flying" or record.state is None:
                found.refusal = t(lang, "error.flight_over")
                return None
            if not may_pause(interaction, record):
                found.refusal = t(lang, "pause.host_only")
                return None
            try:
                flight = Flight.from_dict(record.state)
            except SnapshotError as exc:
                found.refusal, found.unrestorable = t(lang, "error.unrestorable"), True
                entry = abandon(record, exc)
                found.goodbye = await service.stage_goodbye(record)  # commits with the end
                return entry
            elapsed = service.elapsed(record)
            events = flight.advance_to(flight.clock(elapsed))
            member = record.member(user.id)
            name = member.name if member is not None else user.display_name
            outcome = flight.resume(name, elapsed) if resume else flight.pause(name)
            if isinstance(outcome, Rejected):
                found.refusal = t(lang, f"reason.{outcome.reason}", **outcome.params)
                return None
            found.flight, found.events = flight, [*events, *outcome.events]
            record.state = flight.to_dict()
            found.step = Step(flight=flight, events=found.events)
            await service.stage(record, flight, found.step)  # the pause line commits with the pause
            return journal(user.id, cid.action, found.events)

        async with Reply(interaction, update=True) as reply:
            try:
                record = await service.store.update(cid.flight, change)
            except StaleWrite:
                await reply.reject(t(service.bot.settings.default_language, "error.busy"))
                return
            flight, step = found.flight, found.step
            if record is None or flight is None or step is None:
                await service.refuse_unapplied(reply, record, found.refusal, found.unrestorable, found.goodbye)
                return
            embed, view = service.deck(record)
            await reply.send(embed=embed, view=view)
        await service.publish(record, flight, found.events, step)
        if resume:
            service.wake(record.id)
            service.spawn(service.voice.resume(record, flight.timeline, flight.paused_s))
        else:
            await service.voice.pause(record)
        if flight.complete:
            await service.finish(record.id)
