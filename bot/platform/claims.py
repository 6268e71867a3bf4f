"""Shard claims: one process per shard, a standby that takes over, a restart that does not wait.

Why: the flights' leases (bot/platform/cluster.py) keep a clock in one process, but nothing stopped two
processes from connecting one shard (both then answer every click), and a dead process's
servers stayed silent until someone restarted it.  So before it connects, a process claims its
shards in PostgreSQL (`shard_claims`: a row per shard with an expiry and a fencing token) and
renews them every `heartbeat` s.

- A shard held by a live claim is refused: without `--standby` the process exits 2 with one
  line; with `--standby` it waits and takes the shard when the claim lapses (its holder died
  without handing it back).  A standby given no `--shards` takes only such lapsed shards (never
  a free one: a cleanly stopped process's shards wait for that process); given `--shards`, it
  also takes them when they are free.
- A process restarted in place recognises its own dead predecessor (same identity, host/name,
  on this host, and its pid gone) and takes its claims and flight leases at once.
- Taking shards over frees the previous holder's flight leases, so its flights resume here at
  once (their clocks, ELITE games and schedules follow the shards: they belong to the guilds).
- A renewal that finds the token changed, or no renewal for a whole TTL (the database away),
  means another process may run the shard now: this one stops (exit 4), never runs it beside.
- Releases and takeovers NOTIFY; waiting processes LISTEN and also poll, so a crash (which
  notifies nobody) is noticed when the claim's expiry passes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.platform.cluster import ShardPlan, compact, process_name
from bot.platform.i18n import t
from bot.platform.storage import claims as rows

if TYPE_CHECKING:
    from bot.platform.settings import Settings
    from bot.platform.storage.postgres import PostgresStorage

log = logging.getLogger(__name__)

CLAIM_TTL_S = 6.0
CLAIM_HEARTBEAT_S = 2.0
EXIT_CLAIM_LOST = 4


class ClaimRefused(Exception):
    """Another live process holds a shard this one was told to run; the message is one line."""


def pid_alive(pid: int) -> bool:
    """Is a process with this pid running on this host?"""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OSError:
        return True
    return True


def split_holder(holder: str) -> tuple[str, int | None]:
    host, _, pid = holder.rpartition(":")
    return host, int(pid) if pid.isdigit() else None


class ShardClaims:
    """This process's claims.  `claim()` or `wait()` before connecting, `start()` the heartbeat,
    `close()` to hand them back."""

    def __init__(
        self,
        storage: PostgresStorage,
        plan: ShardPlan,
        *,
        name: str | None = None,
        standby: bool = False,
        explicit: bool = True,
        ttl: float = CLAIM_TTL_S,
        heartbeat: float = CLAIM_HEARTBEAT_S,
        process: str | None = None,
        clock: Callable[[], float] = time.time,
        alive: Callable[[int], bool] = pid_alive,
    ) -> None:
        self.storage = storage
        self.shard_count = plan.shard_count or 1
        self.wanted = list(plan.shard_ids or [0])
        self.process = process or process_name()
        self.host = split_holder(self.process)[0] or socket.gethostname()
        self.name = name or (f"shards-{compact(self.wanted)}" if plan.sharded else "all")
        self.identity = f"{self.host}/{self.name}"
        self.standby = standby
        self.explicit = explicit
        self.ttl = ttl
        self.heartbeat = heartbeat
        self.clock = clock
        self.alive = alive
        self.started_at = clock()
        self.tokens: dict[int, int] = {}
        self.last_takeover: rows.Takeover | None = None
        self._wake = asyncio.Event()
        self._listener: rows.Listener | None = None
        self._keeper: asyncio.Task[None] | None = None
        self._renewed_at = 0.0

    @classmethod
    def from_settings(cls, storage: PostgresStorage, settings: Settings) -> ShardClaims:
        plan = ShardPlan.from_settings(settings)
        return cls(
            storage,
            plan,
            name=settings.process_name,
            standby=settings.standby,
            explicit=settings.shard_ids is not None,
            ttl=settings.claim_ttl_s,
            heartbeat=settings.claim_heartbeat_s,
        )

    @property
    def shards(self) -> list[int]:
        return sorted(self.tokens)

    def describe(self) -> str:
        return compact(self.shards) if self.tokens else "none"

    # -- taking shards --------------------------------------------------------------------------------
    def _dead(self, found: list[rows.Claim], now: float) -> set[str]:
        """Live claims of this process's own identity whose process is gone from this host."""
        dead = set()
        for claim in found:
            if claim.holder == self.process or not claim.live(now) or claim.identity != self.identity:
                continue
            host, pid = split_holder(claim.holder)
            if host == self.host and pid is not None and not self.alive(pid):
                dead.add(claim.holder)
        return dead

    async def _take(self, shard_ids: list[int], found: list[rows.Claim], dead: set[str]) -> dict[int, int]:
        now = self.clock()
        won = await rows.take(
            self.storage,
            shard_ids,
            shard_count=self.shard_count,
            holder=self.process,
            identity=self.identity,
            now=now,
            ttl=self.ttl,
            dead=dead,
        )
        self.tokens.update(won)
        self._renewed_at = now
        previous: dict[str, list[int]] = {}
        for claim in found:
            if claim.shard_id in won and claim.holder != self.process:
                previous.setdefault(claim.holder, []).append(claim.shard_id)
        for holder, shards in previous.items():
            reason = "predecessor" if holder in dead else "lapsed"
            freed = await rows.free_leases_of(self.storage, [holder], now=now)
            await rows.record_takeover(
                self.storage, at=now, taker=self.process, previous=holder, shards=compact(shards), reason=reason
            )
            log.warning(
                "process %s takes over shards %s from %s (%s); %d flight lease(s) freed",
                self.process,
                compact(shards),
                holder,
                "its process is gone" if reason == "predecessor" else "its claim lapsed",
                freed,
            )
        return won

    async def claim(self) -> list[int]:
        """Claim every wanted shard or none: ClaimRefused names the first shard held by another."""
        found = await rows.claims(self.storage, self.wanted)
        now = self.clock()
        dead = self._dead(found, now)
        won = await self._take(self.wanted, found, dead)
        if set(won) != set(self.wanted):
            await self.release()
            held = next((c for c in await rows.claims(self.storage, self.wanted) if c.shard_id not in won), None)
            who = f"process {held.holder} ({held.identity})" if held is not None else "another process"
            shard = held.shard_id if held is not None else min(set(self.wanted) - set(won))
            raise ClaimRefused(
                f"shard {shard} is run by {who}; not starting a second process for it"
                " (start with --standby to wait and take it over)"
            )
        await self._seen("active")
        return self.shards

    def _claimable(self, found: list[rows.Claim], dead: set[str], now: float) -> list[int]:
        by_shard = {c.shard_id: c for c in found}
        out = []
        for shard in self.wanted:
            claim = by_shard.get(shard)
            if claim is None:
                if self.explicit:
                    out.append(shard)  # free, and this process was told to run it
            elif not claim.live(now) or claim.holder in dead or claim.holder == self.process:
                out.append(shard)
        return out

    async def wait(self) -> list[int]:
        """As a standby: wait until some wanted shards can be taken, take them, return them."""
        await self._listen()
        log.info(
            "process %s (%s) stands by for shards %s of %s",
            self.process,
            self.identity,
            compact(self.wanted),
            self.shard_count,
        )
        while True:
            try:
                await self._seen("standby")
                found = await rows.claims(self.storage, self.wanted)
                now = self.clock()
                dead = self._dead(found, now)
                claimable = self._claimable(found, dead, now)
                if claimable and await self._take(claimable, found, dead):
                    await self._seen("active")
                    if self._listener is not None:  # only a waiting process needs to hear releases
                        await self._listener.close()
                        self._listener = None
                    return self.shards
                expiries = [c.expires_at - now for c in found if c.live(now) and c.holder not in dead]
            except Exception as exc:  # the database away for a moment: try again
                log.warning("standby: cannot read the shard claims (%s)", exc)
                expiries = []
            # wake when the first claim can lapse (a crash notifies nobody), on a NOTIFY, or poll
            delay = min([self.heartbeat, *[e + 0.05 for e in expiries if e > 0]])
            self._wake.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), max(0.05, delay))

    async def _listen(self) -> None:
        if self._listener is None:
            self._listener = rows.Listener(self.storage, [rows.CLAIMS], lambda _name: self._wake.set())
            await self._listener.start()

    async def _seen(self, role: str) -> None:
        await rows.seen(
            self.storage,
            process=self.process,
            identity=self.identity,
            role=role,
            shards=compact(self.shards if role == "active" else self.wanted),
            started_at=self.started_at,
            now=self.clock(),
        )

    # -- keeping them ---------------------------------------------------------------------------------
    async def renew(self) -> list[int]:
        """One heartbeat: extend the claims; the shards lost (taken by another process, or not
        renewed for a whole TTL).  Raises nothing."""
        now = self.clock()
        try:
            kept = await rows.renew(self.storage, self.tokens, self.process, now=now, ttl=self.ttl)
            await self._seen("active")
        except Exception as exc:
            if now - self._renewed_at < self.ttl - self.heartbeat / 2:
                log.warning("shard claims not renewed (%s); trying again", exc)
                return []
            log.error(
                "shard claims not renewed for %.1f s (%s): they may be another's now", now - self._renewed_at, exc
            )
            return self.shards
        self._renewed_at = now
        return sorted(set(self.tokens) - kept)

    def start(self, on_lost: Callable[[list[int]], Awaitable[None]]) -> None:
        """Renew every `heartbeat` s in the background; `on_lost` when a shard is not ours any more."""
        if self._keeper is None:
            self._keeper = asyncio.create_task(self._keep(on_lost), name="shard-claims")

    async def _keep(self, on_lost: Callable[[list[int]], Awaitable[None]]) -> None:
        while True:
            await asyncio.sleep(self.heartbeat)
            lost = await self.renew()
            if lost:
                log.error(
                    "process %s lost its claim on shards %s: another process runs them now; stopping",
                    self.process,
                    compact(lost),
                )
                for shard in lost:
                    self.tokens.pop(shard, None)
                await on_lost(lost)
                return

    async def refresh_view(self) -> None:
        """The last takeover, for /about (read when asked: it may have happened elsewhere)."""
        self.last_takeover = await rows.last_takeover(self.storage)

    async def release(self) -> None:
        """Hand back every claim (a clean stop): a waiting standby wakes at once."""
        self.tokens.clear()
        with contextlib.suppress(Exception):
            await rows.release(self.storage, self.process)

    async def close(self) -> None:
        keeper, self._keeper = self._keeper, None
        if keeper is not None:
            keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await keeper
        if self._listener is not None:
            await self._listener.close()
            self._listener = None
        await self.release()


async def cluster_lines(claims: ShardClaims, lang: str = "en") -> list[str]:
    """Who holds which shards, who stands by, the last takeover: for /about (in the server's
    language) and the log (English).  Process names and shard ids are data, shown as they are."""
    now = claims.clock()
    held: dict[str, list[int]] = {}
    for claim in await rows.claims(claims.storage):
        if claim.live(now):
            held.setdefault(claim.holder, []).append(claim.shard_id)
    standbys = [m.process for m in await rows.members(claims.storage, since=now - claims.ttl) if m.role == "standby"]
    last = await rows.last_takeover(claims.storage)
    holders = "; ".join(f"{holder} {compact(shards)}" for holder, shards in sorted(held.items()))
    none = t(lang, "about.none")
    lines = [
        t(lang, "about.claims", holders=holders or none),
        t(lang, "about.standing_by", processes=", ".join(standbys) or none),
    ]
    if last is None:
        lines.append(t(lang, "about.takeover.none"))
    else:
        why = t(lang, "about.takeover.predecessor" if last.reason == "predecessor" else "about.takeover.lapsed")
        ago = f"{max(0.0, now - last.at):.0f}"
        lines.append(
            t(lang, "about.takeover", taker=last.taker, shards=last.shards, previous=last.previous, why=why, ago=ago)
        )
    return lines


def shards_line(claims: ShardClaims) -> str:
    """The log line of what this process runs after claiming."""
    return (
        f"process {claims.process} ({claims.identity}) claimed shards {claims.describe()} of {claims.shard_count}"
        f" (claim TTL {claims.ttl:g} s, heartbeat {claims.heartbeat:g} s)"
    )


__all__ = [
    "CLAIM_HEARTBEAT_S",
    "CLAIM_TTL_S",
    "EXIT_CLAIM_LOST",
    "ClaimRefused",
    "ShardClaims",
    "cluster_lines",
    "pid_alive",
    "shards_line",
]
