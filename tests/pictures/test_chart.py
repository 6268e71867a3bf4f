"""The /stats chart reads well with one flight and with a hundred (issue 24): title, score axis
with round ticks, dates along the bottom, a point per flight, a legend; golden pictures."""

from __future__ import annotations

import os
import random
from io import BytesIO

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.games.space_alert.stats.chart import CHART_SIZE, chart_alt, date_indices, nice_ticks, render_score_chart
from tests.pictures.helpers import GOLDEN

ONE = [("2026-11-20T10:00:00+00:00", 14, "survived")]


def hundred() -> list[tuple[str, int, str]]:
    rng = random.Random(3)
    return [
        (
            f"2026-{1 + i // 28:02d}-{1 + i % 28:02d}T10:00:00",
            rng.randint(-5, 40),
            "survived" if rng.random() < 0.7 else "destroyed",
        )
        for i in range(100)
    ]


def test_ticks_are_round_and_cover_the_scores() -> None:
    assert nice_ticks(0, 14) == [0, 5, 10, 15]
    assert nice_ticks(-5, 40) == [-20, 0, 20, 40]
    assert nice_ticks(0, 1) == [0, 1]


def test_dates_are_few_distinct_and_include_both_ends() -> None:
    dates = [d[:10] for d, _, _ in hundred()]
    picked = date_indices(dates)
    assert picked[0] == 0 and picked[-1] == 99 and len(picked) <= 6
    assert date_indices(["2026-01-01"] * 5) == [0]  # one day: its date once


def test_alt_text_sums_the_history_up() -> None:
    assert chart_alt(ONE) == "Score per flight: flights 1, from 2026-11-20 to 2026-11-20; best 14, latest 14."
    assert "полётов 100" in chart_alt(hundred(), "ru")


@pytest.mark.parametrize(
    ("name", "history", "lang"),
    [("chart_one_en.png", ONE, "en"), ("chart_hundred_ru.png", hundred(), "ru"), ("chart_empty_cs.png", [], "cs")],
)
def test_golden_chart(name: str, history: list[tuple[str, int, str]], lang: str) -> None:
    data = render_score_chart(history, lang=lang)
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_bytes(data)
    got = Image.open(BytesIO(data)).convert("RGB")
    assert got.size == CHART_SIZE
    golden = Image.open(path).convert("RGB")
    diff = ImageChops.difference(got, golden)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    changed = diff.convert("L").point(lambda px: 255 if px > 48 else 0).histogram()[255] / (got.width * got.height)
    assert mean < 1.5 and changed < 0.01, f"{name}: mean diff {mean:.2f}, {changed:.2%} changed"
