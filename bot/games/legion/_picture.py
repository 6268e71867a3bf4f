"""The bridge's picture: the ship's gauges and the crew's tracks at a glance, drawn with Pillow.

Why a picture beside the text: the bridge is read many times a tour, and bars are read faster
than numbers in a paragraph.  It shows only public facts (hull, supply, goods, credits, the
mission's progress, the enemy, each seat's Health and Mental and roles), never a side or a card.
Words come from the locale; the font is the platform's bundled DejaVu (bot/platform/fonts: Cyrillic
names, the same glyphs on every machine).
"""

from __future__ import annotations

from io import BytesIO

from PIL import Image, ImageDraw

from bot.platform.fonts import font
from bot.platform.i18n import t
from bot.platform.text import strip_unsafe
from engine.legion.state import COMPARTMENT, START_HEALTH, START_MENTAL, State

W, H = 900, 350
BG = (20, 16, 24)
PANEL = (40, 32, 44)
INK = (240, 236, 240)
DIM = (150, 140, 156)
RED = (200, 48, 56)
GREEN = (84, 196, 110)
BLUE = (80, 140, 230)
AMBER = (236, 180, 60)
EMPTY = (70, 60, 76)


def _bar(draw: ImageDraw.ImageDraw, x: int, y: int, w: int, value: int, top: int, colour: tuple[int, int, int]) -> None:
    draw.rounded_rectangle((x, y, x + w, y + 16), radius=6, fill=EMPTY)
    if top > 0 and value > 0:
        draw.rounded_rectangle((x, y, x + max(12, w * min(value, top) // top), y + 16), radius=6, fill=colour)


def bridge_png(lang: str, names: list[str], state: State) -> bytes:
    """The picture as PNG bytes (about 30 kB)."""
    image = Image.new("RGB", (W, H), BG)
    draw = ImageDraw.Draw(image)
    small, big = font(17), font(22)
    ship = state.ship
    mission = state.content.missions[state.mission]
    draw.rounded_rectangle((12, 12, 420, H - 12), radius=12, fill=PANEL)
    gauges = [
        (t(lang, "legion.picture.hull"), ship.hull, ship.max_hull, RED if ship.hull * 3 <= ship.max_hull else GREEN),
        (t(lang, "legion.picture.supply"), state.supply(), COMPARTMENT * len(ship.hold), AMBER),
        (t(lang, "legion.picture.goods"), state.goods(), COMPARTMENT * len(ship.hold), BLUE),
        (t(lang, "legion.picture.flight"), state.flight, mission.flights, INK),
    ]
    y = 28
    for label, value, top, colour in gauges:
        draw.text((28, y), f"{label}: {value}/{top}", font=small, fill=INK)
        _bar(draw, 28, y + 24, 376, value, top, colour)
        y += 58
    draw.text((28, y), f"{state.credits} Cr", font=big, fill=AMBER)
    if state.combat is not None:
        text = t(lang, "legion.picture.enemy", attack=state.combat.attack)
        draw.rounded_rectangle((200, y - 4, 404, y + 30), radius=8, fill=RED)
        draw.text((212, y), text, font=small, fill=INK)
    draw.rounded_rectangle((436, 12, W - 12, H - 12), radius=12, fill=PANEL)
    y = 26
    for index, seat in enumerate(state.seats):
        colour = DIM if seat.out else INK
        roles = [r for r in ("captain", "officer", "gunner", "pilot") if r in state.roles.get(index, [])]
        mark = " ★" if "captain" in roles else ""
        name = strip_unsafe(names[index] if index < len(names) else "?")[:24]
        draw.text((452, y), f"{index + 1}. {name}{mark}", font=big, fill=colour)
        draw.text((452, y + 28), f"{t(lang, 'legion.picture.health')} {seat.health}", font=small, fill=DIM)
        _bar(draw, 590, y + 30, 270, seat.health, START_HEALTH, GREEN if not seat.out else EMPTY)
        draw.text((452, y + 50), f"{t(lang, 'legion.picture.mental')} {seat.mental}", font=small, fill=DIM)
        _bar(draw, 590, y + 52, 270, seat.mental, START_MENTAL, BLUE if not seat.broken else EMPTY)
        y += 80
    out = BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
