"""What the flight code asks the server's settings before a flight starts: may this
member start one in this channel, and with which language, voice, speech engine and log place.

One call per flight start (`flight_gate`), one database read (`load_settings`), so a change made
with /settings applies to the very next flight.  The refusal comes back as text in the server's
language, ready to send ephemerally; it mentions the allowed channels and role as markup only
(the reply pings nobody).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.platform.hosting._text import tx
from bot.platform.hosting.server_settings import EVERYONE, ServerSettings, load_settings
from bot.platform.permissions import Actor, Starters, actor_of, answer_refusal, decide, refusal


@dataclass(frozen=True, slots=True)
class FlightGate:
    settings: ServerSettings
    refusal: str | None  # None: this member may start a flight here

    @property
    def language(self) -> str:
        return self.settings.language

    @property
    def voice(self) -> bool:
        return self.settings.voice

    @property
    def log_in_thread(self) -> bool:
        return self.settings.log == "thread"


def refusal_text(settings: ServerSettings, why: str) -> str:
    lang = settings.language
    if why == "channel":
        return tx(lang, "refused.channel", channels=" ".join(f"<#{c}>" for c in settings.channels))
    role = settings.starters if settings.starters != EVERYONE else "?"
    return tx(lang, "refused.role", role=f"<@&{role}>")


def starters_of(settings: ServerSettings) -> Starters:
    """The platform's view of /settings starters and channels."""
    role = settings.starters if settings.starters != EVERYONE else None
    return Starters(int(role) if role is not None else None, tuple(settings.channels))


async def flight_gate(
    storage: Any,
    guild_id: int,
    channel_id: int,
    member: Any,
    *,
    admin: bool,
    action: str = "mission.start",
    default_language: str = "en",
) -> FlightGate:
    """The server's settings for a flight about to start in `channel_id`, and the refusal (or
    None) for `member` (anything with `.roles`; admins, i.e. Manage Server, are never refused).
    The decision is the platform's (`action`, declared Who.STARTER by the game)."""
    settings = await load_settings(storage, guild_id, default_language)
    roles = frozenset(int(getattr(r, "id", r)) for r in getattr(member, "roles", None) or [])
    actor = Actor(int(getattr(member, "id", 0) or 0), admin, roles, channel_id)
    why = decide(action, actor, starters=starters_of(settings))
    return FlightGate(settings, refusal_text(settings, why) if why else None)


async def may_start(storage: Any, interaction: Any, action: str, lang: str | None = None) -> bool:
    """Whether the member may open a game of `action` (a Who.STARTER action) here, by the server's
    starters role and channels as `/mission start` reads them; else answers the platform's
    refusal (ephemeral, no pings) and says False.  Any game's start calls this."""
    guild_id = int(getattr(interaction, "guild_id", None) or 0)
    default = str(getattr(getattr(getattr(interaction, "client", None), "settings", None), "default_language", "en"))
    settings = await load_settings(storage, guild_id, default) if guild_id else ServerSettings(language=default)
    starters = starters_of(settings)
    why = decide(action, actor_of(interaction), starters=starters)
    if why is None:
        return True
    await answer_refusal(interaction, refusal(lang or settings.language, why, starters))
    return False


def serves(bot: Any, guild_id: int) -> bool:
    """Whether this process runs the background work of a server (bot/platform/cluster.py: with several
    shards over one database each server's timers run in the process that owns it)."""
    cluster = getattr(bot, "cluster", None)
    return cluster is None or bool(cluster.owns(guild_id))
