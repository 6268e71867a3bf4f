"""The few words drawn into a picture: the `picture.` keys of the one catalogue.

The words are in `bot/platform/locales/labels/<lang>.json` (en, ru, cs, sk): `picture.<word>` for
labels, `picture.token.<token>` for a damage token's two letters (a localized picture never shows
the English codes).  A test checks that every key exists in every language, so a picture never
shows a raw key or an English word.
"""

from __future__ import annotations

import re

from bot.games.space_alert.threat_names import threat_name
from bot.platform.i18n import t

_ANDROID = re.compile(r"Android (\d)")

#: the damage tokens a zone can show, in the engine's order of the words
TOKEN_KINDS: tuple[str, ...] = ("structural", "lift", "shield", "reactor", "upper_cannon", "lower_cannon")


def token_short(lang: str, token: str) -> str:
    """A damage token's two letters in `lang`: structural, gravolift, shield, reactor, upper and
    lower cannon."""
    return t(lang, f"picture.token.{token}")


def crew_label(lang: str, name: str) -> str:
    """A crew member's name as drawn: the engine's "Android 2" in the picture's language."""
    match = _ANDROID.fullmatch(name)
    return word(lang, "android", n=match[1]) if match else name


def turn_title(lang: str, turn: int, turns: int) -> str:
    """A snapshot's title: before turn 1, "Turn 5/12" (`turns` = the resolution's turns, see
    `Replay.turns`), or the hyperspace jump after the last turn."""
    if turn == 0:
        return word(lang, "start")
    if turn > turns:
        return word(lang, "jump", turn=turn)
    return word(lang, "turn", turn=turn, turns=turns)


def word(lang: str, key: str, **params: object) -> str:
    """The picture word `key` in `lang`, formatted with `params`."""
    return t(lang, f"picture.{key}", **params)


def threat_label(lang: str, threat_id: str) -> str:
    return threat_name(lang, threat_id)
