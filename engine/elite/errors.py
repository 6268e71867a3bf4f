"""ELITE's refusals as codes with values, so the adapter words them in the player's language.

Why codes and not English sentences: the engine is shared by an English and a Russian table (and
whatever a server speaks), and the rules should not know any of them.  An `EliteError` carries a
`code` from `ERROR_CODES` and a few plain values (a phase, a cell, a hero id); the bot looks the
code up in its locale tables (`elite.error.<code>`) and renders the values (a phase id becomes
the phase's name).  `str()` of an error is the code and its values, for logs.
"""

from __future__ import annotations

from typing import Final, Literal, TypeAlias, get_args

ErrorCode: TypeAlias = Literal[
    # the game (engine.elite.game)
    "game_over",
    "game_not_over",
    "wrong_phase",  # phase
    "timer_not_in_phase",
    "action_running",
    "event_not_in_play",  # number
    "no_boss",  # uid
    "boss_health_min",
    "boss_health_unknown",
    "negative_hits",
    "no_exploration",
    "no_hidden_tokens",
    "no_alien_values",  # alien
    "hero_not_in_game",  # hero
    # activation (engine.elite.activation)
    "negative_in_range",  # hero
    "no_ability",
    # the timer (engine.elite.timer)
    "timer_length",
    "cannot_start",  # state
    "cannot_pause",  # state
    "cannot_resume",  # state
    "time_up",
    # hidden tokens (engine.elite.exploration)
    "no_hidden_token",  # cell
    "no_relic",  # cell
    # data packs (engine.elite.datapack)
    "pack_too_large",  # size, limit
    "pack_not_json",  # detail
    "pack_not_object",
    "pack_invalid",  # where, detail (the validator's own words)
]
ERROR_CODES: Final[tuple[ErrorCode, ...]] = get_args(ErrorCode)

Value: TypeAlias = str | int


class EliteError(Exception):
    """A refusal of the ELITE rules: `code` (one of `ERROR_CODES`) and the values its text needs."""

    def __init__(self, code: ErrorCode, **values: Value) -> None:
        self.code: ErrorCode = code
        self.values: dict[str, Value] = values
        shown = ", ".join(f"{k}={v}" for k, v in values.items())
        super().__init__(f"{code} ({shown})" if shown else code)
