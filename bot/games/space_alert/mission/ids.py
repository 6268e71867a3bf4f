"""Component custom ids: `sa:<flight>:<action>:<arg>`, the only state a button carries.

Why: nothing about a flight lives in a View object, so a click after a restart (or on a message
posted hours ago) is routed by parsing this string and reading the flight from the store
(avrae's pattern).  Hand actions put the owning player's id first in `<arg>` so a click on a
hand that is not yours is recognised, even though Discord shows ephemeral hands only to their
owner.  Ids stay under Discord's 100-character limit by construction: `make` builds them through the platform's
registry (bot/platform/components.py), which checks each id against its pattern and the limit.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.platform import components
from bot.platform.components import ComponentIdError

PREFIX = "sa"

# Actions carried by buttons and by selects are disjoint, so the two DynamicItem templates never
# both claim one custom id.
BUTTON_ACTIONS: tuple[str, ...] = (
    "join",  # lobby: join the crew
    "leave",  # lobby: leave the crew
    "start",  # lobby: host starts the flight
    "cancel",  # lobby: host cancels
    "station",  # flight deck: open (or reopen) my hand
    "half",  # (hands drawn before placing took one choice; still routed, as a redraw)
    "back",  # hand: take the selected card back from the board (arg: player.selection)
    "draw",  # hand: draw a card on incoming data (arg: player)
    "finish",  # hand: finish the current phase early (arg: player)
    "refresh",  # hand: redraw (arg: player.selection)
    "agree",  # hand: agree to end the action round early, rulebook §2.1 (arg: player)
    "rejoin",  # channel line after a member disconnected the bot from voice: the host brings it back
    "pause",  # flight deck: the host (or Manage Server) stops the clock
    "resume",  # flight deck: the host (or Manage Server) runs it again
)
SELECT_ACTIONS: tuple[str, ...] = (
    "roles",  # lobby: pick my roles
    "pick",  # hand: select a card or a planned turn (arg: player; value: the selection)
    "place",  # hand: place/move the selection on a turn (arg: player.selection; value: half.turn)
    "android",  # hand: place on an android's board (arg: player.selection; value: android.card.half.turn)
    "give",  # hand: give a card during a data transfer (arg: player; value: card.crew member)
)

_FLIGHT = r"[0-9a-f]{8}"
MAX_LEN = components.MAX_LEN
_ARG = r"[A-Za-z0-9_.\-]{0,80}"
KIND = components.register(
    PREFIX,
    {"flight": _FLIGHT, "action": "[a-z]+", "arg": _ARG},
    summary="a flight's lobby, flight deck and hands",
    example=("0123abcd", "join", "-"),
)
BUTTON_TEMPLATE = KIND.pattern(action="|".join(BUTTON_ACTIONS))
SELECT_TEMPLATE = KIND.pattern(action="|".join(SELECT_ACTIONS))


@dataclass(frozen=True)
class ComponentId:
    flight: str
    action: str
    arg: str = "-"

    def __str__(self) -> str:
        return make(self.flight, self.action, self.arg)

    @property
    def parts(self) -> list[str]:
        """`arg` split on '.', e.g. ['123456789', 'c12', 'a'] for place/half ids."""
        return [] if self.arg in ("", "-") else self.arg.split(".")

    @property
    def player(self) -> int | None:
        """The hand owner encoded first in `arg`, or None for public buttons."""
        parts = self.parts
        return int(parts[0]) if parts and parts[0].isdigit() else None


def make(flight: str, action: str, *args: object) -> str:
    """Build an id; `args` are joined with '.', an empty tail becomes '-'."""
    if action not in BUTTON_ACTIONS and action not in SELECT_ACTIONS:
        raise ComponentIdError(f"unknown component action {action!r}")
    return KIND.make(flight, action, ".".join(str(a) for a in args) if args else "-")


def parse(custom_id: str) -> ComponentId | None:
    parts = KIND.parse(custom_id)
    return ComponentId(parts["flight"], parts["action"], parts["arg"]) if parts else None
