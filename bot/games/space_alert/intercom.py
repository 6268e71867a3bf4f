"""The intercom's words: every spoken line in English, Russian, Czech and Slovak, from the one catalogue.

The engine's spoken script (engine/flight/script.py) holds each line as a kind plus parameters
(`threat` with turn, zone, serious, internal, unconfirmed; `count` with n; ...); the words live in
the `intercom` area of the catalogue (bot/platform/locales/intercom/<lang>.json).  Voice (text to
speech) and text (the Discord mirror of the intercom) both take their words from `render`, so what
is heard and what is read can never drift apart.  Wording:
  * ru: the Russian rulebook's intercom section (§2.1), word for word where it gives the line;
  * cs: the Czech intercom quoted in the Slovak rulebook's §2.1 (its "vnútorné" for the internal
    threat is Slovak spilling into the quote; the Czech word "vnitřní" is used);
  * sk: the Slovak rulebook quotes the Czech CD; its own words for what the CD says (§2.1 and
    around it: "ohrozenie", "vnútorné ohrozenie", "nepotvrdené hlásenie", "prenos", "strata
    spojenia", "spojenie obnovené", "hyperpriestor", "fáza operácie") make the Slovak lines;
  * en: the wording of the English soundtrack CD.
Numbers are spelled out so a TTS engine reads "T plus three", never "T dash three".

`python -m bot.games.space_alert.intercom S2-1 --lang ru --text` prints a mission's spoken script
in words (the engine's `python -m engine timeline` takes the same arguments and prints codes).
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterable, Mapping
from typing import Any

from bot.platform.i18n import catalogue
from engine.flight.script import KINDS, Cue
from engine.flight.timeline_cli import main as timeline_main
from engine.vocab import LANGUAGES

PREFIX = "intercom.say."
WARNINGS = frozenset({"one_minute_warning", "twenty_seconds_warning"})
#: the lines whose words depend on parameters; every other kind is one fixed sentence
WITH_PARAMETERS = frozenset({"threat", "count", "countdown", "phase_ended", "phase_begins"}) | WARNINGS


class PhraseError(KeyError):
    """Unknown kind or language, or a missing parameter."""


def _say(lang: str, key: str, **params: Any) -> str:
    return catalogue(lang)[PREFIX + key].format(**params)


def _need(params: Mapping[str, Any], *names: str) -> list[Any]:
    missing = [n for n in names if n not in params]
    if missing:
        raise PhraseError(f"missing parameter(s): {', '.join(missing)}")
    return [params[n] for n in names]


def _threat(lang: str, params: Mapping[str, Any]) -> str:
    turn, zone = _need(params, "turn", "zone")
    if not isinstance(turn, int) or not 1 <= turn <= 8:
        raise PhraseError(f"turn must be 1-8, got {turn!r}")
    serious, internal = bool(params.get("serious", False)), bool(params.get("internal", False))
    kind = (
        "serious_internal" if serious and internal else "serious" if serious else "internal" if internal else "threat"
    )
    line = _say(
        lang,
        "threat",
        turn=_say(lang, f"number.{turn}"),
        kind=_say(lang, f"threat.kind.{kind}"),
        zone=f" {_say(lang, f'zone.{zone}')}" if zone else "",
    )
    if params.get("unconfirmed", False):
        line = _say(lang, "threat.unconfirmed", line=line)
    # the message, "repeat", the message again, as on the CD (the unconfirmed prefix on both)
    return _say(lang, "threat.repeated", line=line) if params.get("repeat", True) else line


def _subject(lang: str, phase: int, last: bool) -> str:
    """'First phase' / 'Operation' in the form the warning sentences need."""
    if last:
        return _say(lang, "subject.operation")
    return _say(lang, "subject.phase", ordinal=_say(lang, f"ordinal.subject.{phase}"))


def render(kind: str, lang: str, **params: Any) -> str:
    """The spoken text of one announcement.

    Parameters by kind:
      threat: turn (1-8), zone (red/white/blue or None), serious, internal, unconfirmed, repeat
              (default True: the message, "repeat", the message again, as on the CD);
      one_minute_warning / twenty_seconds_warning / countdown: phase (1-3), last (bool: the
              operation's final phase says "operation" instead of "n-th phase");
      count: n (1-5), one number of a countdown;
      phase_ended: phase (the one that ended); phase_begins: phase (the one that begins).
    """
    if lang not in LANGUAGES:
        raise PhraseError(f"unknown language {lang!r}: use one of {', '.join(LANGUAGES)}")
    if kind in KINDS and kind not in WITH_PARAMETERS:
        return _say(lang, kind)
    if kind == "threat":
        return _threat(lang, params)
    if kind in WARNINGS or kind == "countdown":
        (phase,) = _need(params, "phase")
        return _say(lang, kind, subject=_subject(lang, phase, bool(params.get("last", False))))
    if kind == "count":
        (n,) = _need(params, "n")
        if not isinstance(n, int) or not 1 <= n <= 5:
            raise PhraseError(f"count n must be 1-5, got {n!r}")
        return _say(lang, "count.last" if n == 1 else "count", number=_say(lang, f"number.{n}"))
    if kind in ("phase_ended", "phase_begins"):
        (phase,) = _need(params, "phase")
        ordinal = _say(lang, f"ordinal.{kind.removeprefix('phase_')}.{phase}")
        return _say(lang, kind, ordinal=ordinal)
    raise PhraseError(f"unknown announcement kind {kind!r}")


def say(kind: str, lang: str, params: Mapping[str, Any]) -> str:
    """`render` in the shape the engine's tools take a renderer in (engine.flight.script.Say)."""
    return render(kind, lang, **params)


def cue_text(cue: Cue) -> str:
    """The words of one line of the spoken script, in the line's language."""
    return render(cue.kind, cue.lang, **cue.params)


def worded(cues: Iterable[Cue]) -> list[Cue]:
    """The engine's cues with their words filled in: what the voice speaks and the text shows."""
    return [dataclasses.replace(cue, text=cue_text(cue)) for cue in cues]


if __name__ == "__main__":
    raise SystemExit(timeline_main(sys.argv[1:], say))
