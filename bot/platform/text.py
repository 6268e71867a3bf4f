"""Showing user-supplied strings in Discord messages without letting them act.

Anything a member typed (threat ids in a pasted game, player names, custom mission names and ids,
display names) can contain Discord markdown, mention syntax, bidi overrides or a novel's worth of
text.  Two independent defences apply:

* the client's default ``allowed_mentions`` is :func:`no_mentions` (set in ``bot/platform/client.py``), so
  even text that slips through unescaped pings nobody;
* :func:`user_text` escapes markdown and mention syntax, strips control and bidirectional
  characters and truncates to a limit, so the text also *looks* like what was typed.

Places that mean to ping someone (the lobby calling its crew, a reply to the host) pass
:func:`mention_users` for exactly those members on that one message; nothing else ever pings.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

import discord

# Discord's own length limits, named so call sites say which one they are fitting.
MESSAGE_LIMIT = 2000
EMBED_TITLE_LIMIT = 256
EMBED_DESCRIPTION_LIMIT = 4096
EMBED_FIELD_NAME_LIMIT = 256
EMBED_FIELD_VALUE_LIMIT = 1024
EMBED_FOOTER_LIMIT = 2048
BUTTON_LABEL_LIMIT = 80
SELECT_OPTION_LIMIT = 100
# A sensible default for one name inside a sentence: long enough for any real name.
NAME_LIMIT = 64

ELLIPSIS = "…"
# Zero-width space: breaks "@everyone" and "<@123>" without changing what the reader sees.
_ZWSP = "\u200b"


def no_mentions() -> discord.AllowedMentions:
    """Ping nobody: the client default, and what every message carrying user text uses."""
    return discord.AllowedMentions.none()


def mention_users(users: Iterable[discord.abc.Snowflake]) -> discord.AllowedMentions:
    """Ping exactly these users on one message (the lobby's crew, the host); never roles or everyone."""
    return discord.AllowedMentions(everyone=False, roles=False, users=list(users), replied_user=False)


def strip_unsafe(text: str) -> str:
    """Drop control, format (bidi overrides, zero-width joiners) and unassigned characters.

    Newlines and tabs become spaces: a name is one line.  Format characters (category Cf) include
    the right-to-left override that can make "gpj.exe" read as "exe.jpg".
    """
    out: list[str] = []
    for ch in text:
        if ch in "\n\r\t":
            out.append(" ")
            continue
        category = unicodedata.category(ch)
        if category in ("Cc", "Cf", "Cn", "Cs", "Co"):
            continue
        out.append(ch)
    return "".join(out)


def truncate(text: str, limit: int) -> str:
    """Cut ``text`` to at most ``limit`` characters, marking a cut with an ellipsis."""
    if limit <= 0:
        return ""
    if len(text) <= limit:
        return text
    return text[: limit - 1] + ELLIPSIS


def escape(text: str) -> str:
    """Escape Discord markdown and defuse mention syntax (``@everyone``, ``<@id>``, ``<#id>``)."""
    escaped = discord.utils.escape_markdown(text, as_needed=False)
    escaped = escaped.replace("@", "@" + _ZWSP)
    return escaped.replace("<#", "<" + _ZWSP + "#")


def user_text(text: object, limit: int = NAME_LIMIT) -> str:
    """One user-supplied string, ready to put inside a message: safe characters, escaped, bounded.

    Truncation happens before escaping (so the limit counts what the user sees) and the result is
    re-cut if escaping pushed it past ``limit``, never splitting an escape sequence in two.
    """
    plain = strip_unsafe(str(text)).strip()
    if not plain:
        return "\u2014"  # an em dash stands for a blank name rather than vanishing
    cut = truncate(plain, limit)
    escaped = escape(cut)
    while len(escaped) > limit and len(cut) > 1:
        cut = truncate(plain, len(cut) - 1)
        escaped = escape(cut)
    return escaped


def code_text(text: object, limit: int = NAME_LIMIT) -> str:
    """A user string shown as inline code (ids): backticks removed, unsafe characters stripped.

    Inside backticks markdown is inert and mentions do not render, so only the backtick itself
    (which would close the span) needs removing.
    """
    return f"`{code_inner(text, limit - 2)}`"


def code_inner(text: object, limit: int = NAME_LIMIT) -> str:
    """The inside of an inline code span whose backticks the message template already has."""
    return truncate(strip_unsafe(str(text)).replace("`", "'").strip(), limit) or "?"


def plain_text(text: object, limit: int = NAME_LIMIT) -> str:
    """A user string where Discord shows text as typed (autocomplete choice names, embed footers,
    select option labels): no markdown renders there, so nothing is escaped (a backslash would
    show), but control and bidi characters go, and the length fits ``limit``; never empty."""
    return truncate(strip_unsafe(str(text)).strip(), limit) or "?"
