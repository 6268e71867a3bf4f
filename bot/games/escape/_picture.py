"""The station as a picture (Pillow): the 5 × 5 tiles with fog of war, the pawns, the clock.

Why from `public_view` only: the picture goes to the public post, so it is drawn from the view
that holds no mission, no item and only the tiles every player has seen (rules doc D18); an
unseen tile is drawn dark with no name, whatever it is.  Pawns are public (they stand on the
table in the box game).  Pure: the same game gives the same bytes.
"""

from __future__ import annotations

import io
from typing import Any

from PIL import Image, ImageDraw

from bot.platform.fonts import font
from bot.platform.i18n import t

CELL = 120
MARGIN = 12
HEAD = 44
PAWN_COLOURS = ((220, 60, 60), (60, 120, 230), (60, 180, 90), (230, 200, 50))
TILE_COLOURS: dict[str, tuple[int, int, int]] = {
    "start": (70, 90, 110),
    "corridor": (80, 86, 96),
    "crate": (120, 96, 60),
    "trap": (150, 70, 50),
    "hyperportal": (90, 70, 150),
    "lift": (60, 110, 130),
    "medbay": (60, 130, 90),
    "docks": (50, 90, 150),
    "warehouse": (130, 110, 70),
    "reactor": (160, 140, 40),
    "armoury": (120, 70, 70),
    "lab": (70, 140, 140),
    "control_center": (150, 90, 40),
}
UNSEEN = (22, 24, 30)


def _wrap(text: str, width: int = 12) -> list[str]:
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    if line:
        lines.append(line)
    return lines[:3]


def station_png(lang: str, view: dict[str, Any]) -> bytes:
    """The PNG of a view (`public_view` or a seat's `player_view`): dark tiles for the unseen."""
    size = MARGIN * 2 + CELL * 5
    image = Image.new("RGB", (size, size + HEAD), (12, 14, 20))
    draw = ImageDraw.Draw(image)
    clock = view["clock"]
    head = t(lang, "escape.ui.clock", hour=clock["hour"], limit=clock["limit"])
    draw.text((MARGIN, 10), head, fill=(230, 230, 230), font=font(22))
    board = view["board"] or [[None] * 5 for _ in range(5)]
    for r, row in enumerate(board):
        for c, kind in enumerate(row):
            x, y = MARGIN + c * CELL, HEAD + MARGIN + r * CELL
            colour = UNSEEN if kind is None else TILE_COLOURS.get(kind, (90, 90, 90))
            draw.rectangle((x + 2, y + 2, x + CELL - 3, y + CELL - 3), fill=colour, outline=(200, 200, 210))
            if kind is not None:
                for i, line in enumerate(_wrap(t(lang, f"escape.tile.{kind}"))):
                    draw.text((x + 8, y + 8 + i * 18), line, fill=(245, 245, 245), font=font(15))
            else:
                draw.text((x + CELL // 2 - 6, y + CELL // 2 - 12), "?", fill=(90, 90, 100), font=font(22))
    by_cell: dict[tuple[int, int], list[int]] = {}
    for p in view["players"]:
        by_cell.setdefault((p["cell"][0], p["cell"][1]), []).append(p["seat"])
    for (r, c), seats in by_cell.items():
        for k, seat in enumerate(seats):
            x = MARGIN + c * CELL + 14 + k * 26
            y = HEAD + MARGIN + r * CELL + CELL - 38
            draw.ellipse((x, y, x + 22, y + 22), fill=PAWN_COLOURS[seat % 4], outline=(255, 255, 255))
            draw.text((x + 6, y + 2), str(seat + 1), fill=(0, 0, 0), font=font(15))
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
