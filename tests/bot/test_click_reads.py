"""Clicks and ticks that change nothing take no unit of work (issue 23, fast answers).

SQLite has one writer: every unit of work queues behind every other flight's.  Opening a station,
choosing a card and a timer tick with nothing due only read, so they must not queue there; and
when the clock did move meanwhile, the change runs once as a unit of work and stages its posts
once (the read pass stages nothing)."""

from __future__ import annotations

from typing import Any

from bot.games.space_alert.mission import ids as _ids
from bot.games.space_alert.mission.cards import card_key
from bot.games.space_alert.mission.storage import Flights
from tests.bot.helpers import click, open_station, start_flight, station_view


def count_units(bot: Any) -> list[int]:
    """A one-item list counting the units of work the bot's storage opens from now on."""
    counter = [0]
    new_unit = bot.storage._new_unit

    def counted() -> Any:
        counter[0] += 1
        return new_unit()

    bot.storage._new_unit = counted
    return counter


async def test_opening_a_station_and_choosing_a_card_at_a_quiet_moment_write_nothing(bot: Any, world: Any) -> None:
    fid, ann, _bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights
    await service.tick(fid)  # whatever was due at the start is written now
    await service.drain()
    version = (await Flights(bot.storage).load_flight(fid)).version
    units = count_units(bot)
    sent = await open_station(world, ann, fid)
    assert sent.embed is not None and "Ann" in (sent.embed.title or "")
    card = (await station_view(bot, fid, "Ann")).placements[0].card
    inter = await click(world, ann, _ids.make(fid, "pick", ann.id), [card_key(card)])
    assert inter.log[-1].kind == "edit_message"
    assert await service.tick(fid) is not None  # nothing due: the timer sleeps on
    assert units == [0]
    assert (await Flights(bot.storage).load_flight(fid)).version == version


async def test_a_station_opened_after_the_clock_moved_writes_once_and_stages_once(
    bot: Any, world: Any, clock: Any
) -> None:
    fid, ann, _bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights
    await service.tick(fid)
    await service.drain()
    version = (await Flights(bot.storage).load_flight(fid)).version
    staged: list[dict[str, Any]] = []
    stage_post = bot.storage.stage_post

    async def recording(flight_id: str, payload: dict[str, Any]) -> int:
        staged.append(payload)
        return int(await stage_post(flight_id, payload))

    bot.storage.stage_post = recording
    clock.advance(12)  # 0:10 on the mission clock: the first threat is due, nobody ticked yet
    await open_station(world, ann, fid)
    assert (await Flights(bot.storage).load_flight(fid)).version == version + 1  # saved once
    assert len(staged) == 1 and any("T+2" in text for _kind, text in staged[0]["items"]), staged
