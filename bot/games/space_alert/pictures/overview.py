"""The result post's picture: the final board with the outcome and score, and below it the damage
story: for every turn, the damage tokens each zone took and the threats destroyed or survived.

One still image rather than an animation: it is ~100 kB (far under Discord's upload limit), it is
readable in the channel without pressing play, and the turn-by-turn pictures are one button away
in /replay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from bot.games.space_alert.pictures.draw import BG, DAMAGE, DIM, ENERGY, INK, PANEL, ZONE_RGB, H, Painter, W, font, png
from bot.games.space_alert.pictures.labels import word
from engine import board

if TYPE_CHECKING:
    from bot.games.space_alert.pictures.states import Replay

STORY_H = 178


def render_overview(replay: Replay, lang: str = "en") -> bytes:
    """PNG for the result post: the final board plus the damage story (call it via asyncio.to_thread)."""
    result = replay.result
    final = replay.last
    right = (
        word(lang, "lost") if result.outcome == "destroyed" else word(lang, "survived_flight")
    ) + f" · {word(lang, 'score', total=result.score.total)}"
    painter = Painter(final, lang, replay.track_columns, height=H, every_fate=True, turns=replay.turns)
    painter.paint(title_right=right if not final.lost else None)
    img = Image.new("RGB", (W, H + STORY_H), BG)
    img.paste(painter.img, (0, 0))
    _story(ImageDraw.Draw(img), replay, lang, H)
    return png(img)


def _story(d: ImageDraw.ImageDraw, replay: Replay, lang: str, top: int) -> None:
    d.rectangle((0, top, W, top + STORY_H), fill=PANEL)
    d.text((14, top + 6), word(lang, "story"), font=font(18, True), fill=INK)
    turns = [s for s in replay.states if s.turn >= 1]
    columns = replay.turns + 1  # every turn and the jump
    col_w = (W - 110) // columns
    for zi, zone in enumerate(board.ZONES):
        y = top + 54 + zi * 30
        d.rectangle((14, y + 2, 34, y + 22), fill=ZONE_RGB[zone])
        total = len(replay.last.damage[zone])
        d.text((100, y + 12), str(total), font=font(20, True), fill=DAMAGE, anchor="rm")
    fates_y = top + 54 + 3 * 30
    prev = {z: 0 for z in board.ZONES}
    for s in turns:
        x = 110 + (min(s.turn, columns) - 1) * col_w
        d.text((x + col_w / 2, top + 42), str(s.turn), font=font(15, True), fill=DIM, anchor="mm")
        for zi, zone in enumerate(board.ZONES):
            y = top + 54 + zi * 30
            taken = len(s.damage[zone]) - prev[zone]
            prev[zone] = len(s.damage[zone])
            d.rectangle((x + 2, y, x + col_w - 2, y + 24), outline=(60, 66, 88))
            if taken:
                d.rectangle((x + 2, y, x + col_w - 2, y + 24), fill=DAMAGE)
                d.text((x + col_w / 2, y + 12), str(taken), font=font(17, True), fill=INK, anchor="mm")
        marks = []
        for t in s.threats:
            if t.fate_turn == s.turn and t.fate is not None:
                marks.append((("✗" if t.fate == "destroyed" else "✓") + str(t.number), t.fate))
        if len(marks) > 4:
            marks = [*marks[:3], (f"+{len(marks) - 3}", "")]
        for i, (text, fate) in enumerate(marks):  # two per line, two lines
            colour = ENERGY if fate == "destroyed" else DAMAGE if fate else DIM
            cx = x + col_w / 2 + (0 if len(marks) == 1 else (-16 if i % 2 == 0 else 16))
            d.text((cx, fates_y + 4 + (i // 2) * 18), text, font=font(15, True), fill=colour, anchor="mt")
