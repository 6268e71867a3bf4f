"""Every UI string exists in ru and cs, and every engine log event kind has a ru and cs rendering."""

from __future__ import annotations

import re
import string
from pathlib import Path
from typing import Any

import pytest

from bot.games.space_alert.mission._log_i18n import describe
from bot.platform.i18n import catalogue
from tests.bot.test_one_catalogue import may_stay_the_same, same_placeholders

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("ru", "cs")


def engine_event_kinds() -> set[str]:
    """Every `m.emit("<kind>", ...)` in the rules engine (read from the source, so a new kind cannot be missed)."""
    kinds: set[str] = set()
    for folder in ("engine/resolution", "engine/threats"):
        for path in (ROOT / folder).rglob("*.py"):
            kinds |= set(re.findall(r'm\.emit\(\s*"([a-z_]+)"', path.read_text(encoding="utf-8")))
    return kinds


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


@pytest.mark.parametrize("lang", LANGS)
def test_every_english_key_is_translated_with_the_same_placeholders(lang: str) -> None:
    english, other = catalogue("en"), catalogue(lang)
    assert set(other) == set(english)
    for key, text in english.items():
        assert same_placeholders(key, text, other[key]), (lang, key)
        if not may_stay_the_same(key, text):  # symbols, names and loanwords may stay the same
            assert other[key] != text, (lang, key, "untranslated")


def test_the_engine_emits_the_kinds_we_know() -> None:
    kinds = engine_event_kinds()
    assert len(kinds) > 40 and {"threat_appears", "attack", "hyperspace_jump"} <= kinds


@pytest.mark.parametrize("lang", LANGS)
def test_every_engine_event_kind_has_a_rendering(lang: str) -> None:
    missing = {kind for kind in engine_event_kinds() if f"captains_log.event.{kind}" not in catalogue(lang)}
    assert not missing, f"{lang}: no captain's-log template for {sorted(missing)}"


class AnyFields(dict[str, Any]):
    """An event that answers every field a template may ask for (lists for list fields)."""

    def __missing__(self, key: str) -> Any:
        return ["red", "blue"] if key in ("weapons", "zones") else "1"


@pytest.mark.parametrize("lang", LANGS)
def test_every_template_renders_without_falling_back(lang: str) -> None:
    for kind in engine_event_kinds():
        event = AnyFields(kind=kind, text="ENGLISH", threat="E1-09", player="Ann", zone="red", station="upper_red")
        line = describe(lang, event)
        assert line and line != "ENGLISH", (lang, kind)


@pytest.mark.parametrize("lang", LANGS)
def test_a_real_resolution_log_is_rendered_entirely_in_the_language(lang: str) -> None:
    from engine.flight.machine import Flight

    flight = Flight.start({"crew": ["Ann", "Bob", "Cid"], "mission": "S2-3", "seed": 5, "lang": lang})
    flight.advance_to(10_000)
    log = flight.resolve(log=True).to_json_dict(with_log=True)["log"]
    assert len(log) > 20
    for entry in log:
        assert f"captains_log.event.{entry['kind']}" in catalogue(lang), entry
        line = describe(lang, entry)
        assert line != entry.get("text"), (lang, entry)
    cyrillic = sum(1 for entry in log if re.search("[а-яё]", describe(lang, entry), re.I))
    assert (cyrillic == len(log)) if lang == "ru" else (cyrillic == 0)


@pytest.mark.parametrize("lang", ("en", *LANGS))
def test_every_rejection_code_has_a_sentence_in_every_language(lang: str) -> None:
    """One enumeration of codes in the engine, one table per language here: no English fallback."""
    from engine.flight.commands import REASONS
    from engine.flight.lobby import LOBBY_REJECTIONS

    table = catalogue(lang)
    missing = [code for code in REASONS if f"reason.{code}" not in table]
    missing += [code for code in LOBBY_REJECTIONS if f"lobby.{code}" not in table]
    assert not missing, f"{lang}: no sentence for {missing}"
    assert "reason.bad_input" in table  # the bot's own: a click that names nothing (a stale hand)
