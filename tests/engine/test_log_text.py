"""Every resolution event kind and every code it carries has words in every language's table.

The kinds and codes are enumerated from engine/vocab.py (the rules' `Mission.emit` only accepts
an `EventKind`), the tables from engine/log_text.  A real resolution is rendered in all three
languages, and the rules are checked never to import the presentation package.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

from engine import log_text, vocab
from engine.log_text import TABLES, describe, lost_cause
from engine.random_game import random_game
from engine.resolution.mission import resolve

ENGINE = Path(__file__).resolve().parents[2] / "engine"
CODE_FAMILIES = (
    "ZONES",
    "MOVE_HOWS",
    "DELAY_CAUSES",
    "NO_EFFECT_REASONS",
    "THREAT_NO_EFFECTS",
    "HIT_HOWS",
    "WEAPONS",
    "BOTS_CHANGES",
    "ENERGY_STORES",
    "DAMAGE_TOKEN_KINDS",
)


@pytest.mark.parametrize("lang", vocab.LANGUAGES)
def test_every_event_kind_has_a_template(lang: vocab.Language) -> None:
    assert set(TABLES[lang].templates) == set(vocab.EVENT_KINDS)


@pytest.mark.parametrize("lang", vocab.LANGUAGES)
@pytest.mark.parametrize("family", CODE_FAMILIES)
def test_every_code_has_words(lang: vocab.Language, family: str) -> None:
    codes = set(getattr(vocab, family))
    words = TABLES[lang].codes[family]
    assert set(words) == codes
    assert all(text.strip() for text in words.values())


def test_the_rules_emit_only_known_kinds_and_never_import_the_presentation() -> None:
    emitted: set[str] = set()
    for folder in ("resolution", "threats"):
        for path in (ENGINE / folder).glob("*.py"):
            text = path.read_text(encoding="utf-8")
            emitted |= set(re.findall(r'm\.emit\(\s*"([a-z_]+)"', text))
            assert "log_text" not in text.replace("from engine.log_text import describe", ""), path
    for name in ("board.py", "state.py"):
        assert "log_text" not in (ENGINE / name).read_text(encoding="utf-8")
    assert emitted == set(vocab.EVENT_KINDS)


def _log(seed: int) -> list[dict[str, Any]]:
    game = random_game(random.Random(seed))
    result = resolve(game, log=True)
    return result.to_json_dict(with_log=True)["log"]


@pytest.mark.parametrize("lang", vocab.LANGUAGES)
def test_real_resolutions_render_without_raw_codes(lang: vocab.Language) -> None:
    codes = {c for family in CODE_FAMILIES for c in getattr(vocab, family) if "_" in c}
    seen = 0
    for seed in range(40):
        for entry in _log(seed):
            line = describe(lang, entry)
            assert line and not any(re.search(rf"\b{code}\b", line) for code in codes), (lang, entry, line)
            seen += 1
    assert seen > 500


def test_the_cli_text_is_the_english_table() -> None:
    for entry in _log(3):
        assert entry["text"] == describe("en", entry)


def test_the_lost_cause_is_named_in_every_language() -> None:
    assert lost_cause("en", "SE2-05") == "Nemesis (SE2-05)"
    assert lost_cause("en", "zone red destroyed") == "the red zone is destroyed"
    assert lost_cause("ru", "zone blue destroyed") == "синий сектор уничтожен"
    assert lost_cause("cs", "zone white destroyed") == "bílá zóna je zničena"
    assert log_text.ENGLISH_NAMES.card_text("E1-01", "Y") == "attack 1 in every zone"
