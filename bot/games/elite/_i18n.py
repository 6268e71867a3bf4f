"""ELITE's refusals and the director's own messages in the player's language.

The engine refuses with a code and values (engine/elite/errors.py); the words live in the bot's
locale tables (`bot/platform/locales/*.json`, keys `elite.error.<code>`), in en, ru, cs and sk.  A value
that names something of the game (a phase, a timer state, a hero, an alien) is shown by its name
in the game's language (engine/elite/texts.py: en and ru, English for the others); a value that
may echo what an owner typed (a data pack's path and the validator's words) is made inert.
"""

from __future__ import annotations

from typing import cast

from bot.platform.i18n import t
from bot.platform.text import user_text
from engine.elite.errors import EliteError, Value
from engine.elite.texts import text
from engine.elite.vocab import BOSSES
from engine.vocab import Language

#: value name -> the engine text group that names it
_NAMED: dict[str, str] = {"phase": "phase", "state": "timer", "hero": "hero"}
#: values that may carry what someone typed: shown inert, bounded
_TYPED = ("where", "detail")


def _shown(lang: Language, name: str, value: Value) -> str:
    """A value as shown: names in the game's language (English where ELITE has no table)."""
    if name in _NAMED:
        return text(lang, f"{_NAMED[name]}.{value}")
    if name == "alien":
        return text(lang, f"{'boss' if value in BOSSES else 'swarm'}.{value}")
    if name in _TYPED:
        return user_text(value, 400)
    return str(value)


def error_text(lang: str, error: EliteError) -> str:
    """The refusal in `lang` (English for a language without the key, never the bare code)."""
    values = {name: _shown(cast(Language, lang), name, value) for name, value in error.values.items()}
    return t(lang, f"elite.error.{error.code}", **values)


def ui(lang: str, key: str, **values: object) -> str:
    """One of the director's own messages (`elite.<key>`)."""
    return t(lang, f"elite.{key}", **values)
