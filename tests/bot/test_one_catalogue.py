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
    assert {"elite", "campaign", "hosting", "replay", "stats", "labels", "intercom", "captains_log", "school"} <= areas
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


# -- the engine is pure: codes and parameters, never the words players read ------------------------
#: engine modules whose English strings are for developers, not players: errors that reject
#: invalid input (a game file, a timeline, a snapshot, generator parameters) and command-line help
ENGINE_MESSAGES_ALLOWED = frozenset(
    {
        "engine/campaign/carried.py",
        "engine/campaign/flow.py",
        "engine/campaign/scoring.py",
        "engine/campaign/session.py",
        "engine/cli.py",
        "engine/common/clock.py",
        "engine/common/dice.py",
        "engine/documents.py",
        "engine/elite/datapack.py",
        "engine/elite/logbook.py",
        "engine/elite/setup.py",
        "engine/flight/generator.py",
        "engine/flight/machine.py",
        "engine/flight/snapshot.py",
        "engine/flight/timeline.py",
        "engine/flight/timeline_cli.py",
        "engine/model.py",
        "engine/resolution/resume.py",
        "engine/state.py",
    }
)
LOCAL_LETTER = re.compile(r"[^\W\d_a-zA-Z]")  # a letter outside English's: Cyrillic, č, ř, ô, ...


def _strings(path: Path) -> list[tuple[int, str]]:
    """The string literals of a module (f-strings' fixed parts included), docstrings left out."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                docstrings.add(id(first.value))
    return [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def _sentences(path: Path) -> tuple[list[int], list[int]]:
    """Lines of strings in a language other than English, and of English strings of six words or more."""
    local, english = [], []
    for line, text in _strings(path):
        if LOCAL_LETTER.search(text):
            local.append(line)
        elif len(re.findall(r"[A-Za-z]+", text)) >= 6:
            english.append(line)
    return local, english


def test_the_engine_holds_no_player_facing_sentences() -> None:
    """The intercom, the captain's log and the school speak from the catalogue: no engine module
    keeps words in ru/cs/sk, and English prose stays in the modules that reject bad input."""
    local: dict[str, list[int]] = {}
    prose: set[str] = set()
    for path in sorted((ROOT / "engine").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        found_local, found_english = _sentences(path)
        if found_local:
            local[name] = found_local
        if found_english:
            prose.add(name)
    assert local == {}
    assert sorted(prose - ENGINE_MESSAGES_ALLOWED) == [], "engine sentences belong in the catalogue"
    assert sorted(ENGINE_MESSAGES_ALLOWED - prose) == [], "an allowed module has no prose any more: drop it"
    assert not (ROOT / "engine/flight/phrases.py").exists() and not (ROOT / "engine/log_text").exists()


def test_the_engine_scan_sees_sentences() -> None:
    sample = ROOT / "tests/bot/_engine_sentence_sample.txt"
    sample.write_text(
        'A = "Угроза."\nB = f"{x} is destroyed by the explosion of {y}"\nC = "red_arrow"\n', encoding="utf-8"
    )
    try:
        assert _sentences(sample) == ([1], [2])
    finally:
        sample.unlink()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_engine_areas_are_in_the_catalogue(lang: str) -> None:
    table = catalogue(lang)
    for key in (
        "captains_log.event.attack",
        "intercom.say.threat",
        "school.lesson.computer.title",
        "school.hint.blocked_lift",
    ):
        assert key in table, (lang, key)
