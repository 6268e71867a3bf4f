"""Component custom ids of /replay and /whatif: `sr:<flight>:<action>:<arg>`.

The same pattern as the mission's ids (bot/exts/mission/_ids.py), with its own prefix so the two
routers never claim each other's clicks: the id is the only state a button carries, so a click on
a replay posted last week, or after a restart, is parsed here and served from the store.
"""

from __future__ import annotations

import re

from bot.exts.mission._ids import ComponentId

ReplayId = ComponentId  # the same shape (flight, action, arg, parts); str() is the mission's, unused here
PREFIX = "sr"
MAX_LEN = 100

BUTTON_ACTIONS: tuple[str, ...] = (
    "turn",  # replay: show snapshot <arg> (0 = before turn 1 ... last = the end)
    "open",  # result post / captain's log: open the pictures privately at snapshot <arg>
    "wback",  # what-if: take the selected turn's card back (arg: board.plan.selection)
    "reset",  # what-if: back to the real plan (arg: board)
    "run",  # what-if: resolve the edited plan (arg: board.plan)
    "flip",  # (editors drawn before the station's controls: answered "out of date")
    "clear",  # (likewise)
)
SELECT_ACTIONS: tuple[str, ...] = (
    "wpick",  # what-if: select a held card or a planned turn (arg: board.plan; value: the selection)
    "wplace",  # what-if: put the selection on a turn (arg: board.plan.selection; value: half.turn)
    "wboard",  # what-if, solo: the android whose board to edit (value: its index)
    "wturn",  # (editors drawn before the station's controls: answered "out of date")
    "wcard",  # (likewise)
)
LEGACY_ACTIONS = frozenset({"flip", "clear", "wturn", "wcard"})

_FLIGHT = r"[0-9a-f]{8}"
_ARG = r"[A-Za-z0-9_.\-]{0,80}"
BUTTON_TEMPLATE = rf"{PREFIX}:(?P<flight>{_FLIGHT}):(?P<action>{'|'.join(BUTTON_ACTIONS)}):(?P<arg>{_ARG})"
SELECT_TEMPLATE = rf"{PREFIX}:(?P<flight>{_FLIGHT}):(?P<action>{'|'.join(SELECT_ACTIONS)}):(?P<arg>{_ARG})"
_ANY = re.compile(rf"{PREFIX}:(?P<flight>{_FLIGHT}):(?P<action>[a-z]+):(?P<arg>{_ARG})")


def make(flight: str, action: str, *args: object) -> str:
    if action not in BUTTON_ACTIONS and action not in SELECT_ACTIONS:
        raise ValueError(f"unknown replay action {action!r}")
    arg = ".".join(str(a) for a in args) if args else "-"
    value = f"{PREFIX}:{flight}:{action}:{arg}"
    if len(value) > MAX_LEN or not _ANY.fullmatch(value):
        raise ValueError(f"custom id {value!r} is not valid")
    return value


def parse(custom_id: str) -> ReplayId | None:
    match = _ANY.fullmatch(custom_id)
    if match is None or match["action"] not in (*BUTTON_ACTIONS, *SELECT_ACTIONS):
        return None
    return ReplayId(match["flight"], match["action"], match["arg"])
