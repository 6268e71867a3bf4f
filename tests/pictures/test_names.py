"""Names in pictures are never cut (issue 24): every threat card's name in every language, and
long crew names, fit whole (smaller, or on two lines); localized pictures show no English damage
codes or android names; golden pictures of the longest names in each language."""

from __future__ import annotations

import os
from io import BytesIO

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.games.space_alert.pictures import render_state, render_turn
from bot.games.space_alert.pictures.draw import fitted
from bot.games.space_alert.pictures.labels import TOKEN_KINDS, crew_label, token_short
from bot.platform.i18n import catalogue
from engine.threats.catalog import base_cards
from tests.pictures.helpers import GOLDEN, flight_replay, longest_threats, with_threats

LANGS = ("en", "ru", "cs", "sk")


@pytest.fixture(scope="module")
def replay():  # type: ignore[no-untyped-def]
    return flight_replay()


@pytest.mark.parametrize("lang", LANGS)
def test_every_threat_name_and_long_crew_names_fit_whole(replay, lang: str) -> None:  # type: ignore[no-untyped-def]
    ids = sorted(base_cards())
    for start in range(0, len(ids), 12):  # four cards a track, the narrowest (external) tracks
        painter = render_state(with_threats(replay, ids[start : start + 12]), 7, lang)
        assert painter.cut == [], (lang, painter.cut)


def test_the_rule_cuts_only_what_cannot_fit_and_says_so() -> None:
    assert fitted("Fighter", 17, 200, True).lines == ("Fighter",)
    shrunk = fitted("Cryoshield Fighter", 17, 150, True, min_size=12)
    assert shrunk.lines == ("Cryoshield Fighter",) and 12 <= shrunk.size < 17 and not shrunk.cut
    two = fitted("Alexandra the Great", 17, 70, True, min_size=11, lines=2)
    assert len(two.lines) == 2 and not two.cut and " ".join(two.lines) == "Alexandra the Great"
    hopeless = fitted("A very long name that no box of this size holds", 17, 40, True, min_size=11, lines=2)
    assert hopeless.cut and hopeless.lines[-1].endswith("…")


def test_localized_pictures_have_their_own_words_for_tokens_androids_and_labels() -> None:
    english = {token_short("en", token) for token in TOKEN_KINDS}
    words = {key for key in catalogue("en") if key.startswith("picture.")}
    for lang in ("ru", "cs", "sk"):
        assert not english & {token_short(lang, token) for token in TOKEN_KINDS}, lang
        assert words <= set(catalogue(lang)), lang
    assert crew_label("ru", "Android 3") == "Андроид 3" and crew_label("ru", "Ann") == "Ann"


@pytest.mark.parametrize("lang", LANGS)
def test_golden_longest_names(replay, lang: str) -> None:  # type: ignore[no-untyped-def]
    data = render_turn(with_threats(replay, longest_threats(lang)), 7, lang)
    path = GOLDEN / f"longest_{lang}.png"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_bytes(data)
    golden = Image.open(path).convert("RGB")
    got = Image.open(BytesIO(data)).convert("RGB")
    diff = ImageChops.difference(got, golden)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    changed = diff.convert("L").point(lambda px: 255 if px > 48 else 0).histogram()[255] / (got.width * got.height)
    assert mean < 1.5 and changed < 0.01, f"longest_{lang}.png: mean diff {mean:.2f}, {changed:.2%} changed"
