"""Alt text for the pictures (issue 24): what a screen reader, or a player whose client does not
load images, gets instead of the board: the turn, the damage per zone, the threats on the tracks
by name and the crew, in the picture's language.  Discord shows it as the attachment's
description (`discord.File(description=...)`), which holds up to 1,024 characters."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.games.space_alert.pictures.labels import crew_label, threat_label, turn_title, word
from bot.platform.i18n import t
from bot.platform.text import strip_unsafe
from engine import board

if TYPE_CHECKING:
    from bot.games.space_alert.pictures.states import Replay, TurnState

MAX_ALT = 1024


def _damage(lang: str, state: TurnState) -> str:
    counts = {zone: len(state.damage[zone]) for zone in board.ZONES}
    return t(lang, "alt.damage", **{zone: counts[zone] for zone in board.ZONES})


def _threats(lang: str, state: TurnState) -> str:
    present = [th for th in state.threats if th.appeared and th.fate is None and (th.visible or th.internal)]
    if not present:
        return t(lang, "alt.no_threats")
    names = ", ".join(f"{threat_label(lang, th.id)} ({th.remaining}/{th.health})" for th in present)
    return t(lang, "alt.threats", names=names)


def _cap(text: str) -> str:
    return text if len(text) <= MAX_ALT else text[: MAX_ALT - 1] + "…"


def turn_alt(replay: Replay, index: int, lang: str) -> str:
    """The alt text of `render_turn(replay, index, lang)`."""
    state = replay.states[index]
    title = turn_title(lang, state.turn, replay.turns)
    if state.lost:
        title = f"{title}, {word(lang, 'lost')}"
    crew = ", ".join(crew_label(lang, strip_unsafe(c.name)) for c in state.crew)
    parts = [_damage(lang, state), _threats(lang, state), t(lang, "alt.crew", names=crew)]
    return _cap(f"{title}: " + "; ".join(parts) + ".")


def overview_alt(replay: Replay, lang: str) -> str:
    """The alt text of `render_overview(replay, lang)`."""
    result = replay.result
    outcome = word(lang, "lost") if result.outcome == "destroyed" else word(lang, "survived_flight")
    destroyed = sum(1 for th in result.threats if th.fate == "destroyed")
    survived = sum(1 for th in result.threats if th.fate == "survived")
    text = t(
        lang,
        "alt.overview",
        outcome=outcome,
        total=result.score.total,
        damage=_damage(lang, replay.last),
        destroyed=destroyed,
        survived=survived,
    )
    return _cap(text)
