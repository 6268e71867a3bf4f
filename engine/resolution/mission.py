"""Placeholder replaced by the real turn loop in the next commit."""
from __future__ import annotations

from typing import Any

from engine.model import Game, Result


def resolve(game: Game | dict[str, Any], *, log: bool = False) -> Result:
    raise NotImplementedError("resolution is being written")
