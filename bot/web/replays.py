"""A logged flight's replay (turn snapshots and captain's log) and its pictures, cached.

The logbook keeps a flight's result without its log; the flight row keeps the final snapshot, and
the engine is deterministic, so the page re-resolves the game exactly as /replay does and draws
each turn with the same renderer as Discord (bot/games/space_alert/pictures).  Both cost tens of milliseconds, and
a finished flight never changes, so replays and PNGs are kept in small LRU caches: a shared link
opened by a whole server is resolved and drawn once.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

from bot.games.space_alert.campaign.handoff import game_of
from bot.games.space_alert.mission.storage import FlightRecord
from bot.games.space_alert.pictures import Replay, render_overview, render_turn, resolve_with_states
from bot.games.space_alert.pictures.states import TurnState
from engine.flight.machine import Flight
from engine.model import Game

log = logging.getLogger(__name__)

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Lru(Generic[K, V]):
    """A least-recently-used map of at most `size` items (no locking: one event loop)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()

    def get(self, key: K) -> V | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def put(self, key: K, value: V) -> V:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)
        return value

    def __len__(self) -> int:
        return len(self._items)


def game_of_record(record: FlightRecord) -> Game:
    """The game a finished flight was resolved from: a stored copy wins (as /replay does), else
    the final snapshot rebuilt, with a campaign's carried ship."""
    stored = record.notes.get("game")
    if isinstance(stored, dict):
        return Game.model_validate(stored)
    if record.state is None:
        raise ValueError("the flight has no snapshot")
    return game_of(Flight.from_dict(record.state), record.options)


class Replays:
    """Replays by flight id and PNGs by (flight id, picture, language), each in an LRU."""

    def __init__(self, *, replays: int = 64, pictures: int = 512) -> None:
        self.replays: Lru[str, Replay] = Lru(replays)
        self.pictures: Lru[tuple[str, str, str], bytes] = Lru(pictures)
        self.failed: Lru[str, bool] = Lru(1024)

    async def replay(self, record: FlightRecord) -> Replay | None:
        """The flight's replay (resolved in a worker thread once), or None when it cannot be
        rebuilt (an old snapshot schema): the page then shows the stored result without the log."""
        found = self.replays.get(record.id)
        if found is not None:
            return found
        if self.failed.get(record.id):
            return None
        try:
            replay = await asyncio.to_thread(resolve_with_states, game_of_record(record))
        except Exception as exc:
            log.warning("flight %s: cannot rebuild its replay: %s", record.id, exc)
            self.failed.put(record.id, True)
            return None
        return self.replays.put(record.id, replay)

    async def picture(self, record: FlightRecord, which: str, lang: str) -> bytes | None:
        """PNG of `which` ("overview" or a snapshot index as text), None when there is no such."""
        key = (record.id, which, lang)
        found = self.pictures.get(key)
        if found is not None:
            return found
        replay = await self.replay(record)
        if replay is None:
            return None
        draw: Callable[[], bytes]
        if which == "overview":
            draw = lambda: render_overview(replay, lang)  # noqa: E731
        elif which.isdigit() and int(which) < len(replay.states):
            draw = lambda: render_turn(replay, int(which), lang)  # noqa: E731
        else:
            return None
        return self.pictures.put(key, await asyncio.to_thread(draw))


def turn_alt(state: TurnState, describe_threat: Callable[[str], str], words: Callable[..., str]) -> str:
    """Alt text of a turn's picture: what a sighted reader takes from it, in words."""
    damage = ", ".join(f"{words('web.zone.' + z)} {len(state.damage[z])}" for z in ("red", "white", "blue"))
    present = [describe_threat(t.id) for t in state.threats if t.appeared and t.fate is None]
    parts = [
        words("web.alt.turn", n=state.turn) if state.turn else words("web.alt.start"),
        words("web.alt.damage", damage=damage),
        words("web.alt.shields", shields=", ".join(str(state.shields.get(z, 0)) for z in ("red", "white", "blue"))),
    ]
    if present:
        parts.append(words("web.alt.threats", threats=", ".join(present)))
    if state.lost:
        parts.append(words("web.alt.lost"))
    return "; ".join(parts) + "."


def log_by_turn(log_entries: list[dict[str, Any]]) -> dict[int, list[dict[str, Any]]]:
    """The captain's log entries grouped by turn (entries without a turn go with turn 0)."""
    from bot.games.space_alert.mission.render import is_no_op

    out: dict[int, list[dict[str, Any]]] = {}
    for entry in log_entries:
        if is_no_op(entry):
            continue
        out.setdefault(int(entry.get("turn") or 0), []).append(entry)
    return out
