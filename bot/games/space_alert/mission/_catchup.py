"""What the intercom said so far, for a crew member who joins voice late or reconnects (issue 24).

Why: the intercom speaks once; a player who was not in voice when a threat was announced hears
nothing of it.  Replaying the audio would talk over the lines still coming, so the player gets a
short written summary in their own station instead: the threats announced (turn, zone, name),
the incoming data and data transfers so far (and whether one is open now), the communications
failures.  It is shown when they join the flight's voice channel (their open station is redrawn)
and the next time they open the station, then it goes away.

Who is owed it is part of the flight's stored document (`notes["catch_up"]`, user ids), changed
only inside the flight's unit of work: a restart neither forgets a summary still owed nor shows
one again that was already read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.games.space_alert.mission.render import ZONE_EMOJI
from bot.games.space_alert.threat_names import threat_name
from bot.platform.i18n import t

if TYPE_CHECKING:
    from bot.games.space_alert.mission.storage import FlightRecord
    from engine.flight.machine import Flight

FIELD_LIMIT = 1024


def said_so_far(lang: str, flight: Flight) -> str:
    """The summary: every announcement that has come, in the flight's language."""
    deck = flight.deck()
    lines = [f"{ZONE_EMOJI.get(th.zone, '🟨')} T+{th.turn}: {threat_name(lang, th.id)}" for th in deck.threats]
    if not lines:
        lines.append(t(lang, "catchup.no_threats"))
    come = [ev for ev in flight.timeline.events if ev.t + flight.delay_s <= flight.now_s]
    data = sum(1 for ev in come if ev.event == "incoming_data")
    transfers = sum(1 for ev in come if ev.event == "data_transfer")
    failures = sum(1 for ev in come if ev.event == "comm_down")
    lines.append(t(lang, "catchup.data", n=data) + (" " + t(lang, "catchup.data_open") if deck.incoming_open else ""))
    lines.append(
        t(lang, "catchup.transfers", n=transfers)
        + (" " + t(lang, "catchup.transfer_open") if deck.transfer_closes_at_s is not None else "")
    )
    if failures:
        lines.append(t(lang, "catchup.comm", n=failures))
    text = "\n".join(lines)
    return text if len(text) <= FIELD_LIMIT else text[: FIELD_LIMIT - 1] + "…"


def with_summary(embed: discord.Embed, lang: str, flight: Flight) -> discord.Embed:
    """The station embed with the summary as its last field."""
    return embed.add_field(name=t(lang, "catchup.title"), value=said_so_far(lang, flight), inline=False)


NOTE = "catch_up"  # the flight record's note: ids of the crew members owed the summary


def owed(record: FlightRecord, user_id: int) -> bool:
    """Whether `user_id` joined this flight's voice late and has not seen the summary yet."""
    return user_id in record.notes.get(NOTE, [])


def owe(record: FlightRecord, user_id: int) -> None:
    """Mark `user_id` as owed the summary (a pure change of the record, for the store's unit of work)."""
    if record.status == "flying" and not owed(record, user_id):
        record.notes[NOTE] = sorted({*record.notes.get(NOTE, []), user_id})


def paid(record: FlightRecord, user_id: int) -> None:
    """`user_id` has seen the summary: drop the mark (a pure change of the record)."""
    if owed(record, user_id):
        left = [uid for uid in record.notes[NOTE] if uid != user_id]
        if left:
            record.notes[NOTE] = left
        else:
            del record.notes[NOTE]
