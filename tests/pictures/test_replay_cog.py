"""/replay and /whatif through the cog's real command callbacks and DynamicItem routing."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path
from typing import Any

from PIL import Image

from bot.exts.replay import _ids
from bot.pictures import resolve_with_states
from tests.bot.helpers import FakeClock, World, new_bot, stop_bot
from tests.pictures.flights import FLIGHT_ID, press, store_finished


def png_of(file: Any) -> Image.Image:
    file.fp.seek(0)
    img = Image.open(BytesIO(file.fp.read()))
    img.load()
    return img


def turn_ids(view: Any) -> list[str]:
    return [item.custom_id for item in view.children]


async def crew(bot: Any, world: Any) -> dict[str, Any]:
    members = {name: world.member(name) for name in ("Ann", "Bob", "Cy", "Dee")}
    await store_finished(bot, world, members)
    return members


async def snapshots(bot: Any) -> int:
    from engine.flight.machine import Flight

    record = await bot.storage.load_flight(FLIGHT_ID)
    return len(resolve_with_states(Flight.from_dict(record.state).to_game()).states)


async def test_replay_posts_the_last_turn_with_navigation_and_the_log(bot: Any, world: Any) -> None:
    members = await crew(bot, world)
    cog = bot.get_cog("Replay")
    inter = world.interaction(members["Ann"])
    await cog.replay.callback(cog, inter, flight=FLIGHT_ID)
    kinds = [s.kind for s in inter.log]
    assert kinds == ["defer", "followup", "followup"]
    post, log_post = inter.log[1], inter.log[2]
    assert "S1-1" in post.embed.title and post.embed.image.url.startswith("attachment://turn-")
    assert png_of(post.kwargs["file"]).size == (1000, 860)
    ids = turn_ids(post.view)
    last = int(ids[-1].rsplit(":", 1)[1])
    assert ids[0] == _ids.make(FLIGHT_ID, "turn", 0) and last == await snapshots(bot) - 1 > 2
    assert post.view.children[-1].item.disabled  # already at the end
    log_text = log_post.kwargs["file"].fp.getvalue().decode()
    assert "Turn 1" in log_text

    # previous turn: the same message edited with that turn's picture
    inter = await press(world, members["Bob"], ids[1])
    assert [s.kind for s in inter.log] == ["defer", "edit_original"]
    edited = inter.log[-1]
    assert edited.embed.image.url == f"attachment://turn-{last - 1:02d}.png"
    assert png_of(edited.kwargs["attachments"][0]).size == (1000, 860)


async def test_replay_buttons_work_after_a_restart(tmp_path: Path) -> None:
    bot1 = await new_bot(tmp_path / "sa.sqlite3", FakeClock())
    world = World(bot1)
    members = await crew(bot1, world)
    await stop_bot(bot1)
    bot2 = await new_bot(tmp_path / "sa.sqlite3", FakeClock(), world=world)
    try:
        inter = await press(world, members["Cy"], _ids.make(FLIGHT_ID, "turn", 3))
        assert inter.log[-1].kind == "edit_original"
        assert inter.log[-1].embed.image.url == "attachment://turn-03.png"
    finally:
        await stop_bot(bot2)


async def test_unknown_or_foreign_flight_is_refused(bot: Any, world: Any) -> None:
    members = await crew(bot, world)
    cog = bot.get_cog("Replay")
    inter = world.interaction(members["Ann"])
    await cog.replay.callback(cog, inter, flight="deadbeef")
    assert inter.log[-1].ephemeral and "No finished flight" in inter.log[-1].content
    inter = world.interaction(members["Ann"])
    await cog.replay.callback(cog, inter, flight="@everyone <@1>")
    assert inter.log[-1].ephemeral and "`" in inter.log[-1].content  # shown as inert code
    inter = world.interaction(members["Ann"])
    inter.guild_id = world.guild.id + 1
    await cog.replay.callback(cog, inter, flight=FLIGHT_ID)
    assert inter.log[-1].ephemeral and "No finished flight" in inter.log[-1].content


async def test_autocomplete_lists_logged_flights(bot: Any, world: Any) -> None:
    members = await crew(bot, world)
    cog = bot.get_cog("Replay")
    choices = await cog._replay_flights(world.interaction(members["Ann"]), "s1")
    assert [c.value for c in choices] == [FLIGHT_ID]
    stranger = world.member("Zed")
    assert await cog._whatif_flights(world.interaction(stranger), "") == []


async def test_whatif_edit_and_compare_never_logged(bot: Any, world: Any) -> None:
    members = await crew(bot, world)
    cog = bot.get_cog("Replay")
    stranger = world.member("Zed")
    inter = world.interaction(stranger)
    await cog.whatif.callback(cog, inter, flight=FLIGHT_ID)
    assert inter.log[-1].ephemeral and "Only the crew" in inter.log[-1].content

    ann = members["Ann"]
    inter = world.interaction(ann)
    await cog.whatif.callback(cog, inter, flight=FLIGHT_ID)
    editor = inter.log[-1]
    assert editor.kind == "send_message" and editor.ephemeral
    ids = {cid.split(":")[2]: cid for cid in turn_ids(editor.view)}
    assert set(ids) == {"wturn", "wcard", "flip", "clear", "reset", "run"}

    # unchanged plan: the flight goes exactly the same way
    inter = await press(world, ann, ids["run"])
    assert [s.kind for s in inter.log] == ["defer", "followup"]
    assert inter.log[-1].ephemeral and "Nothing changes" in inter.log[-1].embed.description

    # choose turn 2, empty it, then resolve: a different flight, shown beside the real one
    inter = await press(world, ann, ids["wturn"], ["2"])
    assert inter.log[-1].kind == "edit_message"
    ids = {cid.split(":")[2]: cid for cid in turn_ids(inter.log[-1].view)}
    assert ids["wcard"].split(":")[3].startswith("2.")
    inter = await press(world, ann, ids["clear"])
    ids = {cid.split(":")[2]: cid for cid in turn_ids(inter.log[-1].view)}
    plan = ids["run"].split(":")[3]
    assert plan[2:4] == "--"
    inter = await press(world, ann, ids["run"])
    result = inter.log[-1]
    assert result.ephemeral and "Score" in result.embed.description
    assert "First difference: turn 2" in result.embed.description
    names = [f.filename for f in result.kwargs["files"]]
    assert names == ["real.png", "whatif.png"]
    assert all(png_of(f).size == (1000, 860 + 178) for f in result.kwargs["files"])
    assert len(await bot.storage.logbook(world.guild.id)) == 1  # what-if never enters the logbook


async def test_whatif_refuses_a_forged_plan(bot: Any, world: Any) -> None:
    members = await crew(bot, world)
    forged = _ids.make(FLIGHT_ID, "run", "zz" * 12)
    inter = await press(world, members["Ann"], forged)
    assert inter.log[-1].ephemeral and "out of date" in inter.log[-1].content


async def test_pictures_button_opens_a_private_replay(bot: Any, world: Any) -> None:
    from bot.exts.replay._components import pictures_button

    members = await crew(bot, world)
    button = pictures_button(FLIGHT_ID)
    inter = await press(world, members["Dee"], button.custom_id)
    assert [s.kind for s in inter.log] == ["defer", "followup"]
    assert inter.log[0].kwargs["ephemeral"] and inter.log[1].ephemeral
    assert inter.log[1].embed.image.url == f"attachment://turn-{await snapshots(bot) - 1:02d}.png"
