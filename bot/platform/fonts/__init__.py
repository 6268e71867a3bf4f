"""The fonts every game's pictures draw with: DejaVu Sans, regular and bold, shipped here with
their licence (see README.md beside this file).

Why the platform holds them: Space Alert, Scarlet Legion and Escape all draw Latin, Czech, Slovak
and Cyrillic words into PNGs, and a picture should look the same on every machine, whatever fonts
the system has.  A game reads them only through `font`, never by a path into another game's
package, so the games stay independent of one another.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from PIL import ImageFont

REGULAR = "DejaVuSans.ttf"
BOLD = "DejaVuSans-Bold.ttf"


@cache
def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """DejaVu Sans (bold when asked) at `size` pixels, loaded once per size and weight."""
    name = BOLD if bold else REGULAR
    with resources.as_file(resources.files(__name__).joinpath(name)) as path:
        return ImageFont.truetype(str(path), size)
