"""The overview picture on a flight's result post and on /resolve, and that a picture
that cannot be drawn or sent never costs the result."""

from __future__ import annotations

import base64
import io
import json
import logging
import threading
from typing import Any

import discord
import pytest
from PIL import Image

from bot.games.space_alert.logbook import Logbook
from bot.games.space_alert.mission import result as _result
from bot.games.space_alert.mission._posting import ResultPost
from bot.games.space_alert.mission.storage import Flights
from bot.games.space_alert.pictures.draw import H, W
from bot.games.space_alert.pictures.overview import STORY_H
from engine.flight.machine import Flight
from engine.model import Game
from tests.bot.helpers import custom_ids, http_error, last, start_flight, tick

OVERVIEW_SIZE = (W, H + STORY_H)
GAME = {
    "tracks": {"red": "T1", "white": "T2", "blue": "T3", "internal": "T4"},
    "players": [{"name": "Ann", "actions": "-" * 12}],
    "threats": [{"id": "E1-01", "turn": 1, "zone": "red"}],
}


async def fly_to_the_end(bot: Any, world: Any, clock: Any) -> tuple[str, Any]:
    """A whole S2-1 flight (nobody plays a card), then the result post."""
    fid, _ann, _bob = await start_flight(bot, world)
    service = bot.get_cog("Mission").flights
    clock.advance(11 * 60)
    await tick(service, fid)
    assert (await Flights(bot.storage).load_flight(fid)).status == "finished"
    results = [s for s in world.channel.sent if s.embed is not None and "result" in (s.embed.title or "")]
    assert len(results) == 1, [s.embed.title for s in world.channel.sent if s.embed]
    return fid, results[0]


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    with Image.open(io.BytesIO(data)) as img:
        return img.size


def attached(file: discord.File) -> bytes:
    file.fp.seek(0)
    return file.fp.read()


async def test_the_result_post_carries_the_overview_picture_and_the_pictures_button(
    bot: Any, world: Any, clock: Any
) -> None:
    fid, post = await fly_to_the_end(bot, world, clock)
    file = post.kwargs["file"]
    assert file.filename == "overview.png"
    assert file.description.startswith("The flight's result: ")  # alt text for screen readers
    assert post.embed.image.url == "attachment://overview.png"
    assert png_size(attached(file)) == OVERVIEW_SIZE
    assert f"sr:{fid}:open:99" in custom_ids(post.view)
    # the captain's log still follows in the thread under the result
    message = world.channel.messages[[s.kwargs for s in world.channel.sent].index(post.kwargs)]
    assert "Captain's log" in "\n".join(s.content for s in message.thread.sent)
    # the button opens this flight's last turn picture for the presser, with previous/next
    from tests.pictures.flights import press

    inter = await press(world, world.member("Bob"), f"sr:{fid}:open:99")
    shown = inter.log[-1]
    assert shown.ephemeral and (shown.embed.image.url or "").startswith("attachment://turn-")
    assert any(":turn:" in cid for cid in custom_ids(shown.view))


async def test_the_captains_log_ends_with_turn_navigation_that_shows_each_turns_picture(
    bot: Any, world: Any, clock: Any
) -> None:
    from tests.pictures.flights import press

    fid, post = await fly_to_the_end(bot, world, clock)
    message = world.channel.messages[[s.kwargs for s in world.channel.sent].index(post.kwargs)]
    *log, navigation = message.thread.sent
    assert "Captain's log" in "\n".join(s.content for s in log)  # the log first, the navigation last
    assert "turn by turn" in navigation.content
    assert custom_ids(navigation.view) == [f"sr:{fid}:turn:0", f"sr:{fid}:turn:1", f"sr:{fid}:turn:99"]

    # turn 1: this message becomes turn 1's picture with previous / next
    inter = await press(world, world.member("Bob"), f"sr:{fid}:turn:1")
    assert [s.kind for s in inter.log] == ["defer", "edit_original"]
    shown = inter.log[-1]
    assert shown.embed.image.url == "attachment://turn-01.png"
    assert png_size(attached(shown.kwargs["attachments"][0])) == (W, H)
    ids = custom_ids(shown.view)
    assert ids == [f"sr:{fid}:turn:{n}" for n in ("0.first", "0.prev", "1.at", "2.next", f"{ids[-1].split(':')[-1]}")]
    assert len(set(ids)) == len(ids)  # Discord refuses a message whose ids repeat
    # next: turn 2's picture, and the end is clamped to the flight's last snapshot
    inter = await press(world, world.member("Ann"), ids[3])
    assert inter.log[-1].embed.image.url == "attachment://turn-02.png"
    inter = await press(world, world.member("Ann"), f"sr:{fid}:turn:99")
    last_ids = custom_ids(inter.log[-1].view)
    assert len(set(last_ids)) == 5  # at the end, ▶, ⏭ and the label all lead to the last turn
    last_index = int(last_ids[-1].rsplit(":", 1)[1].split(".")[0])
    assert inter.log[-1].embed.image.url == f"attachment://turn-{last_index:02d}.png" and last_index < 99


async def test_a_result_job_resumed_after_its_log_sends_only_the_navigation(bot: Any, world: Any) -> None:
    """A restart after the log went out but before the navigation: the navigation, nothing twice."""
    posts = bot.get_cog("Mission").flights.posts
    first = ResultPost(posts, {**_payload(world, None), "thread_tried": True})
    await first()
    assert [s.content for s in world.channel.sent] == [None, "Captain's log", nav_text()]
    stored = json.loads(json.dumps({**first.spec(), "nav_sent": False}))
    again = ResultPost(posts, stored)
    await again()
    assert [s.content for s in world.channel.sent][3:] == [nav_text()]
    await ResultPost(posts, json.loads(json.dumps(again.spec())))()
    assert len(world.channel.sent) == 4  # all sent: nothing more


def nav_text() -> str:
    from bot.games.space_alert.replay.text import text

    return text("en", "log_nav")


async def test_a_drawing_failure_still_posts_the_result(
    bot: Any, world: Any, clock: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*_args: Any) -> bytes:
        raise RuntimeError("the brush broke")

    monkeypatch.setattr(_result, "render_overview", broken)
    with caplog.at_level(logging.ERROR, logger=_result.log.name):
        _fid, post = await fly_to_the_end(bot, world, clock)
    assert "file" not in post.kwargs and post.embed.image.url is None
    assert "Score breakdown" in [f.name for f in post.embed.fields]
    assert any("overview picture failed" in r.getMessage() for r in caplog.records)
    assert len(await Logbook(bot.storage).entries(world.guild.id)) == 1


async def test_a_snapshot_failure_still_resolves_and_posts_the_result(
    bot: Any, world: Any, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(_game: Any) -> Any:
        raise RuntimeError("the observer tripped")

    monkeypatch.setattr(_result, "resolve_with_states", broken)
    fid, post = await fly_to_the_end(bot, world, clock)
    assert "file" not in post.kwargs and post.embed.image.url is None
    assert (await Flights(bot.storage).load_flight(fid)).notes["result"]["outcome"] in ("survived", "destroyed")


async def test_a_hanging_drawing_does_not_hold_the_result(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_result, "RENDER_TIMEOUT_S", 0.05)
    release = threading.Event()

    def stuck(*_args: Any) -> bytes:
        release.wait(5)
        return b""

    monkeypatch.setattr(_result, "render_overview", stuck)
    replay = _result.resolve_game(Game.model_validate(GAME))[1]
    try:
        assert await _result.overview_picture(replay, "en") is None
    finally:
        release.set()


def test_resolving_with_snapshots_gives_the_flights_own_result() -> None:
    from tests.pictures.flights import played_flight  # a whole S1-1 played through the flight machine

    flight: Flight = played_flight(["Ann", "Bob", "Cid"])
    result, replay = _result.resolve_flight(flight)
    assert replay is not None and replay.result is result
    assert result.to_json_dict(with_log=True) == flight.resolve(log=True).to_json_dict(with_log=True)


async def test_a_refused_picture_costs_only_the_picture(bot: Any, world: Any) -> None:
    """No Attach Files permission: Discord answers 403 to the upload; the result goes out bare."""
    send = world.channel.send.side_effect

    async def no_files(content: str | None = None, **kwargs: Any) -> Any:
        if "file" in kwargs:
            raise http_error(403)
        return await send(content, **kwargs)

    world.channel.send.side_effect = no_files
    png = b"\x89PNG\r\n\x1a\nfake"
    job = ResultPost(bot.get_cog("Mission").flights.posts, _payload(world, png))
    await job()
    [post] = world.channel.sent
    assert post.embed is not None and post.embed.image.url is None and "file" not in post.kwargs
    assert job.spec()["picture"] is None and job.spec()["message_id"] is not None


async def test_a_result_stored_at_shutdown_keeps_its_picture(bot: Any, world: Any) -> None:
    """The job is stored as JSON and sent after a restart: the picture travels inside it."""
    png = b"\x89PNG\r\n\x1a\nfake"
    stored = json.loads(json.dumps(ResultPost(bot.get_cog("Mission").flights.posts, _payload(world, png)).spec()))
    job = ResultPost(bot.get_cog("Mission").flights.posts, stored)
    await job()
    [post] = world.channel.sent
    assert attached(post.kwargs["file"]) == png and post.embed.image.url == "attachment://overview.png"
    assert "sr:0123abcd:open:99" in custom_ids(post.view)
    assert job.spec()["picture"] is None  # once sent, the job no longer carries the picture


def _payload(world: Any, png: bytes | None) -> dict[str, Any]:
    return {
        "op": "result",
        "channel_id": world.channel.id,
        "embed": discord.Embed(title="Mission result").to_dict(),
        "flight_id": "0123abcd",
        "language": "en",
        "picture": base64.b64encode(png).decode("ascii") if png else None,
        "thread_name": "Captain's log",
        "chunks": ["Captain's log"],
    }


async def test_resolve_answers_a_valid_game_publicly_with_the_overview_picture(bot: Any, world: Any) -> None:
    cog = bot.get_cog("Records")
    inter = world.interaction(world.member("Ann"))
    await cog.resolve.callback(cog, inter, json_text=json.dumps(GAME))
    answer = last(inter)
    assert answer.kind == "followup" and answer.kwargs["ephemeral"] is False
    files = {f.filename: f for f in answer.kwargs["files"]}
    assert set(files) == {"captains-log.md", "overview.png"}
    assert answer.embed.image.url == "attachment://overview.png"
    assert png_size(attached(files["overview.png"])) == OVERVIEW_SIZE
    assert "score" in files["overview.png"].description


async def test_resolve_without_a_picture_still_answers(bot: Any, world: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_args: Any) -> bytes:
        raise RuntimeError("the brush broke")

    monkeypatch.setattr(_result, "render_overview", broken)
    cog = bot.get_cog("Records")
    inter = world.interaction(world.member("Ann"))
    await cog.resolve.callback(cog, inter, json_text=json.dumps(GAME))
    answer = last(inter)
    assert answer.kwargs["ephemeral"] is False and answer.embed.image.url is None
    assert [f.filename for f in answer.kwargs["files"]] == ["captains-log.md"]
