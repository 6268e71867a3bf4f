"""No pings from user text: the client pings nobody by default, every message a flight
or a command sends keeps it that way, and the user strings the input paths echo are defused."""

from __future__ import annotations

import json
from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord

from bot.games.space_alert.logbook import Logbook, LogbookCrew, LogbookEntry
from bot.games.space_alert.mission import ids as _ids
from bot.games.space_alert.mission.storage import Flights
from bot.games.space_alert.storage import CustomMissions
from tests.bot.helpers import click, last, make_attachment, open_lobby, tick

HOSTILE = "@everyone <@&42> **bold**"


def effective(bot: Any, kwargs: dict[str, Any]) -> discord.AllowedMentions:
    """What discord.py would send: the per-message value merged over the client default."""
    default: discord.AllowedMentions = bot.allowed_mentions
    given = kwargs.get("allowed_mentions")
    return default.merge(given) if given is not None else default


def assert_pings_nobody_unasked(bot: Any, kwargs: dict[str, Any]) -> None:
    mentions = effective(bot, kwargs)
    assert mentions.everyone is False and mentions.roles is False, kwargs
    # users may only be an explicit list (the lobby calling its crew), never "anyone mentioned"
    assert mentions.users is False or isinstance(mentions.users, list), kwargs
    assert mentions.replied_user is False or kwargs.get("allowed_mentions") is not None


def test_the_client_pings_nobody_by_default(bot: Any) -> None:
    mentions = bot.allowed_mentions
    assert (mentions.everyone, mentions.users, mentions.roles, mentions.replied_user) == (False, False, False, False)


async def test_a_whole_flight_with_hostile_names_pings_nobody(bot: Any, world: Any, clock: Any) -> None:
    host = world.member(HOSTILE, in_voice=True)
    guest = world.member("<@1> @here", in_voice=True)
    fid, first = await open_lobby(bot, world, host)
    inters = [await click(world, guest, _ids.make(fid, "join"))]
    inters.append(await click(world, host, _ids.make(fid, "roles"), ["captain", "security"]))
    inters.append(await click(world, guest, _ids.make(fid, "roles"), ["comms"]))
    inters.append(await click(world, host, _ids.make(fid, "start")))
    service = bot.get_cog("Mission").flights
    clock.advance(11 * 60)
    await tick(service, fid)
    assert (await Flights(bot.storage).load_flight(fid)).status == "finished"

    sent = [first.kwargs] + [s.kwargs for inter in inters for s in inter.log]
    sent += [s.kwargs for s in world.channel.sent]
    sent += [s.kwargs for m in world.channel.messages for s in m.thread.sent]
    sent += [kwargs for _mid, kwargs in world.channel.edits]
    assert len(sent) > 10  # the flight really posted: lobby, deck, result, log
    for kwargs in sent:
        assert_pings_nobody_unasked(bot, kwargs)


async def test_resolve_error_is_private_defused_and_pings_nobody(bot: Any, world: Any) -> None:
    cog = bot.get_cog("Records")
    game = {
        "tracks": {"red": "T1", "white": "T2", "blue": "T3", "internal": "T4"},
        "players": [{"name": "Ann", "actions": "-" * 12}],
        "threats": [{"id": "<@&1> @everyone", "turn": 1, "zone": "red"}],
    }
    inter = world.interaction(world.member("Ann"))
    await cog.resolve.callback(cog, inter, json_text=json.dumps(game))
    assert inter.log[0].kind == "defer" and inter.log[0].kwargs.get("ephemeral") is True
    answer = last(inter)
    assert answer.ephemeral and answer.content.startswith("Invalid game: `threats[0].id: unknown threat id")
    assert "invalid game: invalid game" not in answer.content.lower()
    assert_pings_nobody_unasked(bot, answer.kwargs)


async def test_resolve_result_is_public_after_a_private_defer(bot: Any, world: Any) -> None:
    cog = bot.get_cog("Records")
    game = {
        "tracks": {"red": "T1", "white": "T2", "blue": "T3", "internal": "T4"},
        "players": [{"name": HOSTILE, "actions": "-" * 12}],
        "threats": [{"id": "E1-01", "turn": 1, "zone": "red"}],
    }
    inter = world.interaction(world.member("Ann"))
    await cog.resolve.callback(cog, inter, json_text=json.dumps(game))
    kinds = [s.kind for s in inter.log]
    assert kinds == ["defer", "edit_original", "followup"]
    assert inter.log[-1].kwargs["ephemeral"] is False and inter.log[-1].embed is not None
    for s in inter.log:
        assert_pings_nobody_unasked(bot, s.kwargs)


async def test_resolve_language_of_the_error(bot: Any, world: Any) -> None:
    cog = bot.get_cog("Records")
    inter = world.interaction(world.member("Ann"))
    await cog.resolve.callback(cog, inter, json_text="[", language="ru")
    assert last(inter).ephemeral and last(inter).content.startswith("Партия некорректна: `not valid JSON")


def _huge_attachment(size: int) -> MagicMock:
    attachment = MagicMock(spec=discord.Attachment)
    attachment.filename = "huge.json"
    attachment.size = size
    attachment.read = AsyncMock(side_effect=AssertionError("a too-large file must not be downloaded"))
    return attachment


async def test_a_20_mb_attachment_is_refused_by_size_before_it_is_read(bot: Any, world: Any) -> None:
    records = bot.get_cog("Records")
    big = _huge_attachment(20 * 1024 * 1024)
    inter = world.interaction(world.member("Ann"))
    await records.resolve.callback(records, inter, game=big)
    assert last(inter).ephemeral and "too large: 20971520 bytes" in last(inter).content
    big.read.assert_not_awaited()

    mission = bot.get_cog("Mission")
    inter = world.interaction(world.member("Ada"), manage_guild=True)
    await mission.custom_add.callback(mission, inter, big)
    assert last(inter).ephemeral and "too large: 20971520 bytes" in last(inter).content
    big.read.assert_not_awaited()


async def test_custom_add_echoes_nothing_that_renders(bot: Any, world: Any) -> None:
    cog = bot.get_cog("Mission")
    inter = world.interaction(world.member("Ada"), manage_guild=True)
    await cog.custom_add.callback(cog, inter, make_attachment(json.dumps({"id": "<@&1>"}).encode()))
    answer = last(inter)
    assert answer.ephemeral and "`" in answer.content and "<@&1>" not in answer.content
    assert_pings_nobody_unasked(bot, answer.kwargs)


def test_captains_log_lines_show_crew_names_inert() -> None:
    from bot.games.space_alert.mission.render import captains_log

    entry = {"turn": 1, "step": "actions", "kind": "move", "text": f"{HOSTILE}\u202e moves to the lift"}
    [chunk] = captains_log("en", [entry])
    line = chunk.splitlines()[-1]
    assert "moves to the lift" in line
    assert "@everyone" not in line and "<@&42>" not in line and "**bold**" not in line and "\u202e" not in line


async def test_resolve_errors_follow_the_callers_client_language(bot: Any, world: Any) -> None:
    cog = bot.get_cog("Records")
    inter = world.interaction(world.member("Ann"))
    inter.locale = discord.Locale.czech
    await cog.resolve.callback(cog, inter, json_text='{"seed": true}')
    assert last(inter).ephemeral and last(inter).content.startswith("Neplatná hra: `")


# -- a hostile name and a hostile mission through every place that shows them ---------------------
EVIL = "@everyone <@&42> **bold** `tick`\u202e"


def shown_inert(text: str) -> None:
    """Text where Discord renders markdown and mentions: the hostile parts are defused."""
    assert "@everyone" not in text and "<@&42>" not in text and "**bold**" not in text, text
    assert "\u202e" not in text, text


def embed_text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    parts += [f"{f.name}\n{f.value}" for f in embed.fields]
    return "\n".join(parts)


async def test_a_hostile_display_name_is_inert_in_lobby_deck_station_result_logbook_and_leaderboard(
    bot: Any, world: Any, clock: Any
) -> None:
    from tests.bot.helpers import open_station

    host = world.member(EVIL, in_voice=True)
    guest = world.member("Bob", in_voice=True)
    fid, lobby = await open_lobby(bot, world, host)
    await click(world, guest, _ids.make(fid, "join"))
    await click(world, host, _ids.make(fid, "roles"), ["captain", "security"])
    await click(world, guest, _ids.make(fid, "roles"), ["comms"])
    await click(world, host, _ids.make(fid, "start"))
    shown_inert(embed_text(lobby.embed))  # the lobby names its crew by mention (<@id>), never by name

    deck = next(s.embed for s in world.channel.sent if s.embed and "flight deck" in (s.embed.title or ""))
    footer = deck.footer.text or ""
    assert "\u202e" not in footer and "everyone" in footer  # a footer renders nothing: shown as typed
    station = await open_station(world, host, fid)
    shown_inert(station.embed.title or "")
    assert "everyone" in (station.embed.title or "")  # escaped, not dropped

    clock.advance(11 * 60)
    await tick(bot.get_cog("Mission").flights, fid)
    result = next(s for s in world.channel.sent if s.embed and "result" in (s.embed.title or ""))
    shown_inert(embed_text(result.embed))
    message = world.channel.messages[[s.kwargs for s in world.channel.sent].index(result.kwargs)]
    log_text = "\n".join(s.content for s in message.thread.sent)
    assert "everyone" in log_text  # the host is named in the captain's log ...
    shown_inert(log_text)  # ... inert

    # a row from before names were escaped on the way in: a hostile mission id and crew name

    await Logbook(bot.storage).add(
        LogbookEntry(
            guild_id=world.guild.id,
            channel_id=world.channel.id,
            flown_at="2026-11-23T08:00:00+00:00",
            mission_id=EVIL,
            normal_difficulty="white",
            serious_difficulty="white",
            language="en",
            outcome="destroyed",
            crew=[LogbookCrew(name=EVIL, user_id=host.id)],
            result={},
            destroyed_by="damage",
            total=-5,
        )
    )
    records = bot.get_cog("Records")
    inter = world.interaction(guest)
    await records.logbook.callback(records, inter)
    text = embed_text(last(inter).embed)
    assert text.count("everyone") >= 2  # the flown flight's host and the old row's mission and crew
    shown_inert(text)
    inter = world.interaction(guest)
    await records.leaderboard.callback(records, inter)
    text = embed_text(last(inter).embed)
    assert "everyone" in text
    shown_inert(text)
    assert_pings_nobody_unasked(bot, last(inter).kwargs)


async def test_hostile_mission_names_and_ids_are_inert_in_lists_choices_and_echoes(bot: Any, world: Any) -> None:
    from engine.flight.timeline import load_official

    timeline = load_official("S1-1").to_json_dict()
    await CustomMissions(bot.storage).add(world.guild.id, "evil-1", EVIL, timeline, 1)
    mission = bot.get_cog("Mission")
    records = bot.get_cog("Records")
    inter = world.interaction(world.member("Ada"))
    choices = [
        *await mission._mission_autocomplete(inter, "evil"),
        *await mission._custom_autocomplete(inter, "evil"),
        *await records._mission_autocomplete(inter, "evil"),
    ]
    assert len(choices) == 3
    for choice in choices:  # a choice name shows plain text: no bidi override, within 100 characters
        assert choice.value == "evil-1" and "\u202e" not in choice.name and 0 < len(choice.name) <= 100

    inter = world.interaction(world.member("Ada"))
    await mission.custom_list.callback(mission, inter)
    text = embed_text(last(inter).embed)
    assert "everyone" in text
    shown_inert(text)

    # ids typed into a command come back inside one code span, whatever they hold
    inter = world.interaction(world.member("Ada"))
    await mission.mission_start.callback(mission, inter, mission=EVIL)
    assert last(inter).ephemeral and last(inter).content.count("`") == 2 and "\u202e" not in last(inter).content
    inter = world.interaction(world.member("Ada"), manage_guild=True)
    await mission.custom_remove.callback(mission, inter, mission=EVIL)
    assert last(inter).content.count("`") == 2 and "\u202e" not in last(inter).content
    assert_pings_nobody_unasked(bot, last(inter).kwargs)


def test_mission_labels_and_names_in_embeds_are_escaped_and_bounded() -> None:
    from bot.games.space_alert.mission.render import mission_label
    from bot.platform.text import NAME_LIMIT, plain_text

    label = mission_label({"mission": EVIL * 10})
    shown_inert(label)
    assert len(label) <= NAME_LIMIT
    assert plain_text("\u202e\n") == "?" and len(plain_text("x" * 500, 100)) == 100
