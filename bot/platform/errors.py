"""One answer for every interaction that fails: a log line with the flight, an apology to the user.

Why one place: an exception escaping a slash command or a button leaves the user with Discord's
"The application did not respond" (or an endless "thinking…" when it was deferred), and the
operator with a traceback that does not say which flight it was.  Both entry points end here:
`tree.on_error` for application commands (installed in bot/platform/client.py) and the dynamic items'
router for buttons and selects (bot/games/space_alert/mission/_components.py), which discord.py would
otherwise only log.  The apology is ephemeral and in the user's Discord language; it goes out as
the initial response, or as a follow-up when the interaction was already acknowledged.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.platform import components
from bot.platform.i18n import t
from bot.platform.settings import LANGUAGES

log = logging.getLogger(__name__)


def language_of(interaction: discord.Interaction, default: str = "en") -> str:
    """The user's Discord language when the bot speaks it (en-GB -> en), else the server's, else
    the bot's default."""
    for locale in (getattr(interaction, "locale", None), getattr(interaction, "guild_locale", None)):
        code = str(getattr(locale, "value", locale) or "").split("-")[0].lower()
        if code in LANGUAGES:
            return code
    return default if default in LANGUAGES else "en"


def flight_of(interaction: discord.Interaction) -> str | None:
    """The flight id in a component's custom id (a registered kind with a `flight` part), when
    there is one."""
    data: Any = getattr(interaction, "data", None) or {}
    custom_id = data.get("custom_id") if isinstance(data, dict) else None
    parsed = components.parse(custom_id) if isinstance(custom_id, str) else None
    return parsed[1].get("flight") if parsed is not None else None


def _default_language(interaction: discord.Interaction) -> str:
    settings = getattr(getattr(interaction, "client", None), "settings", None)
    return str(getattr(settings, "default_language", "en"))


async def report_interaction_error(
    interaction: discord.Interaction, error: BaseException, *, flight_id: str | None = None
) -> None:
    """Log `error` with the flight id and answer the user with a short private apology."""
    original = getattr(error, "original", None) or error  # CommandInvokeError wraps the real one
    lang = language_of(interaction, _default_language(interaction))
    if isinstance(original, app_commands.CheckFailure):
        log.info("interaction %s refused by a check: %s", interaction.id, original)
        text = t(lang, "interaction.not_allowed")
    else:
        command = getattr(getattr(interaction, "command", None), "qualified_name", None)
        command = command if isinstance(command, str) else None
        log.error(
            "interaction failed: flight=%s command=%s custom_id=%s guild=%s channel=%s user=%s",
            flight_id or flight_of(interaction) or "-",
            command or "-",
            flight_of(interaction) and (getattr(interaction, "data", None) or {}).get("custom_id"),
            interaction.guild_id,
            interaction.channel_id,
            getattr(interaction.user, "id", None),
            exc_info=(type(original), original, original.__traceback__),
        )
        text = t(lang, "interaction.apology")
    await apologise(interaction, text)


async def apologise(interaction: discord.Interaction, text: str) -> None:
    """Respond if nothing was sent yet, else follow up; never raise (the user may be gone)."""
    quiet = discord.AllowedMentions.none()
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True, allowed_mentions=quiet)
        else:
            await interaction.response.send_message(text, ephemeral=True, allowed_mentions=quiet)
    except discord.HTTPException as exc:
        log.warning("could not send the apology for interaction %s: %s", interaction.id, exc)
