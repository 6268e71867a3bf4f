"""Random (generated) missions, server custom missions, and ending the round early by agreement."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from bot.games.space_alert.logbook import Logbook
from bot.games.space_alert.mission import ids as _ids
from bot.games.space_alert.mission.storage import Flights
from bot.games.space_alert.storage import CustomMissions
from engine.flight.generator import generate, preset_params
from tests.bot.helpers import (
    click,
    find_id,
    last,
    make_attachment,
    open_lobby,
    open_station,
    start_flight,
    tick,
)


def official_timeline_json(mission: str = "S2-1") -> dict[str, Any]:
    """The exact output of `python -m engine timeline S2-1` (the documented upload format)."""
    out = subprocess.run(
        [sys.executable, "-m", "engine", "timeline", mission], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    return json.loads(out)


# -- random missions ------------------------------------------------------------------------------
async def test_random_mission_flies_end_to_end_and_logs_seed_and_parameters(bot: Any, world: Any, clock: Any) -> None:
    fid, _ann, _bob = await start_flight(bot, world, mission="random", seed=7, preset="simulation")
    record = await Flights(bot.storage).load_flight(fid)
    assert record.status == "flying"
    assert record.options["preset"] == "simulation" and record.options["seed"] == 7
    expected = generate(7, preset="simulation")
    assert deck_of(record).phase_end_s == tuple(float(x) for x in expected.phase_end_s)
    deck = next(s for s in world.channel.sent if s.embed is not None and "flight deck" in s.embed.title)
    assert "random (simulation, seed 7)" in deck.embed.description

    service = bot.get_cog("Mission").flights
    clock.advance(expected.end_s + 30)
    assert await tick(service, fid) is None
    assert (await Flights(bot.storage).load_flight(fid)).status == "finished"
    [entry] = await Logbook(bot.storage).entries(world.guild.id)
    assert entry.mission_id == "random" and entry.seed == 7
    assert entry.generator is not None
    assert entry.generator["seed"] == 7 and entry.generator["preset"] == "simulation"
    assert entry.generator["params"] == preset_params("simulation").model_dump(mode="json")
    assert entry.generator["timeline"] == expected.to_json_dict()
    assert any(s.embed is not None and "result" in (s.embed.title or "") for s in world.channel.sent)


async def test_random_mission_without_seed_stores_the_one_it_drew(bot: Any, world: Any) -> None:
    ann = world.member("Ann")
    fid, _ = await open_lobby(bot, world, ann, mission="random", seed=None)
    record = await Flights(bot.storage).load_flight(fid)
    assert isinstance(record.options["seed"], int) and record.options["seed_given"] is False
    assert record.options["preset"] == "mission"
    await click(world, ann, _ids.make(fid, "start"))
    record = await Flights(bot.storage).load_flight(fid)
    assert deck_of(record).mission == generate(record.options["seed"]).id


# -- custom missions ------------------------------------------------------------------------------
async def test_custom_mission_upload_list_start_and_remove(bot: Any, world: Any) -> None:
    cog = bot.get_cog("Mission")
    admin = world.member("Ada")
    timeline = official_timeline_json("S2-1") | {"id": "DEEP-1", "name": "Deep space"}

    inter = world.interaction(admin, manage_guild=True)
    await cog.custom_add.callback(cog, inter, make_attachment(json.dumps(timeline).encode()))
    assert last(inter).ephemeral and "DEEP-1" in last(inter).content and "saved" in last(inter).content
    stored = await CustomMissions(bot.storage).missions(world.guild.id)
    assert stored["DEEP-1"]["name"] == "Deep space"

    inter = world.interaction(admin)
    await cog.custom_list.callback(cog, inter)
    assert "DEEP-1" in last(inter).embed.description and "Deep space" in last(inter).embed.description
    choices = await cog._mission_autocomplete(inter, "deep")
    assert [c.value for c in choices] == ["DEEP-1"]

    # it starts like an official mission
    fid, _ann, _bob = await start_flight(bot, world, mission="DEEP-1")
    record = await Flights(bot.storage).load_flight(fid)
    assert record.status == "flying" and deck_of(record).mission == "DEEP-1"
    assert deck_of(record).phase_end_s == tuple(float(x) for x in timeline["phase_end_s"])

    inter = world.interaction(admin, manage_guild=True)
    await cog.custom_remove.callback(cog, inter, "DEEP-1")
    assert "removed" in last(inter).content
    assert await CustomMissions(bot.storage).missions(world.guild.id) == {}
    inter = world.interaction(admin, manage_guild=True)
    await cog.custom_remove.callback(cog, inter, "DEEP-1")
    assert "no custom mission" in last(inter).content


async def test_malformed_uploads_are_rejected_with_the_first_problem(bot: Any, world: Any) -> None:
    cog = bot.get_cog("Mission")
    admin = world.member("Ada")
    good = official_timeline_json("S2-1") | {"id": "X-1"}
    unsorted = good | {"events": [good["events"][1], good["events"][0], *good["events"][2:]]}
    cases = {
        b"{not json": "not valid JSON",
        json.dumps(unsorted).encode(): "not sorted by time",
        json.dumps(good | {"phase_end_s": [225, 450]}).encode(): "phase_end_s has 2 values but phases is 3",
        json.dumps([1, 2]).encode(): "must be a JSON object",
        json.dumps(good | {"id": "S2-1"}).encode(): "official mission",
    }
    for raw, problem in cases.items():
        inter = world.interaction(admin, manage_guild=True)
        await cog.custom_add.callback(cog, inter, make_attachment(raw))
        reply = last(inter)
        assert reply.ephemeral and problem in reply.content, (problem, reply.content)
        assert "\n" not in reply.content  # one line
    assert await CustomMissions(bot.storage).missions(world.guild.id) == {}


async def test_custom_missions_need_manage_server(bot: Any, world: Any) -> None:
    cog = bot.get_cog("Mission")
    pleb = world.member("Pat")
    attachment = make_attachment(json.dumps(official_timeline_json("S2-1") | {"id": "X-2"}).encode())
    inter = world.interaction(pleb)
    await cog.custom_add.callback(cog, inter, attachment)
    assert last(inter).ephemeral and "Manage Server" in last(inter).content
    attachment.read.assert_not_awaited()
    assert await CustomMissions(bot.storage).missions(world.guild.id) == {}

    await CustomMissions(bot.storage).add(world.guild.id, "X-3", "x", official_timeline_json("S2-1"), 1)
    inter = world.interaction(pleb)
    await cog.custom_remove.callback(cog, inter, "X-3")
    assert "Manage Server" in last(inter).content
    assert "X-3" in await CustomMissions(bot.storage).missions(world.guild.id)


# -- ending the round early by agreement ----------------------------------------------------------------------
async def test_whole_crew_agrees_to_end_early_after_phase_two(bot: Any, world: Any, clock: Any) -> None:
    fid, ann, bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights

    clock.advance(60)
    await tick(service, fid)
    station = await open_station(world, ann, fid)
    assert "agree" not in [c.split(":")[2] for c in _custom_ids(station.view)]  # not before phase 2 ends
    inter = await click(world, ann, _ids.make(fid, "agree", ann.id))  # a stale/forged click is refused
    assert last(inter).ephemeral and "second phase" in last(inter).content

    clock.advance(460 - 60)  # S2-1's phase 2 ends at 7:30
    await tick(service, fid)
    station = await open_station(world, ann, fid)
    inter = await click(world, ann, find_id(station.view, "agree"))
    hand = last(inter)
    assert hand.kind == "edit_message" and "waiting for the rest" in hand.embed.description
    assert "agree" not in [c.split(":")[2] for c in _custom_ids(hand.view)]
    assert (await Flights(bot.storage).load_flight(fid)).status == "flying"
    texts = "\n".join(s.content or "" for s in world.channel.sent)
    assert "Ann agrees to end the action round early (1/2)" in texts

    inter = await click(world, ann, _ids.make(fid, "agree", ann.id))
    assert last(inter).ephemeral  # already agreed

    station = await open_station(world, bob, fid)
    await click(world, bob, find_id(station.view, "agree"))
    record = await Flights(bot.storage).load_flight(fid)
    assert record.status == "finished"
    deck = deck_of(record)
    assert deck.status == "ended" and deck.complete and deck.now_s < deck.phase_end_s[-1]  # ended early
    texts = "\n".join(s.content or "" for s in world.channel.sent)
    assert "The whole crew agreed" in texts
    assert any(s.embed is not None and "result" in (s.embed.title or "") for s in world.channel.sent)
    assert len(await Logbook(bot.storage).entries(world.guild.id)) == 1
    assert await service.tick(fid) is None  # the timer has nothing left to do


def deck_of(record: Any) -> Any:
    """The flight deck the engine shows for a stored flight (tests read views, not the stored shape)."""
    from engine.flight.machine import Flight

    return Flight.from_dict(record.state).deck()


def _custom_ids(view: Any) -> list[str]:
    return [getattr(item, "custom_id", "") for item in view.children]


async def test_the_servers_custom_mission_limits_are_enforced(bot: Any, world: Any) -> None:
    """`custom_max_count` and `custom_max_kb` from /settings: a refusal in the server's language,
    nothing saved; replacing a mission of the same id does not count as one more."""
    cog = bot.get_cog("Mission")
    admin = world.member("Ada")
    base = official_timeline_json("S2-1")

    async def add(mission_id: str, **extra: Any) -> str:
        inter = world.interaction(admin, manage_guild=True)
        raw = json.dumps(base | {"id": mission_id, **extra}).encode()
        await cog.custom_add.callback(cog, inter, make_attachment(raw))
        assert last(inter).ephemeral
        return str(last(inter).content)

    await bot.storage.set_setting(world.guild.id, "custom_max_count", 0)
    assert "at most 0 custom missions" in await add("ZERO-1")
    assert await CustomMissions(bot.storage).missions(world.guild.id) == {}

    await bot.storage.set_setting(world.guild.id, "custom_max_count", 1)
    assert "saved" in await add("ONE-1")
    assert "saved" in await add("ONE-1", name="Again")  # the same id replaces: still one
    assert "at most 1 custom missions (it has 1)" in await add("ONE-2")
    assert set(await CustomMissions(bot.storage).missions(world.guild.id)) == {"ONE-1"}

    await bot.storage.set_setting(world.guild.id, "custom_max_count", 5)
    await bot.storage.set_setting(world.guild.id, "custom_max_kb", 1)  # an official track is ~3 KB
    assert "up to 1 KB" in await add("BIG-1")
    await bot.storage.set_setting(world.guild.id, "language", "ru")
    assert "не больше" not in (refused := await add("BIG-1")) and "до 1 КБ" in refused
    assert set(await CustomMissions(bot.storage).missions(world.guild.id)) == {"ONE-1"}
