"""One text layer (issue 24): every player-facing string is a key of the one catalogue
(`bot/platform/locales/<area>/<lang>.json`), present in en, ru, cs and sk, and no module keeps a
language table of its own beside it."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from bot.platform.i18n import catalogue, catalogue_sources
from engine.vocab import LANGUAGES

ROOT = Path(__file__).resolve().parents[2]
OTHERS = tuple(lang for lang in LANGUAGES if lang != "en")

#: names that are the same word in every language (ELITE's heroes, a boss, the engine's androids)
SAME_NAMES = frozenset(
    {
        "elite.hero.kinje",
        "elite.hero.kara",
        "elite.hero.voker",
        "elite.hero.gerid",
        "elite.boss.traex",
        "picture.android",
        "evening.name.elite",  # the game's title as a command name (`/elite`), like "Project: ELITE"
    }
)

#: modules that still hold a table keyed by language, and why each may
LANGUAGE_TABLES_ALLOWED = {
    # the engine is pure and imports nothing of the bot: the intercom's words (one source for the
    # recording, the voice and the text), the captain's log and the school's lessons and hints
    # are built inside the rules package, in all four languages
    "engine/school/hints.py",
    "engine/school/lessons.py",
    # not words: each language's own name for itself, and the speech engines' voice ids
    "bot/web/app.py",
    "voice/tts.py",
}


#: keys whose translation may leave out a placeholder English fills (never add one): Russian,
#: Czech and Slovak say a threat went in "an explosion" where English names the card that exploded
PLACEHOLDERS_MAY_DROP = frozenset({"captains_log.event.threat_destroyed.tail.exploded"})


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def same_placeholders(key: str, english: str, other: str) -> bool:
    if key in PLACEHOLDERS_MAY_DROP:
        return placeholders(other) <= placeholders(english)
    return placeholders(other) == placeholders(english)


def may_stay_the_same(key: str, text: str) -> bool:
    """A value that is a name, or has no words outside its placeholders and symbols."""
    prose = re.sub(r"\{[^}]*\}", "", text)
    return key in SAME_NAMES or not re.search(r"[^\W\d_]", prose) or text in ("Start",)


@pytest.mark.parametrize("lang", OTHERS)
def test_every_key_exists_in_every_language_with_the_same_placeholders(lang: str) -> None:
    english, other = catalogue("en"), catalogue(lang)
    assert sorted(set(english) - set(other)) == [], f"missing in {lang}"
    assert sorted(set(other) - set(english)) == [], f"only in {lang}"
    for key, text in english.items():
        assert same_placeholders(key, text, other[key]), (lang, key)


@pytest.mark.parametrize("lang", OTHERS)
def test_no_value_is_left_in_english(lang: str) -> None:
    english, other = catalogue("en"), catalogue(lang)
    left = [key for key, text in english.items() if other[key] == text and not may_stay_the_same(key, text)]
    assert left == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_area_has_every_language_and_no_key_twice(lang: str) -> None:
    areas = {path.parent.name for path in (ROOT / "bot/platform/locales").glob("*/en.json")}
    assert {"elite", "campaign", "hosting", "replay", "stats", "labels"} <= areas
    for area in areas:
        assert (ROOT / "bot/platform/locales" / area / f"{lang}.json").is_file(), (area, lang)
    seen: dict[str, str] = {}
    for source, data in catalogue_sources(lang):
        for key in data:
            assert key not in seen, (key, source, seen[key])
            seen[key] = source


def _language_tables(path: Path) -> list[int]:
    """Lines of dict literals keyed by a language code other than English ("ru", "cs", "sk")."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys = {key.value for key in node.keys if isinstance(key, ast.Constant)}
            if keys & set(OTHERS):
                lines.append(node.lineno)
    return lines


def test_no_module_outside_the_catalogue_holds_a_language_table() -> None:
    found: dict[str, list[int]] = {}
    for folder in ("bot", "engine", "voice", "scenarios"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            lines = _language_tables(path)
            if lines:
                found[path.relative_to(ROOT).as_posix()] = lines
    assert sorted(set(found) - LANGUAGE_TABLES_ALLOWED) == [], found
    assert sorted(LANGUAGE_TABLES_ALLOWED - set(found)) == [], "an allowed module has no table any more: drop it"


def test_the_scan_sees_a_table() -> None:
    sample = ROOT / "tests/bot/_language_table_sample.txt"
    sample.write_text('WORDS = {"en": {"a": "b"}, "cs": {"a": "c"}}\n', encoding="utf-8")
    try:
        assert _language_tables(sample) == [1]
    finally:
        sample.unlink()


def test_the_former_text_modules_read_the_catalogue() -> None:
    from bot.games.elite._i18n import text as elite_text
    from bot.games.space_alert.campaign._text import tx as campaign_text
    from bot.games.space_alert.pictures.labels import token_short, word
    from bot.games.space_alert.replay.text import text as replay_text
    from bot.games.space_alert.stats._text import tx as stats_text
    from bot.platform.hosting._text import tx as hosting_text

    assert campaign_text("sk", "score.total", total=7) == "**Spolu: 7**"
    assert hosting_text("en", "saved", key="voice", value="on") == "Saved: **voice** = on"
    assert stats_text("ru", "board.prev") == catalogue("ru")["stats.board.prev"]
    assert replay_text("cs", "nav_end") == catalogue("cs")["replay.nav_end"]
    assert word("ru", "phase", phase=2) == "фаза 2"
    assert token_short("sk", "lift") == "Vť"
    assert elite_text("cs", "say.round", round=4) == "Kolo 4 z 8."
