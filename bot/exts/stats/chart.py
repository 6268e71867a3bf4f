"""The score-history chart of /stats: a small PNG drawn with Pillow.

Drawing takes a few milliseconds of pure CPU, so the bot calls `score_chart` (which runs the
drawing in a worker thread) and never `render_score_chart` on the event loop.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence

from PIL import Image, ImageDraw

CHART_SIZE = (800, 300)
_MARGIN = 36
_BACKGROUND = (24, 26, 33)
_AXIS = (120, 124, 140)
_ZERO = (70, 74, 88)
_LINE = (88, 166, 255)
_SURVIVED = (120, 220, 140)
_DESTROYED = (235, 87, 87)


def render_score_chart(history: Sequence[tuple[str, int, str]], size: tuple[int, int] = CHART_SIZE) -> bytes:
    """PNG bytes of the totals of `history` ((flown_at, total, outcome), oldest first).

    Survived flights are green dots joined by a line; destroyed ships (no score) are red dots on
    the zero line.  An empty history gives an empty frame of the same size.
    """
    width, height = size
    image = Image.new("RGB", size, _BACKGROUND)
    draw = ImageDraw.Draw(image)
    left, top, right, bottom = _MARGIN, _MARGIN // 2, width - _MARGIN // 2, height - _MARGIN
    draw.line([(left, top), (left, bottom), (right, bottom)], fill=_AXIS, width=1)
    if history:
        totals = [total if outcome == "survived" else 0 for _, total, outcome in history]
        low, high = min(0, *totals), max(1, *totals)
        span = high - low

        def y_of(value: int) -> float:
            return bottom - (value - low) / span * (bottom - top)

        step = (right - left) / max(1, len(totals) - 1)
        points = [(left + i * step if len(totals) > 1 else (left + right) / 2, y_of(v)) for i, v in enumerate(totals)]
        draw.line([(left, y_of(0)), (right, y_of(0))], fill=_ZERO, width=1)
        survived = [p for p, (_, _, outcome) in zip(points, history, strict=True) if outcome == "survived"]
        if len(survived) > 1:
            draw.line(survived, fill=_LINE, width=2)
        radius = 3 if len(points) < 100 else 2
        for (x, y), (_, _, outcome) in zip(points, history, strict=True):
            colour = _SURVIVED if outcome == "survived" else _DESTROYED
            draw.ellipse([x - radius, y - radius, x + radius, y + radius], fill=colour)
        draw.text((4, top), str(high), fill=_AXIS)
        draw.text((4, bottom - 10), str(low), fill=_AXIS)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


async def score_chart(history: Sequence[tuple[str, int, str]], size: tuple[int, int] = CHART_SIZE) -> bytes:
    """`render_score_chart` off the event loop."""
    return await asyncio.to_thread(render_score_chart, list(history), size)
