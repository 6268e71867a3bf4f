"""Detect missing Discord permissions up front and explain them in one message.

A 403 from Discord in the middle of a flight is a traceback in the log and a silent bot for the
players.  Checking `interaction.app_permissions` (the bot's permissions in the channel, sent with
every interaction, no cache needed) before a flight starts turns that into one readable line.
"""

from __future__ import annotations

import discord

from bot.platform.i18n import t
from bot.platform.invite import (
    MUTE_PERMISSION,
    OPTIONAL_PERMISSIONS,
    PERMISSION_LABELS,
    TEXT_PERMISSIONS,
    VOICE_PERMISSIONS,
)


def missing(perms: discord.Permissions, names: tuple[str, ...]) -> list[str]:
    return [name for name in names if not getattr(perms, name, False)]


def labels(names: list[str]) -> str:
    return ", ".join(PERMISSION_LABELS.get(n, n) for n in names)


def blocking_problem(lang: str, perms: discord.Permissions) -> str | None:
    """The one message to show when the channel cannot host a flight at all, else None."""
    lacking = missing(perms, TEXT_PERMISSIONS)
    if lacking:
        return t(lang, "perms.blocking", perms=labels(lacking))
    return None


def warnings(
    lang: str, channel_perms: discord.Permissions, voice_perms: discord.Permissions | None, want_voice: bool
) -> list[str]:
    """Soft problems (no thread, no voice, no muting), listed once in the lobby."""
    notes = []
    lacking = missing(channel_perms, OPTIONAL_PERMISSIONS)
    if lacking:
        notes.append(t(lang, "perms.optional", perms=labels(lacking)))
    if want_voice and voice_perms is not None:
        lacking = missing(voice_perms, VOICE_PERMISSIONS)
        if lacking:
            notes.append(t(lang, "perms.voice", perms=labels(lacking)))
        if not voice_perms.mute_members:
            notes.append(t(lang, "perms.mute", perms=labels([MUTE_PERMISSION])))
    return notes
