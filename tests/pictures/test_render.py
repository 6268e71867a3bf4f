"""The pictures: valid PNGs of the right size with real content, no overlaps in the worst case,
and golden images of a fixed flight compared with a tolerance (font rasterising differs a little
between FreeType versions, so a few pixels may differ, a layout change may not).

Regenerate the goldens after an intended change with `UPDATE_GOLDEN=1 pytest tests/pictures` and
look at them before committing.
"""

from __future__ import annotations

import os
from io import BytesIO

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.games.space_alert.pictures import W, render_overview, render_state, render_turn
from bot.games.space_alert.pictures.draw import HIT, SHOT, H, event_lines, marks_of
from bot.games.space_alert.pictures.overview import STORY_H
from tests.pictures.helpers import GOLDEN, crowded, flight_replay, overlaps

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
DISCORD_UPLOAD_LIMIT = 10 * 1024 * 1024


@pytest.fixture(scope="module")
def replay():  # type: ignore[no-untyped-def]
    return flight_replay()


def image(data: bytes) -> Image.Image:
    assert data.startswith(PNG_MAGIC)
    img = Image.open(BytesIO(data))
    img.load()
    return img


def colours(img: Image.Image) -> set[tuple[int, ...]]:
    found = img.getcolors(maxcolors=1 << 20) or []
    return {c for _, c in found}


def test_every_turn_is_a_full_size_png_with_content(replay) -> None:  # type: ignore[no-untyped-def]
    for i in range(len(replay.states)):
        data = render_turn(replay, i, "en")
        img = image(data)
        assert img.size == (W, H)
        assert 10_000 < len(data) < 1_000_000
        assert len(colours(img.convert("RGB"))) > 50, f"turn {i} looks empty"


def test_turns_differ_and_languages_differ(replay) -> None:  # type: ignore[no-untyped-def]
    assert render_turn(replay, 6) != render_turn(replay, 7)
    assert render_turn(replay, 7, "en") != render_turn(replay, 7, "ru") != render_turn(replay, 7, "cs")


def test_index_outside_the_flight_is_refused(replay) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(IndexError):
        render_turn(replay, len(replay.states))
    with pytest.raises(IndexError):
        render_turn(replay, -1)


def test_overview_is_one_image_under_discords_limit(replay) -> None:  # type: ignore[no-untyped-def]
    data = render_overview(replay, "en")
    assert image(data).size == (W, H + STORY_H)
    assert len(data) < DISCORD_UPLOAD_LIMIT // 20


def test_turn_events_are_highlighted(replay) -> None:  # type: ignore[no-untyped-def]
    state = replay.states[7]  # three threats destroyed, white attacked for 3
    marks = marks_of(state.events)
    assert marks.attacked == {"white": 3} and marks.new_tokens == {"white": 3}
    assert "upper_white" in marks.fired
    lines = [text for text, _ in event_lines(state.events, "en")]
    assert "✗ 6 Fighter" in lines and any(line.startswith("⚔ white 3") for line in lines)
    img = render_state(replay, 7).img
    pixels = colours(img)
    assert SHOT in pixels and HIT in pixels  # shot lines and hit outlines drawn
    assert SHOT not in colours(render_state(replay, 1).img)


def test_five_crew_and_eight_threats_do_not_overlap(replay) -> None:  # type: ignore[no-untyped-def]
    painter = render_state(crowded(replay), 7, "en")
    threats = [box for kind, box in painter.boxes if kind == "threat"]
    crew = [box for kind, box in painter.boxes if kind == "crew"]
    assert len(threats) == 8 and len(crew) == 5
    for group in (threats, crew):
        for i, a in enumerate(group):
            assert 0 <= a[0] < a[2] <= W and 0 <= a[1] < a[3] <= H, a
            for b in group[i + 1 :]:
                assert not overlaps(a, b), (a, b)
    cards_h = [b[3] - b[1] for b in threats]
    assert min(cards_h) >= 40  # still two lines each: name, then health


@pytest.mark.parametrize(
    ("name", "make"),
    [
        ("turn07_en.png", lambda r: render_turn(r, 7, "en")),
        ("turn04_ru.png", lambda r: render_turn(r, 4, "ru")),
        ("crowded_cs.png", lambda r: render_turn(crowded(r), 7, "cs")),
        ("overview_en.png", lambda r: render_overview(r, "en")),
    ],
)
def test_golden(replay, name: str, make) -> None:  # type: ignore[no-untyped-def]
    data = make(replay)
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_bytes(data)
    golden = Image.open(path).convert("RGB")
    got = image(data).convert("RGB")
    assert got.size == golden.size
    diff = ImageChops.difference(got, golden)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    changed = diff.convert("L").point(lambda px: 255 if px > 48 else 0).histogram()[255] / (got.width * got.height)
    assert mean < 1.5 and changed < 0.01, f"{name}: mean diff {mean:.2f}, {changed:.2%} pixels changed"
