"""Turn pings for a slow player (bot/games/legion/_cog.py `remind_slow`): the member a voyage has
waited on for five minutes is pinged again, once per step, mentioning only them."""

from __future__ import annotations

import copy
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.games.legion import _cog
from bot.games.legion import _play as play
from bot.platform import tables
from bot.platform.sessions import GameSession

T0 = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)


class Store:
    """The session store's contract, in memory: a change applies to a copy and bumps the version."""

    def __init__(self, session: GameSession) -> None:
        self.session = session

    async def active_sessions(self, game: str) -> list[GameSession]:
        return [copy.deepcopy(self.session)] if self.session.game == game and self.session.active else []

    async def change_session(self, session_id: str, change: Callable[[GameSession], bool]) -> GameSession | None:
        work = copy.deepcopy(self.session)
        if change(work):
            work.version += 1
            work.updated_at = (T0 + timedelta(minutes=6)).isoformat()
            self.session = work
        return copy.deepcopy(self.session)


class Channel:
    def __init__(self) -> None:
        self.sent: list[tuple[str, Any]] = []

    async def send(self, text: str, allowed_mentions: Any = None) -> None:
        self.sent.append((text, allowed_mentions))


class Bot:
    def __init__(self, store: Store) -> None:
        self.storage = store
        self.channel = Channel()

    def get_channel(self, channel_id: int) -> Channel:
        return self.channel


def voyage() -> GameSession:
    doc = play.new_lobby(11, "Ann", "en", 29, "reconnaissance")
    for user, name in ((22, "Bo"), (33, "Cy"), (44, "Di")):
        tables.join(doc, play.RULES, user, name)
    play.begin(doc, play.content_of(doc))
    return GameSession("sid123456789", "legion", 1, 2, 11, "running", doc, 3, T0.isoformat(), T0.isoformat())


async def test_a_slow_member_is_pinged_again_once_per_step() -> None:
    store = Store(voyage())
    bot = Bot(store)
    cog = _cog.LegionCog(bot)
    assert await cog.remind_slow(T0 + timedelta(minutes=4)) == 0  # not slow yet
    assert await cog.remind_slow(T0 + timedelta(minutes=5, seconds=1)) == 1
    ((text, allowed),) = bot.channel.sent
    state = play.load(store.session.state, play.content_of(store.session.state))
    waiting = [store.session.state["seats"][s] for s in play.waiting_for(state)]
    assert text.startswith(" ".join(f"<@{u}>" for u in waiting)) and "still waiting" in text
    assert [u.id for u in allowed.users] == waiting and not allowed.everyone and not allowed.roles
    assert await cog.remind_slow(T0 + timedelta(hours=1)) == 0  # once per step
    assert len(bot.channel.sent) == 1


async def test_a_finished_or_busy_voyage_is_not_reminded() -> None:
    session = voyage()
    session.status = "lobby"
    cog = _cog.LegionCog(Bot(Store(session)))
    assert await cog.remind_slow(T0 + timedelta(hours=1)) == 0
