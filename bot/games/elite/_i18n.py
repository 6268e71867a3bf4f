"""ELITE's words in the player's language: names, the director's lines, refusals, from the one catalogue.

Every ELITE string lives in `bot/platform/locales/` (names, spoken lines, setup and checklists in the
`elite` area as `elite.<group>.<id>`; refusals `elite.error.<code>`, voice and pack messages beside
the bot's other strings), in en, ru, cs and sk, read through `bot.platform.i18n.t` like every other
text of the bot.  The engine refuses with a code and values (engine/elite/errors.py) and reports steps,
never sentences.  A value that names something of the game (a phase, a timer state, a hero, an
alien) is shown by its name in the game's language; a value that may echo what an owner typed (a
data pack's path and the validator's words) is made inert.
"""

from __future__ import annotations

from bot.platform.i18n import t
from bot.platform.text import user_text
from engine.elite.errors import EliteError, Value
from engine.elite.timer import TimerCall
from engine.elite.vocab import BOSSES

#: value name -> the text group that names it
_NAMED: dict[str, str] = {"phase": "phase", "state": "timer", "hero": "hero"}
#: values that may carry what someone typed: shown inert, bounded
_TYPED = ("where", "detail")


def text(lang: str, key: str, /, **values: object) -> str:
    """ELITE's text `key` (`group.id`, e.g. ``mission.recon``) in `lang`, formatted with `values`."""
    return t(lang, f"elite.{key}", **values)


def call_text(lang: str, call: TimerCall) -> str:
    """The spoken words of one timer call."""
    if call.kind == "mark":
        return text(lang, f"say.mark_{call.seconds}")
    if call.kind == "count":
        return text(lang, "say.count", seconds=call.seconds)
    return text(lang, "say.times_up")


def _shown(lang: str, name: str, value: Value) -> str:
    """A value as shown: a name of the game in the game's language, typed text inert."""
    if name in _NAMED:
        return text(lang, f"{_NAMED[name]}.{value}")
    if name == "alien":
        return text(lang, f"{'boss' if value in BOSSES else 'swarm'}.{value}")
    if name in _TYPED:
        return user_text(value, 400)
    return str(value)


def error_text(lang: str, error: EliteError) -> str:
    """The refusal in `lang` (English for a language without the key, never the bare code)."""
    values = {name: _shown(lang, name, value) for name, value in error.values.items()}
    return t(lang, f"elite.error.{error.code}", **values)


def ui(lang: str, key: str, **values: object) -> str:
    """One of the director's own messages (`elite.<key>`)."""
    return t(lang, f"elite.{key}", **values)
