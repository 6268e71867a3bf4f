"""The whole flight through the bot's components: lobby, start, hands, the round, the result.

Driven through the bot's real DynamicItem callbacks with spec'd interaction fakes (helpers.py),
a temporary SQLite file and a hand-moved clock, on the official mission S2-1
(incoming data at 2:20, communications down at 2:50 for 20 s, data transfer at 3:05, phases end
at 3:45, 7:30 and 10:00).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.games.space_alert.logbook import Logbook
from bot.games.space_alert.mission import ids as _ids
from bot.games.space_alert.mission.storage import Flights
from bot.platform.i18n import t
from tests.bot.helpers import (
    World,
    channel_text,
    click,
    custom_ids,
    find_id,
    last,
    new_bot,
    open_lobby,
    open_station,
    select_options,
    start_flight,
    station_view,
    stop_bot,
    tick,
)


async def test_lobby_join_roles_and_start(bot: Any, world: Any) -> None:
    ann = world.member("Ann", in_voice=True)
    bob = world.member("Bob")
    eve = world.member("Eve")
    fid, sent = await open_lobby(bot, world, ann)
    record = await Flights(bot.storage).load_flight(fid)
    assert record.status == "lobby" and [m.name for m in record.crew] == ["Ann"]
    assert record.lobby_message_id is not None
    assert "4 android" in str(sent.embed.fields[3].value)  # solo: four androids (rulebook §5.5)

    inter = await click(world, bob, _ids.make(fid, "join"))
    assert last(inter).kind == "edit_message"
    assert f"<@{bob.id}>" in last(inter).embed.fields[3].value
    inter = await click(world, bob, _ids.make(fid, "join"))
    assert last(inter).ephemeral and "already" in last(inter).content

    await click(world, ann, _ids.make(fid, "roles"), ["captain", "comms"])
    await click(world, bob, _ids.make(fid, "roles"), ["comms"])  # takes comms away from Ann
    record = await Flights(bot.storage).load_flight(fid)
    assert [m.roles for m in record.crew] == [["captain"], ["comms"]]

    inter = await click(world, eve, _ids.make(fid, "roles"), ["security"])
    assert last(inter).ephemeral and "Join" in last(inter).content
    inter = await click(world, bob, _ids.make(fid, "start"))
    assert last(inter).ephemeral and "host" in last(inter).content
    assert (await Flights(bot.storage).load_flight(fid)).status == "lobby"

    # a second lobby in the same channel is refused
    inter = world.interaction(eve)
    cog = bot.get_cog("Mission")
    await cog.mission_start.callback(cog, inter, mission="S1-1")
    assert last(inter).ephemeral and "already has an active flight" in last(inter).content

    inter = await click(world, ann, _ids.make(fid, "start"))
    record = await Flights(bot.storage).load_flight(fid)
    assert record.status == "flying" and record.state is not None and record.deck_message_id is not None
    deck = next(s for s in world.channel.sent if s.embed is not None and "flight deck" in s.embed.title)
    # the voice bridge was asked to join Ann's voice channel; it said no, once, and text goes on
    assert bot.voice.calls[0][0] == "prepare" and bot.voice.calls[0][1][1] == world.voice.id
    assert any("voice is off in tests" in (s.content or "") for s in world.channel.sent)
    assert find_id(deck.view, "station") == _ids.make(fid, "station")
    # stale lobby button after the start
    inter = await click(world, eve, _ids.make(fid, "join"))
    assert last(inter).ephemeral and "closed" in last(inter).content


async def test_unknown_mission_and_missing_permissions(bot: Any, world: Any) -> None:
    import discord

    cog = bot.get_cog("Mission")
    ann = world.member("Ann")
    inter = world.interaction(ann)
    await cog.mission_start.callback(cog, inter, mission="S9-9")
    assert last(inter).ephemeral and "Unknown mission" in last(inter).content
    inter = world.interaction(ann, app_permissions=discord.Permissions(view_channel=True))
    await cog.mission_start.callback(cog, inter, mission="S2-1")
    text = last(inter).content
    assert last(inter).ephemeral and "Send Messages" in text and "Embed Links" in text
    choices = await cog._mission_autocomplete(inter, "s2-")
    assert [c.value for c in choices] == [f"S2-{i}" for i in range(1, 9)]


async def test_full_flight(bot: Any, world: Any, clock: Any) -> None:
    fid, ann, bob = await start_flight(bot, world)
    eve = world.member("Eve")
    service = bot.get_cog("Mission").flights

    clock.advance(12)
    await tick(service, fid)
    assert "📢" in channel_text(world.channel)  # the intercom text mirror

    station = await open_station(world, ann, fid)
    assert "Station of Ann" in station.embed.title
    shown = str(station.embed.to_dict())
    assert "A: fire" in shown or "B: energy" in shown or "C: special" in shown
    hand = await station_view(bot, fid, "Ann")
    assert not any(c.id in shown for c in hand.hand)  # no internal card codes where a player looks
    first_card = select_options(station.view, "pick")[0]

    # choose a card, then "turn 1 ← move half" in one select
    inter = await click(world, ann, find_id(station.view, "pick"), [first_card])
    hand = last(inter)
    assert hand.kind == "edit_message"
    assert "m.1" in select_options(hand.view, "place") and "a.1" in select_options(hand.view, "place")
    inter = await click(world, ann, find_id(hand.view, "place"), ["m.1"])
    hand = last(inter)
    assert hand.kind == "edit_message"
    slot = (await station_view(bot, fid, "Ann")).board.slots[0]
    assert slot.card is not None and slot.half == "move"

    # move it to turn 2 (turning it to its action half), then take it back
    inter = await click(world, ann, find_id(hand.view, "pick"), ["t1"])
    inter = await click(world, ann, find_id(last(inter).view, "place"), ["a.2"])
    board = (await station_view(bot, fid, "Ann")).board
    assert [s.turn for s in board.slots if s.card] == [2] and board.slots[1].half == "action"
    inter = await click(world, ann, find_id(last(inter).view, "pick"), ["t2"])
    inter = await click(world, ann, find_id(last(inter).view, "back"))
    assert not any(s.card for s in (await station_view(bot, fid, "Ann")).board.slots)

    # rejections: someone outside the crew, another player's hand, a forged click
    inter = await click(world, eve, _ids.make(fid, "station"))
    assert last(inter).ephemeral and "not in this flight's crew" in last(inter).content
    inter = await click(world, bob, _ids.make(fid, "refresh", ann.id))
    assert last(inter).ephemeral and "another crew member" in last(inter).content
    before = (await Flights(bot.storage).load_flight(fid)).version
    inter = await click(world, eve, _ids.make(fid, "draw", eve.id))
    assert (await Flights(bot.storage).load_flight(fid)).version == before

    # place a card on an android's board: the board says who fills it
    station = await open_station(world, bob, fid)
    android_field = next(f for f in station.embed.fields if f.name.startswith("🤖"))
    assert "Any human crew member may fill it" in android_field.value
    bob_card = next(o for o in select_options(station.view, "pick") if not o.startswith("hH"))
    inter = await click(world, bob, find_id(station.view, "pick"), [bob_card])
    android_slots = select_options(last(inter).view, "android")
    inter = await click(world, bob, find_id(last(inter).view, "android"), [android_slots[0]])
    bob_view = await station_view(bot, fid, "Bob")
    assert any(s.card for b in bob_view.androids for s in b.slots)

    # incoming data at 2:20: Ann's open station is redrawn by itself, with a Draw button
    ann_inter = await click(world, ann, _ids.make(fid, "refresh", ann.id))
    assert "draw" not in [c.split(":")[2] for c in custom_ids(last(ann_inter).view)]
    clock.advance(140 - 12 + 1)
    await tick(service, fid)
    redrawn = last(ann_inter)
    assert redrawn.kind == "edit_original" and find_id(redrawn.view, "draw")
    hand_before = len((await station_view(bot, fid, "Ann")).hand)
    ann_inter = await click(world, ann, find_id(redrawn.view, "draw"))  # this message is now Ann's station
    assert len((await station_view(bot, fid, "Ann")).hand) == hand_before + 1
    inter = await click(world, ann, _ids.make(fid, "draw", ann.id))
    assert last(inter).ephemeral  # only one draw per incoming data

    # communications down 2:50-3:00: the crew in voice is server-muted, then unmuted
    clock.advance(170 - 141 + 1)
    await tick(service, fid)
    ann.edit.assert_any_await(mute=True, reason="Space Alert: communications down")
    bob.edit.assert_any_await(mute=True, reason="Space Alert: communications down")
    assert any("Communications down" in (s.content or "") for s in world.channel.sent)
    clock.advance(10)  # S2-1's failure lasts until 3:00
    await tick(service, fid)
    ann.edit.assert_any_await(mute=False, reason="Space Alert: communications restored")

    # data transfer at 3:05 (until the beep 8 s later): Ann gives Bob a card in one choice, and
    # Bob's open station shows it without a click
    bob_inter = await click(world, bob, _ids.make(fid, "refresh", bob.id))
    record = await Flights(bot.storage).load_flight(fid)
    clock.advance(max(0.0, 186 - service.flight_time(record)))
    await tick(service, fid)
    station = last(ann_inter)
    assert station.kind == "edit_original"  # the transfer opened: Ann's station has the give select
    gift = select_options(station.view, "give")[0]
    inter = await click(world, ann, find_id(station.view, "give"), [gift])
    given = gift.split(".")[0]
    bob_hand = (await station_view(bot, fid, "Bob")).hand
    assert any("h" + c.id.translate(str.maketrans("<>^", "LRU")) == given for c in bob_hand)
    assert last(bob_inter).kind == "edit_original" and len(select_options(last(bob_inter).view, "pick")) > 0

    # finish phase early (Ann moves on to phase 2), then a forged click on a locked turn
    station = await open_station(world, ann, fid)
    inter = await click(world, ann, find_id(station.view, "finish"))
    assert (await station_view(bot, fid, "Ann")).planning_phase == 2
    card = select_options(last(inter).view, "pick")[0]
    inter = await click(world, ann, _ids.make(fid, "place", ann.id, card), ["a.3"])
    assert last(inter).ephemeral and "locked" in last(inter).content
    inter = await click(world, ann, _ids.make(fid, "place", ann.id, card), ["a.4"])
    assert last(inter).kind == "edit_message"

    assert bot.voice.calls[0][1][4] > 50  # every intercom line of S2-1 handed to the voice

    # the operation ends: the last line is posted, then the result, the log in a thread, the logbook
    clock.advance(700)
    assert await tick(service, fid) is None
    record = await Flights(bot.storage).load_flight(fid)
    assert record.status == "finished"
    order = [s.content or (s.embed.title if s.embed else "") for s in world.channel.timeline]
    last_line = max(i for i, text in enumerate(order) if "Mission complete" in (text or ""))
    result_at = next(i for i, s in enumerate(world.channel.timeline) if s.embed and "result" in (s.embed.title or ""))
    assert last_line < result_at
    result_post = world.channel.timeline[result_at]
    assert "Score breakdown" in [f.name for f in result_post.embed.fields]
    result_message = world.channel.messages[[s.kwargs for s in world.channel.sent].index(result_post.kwargs)]
    result_message.create_thread.assert_awaited()
    log_text = "\n".join(s.content for s in result_message.thread.sent)
    assert "Captain's log" in log_text and "Turn 1" in log_text
    assert " 0 energy" not in log_text
    entries = await Logbook(bot.storage).entries(world.guild.id)
    assert len(entries) == 1 and entries[0].mission_id == "S2-1"
    assert {c.name for c in entries[0].crew} >= {"Ann", "Bob"}
    assert entries[0].outcome in ("survived", "destroyed")

    # a finished flight's buttons explain and change nothing
    inter = await click(world, ann, _ids.make(fid, "station"))
    assert last(inter).ephemeral and "over" in last(inter).content
    inter = await click(world, ann, _ids.make(fid, "finish", ann.id))
    assert last(inter).ephemeral and "over" in last(inter).content

    # /logbook and /leaderboard show it (a lost flight too, with what destroyed it)
    records = bot.get_cog("Records")
    inter = world.interaction(ann)
    await records.logbook.callback(records, inter, crew_member=ann)
    assert "S2-1" in last(inter).embed.fields[0].name
    inter = world.interaction(ann)
    await records.leaderboard.callback(records, inter)
    board = last(inter).embed
    assert "S2-1" in (board.description or "") + str([f.value for f in board.fields])


async def test_intercom_mirror_is_a_handful_of_posts_for_a_whole_mission(bot: Any, world: Any, clock: Any) -> None:
    fid, _ann, _bob = await start_flight(bot, world, voice="off")
    service = bot.get_cog("Mission").flights
    await service.drain()
    before = len(world.channel.sent)
    for _ in range(700):  # second by second, as the timer would
        clock.advance(1)
        if await tick(service, fid) is None:
            break
    texts = [s.content for s in world.channel.sent[before:] if s.content and s.embed is None]
    intercom_posts = [c for c in texts if c.startswith("📢")]
    assert 3 <= len(intercom_posts) <= 6, len(intercom_posts)  # one per phase (77 lines in all)
    assert len(world.channel.sent[before:]) < 25, len(world.channel.sent[before:])
    assert (
        sum(c.count("📢") for c in intercom_posts)
        < sum((e[1].get("content") or "").count("📢") for e in world.channel.edits)
        + sum(c.count("📢") for c in intercom_posts)
        + 1
    )
    final = "\n".join((e[1].get("content") or "") for e in world.channel.edits) + "\n".join(texts)
    assert "Mission complete" in final


async def test_restart_in_phase_two_keeps_every_plan(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "sa.sqlite3"
    bot1 = await new_bot(db, clock)
    world = World(bot1)
    fid, ann, _bob = await start_flight(bot1, world)
    service = bot1.get_cog("Mission").flights
    clock.advance(240)  # phase 2 (phase 1 ends at 3:45)
    await tick(service, fid)
    station = await open_station(world, ann, fid)
    card = select_options(station.view, "pick")[0]
    inter = await click(world, ann, find_id(station.view, "pick"), [card])
    inter = await click(world, ann, find_id(last(inter).view, "place"), ["a.5"])
    assert last(inter).kind == "edit_message"
    await stop_bot(bot1)

    # a new bot over the same database; the old hand's buttons keep working
    clock.advance(30)
    bot2 = await new_bot(db, clock)
    world.bot = bot2  # same guild, channel and members; rewire the new bot's lookups
    bot2.get_channel = world._channel
    bot2.get_guild = lambda gid: world.guild
    inter = await click(world, ann, _ids.make(fid, "refresh", ann.id))
    hand = inter.log[0]  # (a redraw of this station for the events of the 30 s may follow it)
    assert hand.kind == "edit_message"
    board_field = next(f for f in hand.embed.fields if f.name == "Action board")
    assert "\n".join(board_field.value.splitlines()[4:5]).strip().startswith("` 5`")
    assert "**" in board_field.value.splitlines()[4]  # the card's action half, in words
    service2 = bot2.get_cog("Mission").flights
    clock.advance(1000)
    await tick(service2, fid)
    record = await Flights(bot2.storage).load_flight(fid)
    assert record.status == "finished"
    entries = await Logbook(bot2.storage).entries(world.guild.id)
    assert len(entries) == 1
    await stop_bot(bot2)


async def test_abort_by_host_or_manager(bot: Any, world: Any) -> None:
    fid, ann, bob = await start_flight(bot, world)
    cog = bot.get_cog("Mission")
    inter = world.interaction(bob)
    await cog.mission_abort.callback(cog, inter)
    assert last(inter).ephemeral and "Only the host" in last(inter).content
    inter = world.interaction(bob, manage_guild=True)
    await cog.mission_abort.callback(cog, inter)
    assert "aborted" in last(inter).content
    assert (await Flights(bot.storage).load_flight(fid)).status == "aborted"
    inter = await click(world, ann, _ids.make(fid, "station"))
    assert last(inter).ephemeral and "over" in last(inter).content


async def test_voice_ready_flight_starts_and_stops_the_intercom(tmp_path: Path, clock: Any) -> None:
    from tests.bot.helpers import RecordingVoice

    voice = RecordingVoice(reason=None)
    bot = await new_bot(tmp_path / "v.sqlite3", clock, voice=voice)
    world = World(bot)
    fid, _ann, _bob = await start_flight(bot, world)
    assert [c[0] for c in voice.calls] == ["prepare", "start"]
    assert not any("intercom continues in text" in (s.content or "") for s in world.channel.sent)
    clock.advance(2000)
    await tick(bot.get_cog("Mission").flights, fid)
    assert voice.calls[-1] == ("finish", fid)  # a natural end lets the last lines play
    await stop_bot(bot)


async def test_a_player_who_never_clicks_again_sees_draw_and_give_in_time(bot: Any, world: Any, clock: Any) -> None:
    """Bob opens his station once at the start; incoming data and the data transfer reach him anyway."""
    fid, _ann, bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights
    clock.advance(12)
    await tick(service, fid)
    inter = await click(world, bob, _ids.make(fid, "station"))
    assert "draw" not in [c.split(":")[2] for c in custom_ids(last(inter).view)]

    async def at(second: float) -> Any:
        clock.advance(second - service.flight_time(await Flights(bot.storage).load_flight(fid)))
        await tick(service, fid)
        return last(inter)

    shown = await at(141)  # incoming data at 2:20
    assert shown.kind == "edit_original" and find_id(shown.view, "draw")
    assert "Incoming data" in shown.embed.description
    shown = await at(186)  # data transfer at 3:05
    gift, give_id = select_options(shown.view, "give")[0], find_id(shown.view, "give")
    shown = await at(195)  # the beep, 8 s later: the give select is gone
    assert "give" not in [c.split(":")[2] for c in custom_ids(shown.view)]
    # a press on the select as drawn before the beep is refused with the rule's reason
    late = await click(world, bob, give_id, [gift])
    assert last(late).ephemeral and last(late).content == t("en", "reason.transfer_closed"), last(late).content
    shown = await at(226)  # phase 1 ends at 3:45: turns 1-3 locked on the station without a click
    board = next(f for f in shown.embed.fields if f.name == "Action board")
    assert all("🔒" in line for line in board.value.splitlines()[:3])


async def test_a_solo_station_offers_every_kind_of_card_and_every_android(bot: Any, world: Any, clock: Any) -> None:
    ann = world.member("Ann", in_voice=True)
    fid, _ = await open_lobby(bot, world, ann, mission="S1-1")
    await click(world, ann, _ids.make(fid, "start"))
    clock.advance(5)
    await tick(bot.get_cog("Mission").flights, fid)
    station = await open_station(world, ann, fid)
    picks = select_options(station.view, "pick")
    assert len(picks) == 12  # 90 face-up cards, 4 actions x 3 moves: one option per kind
    inter = await click(world, ann, find_id(station.view, "pick"), [picks[0]])
    targets = select_options(last(inter).view, "android")
    assert {t.split(".")[0] for t in targets} == {"0", "1", "2", "3"}  # all four androids in reach
    inter = await click(world, ann, find_id(last(inter).view, "android"), [targets[0]])
    assert last(inter).kind == "edit_message"
    assert any(s.card for b in (await station_view(bot, fid, "Ann")).androids for s in b.slots)
