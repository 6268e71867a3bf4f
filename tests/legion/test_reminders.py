"""Turn pings for a slow player (bot/games/legion/_cog.py `remind_slow`): the member a voyage has
waited on for five minutes is pinged again, once per step, mentioning only them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from bot.games.legion import _cog
from bot.games.legion import _play as play
from bot.platform import tables
from bot.platform.sessions import GameSession
from bot.platform.storage import SqliteStorage

T0 = datetime(2026, 11, 27, 9, 0, tzinfo=UTC)


class Channel:
    def __init__(self) -> None:
        self.sent: list[tuple[str, Any]] = []

    async def send(self, content: str = "", allowed_mentions: Any = None, **_kw: Any) -> Any:
        self.sent.append((content, allowed_mentions))
        return SimpleNamespace(id=900 + len(self.sent))


class Bot:
    """The storage is the real one: a reminder is staged with the change that marks it and sent
    by the platform's outbox (bot/platform/session_posts.py)."""

    def __init__(self, storage: SqliteStorage) -> None:
        self.storage = storage
        self.channel = Channel()

    def get_channel(self, channel_id: int) -> Channel:
        return self.channel


async def stored(tmp_path: Path, status: str = "running") -> tuple[SqliteStorage, GameSession]:
    storage = SqliteStorage(tmp_path / "sa.sqlite3")
    await storage.open()
    doc = voyage().state
    session = await storage.open_session("legion", 1, 2, 11, doc)

    def run(s: GameSession) -> bool:
        s.status = status
        return True

    found = await storage.change_session(session.id, run)
    assert found is not None
    return storage, found


def voyage() -> GameSession:
    doc = play.new_lobby(11, "Ann", "en", 29, "reconnaissance")
    for user, name in ((22, "Bo"), (33, "Cy"), (44, "Di")):
        tables.join(doc, play.RULES, user, name)
    play.begin(doc, play.content_of(doc))
    return GameSession("sid123456789", "legion", 1, 2, 11, "running", doc, 3, T0.isoformat(), T0.isoformat())


async def test_a_slow_member_is_pinged_again_once_per_step(tmp_path: Path) -> None:
    storage, session = await stored(tmp_path)
    bot = Bot(storage)
    cog = _cog.LegionCog(bot)
    t0 = datetime.fromisoformat(session.updated_at)
    try:
        assert await cog.remind_slow(t0 + timedelta(minutes=4)) == 0  # not slow yet
        assert await cog.remind_slow(t0 + timedelta(minutes=5, seconds=1)) == 1
        ((text, allowed),) = bot.channel.sent
        now = await storage.load_session(session.id)
        assert now is not None
        state = play.load(now.state, play.content_of(now.state))
        waiting = [now.state["seats"][s] for s in play.waiting_for(state)]
        assert text.startswith(" ".join(f"<@{u}>" for u in waiting)) and "still waiting" in text
        assert [u.id for u in allowed.users] == waiting and not allowed.everyone and not allowed.roles
        assert await storage.unsent_session_posts(session_id=session.id) == []  # recorded as sent
        assert await cog.remind_slow(t0 + timedelta(hours=1)) == 0  # once per step
        assert len(bot.channel.sent) == 1
    finally:
        await storage.close()


async def test_a_finished_or_busy_voyage_is_not_reminded(tmp_path: Path) -> None:
    storage, session = await stored(tmp_path, status="lobby")
    cog = _cog.LegionCog(Bot(storage))
    try:
        assert await cog.remind_slow(datetime.fromisoformat(session.updated_at) + timedelta(hours=1)) == 0
    finally:
        await storage.close()
