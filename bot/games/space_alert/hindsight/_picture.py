"""The real and the changed plans side by side in one picture (issue 29): every crew member's twelve
turns, the real plan on the left and the plan with the hindsight change on the right, the changed
turns framed on both sides, each side headed by its outcome.

The two overview pictures show what happened to the ship; this one shows what the crew would have
had to do differently, which is the answer's point.  Blocking (Pillow): call it in a thread.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.games.space_alert.hindsight._answer import Found
from bot.games.space_alert.pictures.draw import BG, CREW_RGB, DAMAGE, DIM, ENERGY, HIT, INK, PANEL, fit, font, png
from bot.games.space_alert.pictures.labels import crew_label, word
from bot.platform.i18n import t
from engine.board import BLANK, TURNS
from engine.model import Game, Result

CELL = 30
NAME_W = 118
GAP = 24
MARGIN = 16
HEAD_H = 64
ROW_H = 38
PANEL_W = NAME_W + TURNS * CELL
HEROIC = (255, 205, 110)  # heroic cards in gold, as on the cards themselves

# a card half as drawn in a cell: moves as arrows, actions as their letter
GLYPH = {"<": "←", ">": "→", "^": "↕", "a": "A", "b": "B", "c": "C", "x": "X", BLANK: ""}


def _glyph(code: str) -> tuple[str, tuple[int, int, int]]:
    if code in GLYPH:
        return GLYPH[code], INK
    return code, HEROIC  # A, B, X and the heroic moves 1-6


def _outcome(lang: str, result: Result) -> tuple[str, tuple[int, int, int]]:
    if result.outcome == "destroyed":
        return word(lang, "lost"), DAMAGE
    return f"{word(lang, 'survived_flight')} · {word(lang, 'score', total=result.score.total)}", ENERGY


def plans_picture(found: Found, played: Game, lang: str) -> bytes:
    """PNG: the real plans (left) and the changed ones (right), changed turns framed."""
    real = {p.name: p.codes for p in played.players}
    changed = found.answer.plans
    names = [p.name for p in played.players]
    width = 2 * MARGIN + 2 * PANEL_W + GAP
    height = HEAD_H + len(names) * ROW_H + MARGIN
    img = Image.new("RGB", (width, height), BG)
    d = ImageDraw.Draw(img)
    sides = [
        (t(lang, "hindsight.real"), real, found.answer.played),
        (t(lang, "hindsight.changed"), changed, found.answer.result),
    ]
    small, big, bold = font(13), font(17), font(15, bold=True)
    for side, (title, plans, result) in enumerate(sides):
        x0 = MARGIN + side * (PANEL_W + GAP)
        d.text((x0, 8), fit(title, 15, PANEL_W, bold=True), font=bold, fill=INK)
        text, colour = _outcome(lang, result)
        d.text((x0, 28), fit(text, 13, PANEL_W), font=small, fill=colour)
        for turn in range(1, TURNS + 1):
            d.text((x0 + NAME_W + (turn - 1) * CELL + 9, HEAD_H - 16), str(turn), font=small, fill=DIM)
        for row, name in enumerate(names):
            y = HEAD_H + row * ROW_H
            label = fit(crew_label(lang, name), 13, NAME_W - 8)
            d.text((x0, y + 10), label, font=small, fill=CREW_RGB[row % len(CREW_RGB)])
            for turn in range(1, TURNS + 1):
                cx = x0 + NAME_W + (turn - 1) * CELL
                box = (cx + 1, y + 4, cx + CELL - 2, y + ROW_H - 4)
                differs = real[name][turn - 1] != changed[name][turn - 1]
                d.rectangle(box, fill=PANEL, outline=HIT if differs else None, width=3 if differs else 1)
                glyph, ink = _glyph(plans[name][turn - 1])
                if glyph:
                    w = d.textlength(glyph, font=big)
                    d.text((cx + (CELL - w) / 2, y + 8), glyph, font=big, fill=ink)
    return png(img)
