"""Every code the engine refuses with or ends a voyage with has words in en, ru, cs and sk
(read from the engine's source, so a new code cannot be missed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.legion.pack import PackRefusal

ROOT = Path(__file__).resolve().parents[2]
RULES = (ROOT / "engine" / "legion" / "rules.py").read_text(encoding="utf-8")
LANGS = ("en", "ru", "cs", "sk")


def _codes() -> set[str]:
    refusals = set(re.findall(r'_need\(.*, "([a-z_]+)"\)\s*$', RULES, re.M))
    refusals |= set(re.findall(r'Rejected\("([a-z_]+)"\)', RULES))
    endings = set(re.findall(r'_end\(state, "\w+", "([a-z_]+)"', RULES)) | {"ship_destroyed"}
    packs = {"not_json", "too_large", "schema", "reference", "duplicate_id", "incomplete"}
    return (
        {f"legion.reject.{c}" for c in refusals}
        | {f"legion.end.{c}" for c in endings}
        | {f"legion.pack.{c}" for c in packs}
    )


@pytest.mark.parametrize("lang", LANGS)
def test_every_code_has_words(lang: str) -> None:
    table = json.loads((ROOT / "bot" / "platform" / "locales" / "legion" / f"{lang}.json").read_text(encoding="utf-8"))
    assert len(_codes()) > 25
    assert not _codes() - set(table)


def test_languages_share_their_keys() -> None:
    keys = [
        set(json.loads((ROOT / "bot" / "platform" / "locales" / "legion" / f"{lang}.json").read_text()))
        for lang in LANGS
    ]
    assert all(k == keys[0] for k in keys)
    assert PackRefusal("schema").code == "schema"
