"""A small store for the web tests: a public server and a private one, each with a played flight.

The public server (PUBLIC, "Orbit Club", Russian by its setting) has a played S1-1 with its final
snapshot (so its captain's log and pictures rebuild), a finished campaign and an ELITE game; the
private server (PRIVATE) has a flight of its own that no page may show, flown by a player who flew
nowhere else.  The flight is played once per test session (it takes a second).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from bot.games.elite.storage import EliteStore
from bot.games.space_alert.campaign.storage import CampaignRecord, Campaigns
from bot.games.space_alert.logbook import Logbook, LogbookCrew, LogbookEntry
from bot.games.space_alert.mission.storage import CrewMember, FlightRecord, Flights
from bot.platform.storage.web import NAME_SETTING
from engine.flight.machine import Flight
from tests.pictures.flights import play

PUBLIC = 111_111_111_111_111_111
PRIVATE = 222_222_222_222_222_222
ANN, BOB, CID = 3001, 3002, 3003
PUBLIC_FLIGHT = "0badcafe"
PRIVATE_FLIGHT = "deadbeef"
BOARD_FLIGHT = "cafef00d"  # a surviving flight whose snapshot is gone: logged result only


@cache
def _played() -> tuple[dict[str, Any], dict[str, Any]]:
    flight, _journal = play(["Ann", "Bob"])
    return flight.to_dict(), flight.resolve().to_json_dict()


def played() -> tuple[Flight, dict[str, Any]]:
    state, result = _played()
    return Flight.from_dict(state), dict(result)


def entry(fid: str, guild: int, mission: str, levels: tuple[str, str], result: dict[str, Any], **more: Any) -> Any:
    """A logbook line of `guild` (English, flown in channel guild + 1); `more` sets the rest."""
    return LogbookEntry(
        flight_id=fid,
        guild_id=guild,
        channel_id=guild + 1,
        mission_id=mission,
        normal_difficulty=levels[0],
        serious_difficulty=levels[1],
        language="en",
        outcome=result["outcome"],
        result=result,
        total=result["score"]["total"],
        **more,
    )


async def add_flight(storage: Any, fid: str, guild: int, crew: dict[str, int], flown_at: str) -> dict[str, Any]:
    """A finished flight row (with its final snapshot) and its logbook entry; the result dict."""
    flight, result = played()
    record = FlightRecord(
        id=fid,
        guild_id=guild,
        channel_id=guild + 1,
        host_id=next(iter(crew.values())),
        status="finished",
        language="en",
        voice=False,
        time_scale=1.0,
        options={"mission": "S1-1", "seed": 2, "normal": "white", "serious": "yellow"},
        crew=[
            CrewMember(user_id=uid, name=name, roles=["captain"] if i == 0 else [])
            for i, (name, uid) in enumerate(crew.items())
        ],
        state=flight.to_dict(),
    )
    await Flights(storage).create_flight(record)
    crew_rows = [
        LogbookCrew(name=name, user_id=uid, roles=["captain"] if i == 0 else [])
        for i, (name, uid) in enumerate(crew.items())
    ]
    await Logbook(storage).add(
        entry(fid, guild, "S1-1", ("white", "yellow"), result, flown_at=flown_at, crew=crew_rows, seed=2)
    )
    return result


async def fill(storage: Any) -> dict[str, Any]:
    """The two servers; returns the public flight's result."""
    await storage.set_setting(PUBLIC, "leaderboard", "public")
    await storage.set_setting(PUBLIC, NAME_SETTING, "Orbit Club")
    await storage.set_setting(PUBLIC, "language", "ru")
    await storage.set_setting(PRIVATE, "leaderboard", "private")
    await storage.set_setting(PRIVATE, NAME_SETTING, "Secret Base")
    result = await add_flight(storage, PUBLIC_FLIGHT, PUBLIC, {"Ann": ANN, "Bob": BOB}, "2026-11-20T20:00:00+00:00")
    await add_flight(storage, PRIVATE_FLIGHT, PRIVATE, {"Cid": CID, "Ann": ANN}, "2026-11-21T20:00:00+00:00")
    survived = {
        "outcome": "survived",
        "lost": None,
        "damage": {"red": 1, "white": 0, "blue": 2},
        "threats": [{"id": "E1-01", "turn": 1, "zone": "red", "fate": "destroyed", "points": 4}],
        "score": {
            "threats": 4,
            "damage": -3,
            "worst_zone": -2,
            "knocked_out": 0,
            "battlebots": 0,
            "observation": 0,
            "total": 17,
        },
    }
    crew_rows = [LogbookCrew(name="Bob", user_id=BOB, roles=["captain"]), LogbookCrew(name="Dan", roles=["android"])]
    await Logbook(storage).add(
        entry(
            BOARD_FLIGHT,
            PUBLIC,
            "S1-2",
            ("white", "white"),
            survived,
            flown_at="2026-11-19T20:00:00+00:00",
            crew=crew_rows,
            seed=9,
            threat_points_destroyed=4,
        )
    )
    await Campaigns(storage).save(
        CampaignRecord(
            id="camp1",
            guild_id=PUBLIC,
            channel_id=PUBLIC + 1,
            state={},
            status="finished",
            missions=3,
            total=42,
            crew=[(ANN, "Ann"), (BOB, "Bob")],
            started_at="2026-11-01T20:00:00+00:00",
            finished_at="2026-11-03T20:00:00+00:00",
        )
    )
    await EliteStore(storage).record(
        PUBLIC,
        {
            "game": "elite",
            "map": "Valley",
            "mission": "Hold the pass",
            "difficulty": "normal",
            "players": 2,
            "heroes": ["warrior", "mage"],
            "rounds": 7,
            "result": "victory",
            "cause": None,
            "bosses_killed": 1,
            "seed": 5,
        },
    )
    return result
