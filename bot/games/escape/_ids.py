"""Component custom ids of Escape: `esc:<session>:<action>:<arg>`, the only state a component carries.

Why: a click is routed by parsing this string and reading the session from the platform's store,
so a lobby, a station post or a private panel keeps working after a restart.  The session id is
the store's random url-safe id; `arg` is an encoded engine command (`_doc.encode`) or '-'.
"""

from __future__ import annotations

from bot.platform import components

BUTTON_ACTIONS: tuple[str, ...] = ("join", "leave", "begin", "cancel", "panel", "do")
SELECT_ACTIONS: tuple[str, ...] = ("act",)
KIND = components.register(
    "esc",
    {"session": r"[A-Za-z0-9_\-]{4,24}", "action": "[a-z]+", "arg": r"[a-z_0-9.\-]{1,60}"},
    summary="an Escape game's lobby, station post and private panels",
    example=("AbCd_-123456", "join", "-"),
)
BUTTON_TEMPLATE = KIND.pattern(action="|".join(BUTTON_ACTIONS))
SELECT_TEMPLATE = KIND.pattern(action="|".join(SELECT_ACTIONS))


def make(session: str, action: str, arg: str = "-") -> str:
    return KIND.make(session, action, arg)
