"""The score-history chart of /stats: a small PNG drawn with Pillow.

What a player must read off it, with one flight or with a hundred (issue 24): a title, the score
axis with round ticks, the flights in order along the bottom with their dates, one point per
flight (green survived, red destroyed on the zero line) and a legend; one flight is a labelled
point, not a lone dot; a hundred are small points on a line with a few dates, never a smear of
labels.  Words come from the /stats language (`bot/platform/locales/pictures`).

Drawing takes a few milliseconds of pure CPU, so the bot calls `score_chart` (which runs the
drawing in a worker thread) and never `render_score_chart` on the event loop.
"""

from __future__ import annotations

import asyncio
import io
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.games.space_alert.pictures.draw import font
from bot.platform.i18n import t

CHART_SIZE = (800, 300)
_BACKGROUND = (24, 26, 33)
_AXIS = (120, 124, 140)
_GRID = (48, 52, 64)
_ZERO = (90, 94, 110)
_INK = (230, 232, 240)
_LINE = (88, 166, 255)
_SURVIVED = (120, 220, 140)
_DESTROYED = (235, 87, 87)
_MAX_DATES = 6  # date labels along the bottom, at most


def nice_ticks(low: int, high: int, count: int = 5) -> list[int]:
    """Round score ticks covering low..high (0 included): steps of 1, 2, 5, 10, 20, 50…"""
    span = max(1, high - low)
    raw = span / max(1, count - 1)
    magnitude = 10 ** math.floor(math.log10(raw)) if raw >= 1 else 1
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    step = max(1, int(step))
    first = math.floor(low / step) * step
    return list(range(first, high + step, step))


def date_label(flown_at: str) -> str:
    """The date part of a logbook timestamp ("2026-11-27T05:00:00+00:00" -> "2026-11-27")."""
    return flown_at[:10]


def date_indices(dates: Sequence[str], room: int = _MAX_DATES) -> list[int]:
    """Which flights get a date label: the first and the last, and evenly between, each date once."""
    n = len(dates)
    if n == 0:
        return []
    picks = sorted({round(i * (n - 1) / max(1, room - 1)) for i in range(min(n, room))})
    out: list[int] = []
    for i in picks:
        if not out or dates[i] != dates[out[-1]]:
            out.append(i)
    return out


def render_score_chart(
    history: Sequence[tuple[str, int, str]], size: tuple[int, int] = CHART_SIZE, lang: str = "en"
) -> bytes:
    """PNG bytes of the totals of `history` ((flown_at, total, outcome), oldest first).

    An empty history gives the frame with its title and axes and no points.
    """
    width, height = size
    image = Image.new("RGB", size, _BACKGROUND)
    draw = ImageDraw.Draw(image)
    small, label, title_font = font(12), font(13), font(16, True)
    left, top, right, bottom = 58, 52, width - 16, height - 48
    draw.text((left, 10), t(lang, "chart.title", n=len(history)), font=title_font, fill=_INK)
    _legend(draw, lang, right, 12, small)
    totals = [total if outcome == "survived" else 0 for _, total, outcome in history]
    low, high = min(0, *totals) if totals else 0, max(1, *totals) if totals else 10
    ticks = nice_ticks(low, high)
    low, high = ticks[0], ticks[-1]
    span = max(1, high - low)

    def y_of(value: float) -> float:
        return bottom - (value - low) / span * (bottom - top)

    for tick in ticks:  # the score axis: round values, a faint grid line each
        y = y_of(tick)
        draw.line([(left, y), (right, y)], fill=_ZERO if tick == 0 else _GRID, width=1)
        draw.text((left - 6, y), str(tick), font=small, fill=_AXIS, anchor="rm")
    draw.line([(left, top), (left, bottom), (right, bottom)], fill=_AXIS, width=1)
    draw.text((left, top - 12), t(lang, "chart.y"), font=label, fill=_AXIS, anchor="ls")
    draw.text(((left + right) / 2, height - 6), t(lang, "chart.x"), font=label, fill=_AXIS, anchor="ms")
    if not history:
        return _png(image)
    n = len(totals)
    pad = 24
    step = (right - left - 2 * pad) / max(1, n - 1)
    xs = [left + pad + i * step if n > 1 else (left + right) / 2 for i in range(n)]
    points = [(x, y_of(v)) for x, v in zip(xs, totals, strict=True)]
    survived = [p for p, (_, _, outcome) in zip(points, history, strict=True) if outcome == "survived"]
    if len(survived) > 1:
        draw.line(survived, fill=_LINE, width=2 if n <= 50 else 1)
    radius = 5 if n <= 20 else 3 if n <= 60 else 2
    for (x, y), (_, _, outcome) in zip(points, history, strict=True):
        colour = _SURVIVED if outcome == "survived" else _DESTROYED
        draw.ellipse([x - radius, y - radius, x + radius, y + radius], fill=colour)
    # values: every point while few, else the best and the latest
    labelled = range(n) if n <= 12 else sorted({totals.index(max(totals)), n - 1})
    for i in labelled:
        x, y = points[i]
        draw.text((x, y - radius - 3), str(totals[i]), font=small, fill=_INK, anchor="ms")
    dates = [date_label(flown_at) for flown_at, _, _ in history]
    for i in date_indices(dates, min(_MAX_DATES, max(1, int((right - left) // 110)))):
        x = xs[i]
        draw.line([(x, bottom), (x, bottom + 4)], fill=_AXIS, width=1)
        anchor = "la" if x - left < 40 else "ra" if right - x < 40 else "ma"
        draw.text((x, bottom + 6), dates[i], font=small, fill=_AXIS, anchor=anchor)
    return _png(image)


def _legend(draw: ImageDraw.ImageDraw, lang: str, right: int, y: int, small: object) -> None:
    x = right
    for key, colour in (("chart.destroyed", _DESTROYED), ("chart.survived", _SURVIVED)):
        text = t(lang, key)
        x -= int(draw.textlength(text, font=small)) + 4  # type: ignore[arg-type]
        draw.text((x, y + 1), text, font=small, fill=_AXIS)  # type: ignore[arg-type]
        x -= 14
        draw.ellipse([x, y + 3, x + 9, y + 12], fill=colour)
        x -= 14


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def chart_alt(history: Sequence[tuple[str, int, str]], lang: str = "en") -> str:
    """The chart's alt text: how many flights, from when to when, the best and the latest score."""
    if not history:
        return t(lang, "chart.title", n=0)
    totals = [total if outcome == "survived" else 0 for _, total, outcome in history]
    return t(
        lang,
        "chart.alt",
        n=len(history),
        first=date_label(history[0][0]),
        last=date_label(history[-1][0]),
        best=max(totals),
        latest=totals[-1],
    )


async def score_chart(
    history: Sequence[tuple[str, int, str]], size: tuple[int, int] = CHART_SIZE, lang: str = "en"
) -> bytes:
    """`render_score_chart` off the event loop."""
    return await asyncio.to_thread(render_score_chart, list(history), size, lang)
