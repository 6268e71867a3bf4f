"""The servers' reads behind the web pages (bot/web), on both backends.

Read-only, and public by construction: every query here answers only for servers whose admins made
their records public (the `guild_settings` row PUBLIC_SETTING of bot/platform/storage/careers.py),
so a page cannot show a private server's records even when handed its id.  What a game
shows of its own records (Space Alert's flights, the session games' results) the game reads over
the SQL core (`fetch`); here are the public servers, their counts and the marks a cached page is
keyed by.  Each query names the index it is meant to use; bench/web.py measures the pages.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.platform.sessions import StoredResult
from bot.platform.storage.careers import PUBLIC_SETTING, PUBLIC_VALUE

# The guild_settings key where the bot keeps a public server's name as Discord showed it (written
# when an admin makes the server's records public or private), so the web needs no Discord connection.
NAME_SETTING = "public_name"


@dataclass(frozen=True, slots=True)
class PublicServer:
    """A public server as its pages list it: its settings, and its count of finished games of every
    kind and when the last one ended (guild_totals, kept by triggers).  The pages and their JSON
    still call the count `flights` (bot/web/views.py), a name the platform does not use."""

    guild_id: int
    name: str | None
    language: str | None
    games: int
    last_flown: str | None


@dataclass(frozen=True, slots=True)
class ServerMark:
    """What a public server's pages depend on, read without counting anything: its settings, its
    newest record (guild_totals; rows are only ever added, so a new flight changes it) and its ended
    campaigns' count and versions.  Hashable on purpose: bot/web/app.py keys cached pages by it,
    so a page is never older than the store.  Reading it is also the privacy check."""

    guild_id: int
    name: str | None
    language: str | None
    latest_id: int  # the server's newest flight id (guild_totals): one primary-key read
    ended_campaigns: int
    campaign_versions: int  # SUM(version) of the ended campaigns: grows with any change
    results: tuple[str | None, ...] = ()  # newest game_results stamp per asked game (its index)
    games: int = 0  # the server's count the pages show (guild_totals): a game of another kind adds one


def text_value(value: Any) -> str | None:
    """A setting's JSON value as text (SQLite hands back JSON text, PostgreSQL's JSONB a str too)."""
    if value is None:
        return None
    try:
        decoded = json.loads(value) if isinstance(value, str | bytes) else value
    except ValueError:
        return str(value)
    return str(decoded) if decoded is not None else None


class WebStore(Protocol):
    """What bot/web needs of the storage (SqliteStorage and PostgresStorage provide it)."""

    async def public_servers(self) -> list[PublicServer]: ...

    async def public_server(self, guild_id: int) -> PublicServer | None: ...

    async def public_servers_among(self, guild_ids: Iterable[int]) -> list[PublicServer]: ...

    async def public_marks(
        self, guild_ids: Iterable[int] | None = None, *, result_games: Sequence[str] = ()
    ) -> list[ServerMark]: ...

    async def session_results(
        self, *, game: str, guild_id: int | None = None, user_id: int | None = None, limit: int = 50
    ) -> list[StoredResult]: ...

    async def fetch(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        """The SQL core's read (a game's repository reads its own tables with it)."""
        ...

    async def get_setting(self, guild_id: int, key: str) -> Any | None: ...


class WebReads:
    """The web pages' server reads of `SqlStorage` (a backend supplies `_fetch`)."""

    async def _fetch(self, sql: str, params: Iterable[Any] = ()) -> list[Sequence[Any]]:
        raise NotImplementedError

    async def _servers(self, where: str, params: list[Any]) -> list[PublicServer]:
        # guild_settings_by_key finds the public servers; their names and languages are two
        # primary-key reads each, their counts one (guild_totals, kept by triggers: counting the
        # flights cost a step per flight of every server listed).
        found = await self._fetch(
            "SELECT p.guild_id,"
            f" (SELECT value FROM guild_settings n WHERE n.guild_id = p.guild_id AND n.key = '{NAME_SETTING}'),"
            " (SELECT value FROM guild_settings n WHERE n.guild_id = p.guild_id AND n.key = 'language'),"
            " t.flights, t.last_flown"
            " FROM guild_settings p LEFT JOIN guild_totals t ON t.guild_id = p.guild_id"
            f" WHERE p.key = '{PUBLIC_SETTING}' AND p.value = '{PUBLIC_VALUE}'{where}"
            " ORDER BY p.guild_id",
            params,
        )
        return [
            PublicServer(int(g), text_value(name), text_value(lang), int(n or 0), str(last) if last else None)
            for g, name, lang, n, last in found
        ]

    async def _marks(self, where: str, params: list[Any], result_games: Sequence[str] = ()) -> list[ServerMark]:
        # the same settings reads as _servers, the newest row from guild_totals, the ended
        # campaigns from campaigns_by_guild (a server has a few dozen), the newest result per game
        results = "".join(
            ", (SELECT MAX(r.finished_at) FROM game_results r WHERE r.game = ? AND r.guild_id = p.guild_id)"
            for _ in result_games
        )
        found = await self._fetch(
            f"SELECT p.guild_id{results},"
            f" (SELECT value FROM guild_settings n WHERE n.guild_id = p.guild_id AND n.key = '{NAME_SETTING}'),"
            " (SELECT value FROM guild_settings n WHERE n.guild_id = p.guild_id AND n.key = 'language'),"
            " t.latest_id, t.flights,"
            " (SELECT COUNT(*) FROM campaigns c WHERE c.guild_id = p.guild_id AND c.status != 'running'),"
            " (SELECT SUM(version) FROM campaigns c WHERE c.guild_id = p.guild_id AND c.status != 'running')"
            " FROM guild_settings p LEFT JOIN guild_totals t ON t.guild_id = p.guild_id"
            f" WHERE p.key = '{PUBLIC_SETTING}' AND p.value = '{PUBLIC_VALUE}'{where}"
            " ORDER BY p.guild_id",
            [*result_games, *params],
        )
        n = len(result_games)
        marks = []
        for row in found:
            g, stamps, (name, lang, latest, games, ended, versions) = row[0], row[1 : 1 + n], row[1 + n :]
            marks.append(
                ServerMark(
                    int(g),
                    text_value(name),
                    text_value(lang),
                    int(latest or 0),
                    int(ended or 0),
                    int(versions or 0),
                    tuple(str(x) if x else None for x in stamps),
                    int(games or 0),
                )
            )
        return marks

    async def public_marks(
        self, guild_ids: Iterable[int] | None = None, *, result_games: Sequence[str] = ()
    ) -> list[ServerMark]:
        """The marks of every public server, or of those among `guild_ids` (unknown and private
        servers are simply absent).  `result_games`: the session games whose finished games the
        page lists; each adds its newest `game_results` stamp to the mark (index
        game_results_by_guild), so a new Legion voyage changes the server page's version."""
        if guild_ids is None:
            return await self._marks("", [], result_games)
        wanted = sorted(set(guild_ids))
        if not wanted:
            return []
        return await self._marks(f" AND p.guild_id IN ({', '.join('?' * len(wanted))})", wanted, result_games)

    async def public_servers(self) -> list[PublicServer]:
        """Every server whose records are public, with its count of games and its last one."""
        return await self._servers("", [])

    async def public_server(self, guild_id: int) -> PublicServer | None:
        """The server if it is public, else None (unknown and private look the same)."""
        found = await self._servers(" AND p.guild_id = ?", [guild_id])
        return found[0] if found else None

    async def public_servers_among(self, guild_ids: Iterable[int]) -> list[PublicServer]:
        """Those of `guild_ids` that are public (a career's servers, without counting every server)."""
        wanted = sorted(set(guild_ids))
        if not wanted:
            return []
        return await self._servers(f" AND p.guild_id IN ({', '.join('?' * len(wanted))})", wanted)
