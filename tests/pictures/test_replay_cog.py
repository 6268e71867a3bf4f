"""/replay and /whatif through the cog's real command callbacks and DynamicItem routing."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path
from typing import Any

from PIL import Image

from bot.games.space_alert.comparisons import Comparisons
from bot.games.space_alert.logbook import Logbook
from bot.games.space_alert.mission.cards import card_key
from bot.games.space_alert.mission.storage import Flights
from bot.games.space_alert.pictures import resolve_with_states
from bot.games.space_alert.replay import _ids
from bot.games.space_alert.replay._whatif import hand_of
from engine.flight.views import card_view
from tests.bot.helpers import FakeClock, World, new_bot, stop_bot
from tests.pictures.flights import FLIGHT_ID, press, store_finished


def png_of(file: Any) -> Image.Image:
    file.fp.seek(0)
    img = Image.open(BytesIO(file.fp.read()))
    img.load()
    return img


def turn_ids(view: Any) -> list[str]:
    return [item.custom_id for item in view.children]


async def crew(bot: Any, world: Any, give: tuple[str, str] | None = None) -> dict[str, Any]:
    members = {name: world.member(name) for name in ("Ann", "Bob", "Cy", "Dee")}
    await store_finished(bot, world, members, give=give)
    return members


async def snapshots(bot: Any) -> int:
    from engine.flight.machine import Flight

    record = await Flights(bot.storage).load_flight(FLIGHT_ID)
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
    last = int(ids[-1].rsplit(":", 1)[1].split(".")[0])  # `<turn>.<slot>`
    assert ids[0] == _ids.make(FLIGHT_ID, "turn", 0, "first") and last == await snapshots(bot) - 1 > 2
    assert len(set(ids)) == len(ids)  # at the end ▶, ⏭ and the label lead to one turn, with distinct ids
    assert post.view.children[-1].item.disabled  # already at the end
    # the counter numbers turns as the picture does ("Turn 5/12"), the jump after turn 12 as "⤴ 13"
    assert post.view.children[2].item.label == ("⤴ 13" if last == 13 else f"{last}/12")
    # every picture carries its alt text: the turn, the damage, the crew
    alt = post.kwargs["file"].description
    assert alt and "damage tokens: red" in alt and "crew: " in alt, alt
    log_text = log_post.kwargs["file"].fp.getvalue().decode()
    assert "Turn 1" in log_text

    # previous turn: the same message edited with that turn's picture
    inter = await press(world, members["Bob"], ids[1])
    assert [s.kind for s in inter.log] == ["defer", "edit_original"]
    edited = inter.log[-1]
    assert edited.embed.image.url == f"attachment://turn-{last - 1:02d}.png"
    assert png_of(edited.kwargs["attachments"][0]).size == (1000, 860)
    assert edited.kwargs["attachments"][0].description.startswith(f"Turn {last - 1}/12")
    assert edited.view.children[2].item.label == f"{last - 1}/12"


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
    ids = actions(editor.view)
    assert set(ids) == {"wpick", "reset", "run"}  # nothing selected yet: choose a card or a turn
    flight = await stored_flight(bot)
    unplaced = len(hand_of(flight, "Ann").cards) - len(flight.member("Ann").board)
    assert [f.name for f in editor.embed.fields] == ["Action board", f"Cards in hand ({unplaced})"]

    # unchanged plan: the flight goes exactly the same way
    inter = await press(world, ann, ids["run"])
    assert [s.kind for s in inter.log] == ["defer", "followup"]
    assert inter.log[-1].ephemeral and "Nothing changes" in inter.log[-1].embed.description

    # select turn 2 (as at the station), take its card back, then resolve
    assert "t2" in options(editor.view, "wpick")
    inter = await press(world, ann, ids["wpick"], ["t2"])
    assert inter.log[-1].kind == "edit_message"
    ids = actions(inter.log[-1].view)
    assert set(ids) == {"wpick", "wplace", "wback", "reset", "run"}
    assert ids["wback"].endswith(".t2")
    inter = await press(world, ann, ids["wback"])
    shown = inter.log[-1]
    assert "✎" in shown.embed.fields[0].value.splitlines()[1]  # turn 2 marked changed
    assert shown.embed.footer.text.endswith("turns changed: 1")
    ids = actions(shown.view)
    plan = ids["run"].split(":")[3].split(".")[1]
    assert plan[3:6] == "---"
    inter = await press(world, ann, ids["run"])
    result = inter.log[-1]
    assert result.ephemeral and "Score" in result.embed.description
    assert "First difference: turn 2" in result.embed.description
    names = [f.filename for f in result.kwargs["files"]]
    assert names == ["real.png", "whatif.png"]
    assert all(png_of(f).size == (1000, 860 + 178) for f in result.kwargs["files"])
    assert len(await Logbook(bot.storage).entries(world.guild.id)) == 1  # what-if never enters the logbook
    # ...but it is kept for the flight's web page: the changed run only, once however often it runs
    inter = await press(world, ann, ids["run"])
    kept = await Comparisons(bot.storage).of_flight(FLIGHT_ID)
    assert [(c.kind, c.asked_by, c.asked_name, c.board, c.plan) for c in kept] == [
        ("whatif", ann.id, "Ann", "Ann", plan)
    ]
    assert [(c["turn"], c["alt"]) for c in kept[0].changes] == [(2, "-")] and kept[0].changes[0]["real"] != "-"
    assert kept[0].diverges_at == 2 and kept[0].alt_total == kept[0].real_total + kept[0].delta


def actions(view: Any) -> dict[str, str]:
    return {cid.split(":")[2]: cid for cid in turn_ids(view)}


def options(view: Any, action: str) -> list[str]:
    item = next(i for i in view.children if i.custom_id.split(":")[2] == action)
    return [o.value for o in item.item.options]


async def stored_flight(bot: Any) -> Any:
    from engine.flight.machine import Flight

    record = await Flights(bot.storage).load_flight(FLIGHT_ID)
    return Flight.from_dict(record.state)


async def test_whatif_refuses_a_forged_plan(bot: Any, world: Any) -> None:
    members = await crew(bot, world)
    forged = _ids.make(FLIGHT_ID, "run", 0, "zza" * 12)
    inter = await press(world, members["Ann"], forged)
    assert inter.log[-1].ephemeral and "out of date" in inter.log[-1].content


async def test_pictures_button_opens_a_private_replay(bot: Any, world: Any) -> None:
    from bot.games.space_alert.replay.components import pictures_button

    members = await crew(bot, world)
    button = pictures_button(FLIGHT_ID)
    inter = await press(world, members["Dee"], button.custom_id)
    assert [s.kind for s in inter.log] == ["defer", "followup"]
    assert inter.log[0].kwargs["ephemeral"] and inter.log[1].ephemeral
    assert inter.log[1].embed.image.url == f"attachment://turn-{await snapshots(bot) - 1:02d}.png"


async def test_whatif_old_editor_ids_and_foreign_boards_are_answered(bot: Any, world: Any) -> None:
    members = await crew(bot, world)
    for cid in (
        _ids.make(FLIGHT_ID, "wcard", 2, "--" * 12),  # an editor drawn before the station's controls
        _ids.make(FLIGHT_ID, "run", 1, "---" * 12),  # a board Ann does not have
        _ids.make(FLIGHT_ID, "wplace", "x"),
    ):
        inter = await press(world, members["Ann"], cid, ["a.1"])
        assert inter.log[-1].ephemeral and "out of date" in inter.log[-1].content, cid


async def test_whatif_editor_works_after_a_restart(tmp_path: Path) -> None:
    bot1 = await new_bot(tmp_path / "sa.sqlite3", FakeClock())
    world = World(bot1)
    members = await crew(bot1, world)
    ann = members["Ann"]
    inter = world.interaction(ann)
    cog = bot1.get_cog("Replay")
    await cog.whatif.callback(cog, inter, flight=FLIGHT_ID)
    pick = actions(inter.log[-1].view)["wpick"]
    await stop_bot(bot1)
    bot2 = await new_bot(tmp_path / "sa.sqlite3", FakeClock(), world=world)
    try:
        inter = await press(world, ann, pick, ["t1"])
        assert inter.log[-1].kind == "edit_message" and "wplace" in actions(inter.log[-1].view)
    finally:
        await stop_bot(bot2)


async def test_whatif_offers_the_card_ann_gave_away(bot: Any, world: Any) -> None:
    members = await crew(bot, world, give=("Ann", "Bob"))
    journal = await Flights(bot.storage).flight_events(FLIGHT_ID)
    gift = next(e["payload"]["command"]["card"] for e in journal if e["kind"] == "give")
    cog = bot.get_cog("Replay")
    inter = world.interaction(members["Ann"])
    await cog.whatif.callback(cog, inter, flight=FLIGHT_ID)
    editor = inter.log[-1]
    # the gift is in the editor's hand (one pick option per kind of card, as at the station)
    from bot.games.space_alert.replay._editor import station_of
    from bot.games.space_alert.replay._whatif import given_away

    flight = await stored_flight(bot)
    with_gift = station_of(hand := hand_of(flight, "Ann", given_away(journal, "Ann")), hand.real)
    without = station_of(bare := hand_of(flight, "Ann"), bare.real)
    assert gift in [c.id for c in with_gift.hand] and len(with_gift.hand) == len(without.hand) + 1
    assert editor.embed.fields[1].name == f"Cards in hand ({len(with_gift.hand)})"
    gift_view = card_view(gift)
    same_kind = next(c for c in with_gift.hand if (c.action, c.move) == (gift_view.action, gift_view.move))
    key = card_key(same_kind)
    assert key in options(editor.view, "wpick")
    # put it on the first turn it can go, move half up, and resolve
    inter = await press(world, members["Ann"], actions(editor.view)["wpick"], ["t1"])
    inter = await press(world, members["Ann"], actions(inter.log[-1].view)["wback"])
    inter = await press(world, members["Ann"], actions(inter.log[-1].view)["wpick"], [key])
    placing = actions(inter.log[-1].view)["wplace"]
    assert "m.1" in options(inter.log[-1].view, "wplace")
    inter = await press(world, members["Ann"], placing, ["m.1"])
    assert "✎" in inter.log[-1].embed.fields[0].value.splitlines()[0]
    inter = await press(world, members["Ann"], actions(inter.log[-1].view)["run"])
    assert "Score" in inter.log[-1].embed.description


async def test_whatif_for_a_solo_flight_edits_the_androids(bot: Any, world: Any) -> None:
    solo = world.member("Solo")
    flight = await store_finished(bot, world, {"Solo": solo})
    cog = bot.get_cog("Replay")
    inter = world.interaction(solo)
    await cog.whatif.callback(cog, inter, flight=FLIGHT_ID)
    editor = inter.log[-1]
    assert editor.ephemeral and "Android 1" in editor.embed.description
    ids = actions(editor.view)
    assert set(ids) == {"wpick", "reset", "run", "wboard"}
    assert options(editor.view, "wboard") == ["0", "1", "2", "3"]
    # another android: its own real plan, its board index in every id
    inter = await press(world, solo, ids["wboard"], ["2"])
    shown = inter.log[-1]
    assert "Android 3" in shown.embed.description
    ids = actions(shown.view)
    assert ids["run"].split(":")[3].startswith("2.")
    planned_turns = sorted(flight.member("Android 3").board)
    assert [f"t{n}" for n in planned_turns] == [v for v in options(shown.view, "wpick") if v.startswith("t")]
    inter = await press(world, solo, ids["wpick"], [f"t{planned_turns[0]}"])
    inter = await press(world, solo, actions(inter.log[-1].view)["wback"])
    inter = await press(world, solo, actions(inter.log[-1].view)["run"])
    result = inter.log[-1]
    assert result.ephemeral and "Android 3" in result.embed.description
    assert "First difference: turn" in result.embed.description
    assert len(await Logbook(bot.storage).entries(world.guild.id)) == 1


async def test_a_failing_click_still_gets_a_private_answer(bot: Any, world: Any, monkeypatch: Any) -> None:
    from bot.games.space_alert.replay import cog as _cog

    def broken(*_args: Any) -> Any:
        raise RuntimeError("the brush broke")

    members = await crew(bot, world)
    monkeypatch.setattr(_cog, "replay_picture", broken)
    inter = await press(world, members["Ann"], _ids.make(FLIGHT_ID, "turn", 2))
    assert inter.log[0].kind == "defer" and len(inter.log) == 2
    assert inter.log[-1].ephemeral and inter.log[-1].content
