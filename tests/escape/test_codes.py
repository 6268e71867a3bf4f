"""Every code the engine can emit is listed in engine/escape/codes.py and has a sentence in en, ru,
cs and sk with the same placeholders (the words live in bot/platform/locales/escape/, never in the engine)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.escape import codes

ROOT = Path(__file__).resolve().parents[2]
LOCALES = {
    lang: json.loads((ROOT / "bot/platform/locales/escape" / f"{lang}.json").read_text("utf-8"))
    for lang in ("en", "ru", "cs", "sk")
}
RULES = (ROOT / "engine/escape/rules.py").read_text("utf-8")
PACK = (ROOT / "engine/escape/pack.py").read_text("utf-8")


def test_the_rules_emit_only_listed_codes() -> None:
    events = set(re.findall(r'log\.add\(\s*"([a-z_]+)"', RULES)) | set(re.findall(r'else "(fight_lost)"', RULES))
    assert events <= set(codes.EVENT_CODES)
    refusals = set(re.findall(r'(?:return|else) "([a-z_]+)"', RULES)) - {"cargo", "disk", "fight_lost"}
    refusals -= {"take_cargo", "take_disk", "take_center"}  # goal names in expressions, not refusals
    assert refusals <= set(codes.REJECTION_CODES)
    assert set(re.findall(r'(?:_Bad|PackRefusal)\("([a-z_]+)"', PACK)) <= set(codes.PACK_REFUSAL_CODES)


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"{(\w+)}", text))


@pytest.mark.parametrize("lang", ["en", "ru", "cs", "sk"])
def test_every_code_has_a_sentence_with_the_same_placeholders(lang: str) -> None:
    table = LOCALES[lang]
    assert set(table) == set(LOCALES["en"])
    for prefix, names in (
        ("escape.event.", codes.EVENT_CODES),
        ("escape.reject.", codes.REJECTION_CODES),
        ("escape.pack.", codes.PACK_REFUSAL_CODES),
    ):
        for name in names:
            assert prefix + name in table, (lang, name)
    for key, text in table.items():
        assert _placeholders(text) == _placeholders(LOCALES["en"][key]), (lang, key)
        if lang != "en" and key.startswith(("escape.event.", "escape.reject.")):
            assert text != LOCALES["en"][key], (lang, key)  # translated, not copied


def test_event_placeholders_are_values_the_engine_gives() -> None:
    for code in codes.EVENT_CODES:
        names = _placeholders(LOCALES["en"][f"escape.event.{code}"]) - {"player"}
        for name in names:
            assert re.search(rf"\b{name}=", RULES), (code, name)
