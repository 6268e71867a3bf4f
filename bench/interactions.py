"""Interaction latency under load: many flights of five players clicking at once, through fakecord.

The real bot (`python -m bot`) runs against fakecord (`../shared/fakecord`, as in tests/e2e), and
`--flights` crews of `--players` members (two channels per server, as many servers as needed) play
S1-1 at the same time: the host opens the lobby, the others join, the host starts, then every
player opens "My station", places cards, moves one, takes one back and finishes phase 1, and in
phase 2 opens the station again, places a card and finishes.  Players think `--think` seconds
(uniform, seeded) between clicks.

Two figures per kind of interaction, from fakecord's own records:
  ack      click -> the first answer Discord would get (a response or a deferral)
  content  click -> what the player asked for: the response itself when it carries it, else the
           edit or follow-up after a deferral; for Start, the flight deck posted in the channel.
And the bot's RSS (/proc/<pid>/status VmRSS) before the lobbies open and at the peak while every
flight runs: (peak - idle) / flights is the memory one running game costs.
The targets (issue 23): p99 ack <= 100 ms, p99 content <= 300 ms, <= 2 MB RSS per running game.

    .venv/bin/python bench/interactions.py                  # 20 flights x 5 players
    .venv/bin/python bench/interactions.py --flights 5 --time-scale 12
    .venv/bin/python bench/interactions.py --py-spy /tmp/bot.txt     # the bot's collapsed stacks (py-spy)

The last line is the figures as JSON.  Voice is off by default (espeak for 20 flights would measure
the speech synthesiser); `--voice` turns it on.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import shutil
import signal
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import contextlib

from tests.e2e.harness import REPO, _import_fakecord, bot_env, cid, fake_discord, has, missing_reason, options

HarnessError: type[Exception] = Exception  # fakecord's, once it is imported

CHANNELS = ("bridge", "general")
PLAYERS = ("alice", "bob", "carol", "dave", "erin")
WAIT = 45.0


def rss_kb(pid: int) -> int:
    """The process's resident set size in KiB (0 when it cannot be read)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_s(pid: int) -> float:
    """User + system CPU seconds the process has used (/proc/<pid>/stat), 0 when unreadable."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def pct(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of values, in ms."""
    ordered = sorted(values)
    rank = max(0, math.ceil(q / 100 * len(ordered)) - 1)
    return ordered[rank] * 1000


class Recorder:
    """Per kind of interaction: the ack and content latencies (seconds)."""

    def __init__(self) -> None:
        self.ack: dict[str, list[float]] = defaultdict(list)
        self.content: dict[str, list[float]] = defaultdict(list)
        self.deferred: dict[str, int] = defaultdict(int)
        self.timeline: list[tuple[float, float, str]] = []  # (clicked, ack latency, kind)
        self.skipped = 0  # clicks a player meant but their control was gone by then
        self.failed: dict[str, int] = defaultdict(int)  # not answered in 3 s
        self.errors: list[str] = []
        self.lost: dict[str, int] = defaultdict(int)  # deferred, then no content within WAIT

    async def add(self, fd: Any, kind: str, ix: Any, shown: float | None = None) -> None:
        """Record one answered interaction; `shown`: the wall time its content appeared when that is
        neither the response itself nor its deferred answer (Start: the flight deck)."""
        if ix.ack_latency is not None:
            self.ack[kind].append(ix.ack_latency)
            self.timeline.append((ix.created_mono, ix.ack_latency, kind))
        if shown is None and ix.ack_type not in (4, 7):
            self.deferred[kind] += 1
            try:
                shown = await content_at(fd, ix)
            except HarnessError:  # deferred and never followed up: counted as lost, not as a time
                self.lost[kind] += 1
                return
        self.content[kind].append(ix.ack_latency if shown is None else max(0.0, shown - ix.created_wall))

    def table(self) -> dict[str, dict[str, float]]:
        out = {}
        for kind in sorted(self.ack, key=lambda k: -len(self.ack[k])):
            acks, contents = self.ack[kind], self.content[kind] or [math.nan]
            out[kind] = {
                "n": len(acks),
                "ack_p50_ms": round(pct(acks, 50), 1),
                "ack_p99_ms": round(pct(acks, 99), 1),
                "content_p50_ms": round(pct(contents, 50), 1),
                "content_p99_ms": round(pct(contents, 99), 1),
                "deferred": self.deferred[kind],
                "unanswered": self.failed[kind],
                "no_content": self.lost[kind],
            }
        return out


async def content_at(fd: Any, ix: Any) -> float:
    """The wall time a deferred interaction's content appeared: the clicked message edited after
    the deferral (type 6), or the loading message replaced or a follow-up (type 5)."""
    acked = min((r.t_wall for r in ix.responses if r.accepted), default=ix.created_wall)
    if ix.ack_type == 6 and ix.source_message_id is not None:
        message = fd.world.messages_by_id[ix.source_message_id]
        return float(await fd.wait_for(lambda: (message.edited or 0) >= acked and message.edited, WAIT, "an edit"))

    def shown() -> float | None:
        stamps = [m.edited or m.created for m in ix.messages if not m.loading]
        return min(stamps) if stamps else None

    return float(await fd.wait_for(shown, WAIT, f"the content of {ix!r}"))


async def answer(fd: Any, ix: Any, predicate: Any = None) -> Any:
    def found() -> Any:
        for message in reversed(ix.messages):
            if not message.loading and (predicate is None or predicate(message)):
                return message
        return None

    return await fd.wait_for(found, WAIT, f"the answer to {ix!r}")


class Crew:
    """One flight's crew, playing as the docstring says."""

    def __init__(self, fd: Any, rec: Recorder, guild: int, channel: str, think: tuple[float, float], seed: int) -> None:
        self.fd, self.rec, self.guild, self.channel = fd, rec, guild, channel
        self.think = think
        self.rng = random.Random(seed)
        self.lobby: Any = None
        self.deck: Any = None

    async def pause(self) -> None:
        await asyncio.sleep(self.rng.uniform(*self.think))

    async def click(self, kind: str, message: Any, action: str, user: str, value: int | str | None = None) -> Any:
        """Click `action` on `message` (a select: its option `value`, an index or a value) as it is
        now; None when it is gone (a redraw of the station, a phase end, came first)."""
        if not has(action)(message):
            self.rec.skipped += 1
            return None
        values = None
        if value is not None:
            offered = options(message, action)
            if isinstance(value, int):
                value = offered[value] if len(offered) > value else None
            if value not in offered:
                self.rec.skipped += 1
                return None
            values = [value]
        try:
            ix = await self.fd.click(message, cid(message, action), user=user, values=values)
        except HarnessError as exc:  # not answered within Discord's 3 s (fakecord answers 10062)
            self.rec.failed[kind] += 1
            self.rec.errors.append(f"{kind}: {exc}")
            return None
        await self.rec.add(self.fd, kind, ix)
        return ix

    async def fly(self, players: int) -> None:
        fd = self.fd
        host, crew = PLAYERS[0], PLAYERS[:players]
        opts = {"mission": "S1-1", "seed": self.rng.randrange(2**31), "voice": "on" if VOICE else "off"}
        ix = await fd.slash("mission start", opts, user=host, channel=self.channel, guild=self.guild)
        self.lobby = await fd.wait_for_message(
            channel=self.channel, guild=self.guild, predicate=has("join"), timeout=WAIT
        )
        await self.rec.add(fd, "slash start", ix)
        await asyncio.gather(*(self.join(user) for user in crew[1:]))
        await self.pause()
        ix = await fd.click(self.lobby, cid(self.lobby, "start"), user=host)
        self.deck = await fd.wait_for_message(
            channel=self.channel, guild=self.guild, predicate=has("station"), timeout=WAIT
        )
        await self.rec.add(fd, "start", ix, shown=self.deck.created)
        await asyncio.gather(*(self.phase_one(user) for user in crew))
        await fd.wait_for(lambda: "Phase 2 of 2" in self.deck_text(), WAIT, "phase 2")
        await asyncio.gather(*(self.phase_two(user) for user in crew))
        await fd.wait_for(lambda: not self.live().custom_ids, WAIT * 2, "the end of the flight")

    def live(self) -> Any:
        return self.fd.world.messages_by_id[self.deck.id]

    def deck_text(self) -> str:
        return str(self.live().text)

    async def join(self, user: str) -> None:
        await self.pause()
        await self.click("join", self.lobby, "join", user)

    async def station(self, user: str) -> Any:
        try:
            ix = await self.fd.click(self.deck, cid(self.deck, "station"), user=user)
        except HarnessError as exc:
            self.rec.failed["station"] += 1
            self.rec.errors.append(f"station: {exc}")
            return None
        await self.rec.add(self.fd, "station", ix)
        return await answer(self.fd, ix)

    @staticmethod
    def picks(hand: Any, planned: bool) -> list[str]:
        """The pick select's values: planned turns (`t<n>`) or cards in the hand."""
        return [v for v in options(hand, "pick") if v.startswith("t") == planned] if has("pick")(hand) else []

    async def place(self, user: str, hand: Any, pick: str, kind: str) -> Any:
        """Pick `pick` (a card or a planned turn), then put it on the first turn offered."""
        ix = await self.click("pick", hand, "pick", user, pick)
        if ix is None:
            return hand
        await self.pause()
        ix = await self.click(kind, ix.message, "place", user, 0)
        return ix.message if ix is not None else hand

    async def phase_one(self, user: str) -> None:
        await self.pause()
        hand = await self.station(user)
        if hand is None:
            return
        for _ in range(2):
            if cards := self.picks(hand, planned=False):
                await self.pause()
                hand = await self.place(user, hand, cards[0], "place")
        if turns := self.picks(hand, planned=True):  # move a planned card to another turn
            await self.pause()
            hand = await self.place(user, hand, turns[0], "move")
        if turns := self.picks(hand, planned=True):  # choose a planned card, take it back
            await self.pause()
            ix = await self.click("pick", hand, "pick", user, turns[-1])
            if ix is not None:
                hand = ix.message
                await self.pause()
                ix = await self.click("back", hand, "back", user)
                hand = ix.message if ix is not None else hand
        await self.pause()
        await self.click("finish", hand, "finish", user)

    async def phase_two(self, user: str) -> None:
        await self.pause()
        hand = await self.station(user)
        if hand is None:
            return
        if cards := self.picks(hand, planned=False):
            await self.pause()
            hand = await self.place(user, hand, cards[0], "place")
        await self.pause()
        await self.click("finish", hand, "finish", user)


VOICE = False


async def sample_rss(pid: int, into: list[int], stop: asyncio.Event) -> None:
    while not stop.is_set():
        into.append(rss_kb(pid))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.25)


async def profiler(pid: int, out: str) -> asyncio.subprocess.Process | None:
    """py-spy recording the bot (from the venv or PATH), or None when not asked for."""
    if not out:
        return None
    exe = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")
    if exe is None:
        sys.exit("py-spy is not installed (.venv/bin/pip install py-spy)")
    return await asyncio.create_subprocess_exec(
        exe, "record", "--pid", str(pid), "--format", "raw", "--output", out, "--rate", "100", "--nonblocking"
    )


async def run(args: argparse.Namespace) -> dict[str, Any]:
    servers = math.ceil(args.flights / len(CHANNELS))
    world = {"guilds": [{"name": f"Server {i + 2}"} for i in range(servers - 1)]}
    rec = Recorder()
    with tempfile.TemporaryDirectory() as tmp:
        async with fake_discord(world) as fd:
            env = bot_env(Path(tmp) / "bot", time_scale=args.time_scale) | {"LOG_LEVEL": "WARNING"}
            process = fd.start_bot("bot", env=env, cwd=str(REPO))
            await fd.wait_ready(timeout=WAIT, commands=["mission"])
            await asyncio.sleep(3.0)  # on_ready, resume sweep: let the bot settle before the idle RSS
            idle_kb = rss_kb(process.pid)
            samples: list[int] = []
            stop = asyncio.Event()
            sampler = asyncio.create_task(sample_rss(process.pid, samples, stop))
            crews = [
                Crew(fd, rec, i // len(CHANNELS), CHANNELS[i % len(CHANNELS)], (args.think_min, args.think_max), i)
                for i in range(args.flights)
            ]
            spy = await profiler(process.pid, args.py_spy)
            started, cpu_before, own_before = time.monotonic(), cpu_s(process.pid), cpu_s(os.getpid())
            outcomes = await asyncio.gather(*(c.fly(args.players) for c in crews), return_exceptions=True)
            broken = [f"{type(o).__name__}: {str(o)[:200]}" for o in outcomes if isinstance(o, BaseException)]
            elapsed, cpu_used = time.monotonic() - started, cpu_s(process.pid) - cpu_before
            own_used = cpu_s(os.getpid()) - own_before
            if spy is not None:
                spy.send_signal(signal.SIGINT)
                await spy.wait()
            stop.set()
            await sampler
            errors = fd.bot_errors()
            late = [ix.name for ix in fd.interactions if not ix.acked and ix.type != 4]
            await fd.stop_bot(process)
    if args.slowest:
        for clicked, latency, kind in sorted(rec.timeline, key=lambda x: -x[1])[: args.slowest]:
            print(f"slow: {kind:<8} at {clicked - started:6.1f} s: {latency * 1000:7.1f} ms", file=sys.stderr)
    for problem in broken + rec.errors:
        print(problem, file=sys.stderr)
    peak_kb = max(samples, default=idle_kb)
    all_acks = [v for vs in rec.ack.values() for v in vs]
    all_contents = [v for vs in rec.content.values() for v in vs]
    return {
        "flights": args.flights,
        "players": args.players,
        "time_scale": args.time_scale,
        "seconds": round(elapsed, 1),
        "interactions": len(all_acks),
        "kinds": rec.table(),
        "ack_p50_ms": round(pct(all_acks, 50), 1),
        "ack_p99_ms": round(pct(all_acks, 99), 1),
        "content_p50_ms": round(pct(all_contents, 50), 1),
        "content_p99_ms": round(pct(all_contents, 99), 1),
        "bot_cpu_s": round(cpu_used, 1),
        "fakecord_cpu_s": round(own_used, 1),
        "bot_cpu_ms_per_interaction": round(cpu_used * 1000 / max(1, len(all_acks)), 1),
        "rss_idle_mb": round(idle_kb / 1024, 1),
        "rss_peak_mb": round(peak_kb / 1024, 1),
        "rss_per_game_mb": round((peak_kb - idle_kb) / 1024 / args.flights, 2),
        "skipped": rec.skipped,
        "flights_broken": len(broken),
        "unanswered": len(late),
        "bot_errors": len(errors),
    }


def main() -> None:
    global VOICE, HarnessError
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flights", type=int, default=20)
    parser.add_argument("--players", type=int, default=5, choices=range(2, 6))
    parser.add_argument("--time-scale", type=float, default=8.0, help="TIME_SCALE of the bot (S1-1: 420 s / scale)")
    parser.add_argument("--think-min", type=float, default=0.5, help="seconds a player thinks, at least")
    parser.add_argument("--think-max", type=float, default=2.0, help="seconds a player thinks, at most")
    parser.add_argument("--voice", action="store_true", help="speak the intercom (espeak-ng) in every server")
    parser.add_argument("--slowest", type=int, default=0, help="list the N slowest answers on stderr")
    parser.add_argument("--py-spy", default="", help="record the bot with py-spy into this file (collapsed stacks)")
    args = parser.parse_args()
    VOICE = args.voice
    reason = missing_reason()
    if reason is not None:
        sys.exit(f"cannot run: {reason}")
    HarnessError = _import_fakecord().HarnessError
    figures = asyncio.run(run(args))
    print(
        f"{figures['flights']} flights x {figures['players']} players, TIME_SCALE {figures['time_scale']}:"
        f" {figures['interactions']} interactions in {figures['seconds']} s"
    )
    print(
        f"{'kind':<12} {'n':>5} {'ack p50':>8} {'ack p99':>8} {'cont p50':>9} {'cont p99':>9}"
        f" {'deferred':>8} {'unanswered':>10}"
    )
    for kind, row in figures["kinds"].items():
        print(
            f"{kind:<12} {row['n']:>5} {row['ack_p50_ms']:>8.1f} {row['ack_p99_ms']:>8.1f}"
            f" {row['content_p50_ms']:>9.1f} {row['content_p99_ms']:>9.1f} {row['deferred']:>8} {row['unanswered']:>10}"
        )
    print(
        f"{'all':<12} {figures['interactions']:>5} {figures['ack_p50_ms']:>8.1f} {figures['ack_p99_ms']:>8.1f}"
        f" {figures['content_p50_ms']:>9.1f} {figures['content_p99_ms']:>9.1f}"
    )
    print(
        f"bot CPU: {figures['bot_cpu_s']} s, {figures['bot_cpu_ms_per_interaction']} ms per interaction"
        f" (all the bot did, divided by the clicks); fakecord and the players: {figures['fakecord_cpu_s']} s"
    )
    print(
        f"bot RSS: {figures['rss_idle_mb']} MB idle, {figures['rss_peak_mb']} MB at the peak,"
        f" {figures['rss_per_game_mb']} MB per running game;"
        f" {figures['skipped']} clicks skipped (control gone), {figures['unanswered']} unanswered,"
        f" {figures['bot_errors']} bot errors"
    )
    if figures["flights_broken"]:
        print(f"{figures['flights_broken']} flights could not be played to their end (see stderr)")
    print(json.dumps(figures, sort_keys=True))


if __name__ == "__main__":
    main()
