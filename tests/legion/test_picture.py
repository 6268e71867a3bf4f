"""The bridge's picture (bot/games/legion/_picture.py) is a PNG of public facts only."""

from __future__ import annotations

from io import BytesIO

import pytest
from PIL import Image

from bot.games.legion._picture import H, W, bridge_png
from engine.legion.pack import default_pack
from engine.legion.setup import new_voyage

CONTENT = default_pack()
NAMES = ["Ann", "Борис", "Čeněk", "Di"]


@pytest.mark.parametrize("lang", ["en", "ru", "cs", "sk"])
def test_the_picture_is_a_png_of_the_bridge(lang: str) -> None:
    state, _ = new_voyage(CONTENT, 4, 5, mission="delivery", ship="kestrel")
    image = Image.open(BytesIO(bridge_png(lang, NAMES, state)))
    assert image.format == "PNG" and image.size == (W, H)


def test_the_picture_never_shows_a_side_or_a_hand() -> None:
    """Two voyages that differ only in who is the Legion's agent and what the hands hold draw the
    very same picture."""
    state, _ = new_voyage(CONTENT, 4, 5, mission="delivery", ship="kestrel")
    before = bridge_png("en", NAMES, state)
    agent = next(i for i, seat in enumerate(state.seats) if seat.side == "legion")
    other = (agent + 1) % 4
    state.seats[agent].side, state.seats[other].side = "crew", "legion"
    state.seats[0].hand, state.seats[1].hand = state.seats[1].hand, list(reversed(state.seats[0].hand))
    assert bridge_png("en", NAMES, state) == before
    state.ship.hull -= 3  # while a public fact does change it
    assert bridge_png("en", NAMES, state) != before
