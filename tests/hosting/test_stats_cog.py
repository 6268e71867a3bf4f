"""/stats and the paginated leaderboard through the bot, over the storage's own database (the
careers tables are part of its migrations; the logbook writes the threat rows)."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.games.space_alert.logbook import Logbook, LogbookCrew, LogbookEntry
from bot.games.space_alert.stats.board import BoardButton, show_leaderboard
from bot.games.space_alert.stats.chart import CHART_SIZE


@pytest.fixture
async def stats_bot(bot: Any) -> Any:
    if bot.get_cog("Stats") is None:  # until bot/platform/client.py lists the extension
        await bot.load_extension("bot.games.space_alert.stats")
    return bot


async def log_flights(bot: Any, guild_id: int, crew: list[Any], totals: list[int | None]) -> None:
    for i, total in enumerate(totals):
        result = {"threats": [{"id": "E1-07", "fate": "destroyed"}, {"id": "I1-01", "fate": "survived"}]}
        await Logbook(bot.storage).add(
            LogbookEntry(
                guild_id=guild_id,
                channel_id=1,
                flown_at=f"2026-03-{i + 1:02d}T20:00:00+00:00",
                mission_id="S2-1",
                normal_difficulty="white",
                serious_difficulty="yellow",
                language="en",
                outcome="destroyed" if total is None else "survived",
                destroyed_by="E1-07" if total is None else None,
                crew=[
                    LogbookCrew(name=m.name, user_id=m.id, roles=["captain"] if j == 0 else [])
                    for j, m in enumerate(crew)
                ],
                result=result,
                total=total or 0,
            )
        )


async def test_stats_when_the_records_cannot_be_read_still_answers(stats_bot: Any, world: Any) -> None:
    async def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise OSError("database gone")

    stats_bot.storage.fetch = broken  # the careers' reads (bot/games/space_alert/stats/storage.py)
    cog = stats_bot.get_cog("Stats")
    inter = world.interaction(world.member("Ann"))
    await cog.stats.callback(cog, inter)
    assert "cannot be read" in (inter.log[-1].content or "")


async def test_stats_of_nobody_yet(stats_bot: Any, world: Any) -> None:
    cog = stats_bot.get_cog("Stats")
    inter = world.interaction(world.member("Ann"))
    await cog.stats.callback(cog, inter)
    assert "no logged flights" in (inter.log[-1].content or "")


async def test_stats_of_a_player_with_chart(stats_bot: Any, world: Any) -> None:
    ann, bob = world.member("Ann"), world.member("Bob")
    await log_flights(stats_bot, world.guild.id, [ann, bob], [10, None, 14, 3])
    cog = stats_bot.get_cog("Stats")
    inter = world.interaction(bob)
    await cog.stats.callback(cog, inter, player=ann)
    assert inter.log[0].kind == "defer" and not inter.log[0].kwargs["ephemeral"]
    answer = inter.log[-1]
    fields = {f.name: f.value for f in answer.embed.fields}
    assert fields["Flights"] == "4 flown, 3 survived (75 %)"
    assert fields["Average score by difficulty (survived flights)"] == "white/yellow: 9.0 (3/4)"
    assert fields["Favourite role"] == "Captain"
    assert fields["Threats destroyed"] == "common external 4"
    assert fields["Destroyed most often by"] == "Fighter (1×)"
    png = answer.kwargs["file"].fp.read()
    assert Image.open(io.BytesIO(png)).size == CHART_SIZE
    assert answer.kwargs["file"].description.startswith("Score per flight: flights 4")  # alt text
    mine = world.interaction(bob)
    await cog.stats.callback(cog, mine)
    assert mine.log[0].kwargs["ephemeral"]  # your own career, everywhere, privately


async def test_leaderboard_pages_through_buttons(stats_bot: Any, world: Any) -> None:
    crew = [world.member("Ann")]
    await log_flights(stats_bot, world.guild.id, crew, list(range(1, 24)))  # 23 flights, 3 pages
    inter = world.interaction(crew[0])
    await show_leaderboard(stats_bot, inter, mission="S2-1", normal="white", serious="yellow")
    first = inter.log[0]
    assert first.embed.description.splitlines()[0].startswith("**1.** 23 · Ann")
    assert first.embed.footer.text.startswith("page 1/3 · 23 entries")
    buttons = [item for item in first.view.children]
    assert buttons[0].item.disabled and not buttons[1].item.disabled
    click = world.interaction(crew[0], custom_id=buttons[1].custom_id)
    await BoardButton(buttons[1].custom_id).callback(click)
    second = click.log[0]
    assert second.kind == "edit_message"
    assert second.kwargs["embed"].description.splitlines()[0].startswith("**11.** 13")
    assert second.kwargs["embed"].footer.text.startswith("page 2/3")
