"""The hosting commands' strings: the `hosting.` keys of the one catalogue.

The words are in `bot/platform/locales/hosting/<lang>.json` (en, ru, cs, sk; Slovak in the Slovak
rulebook's words); `tx` only adds the area's prefix, so a key reads the same here as in the file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from bot.platform.i18n import t
from bot.platform.text import code_text

if TYPE_CHECKING:
    from bot.platform.hosting.server_settings import SettingError


def tx(lang: str, text_key: str, /, **params: Any) -> str:
    """`hosting.<text_key>` in `lang` (English for a missing key), formatted with `params`."""
    return t(lang, f"hosting.{text_key}", **params)


def setting_problem(lang: str, error: SettingError) -> str:
    """Why `/settings set` refused a value, in the admin's language (`settings.problem.<code>`)."""
    from bot.platform.hosting.server_settings import SETTING_KEYS

    params = dict(error.params)
    if params.get("key") not in SETTING_KEYS:  # the only part that can be a user's text
        params["key"] = code_text(params.get("key", ""), 40)
    return t(lang, f"settings.problem.{error.code}", **params)
