"""Component custom ids of /replay and /whatif: `sr:<flight>:<action>:<arg>`.

The same pattern as the mission's ids (bot/games/space_alert/mission/ids.py), with its own prefix so the two
routers never claim each other's clicks: the id is the only state a button carries, so a click on
a replay posted last week, or after a restart, is parsed here and served from the store.
"""

from __future__ import annotations

from bot.games.space_alert.mission.ids import ComponentId
from bot.platform import components
from bot.platform.components import ComponentIdError

ReplayId = ComponentId  # the same shape (flight, action, arg, parts); str() is the mission's, unused here
PREFIX = "sr"
MAX_LEN = components.MAX_LEN

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

KIND = components.register(
    PREFIX,
    {"flight": r"[0-9a-f]{8}", "action": "[a-z]+", "arg": r"[A-Za-z0-9_.\-]{0,80}"},
    summary="/replay's turn buttons, the result post's pictures, /whatif's editor",
    example=("0123abcd", "turn", "0.first"),
)
BUTTON_TEMPLATE = KIND.pattern(action="|".join(BUTTON_ACTIONS))
SELECT_TEMPLATE = KIND.pattern(action="|".join(SELECT_ACTIONS))


def make(flight: str, action: str, *args: object) -> str:
    if action not in BUTTON_ACTIONS and action not in SELECT_ACTIONS:
        raise ComponentIdError(f"unknown replay action {action!r}")
    return KIND.make(flight, action, ".".join(str(a) for a in args) if args else "-")


def parse(custom_id: str) -> ReplayId | None:
    parts = KIND.parse(custom_id)
    if parts is None or parts["action"] not in (*BUTTON_ACTIONS, *SELECT_ACTIONS):
        return None
    return ReplayId(parts["flight"], parts["action"], parts["arg"])
