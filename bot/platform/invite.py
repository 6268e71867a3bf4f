"""What the bot must be granted, as one place the README, the start-up help and checks share.

The permission set is the minimum for a flight: talk in the channel and its result thread, show
embeds and the logbook attachment, join voice to speak the intercom, and server-mute the crew
during a communication failure.  Asking for Administrator would be simpler and is exactly what a
careful server owner refuses.
"""

from __future__ import annotations

import discord

SCOPES: tuple[str, ...] = ("bot", "applications.commands")

REQUIRED_PERMISSIONS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    send_messages_in_threads=True,
    create_public_threads=True,
    embed_links=True,
    attach_files=True,
    read_message_history=True,
    connect=True,
    speak=True,
    mute_members=True,
)

# Text permissions without which a flight cannot be run in a channel at all.
TEXT_PERMISSIONS: tuple[str, ...] = ("view_channel", "send_messages", "embed_links", "read_message_history")
# Nice to have: the captain's log thread, voice, and muting during communication failures.
OPTIONAL_PERMISSIONS: tuple[str, ...] = ("create_public_threads", "send_messages_in_threads", "attach_files")
VOICE_PERMISSIONS: tuple[str, ...] = ("connect", "speak")
MUTE_PERMISSION = "mute_members"

PERMISSION_LABELS: dict[str, str] = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "create_public_threads": "Create Public Threads",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "read_message_history": "Read Message History",
    "connect": "Connect",
    "speak": "Speak",
    "mute_members": "Mute Members",
}


def permissions_integer() -> int:
    """The integer that goes into the invite URL's `permissions=` parameter."""
    return REQUIRED_PERMISSIONS.value


def invite_url(application_id: int | str) -> str:
    """The OAuth2 invite link for the given application id with our scopes and permissions."""
    return discord.utils.oauth_url(application_id, permissions=REQUIRED_PERMISSIONS, scopes=SCOPES)


def missing_token_help() -> str:
    """The text printed when DISCORD_TOKEN is not set: how to get one and how to invite the bot."""
    perms = ", ".join(PERMISSION_LABELS[name] for name in PERMISSION_LABELS)
    example = invite_url("APPLICATION_ID")
    return f"""\
DISCORD_TOKEN is not set, so the bot cannot log in.

To create the bot application:
  1. Open the Discord Developer Portal (Applications page) and click "New Application".
  2. In "Bot", click "Reset Token" and copy the token.  Keep it secret.
  3. Put it in the environment or in a .env file next to the Makefile:
         DISCORD_TOKEN=your-token-here
  4. Copy the Application ID from "General Information" and open this invite link with it
     (scopes: {" ".join(SCOPES)}; permissions integer {permissions_integer()}):
         {example}
     Permissions requested: {perms}.
  5. Run `make run` again.  Slash commands appear after the first sync (COMMAND_SYNC=global can
     take a while; COMMAND_SYNC=guild:<server id> is instant for a test server).
"""
