"""Legion voyages and Escape games in /logbook and /stats (issues 26 and 27, "Records").

Run over the real store (both backends): the games are recorded by the platform's session store as
the games record them, and the commands read them back in the server's language, names inert."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any
from unittest.mock import AsyncMock

import discord

from bot.games.space_alert.records import games
from bot.games.space_alert.records._cog import RecordsCog
from bot.games.space_alert.stats._cog import StatsCog, career_embed
from bot.games.space_alert.stats.career import build_career
from bot.platform.sessions import StoredResult
from tests.bot.storage_backends import open_storage, storage  # noqa: F401  (fixtures)
from tests.web.test_session_games import finish

HERE, PUBLIC, PRIVATE = 501, 502, 503
ANN, BOB = 7001, 7002
VOYAGE = [
    {"user_id": ANN, "name": "Ann", "won": False, "role": "crew"},
    {"user_id": BOB, "name": "@everyone *Bob*", "won": True, "role": "legion"},
]


def bot(storage: Any) -> Any:  # noqa: F811
    return SimpleNamespace(storage=storage, settings=SimpleNamespace(default_language="en", web_base_url=None))


def interaction(guild_id: int, user_id: int) -> Any:
    return SimpleNamespace(
        guild_id=guild_id,
        user=SimpleNamespace(id=user_id, display_name="Ann"),
        response=SimpleNamespace(send_message=AsyncMock(), defer=AsyncMock()),
        followup=SimpleNamespace(send=AsyncMock()),
    )


def stored(game: str, outcome: str, players: list[dict[str, Any]], details: dict[str, Any]) -> StoredResult:
    return StoredResult("s1", game, HERE, 1, "2026-11-27T09:00:00+00:00", outcome, players, details)


def test_a_voyage_line_names_mission_winner_and_sides_inertly() -> None:
    line = games.legion_line("ru", stored("legion", "legion", VOYAGE, {"mission": "delivery"}))
    assert line.startswith("2026-11-27 · ") and "победил легион" in line and "экипаж: Ann" in line
    assert "@everyone" not in line and "\\*Bob\\*" in line  # escaped: no ping, no italics
    pack = games.legion_line("en", stored("legion", "crew", VOYAGE, {"mission": "salvage_run"}))
    assert "salvage\\_run" in pack and "the crew won" in pack  # a pack's own mission shows its id


def test_an_escape_line_tells_the_winner_or_the_storm() -> None:
    details = {"mode": "referee", "difficulty": "easy", "hours": 12, "limit": 20, "mission": "nonexistent"}
    won = games.escape_line("cs", stored("escape", "escaped", [{**VOYAGE[0], "won": True}], details))
    assert "rozhodčí" in won and "12/20 hod." in won and "vyhrává Ann (nonexistent)" in won
    lost = games.escape_line("sk", stored("escape", "time_out", VOYAGE[:1], {**details, "mode": "digital"}))
    assert "Federácia stanicu dobyla" in lost and "digitálna" in lost and "nonexistent" not in lost


async def test_logbook_adds_a_section_per_game_with_records(storage: Any) -> None:  # noqa: F811
    await storage.set_setting(HERE, "language", "cs")
    await finish(storage, "legion", HERE, "legion", VOYAGE, {"mission": "exploration"})
    await finish(storage, "legion", PUBLIC, "crew", VOYAGE, {"mission": "delivery"})  # another server's
    cog = RecordsCog(bot(storage))
    inter = interaction(HERE, ANN)
    await cog.logbook.callback(cog, inter)
    embed: discord.Embed = inter.response.send_message.call_args.kwargs["embed"]
    assert embed.description == "Zatím žádné zaznamenané lety."  # no flights: the text as before
    (field,) = [f for f in embed.fields if f.name == "Šarlatová legie: poslední lety"]
    assert str(field.value).count("\n") == 0 and "vyhrála legie" in str(field.value)
    assert not [f for f in embed.fields if "Útěk" in str(f.name)]  # no Escape games: no section
    filtered = interaction(HERE, ANN)
    await cog.logbook.callback(cog, filtered, difficulty="white")  # a Space Alert filter: flights only
    assert not filtered.response.send_message.call_args.kwargs["embed"].fields


async def test_stats_counts_voyages_within_its_privacy_scope(storage: Any) -> None:  # noqa: F811
    await storage.set_setting(PUBLIC, "leaderboard", "public")
    await storage.set_setting(PRIVATE, "leaderboard", "private")
    for guild in (HERE, PUBLIC, PRIVATE):
        await finish(storage, "legion", guild, "legion", VOYAGE, {"mission": "delivery"})
    await finish(storage, "escape", PRIVATE, "escaped", [{**VOYAGE[1], "role": "human"}], {"mode": "digital"})
    mine = await games.tallies(storage, BOB, None)  # yourself: everywhere
    assert [(t.game, t.played, t.won, t.as_agent) for t in mine] == [("legion", 3, 3, 3), ("escape", 1, 1, 0)]
    theirs = await games.tallies(storage, BOB, HERE)  # someone else's: here and public servers
    assert [(t.game, t.played) for t in theirs] == [("legion", 2)]
    cog = StatsCog(bot(storage))
    inter = interaction(HERE, ANN)
    await cog.stats.callback(cog, inter, player=SimpleNamespace(id=BOB, display_name="Bob"))
    text = inter.followup.send.call_args.args[0]  # no flights, yet a career
    assert "Scarlet Legion: 2 voyages, 2 won (as crew 0 of 0, as agent 2 of 2)" in text
    assert "Escape" not in text


def test_the_career_embed_has_a_line_per_other_game() -> None:
    career = build_career([], [], [], None, [])
    others = [games.Tally("legion", 3, 1, 1, 0), games.Tally("escape", 2, 1)]
    embed = career_embed("ru", "Ann", career, everywhere=True, others=others)
    (field,) = [f for f in embed.fields if f.name == "Другие игры"]
    assert str(field.value).splitlines() == [
        "«Алый легион»: рейсов 3, побед 1 (в экипаже 1 из 2, агентом 0 из 1)",
        "«Звёздный мир: Побег»: игр 2, побед 1",
    ]
    assert not [f for f in career_embed("ru", "Ann", career, everywhere=True).fields if f.name == "Другие игры"]
