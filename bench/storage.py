"""Storage throughput: saves per second and save latency with many flights clicking at once.

Each flight is one task saving through `update_flight` (load, apply, save the state and one
event, in one transaction) on a real engine snapshot.  Two loads: "flat out" (every flight saves
as fast as it can: throughput, and the latency of a save that queues behind all the others) and
"paced" (every flight clicks 5 times a second, a frantic crew: the latency a player sees).
Reported: saves/s over all flights and the p50/p99/max latency of one save.  The aim:
more than 500 saves/s with 20 flights on SQLite (WAL).

    python bench/storage.py                      # SQLite, 20 and 200 flights
    python bench/storage.py --flights 20 --seconds 5
    python bench/storage.py --backend postgres   # needs TEST_DATABASE_URL or the local `test` db
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games.space_alert.mission.storage import CrewMember, FlightRecord, Flights
from bot.platform.storage import SqliteStorage, Storage
from engine.flight.machine import Flight, FlightConfig


def engine_state() -> dict[str, Any]:
    flight = Flight.start(FlightConfig(crew=[{"name": n} for n in ("Ann", "Bob", "Cy", "Dee", "Eve")], mission="S1-1"))
    flight.advance_to(60)
    return flight.to_dict()


async def open_backend(name: str, folder: Path) -> Storage:
    if name == "sqlite":
        storage: Storage = SqliteStorage(folder / "bench.sqlite3")
    else:
        from bot.platform.storage.postgres import PostgresStorage

        url = os.environ.get("TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test")
        storage = PostgresStorage(url, schema=f"bench_{os.getpid()}", drop_schema_on_close=True)
    await storage.open()
    return storage


async def run(backend: str, flights: int, seconds: float, pace_s: float = 0.0) -> dict[str, float]:
    state = engine_state()
    with tempfile.TemporaryDirectory() as tmp:
        storage = await open_backend(backend, Path(tmp))
        try:
            ids = []
            for i in range(flights):
                record = FlightRecord(
                    id=f"{i:08x}",
                    guild_id=1,
                    channel_id=10_000 + i,
                    host_id=7,
                    status="flying",
                    language="en",
                    voice=False,
                    time_scale=1.0,
                    options={"mission": "S1-1"},
                    crew=[CrewMember(7 + n, f"P{n}", []) for n in range(5)],
                    state=dict(state),
                )
                await Flights(storage).create_flight(record)
                ids.append(record.id)
            latencies: list[float] = []
            jitter = random.Random(flights)
            deadline = time.perf_counter() + seconds

            async def flight_loop(fid: str) -> None:
                n = 0
                await asyncio.sleep(jitter.random() * pace_s)  # crews do not click in lockstep
                while time.perf_counter() < deadline:
                    n += 1

                    def click(r: FlightRecord, n: int = n) -> dict[str, Any]:
                        assert r.state is not None
                        r.state["now_s"] = n
                        return {"kind": "click", "actor_id": 7, "payload": {"n": n}}

                    started = time.perf_counter()
                    await Flights(storage).update_flight(fid, click)
                    took = time.perf_counter() - started
                    latencies.append(took)
                    if pace_s:
                        await asyncio.sleep(max(0.0, pace_s - took))

            began = time.perf_counter()
            await asyncio.gather(*(flight_loop(f) for f in ids))
            elapsed = time.perf_counter() - began
        finally:
            await storage.close()
    latencies.sort()
    return {
        "saves": len(latencies),
        "saves_per_s": len(latencies) / elapsed,
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": latencies[int(len(latencies) * 0.99) - 1] * 1000,
        "max_ms": latencies[-1] * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", choices=["sqlite", "postgres", "all"], default="sqlite")
    parser.add_argument("--flights", type=int, nargs="+", default=[20, 200])
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    backends = ["sqlite", "postgres"] if args.backend == "all" else [args.backend]
    header = ("backend", "flights", "load", "saves", "saves/s", "p50 ms", "p99 ms", "max ms")
    print("{:<9} {:>7} {:<9} {:>7} {:>9} {:>8} {:>8} {:>8}".format(*header))
    for backend in backends:
        for flights in args.flights:
            for load, pace in (("flat out", 0.0), ("paced", 0.2)):
                r = asyncio.run(run(backend, flights, args.seconds, pace))
                print(
                    f"{backend:<9} {flights:>7} {load:<9} {r['saves']:>7.0f} {r['saves_per_s']:>9.0f}"
                    f" {r['p50_ms']:>8.2f} {r['p99_ms']:>8.2f} {r['max_ms']:>8.2f}"
                )


if __name__ == "__main__":
    main()
