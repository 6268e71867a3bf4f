"""The server and career pages list Scarlet Legion voyages and Escape games (issues 26-28).

They come from the platform's `game_results`; the server page's cache version includes each
game's newest result, so a new voyage shows at once; the career page counts only games on public
servers."""

from __future__ import annotations

from typing import Any

from bot.platform.sessions import GameSession, SessionResult
from tests.web import seed

__all__ = ["finish"]


async def finish(
    storage: Any, game: str, guild: int, outcome: str, players: list[dict[str, Any]], details: dict[str, Any]
) -> str:
    """A finished game of `game` on `guild`, recorded by the store as the game's last change."""
    session = await storage.open_session(game, guild, 9_001, 1, {})

    def end(s: GameSession) -> bool:
        s.status = "finished"
        s.result = SessionResult(outcome=outcome, players=players, details=details)
        return True

    await storage.change_session(session.id, end)
    return str(session.id)


def legion_players() -> list[dict[str, Any]]:
    return [
        {"user_id": seed.ANN, "name": "Ann", "won": True, "role": "crew"},
        {"user_id": seed.BOB, "name": "<b>Bob</b>", "won": False, "role": "legion"},
    ]


async def test_the_server_page_lists_the_latest_voyage_at_once(client: Any, seeded: Any) -> None:
    before = await (await client.get(f"/s/{seed.PUBLIC}.json")).json()
    assert before["legion"] == {"latest": []} and before["escape"] == {"latest": []}
    assert before["schema_version"] == 1  # additive keys only
    await finish(seeded, "legion", seed.PUBLIC, "crew", legion_players(), {"mission": "delivery", "flights": 6})
    doc = await (await client.get(f"/s/{seed.PUBLIC}.json?lang=en")).json()  # the cached page was replaced
    (voyage,) = doc["legion"]["latest"]
    assert voyage["mission"] == "delivery" and voyage["outcome"] == "crew"
    assert [p["role"] for p in voyage["players"]] == ["crew", "legion"]
    assert "the crew won" in voyage["summary"] and "Legion: <b>Bob</b>" in voyage["summary"]
    page = await (await client.get(f"/s/{seed.PUBLIC}?lang=cs")).text()
    assert "Šarlatová legie: poslední lety" in page and "vyhrála posádka" in page
    assert "&lt;b&gt;Bob&lt;/b&gt;" in page and "<b>Bob</b>" not in page  # a name is text, never markup


async def test_an_escape_storm_keeps_the_missions_secret(client: Any, seeded: Any) -> None:
    players = [{"user_id": seed.ANN, "name": "Ann", "won": False, "role": "human"}]
    details = {"mode": "digital", "difficulty": "hard", "hours": 10, "limit": 10, "mission": None}
    await finish(seeded, "escape", seed.PUBLIC, "time_out", players, details)
    doc = await (await client.get(f"/s/{seed.PUBLIC}.json?lang=ru")).json()
    (game,) = doc["escape"]["latest"]
    assert game["mission"] is None and game["hours"] == 10
    assert "Федерация взяла станцию штурмом" in game["summary"] and "10/10 ч" in game["summary"]


async def test_a_private_servers_games_stay_off_every_page(client: Any, seeded: Any) -> None:
    await finish(seeded, "legion", seed.PRIVATE, "legion", legion_players(), {"mission": "destruction"})
    assert (await client.get(f"/s/{seed.PRIVATE}.json")).status == 404
    career = await (await client.get(f"/p/{seed.ANN}.json")).json()
    assert career["games"] == []  # the only voyage was on the private server


async def test_the_career_page_counts_public_voyages_by_side(client: Any, seeded: Any) -> None:
    first = await (await client.get(f"/p/{seed.BOB}.json")).json()
    assert first["games"] == []
    await finish(seeded, "legion", seed.PUBLIC, "crew", legion_players(), {"mission": "delivery"})
    players = [{**p, "won": p["role"] == "legion"} for p in legion_players()]
    await finish(seeded, "legion", seed.PUBLIC, "legion", players, {"mission": "exploration"})
    doc = await (await client.get(f"/p/{seed.BOB}.json?lang=en")).json()  # the career's version moved on
    (legion,) = doc["games"]
    assert (legion["game"], legion["played"], legion["won"], legion["as_agent"], legion["won_as_agent"]) == (
        "legion",
        2,
        1,
        2,
        1,
    )
    assert "Scarlet Legion: 2 voyages, 1 won" in legion["summary"]
    page = await (await client.get(f"/p/{seed.BOB}?lang=sk")).text()
    assert "Ďalšie hry" in page and "ako agent 1 z 2" in page


async def test_a_mark_moves_with_each_games_newest_result(seeded: Any) -> None:
    (before,) = await seeded.public_marks([seed.PUBLIC], result_games=("legion", "escape"))
    assert before.results == (None, None)
    await finish(seeded, "escape", seed.PUBLIC, "escaped", [], {"mode": "referee"})
    (after,) = await seeded.public_marks([seed.PUBLIC], result_games=("legion", "escape"))
    assert after.results[0] is None and after.results[1] and after != before
    (plain,) = await seeded.public_marks([seed.PUBLIC])
    assert plain.results == ()  # callers that ask for no game see the mark as before


async def test_a_player_who_only_sailed_has_a_career_page_while_the_server_is_public(client: Any, seeded: Any) -> None:
    sailor = 4_242
    assert (await client.get(f"/p/{sailor}.json")).status == 404
    crew = [{"user_id": sailor, "name": "Zoe", "won": True, "role": "crew"}]
    await finish(seeded, "legion", seed.PRIVATE, "crew", crew, {"mission": "delivery"})
    assert (await client.get(f"/p/{sailor}.json")).status == 404  # a private server's voyage shows nowhere
    await finish(seeded, "legion", seed.PUBLIC, "crew", crew, {"mission": "delivery"})
    doc = await (await client.get(f"/p/{sailor}.json")).json()
    assert doc["player"]["name"] == "Zoe" and doc["player"]["flights"] == 0
    assert [(g["game"], g["played"]) for g in doc["games"]] == [("legion", 1)]
    await seeded.set_setting(seed.PUBLIC, "leaderboard", "private")
    assert (await client.get(f"/p/{sailor}.json")).status == 404  # the cached page went with the setting
