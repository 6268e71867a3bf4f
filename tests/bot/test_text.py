"""bot.platform.text: user strings are shown inert (no markdown, no pings, no bidi tricks) and bounded."""

from __future__ import annotations

import discord

from bot.platform.text import code_text, mention_users, no_mentions, strip_unsafe, truncate, user_text


def test_user_text_defuses_mentions_and_markdown() -> None:
    shown = user_text("<@&123> @everyone **bold**")
    assert "@everyone" not in shown
    assert "<@&" not in shown
    assert "**" not in shown


def test_user_text_strips_bidi_and_control() -> None:
    assert user_text("a\u202eb\x00c\nd") == "abc d"


def test_user_text_respects_limit_after_escaping() -> None:
    assert len(user_text("*" * 500, 20)) <= 20
    assert len(user_text("x" * 500, 20)) == 20


def test_blank_name_is_visible() -> None:
    assert user_text("  \u200b ") == "\u2014"


def test_code_text_cannot_close_its_span() -> None:
    assert code_text("a`b") == "`a'b`"


def test_truncate_marks_the_cut() -> None:
    assert truncate("abcdef", 4) == "abc…"
    assert truncate("abc", 4) == "abc"
    assert strip_unsafe("x\ty") == "x y"


def test_mention_helpers() -> None:
    assert no_mentions().everyone is False and no_mentions().users is False
    allowed = mention_users([discord.Object(id=5)])
    assert allowed.everyone is False and allowed.roles is False
    assert [u.id for u in allowed.users] == [5]  # type: ignore[union-attr]
