"""CPU time of one click, step by step, in-process (no fakecord, no wall-clock noise from others).

Why in-process: bench/interactions.py measures what a player feels, but on a shared machine its
figures swing with everyone else's load.  This script drives the mission cog with the unit
tests' fakes (tests/bot/helpers.py) over a real SQLite file, flies a five-player S1-1 to phase 1,
and times, in CPU seconds of this process (`time.process_time`) and wall milliseconds, the steps
a click goes through:

  load        the flight record from the database (`FlightStore.peek`)
  restore     the engine snapshot (`Flight.from_dict`)
  advance     the flight to now (`advance_to`)
  apply       the station view, the command, `apply`
  snapshot    `Flight.to_dict`
  fingerprint the "did the change change anything" check `update_flight` makes (twice)
  save        `save_flight` with its journal entry (one unit of work)
  answer      the station's embed and view (`station_message`)
  click:*     whole clicks through the cog as discord.py would call them (open the station,
              choose a card, place it, take it back), background work included (drained)
  tick:quiet  a timer tick with nothing due (every running flight makes one every few seconds)

    PYTHONPATH=. .venv/bin/python bench/click_path.py [--repeat 200] [--profile 25]

`--profile N` prints the N costliest functions (cumulative) of the whole clicks.  Figures are the
median per step; the last line is the figures as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games.space_alert.mission import ids as _ids
from bot.games.space_alert.mission._station import Selection, command_for, station_message
from bot.games.space_alert.mission.cards import card_key
from bot.games.space_alert.mission.components import FlightButton, FlightSelect
from bot.games.space_alert.mission.storage import Flights, fingerprint
from bot.platform.storage.sqlite import SqliteTransaction
from engine.flight.machine import Flight
from tests.bot.helpers import FakeClock, World, click, new_bot, open_lobby, stop_bot

CREW = ("Ann", "Bob", "Cid", "Dee", "Eve")


class Timer:
    """Per step: CPU seconds and wall seconds of each run, and the database work it did: units of
    work (each holds SQLite's one writer) and statements (each a hop to aiosqlite's thread)."""

    def __init__(self) -> None:
        self.cpu: dict[str, list[float]] = defaultdict(list)
        self.wall: dict[str, list[float]] = defaultdict(list)
        self.db: dict[str, list[tuple[int, int]]] = defaultdict(list)
        self.units = self.statements = 0

    def watch(self, storage: Any) -> None:
        """Count `storage`'s units of work and statements (by wrapping its entry points)."""
        new_unit, fetch = storage._new_unit, storage._fetch
        timer = self

        def counted_unit() -> Any:
            timer.units += 1
            return new_unit()

        async def counted_fetch(sql: str, params: Any = ()) -> Any:
            timer.statements += 1
            return await fetch(sql, params)

        storage._new_unit, storage._fetch = counted_unit, counted_fetch
        for name in ("rows", "run", "many"):
            original = getattr(SqliteTransaction, name)

            async def counted(tx: Any, *args: Any, _original: Any = original) -> Any:
                timer.statements += 1
                return await _original(tx, *args)

            setattr(SqliteTransaction, name, counted)

    async def step(self, name: str, work: Callable[[], Awaitable[Any]]) -> Any:
        units, statements = self.units, self.statements
        c0, w0 = time.process_time(), time.perf_counter()
        out = await work()
        self.cpu[name].append(time.process_time() - c0)
        self.wall[name].append(time.perf_counter() - w0)
        self.db[name].append((self.units - units, self.statements - statements))
        return out

    def sync(self, name: str, work: Callable[[], Any]) -> Any:
        c0, w0 = time.process_time(), time.perf_counter()
        out = work()
        self.cpu[name].append(time.process_time() - c0)
        self.wall[name].append(time.perf_counter() - w0)
        return out

    def table(self) -> dict[str, dict[str, float]]:
        return {
            name: {
                "n": len(self.cpu[name]),
                "cpu_ms": round(statistics.median(self.cpu[name]) * 1000, 3),
                "wall_ms": round(statistics.median(self.wall[name]) * 1000, 3),
                "units": round(statistics.mean(u for u, _ in self.db[name]), 2) if self.db[name] else 0,
                "statements": round(statistics.mean(s for _, s in self.db[name]), 2) if self.db[name] else 0,
            }
            for name in self.cpu
        }


async def flying(db: Path) -> tuple[Any, World, FakeClock, str]:
    """A five-player S1-1 in phase 1, every member in voice."""
    clock = FakeClock()
    bot = await new_bot(db, clock)
    world = World(bot)
    members = [world.member(name, in_voice=True) for name in CREW]
    fid, _ = await open_lobby(bot, world, members[0], mission="S1-1", serious_threats="white")
    for member in members[1:]:
        await click(world, member, _ids.make(fid, "join"))
    await click(world, members[0], _ids.make(fid, "start"))
    service = bot.get_cog("Mission").flights
    for _ in range(60):  # until the cards are dealt and can be placed
        record = await Flights(bot.storage).load_flight(fid)
        if Flight.from_dict(record.state).station("Bob").placements:
            break
        clock.advance(1.0)
        await service.tick(fid)
        await service.drain()
    return bot, world, clock, fid


async def steps(bot: Any, fid: str, timer: Timer, repeat: int) -> None:
    """The steps of a click one by one (a card placed and taken back, so the flight stays put)."""
    store = bot.get_cog("Mission").flights.store
    storage = bot.storage
    for _ in range(repeat):
        record = await timer.step("load", lambda: store.peek(fid))
        flight = timer.sync("restore", lambda r=record: Flight.from_dict(r.state))
        timer.sync("advance", lambda f=flight: f.advance_to(f.now_s))
        name = record.crew[1].name

        def apply(f: Flight = flight, name: str = name) -> Any:
            view = f.station(name)
            placement = view.placements[0]
            sel = Selection(card_key(placement.card))
            command = command_for(view, "place", sel, [f"a.{placement.turns[0]}"])
            return f.apply(command) if command is not None else None

        timer.sync("apply", apply)
        timer.sync("snapshot", lambda f=flight: f.to_dict())
        timer.sync("fingerprint", lambda r=record: (fingerprint(r), fingerprint(r)))
        event = {"kind": "bench", "actor_id": None, "payload": {"events": []}}
        # the state as loaded is saved (as large as the changed one): the next round starts alike
        saved = await timer.step("save", lambda r=record, e=event: Flights(storage).save_flight(r, e))
        restored = Flight.from_dict(saved.state)
        timer.sync(
            "answer",
            lambda f=restored, r=saved, n=name: station_message(
                r.language, fid, r.crew[1].user_id, f.station(n), Selection()
            ),
        )


async def press(world: World, user: Any, custom_id: str, values: list[str] | None, timer: Timer, kind: str) -> None:
    """`tests.bot.helpers.click`, with the fake interaction built before the clock starts (a spec'd
    MagicMock costs ~10 ms of CPU to build, more than the click itself)."""
    inter = world.interaction(user, custom_id=custom_id, values=values)
    action = _ids.parse(custom_id)
    assert action is not None
    cls = FlightButton if action.action in _ids.BUTTON_ACTIONS else FlightSelect

    async def run() -> None:
        item = cls(custom_id)
        if cls is FlightSelect:
            item._refresh_state(inter, {"custom_id": custom_id, "values": values or []})
        await item.callback(inter)
        await world.bot.get_cog("Mission").flights.drain()

    await timer.step(kind, run)
    assert inter.log and inter.log[-1].kind in ("send_message", "edit_message"), (kind, inter.log)


async def clicks(world: World, bot: Any, fid: str, timer: Timer, repeat: int) -> None:
    """Whole clicks as a player makes them: open the station, choose a card, place it, take it back."""
    member = world.members["Bob"]
    uid = member.id
    for _ in range(repeat):
        await press(world, member, _ids.make(fid, "station"), None, timer, "click:station")
        record = await Flights(bot.storage).load_flight(fid)
        placement = Flight.from_dict(record.state).station("Bob").placements[0]
        card, turn = card_key(placement.card), placement.turns[0]
        await press(world, member, _ids.make(fid, "pick", uid), [card], timer, "click:pick")
        await press(world, member, _ids.make(fid, "place", uid, card), [f"a.{turn}"], timer, "click:place")
        await press(world, member, _ids.make(fid, "back", uid, f"t{turn}"), None, timer, "click:back")
        service = bot.get_cog("Mission").flights
        await timer.step("tick:quiet", lambda s=service: s.tick(fid))  # the clock stands: nothing due


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    timer = Timer()
    with tempfile.TemporaryDirectory() as tmp:
        bot, world, _clock, fid = await flying(Path(tmp) / "bench.db")
        timer.watch(bot.storage)
        try:
            await steps(bot, fid, timer, args.repeat)
            profile = cProfile.Profile() if args.profile else None
            if profile is not None:
                profile.enable()
            await clicks(world, bot, fid, timer, args.repeat // 4 or 1)
            if profile is not None:
                profile.disable()
                pstats.Stats(profile, stream=sys.stderr).sort_stats("cumulative").print_stats(args.profile)
            size = len(json.dumps((await Flights(bot.storage).load_flight(fid)).state))
        finally:
            await stop_bot(bot)
    return {"steps": timer.table(), "state_bytes": size}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--profile", type=int, default=0, help="print the N costliest functions of the whole clicks")
    args = parser.parse_args()
    figures = asyncio.run(main_async(args))
    print(
        f"{'step':<14} {'n':>5} {'cpu ms':>8} {'wall ms':>8} {'units':>6} {'stmts':>6}"
        f"   (medians; units of work and statements: means; state {figures['state_bytes']} bytes)"
    )
    for name, row in figures["steps"].items():
        print(
            f"{name:<14} {row['n']:>5} {row['cpu_ms']:>8.3f} {row['wall_ms']:>8.3f}"
            f" {row['units']:>6.2f} {row['statements']:>6.2f}"
        )
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
