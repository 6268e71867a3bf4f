"""The e2e harness: fakecord in-process, the bot as `python -m bot` in a subprocess, and a crew.

Why a separate process: only then do the real gateway, REST, voice and start-up code run, as on a
server (the unit tests in tests/bot drive the cogs with spec'd fakes instead).  Every bot gets its
own temporary SQLite file, the token fakecord hands out, espeak-ng speech (no network) and a voice
cache in the test's temporary folder.  Waiting is always for a condition (fakecord re-checks it on
every recorded change), never a bare sleep, so a slow CI machine makes the tests slower, not flaky.
"""

from __future__ import annotations

import contextlib
import ctypes.util
import os
import shutil
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
# Seconds a player has to get an answer (Discord's own interaction deadline).
ACK_DEADLINE = 3.0
# Generous: two cores shared with other jobs; a wait only takes this long when something is wrong.
WAIT = 60.0


def fakecord_path() -> Path | None:
    """FAKECORD_PATH, else `<repo>/../shared/fakecord`; None when neither holds the package."""
    for candidate in (os.environ.get("FAKECORD_PATH"), str(REPO.parent / "shared" / "fakecord")):
        if candidate and (Path(candidate) / "fakecord" / "__init__.py").is_file():
            return Path(candidate).resolve()
    return None


def missing_reason() -> str | None:
    """Why the e2e tests cannot run here, or None when they can."""
    if fakecord_path() is None:
        return "fakecord not found (../shared/fakecord beside the checkout, or set FAKECORD_PATH)"
    if ctypes.util.find_library("opus") is None:
        return "libopus is not installed (apt-get install libopus0)"
    if shutil.which("espeak-ng") is None:
        return "espeak-ng is not installed (the offline intercom voice)"
    return None


def _import_fakecord() -> Any:
    path = fakecord_path()
    assert path is not None, missing_reason()
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
    import fakecord

    return fakecord


# -- the fake server and the bot process --------------------------------------------------------


@contextlib.asynccontextmanager
async def fake_discord(config: dict[str, Any] | None = None) -> AsyncIterator[Any]:
    """A running FakeDiscord; on the way out it stops every bot process it started."""
    fakecord = _import_fakecord()
    async with fakecord.FakeDiscord(config, echo_bot_output=False) as fd:
        yield fd


def bot_env(workdir: Path, *, time_scale: float) -> dict[str, str]:
    """The bot's settings: its own database and voice cache, offline speech, no .env surprises
    (explicit values win over a developer's `.env` in the checkout)."""
    workdir.mkdir(parents=True, exist_ok=True)
    return {
        "DATABASE_PATH": str(workdir / "bot.sqlite3"),
        "DATABASE_URL": "",  # SQLite, even if a developer's .env names a PostgreSQL server
        "TIME_SCALE": str(time_scale),
        "COMMAND_SYNC": "global",
        "SCENARIO_DIRS": "",
        "TTS_BACKEND": "espeak",
        "VOICE_CACHE_DIR": str(workdir / "voice-cache"),
        "LOG_LEVEL": "INFO",
        "SHARD_IDS": "",
        "SHARD_COUNT": "",
    }


async def start_bot(fd: Any, workdir: Path, *, time_scale: float = 20.0) -> Any:
    """`python -m bot` from the checkout, connected and with its commands synced."""
    process = fd.start_bot("bot", env=bot_env(workdir, time_scale=time_scale), cwd=str(REPO))
    await fd.wait_ready(timeout=WAIT, commands=["mission", "elite"])
    return process


async def kill_bot(fd: Any, process: Any) -> None:
    """SIGKILL the bot (no clean shutdown, as on a crash or an OOM kill) and wait until fakecord
    has seen its gateway connection drop."""
    process.kill()
    await fd.stop_bot(process)  # reaps it; fakecord's own waits would otherwise fail on a dead bot
    await fd.world.notifier.wait_for(lambda: not fd.gateway.is_ready(), WAIT, "the gateway session to drop")


# -- reading what a player sees --------------------------------------------------------------


def has(action: str) -> Callable[[Any], bool]:
    """A message predicate: it carries a component of this action (`sa:<flight>:<action>:...`)."""
    return lambda m: any(f":{action}:" in c for c in m.custom_ids)


def cid(message: Any, action: str) -> str:
    """The custom id of the message's component for `action`."""
    for custom_id in message.custom_ids:
        if f":{action}:" in custom_id:
            return str(custom_id)
    raise AssertionError(f"no {action!r} component on {message.text[:200]!r}: {message.custom_ids}")


def options(message: Any, action: str) -> list[str]:
    """The values a select of `action` offers."""
    component = message.find_component(cid(message, action))
    return [o["value"] for o in component["options"]]


def public(fd: Any, channel: Any = "bridge", guild: Any = None) -> list[Any]:
    """The bot's non-ephemeral messages in a channel, oldest first."""
    return [m for m in fd.messages(channel, guild=guild) if m.author_id == fd.world.bot.id and not m.ephemeral]


def all_text(fd: Any, channel: Any = "bridge", guild: Any = None) -> str:
    return "\n".join(m.text for m in public(fd, channel, guild))


MANAGE_GUILD = 1 << 5
# The default world with the Captain role (alice) allowed to manage the server; bob, carol and
# dave are Crew, erin has no role at all.
ADMIN_WORLD: dict[str, Any] = {
    "guild": {
        "roles": [
            {"name": "Bot", "permissions": 8, "managed": True},
            {"name": "Captain", "color": 0xE67E22, "permissions": MANAGE_GUILD},
            {"name": "Crew", "color": 0x3498DB},
        ]
    }
}


async def private(fd: Any, ix: Any) -> Any:
    """The interaction's answer, which must be visible to the caller alone."""
    message = await answer(fd, ix)
    assert message.ephemeral and message.visible_to == ix.user_id, message
    return message


async def answer(fd: Any, ix: Any, predicate: Callable[[Any], bool] | None = None) -> Any:
    """The message an interaction was answered with (the response or a follow-up) once it matches."""

    def found() -> Any:
        for message in reversed(ix.messages):
            if not message.loading and (predicate is None or predicate(message)):
                return message
        return None

    return await fd.wait_for(found, WAIT, f"the answer to {ix!r}")


# -- acting as a crew --------------------------------------------------------------------------


@dataclass
class Flight:
    """One flight as its crew sees it: the lobby, the flight deck and its id."""

    fd: Any
    channel: str
    guild: Any
    host: str
    crew: tuple[str, ...]
    lobby: Any = None
    deck: Any = None
    interactions: list[Any] = field(default_factory=list)
    flight_id: str = ""

    async def open_lobby(self, mission: str = "S1-1", **opts: Any) -> Any:
        ix = await self.fd.slash(
            "mission start", {"mission": mission, **opts}, user=self.host, channel=self.channel, guild=self.guild
        )
        self.interactions.append(ix)
        self.lobby = await self.fd.wait_for_message(
            channel=self.channel, guild=self.guild, predicate=has("join"), timeout=WAIT
        )
        self.flight_id = cid(self.lobby, "join").split(":")[1]
        return self.lobby

    async def board(self) -> Any:
        """Everyone but the host joins, the host starts; returns the flight deck."""
        for user in self.crew:
            if user != self.host:
                self.interactions.append(await self.fd.click(self.lobby, cid(self.lobby, "join"), user=user))
        self.interactions.append(await self.fd.click(self.lobby, cid(self.lobby, "start"), user=self.host))
        self.deck = await self.fd.wait_for_message(
            channel=self.channel, guild=self.guild, predicate=has("station"), timeout=WAIT
        )
        return self.deck

    async def station(self, user: str) -> Any:
        """`user` presses My station; returns their private hand."""
        ix = await self.fd.click(self.deck, cid(self.deck, "station"), user=user)
        self.interactions.append(ix)
        return await answer(self.fd, ix, has("pick"))

    async def place_first_card(self, user: str, hand: Any) -> Any:
        """Pick the first card in the hand and place its first offered half on the first free turn;
        returns the hand as it is afterwards."""
        pick = await self.fd.click(hand, cid(hand, "pick"), user=user, values=[options(hand, "pick")[0]])
        self.interactions.append(pick)
        hand = pick.message
        place = await self.fd.click(hand, cid(hand, "place"), user=user, values=[options(hand, "place")[0]])
        self.interactions.append(place)
        return place.message

    async def result(self, timeout: float = 120.0) -> Any:
        """The result post of this flight (it carries the Turn pictures button `sr:<flight>:...`)."""
        fid = self.flight_id
        return await self.fd.wait_for_message(
            channel=self.channel,
            guild=self.guild,
            predicate=lambda m: any(c.startswith(f"sr:{fid}:") for c in m.custom_ids),
            timeout=timeout,
        )


# -- what must hold after every scenario -----------------------------------------------------------


def mention_leaks(fd: Any) -> list[str]:
    """Every recorded bot message (REST body) whose text could ping: content without an
    `allowed_mentions` that forbids @everyone/@here and roles.  Discord parses every mention in
    `content` when `allowed_mentions` is missing, so a missing one counts."""
    leaks = []
    for call in fd.rest_log:
        body = call.json
        if call.method not in ("POST", "PATCH") or not isinstance(body, dict):
            continue
        if "/interactions/" in call.path:  # the initial response: {"type": 4, "data": {...}}
            body = body.get("data") or {}
        if not isinstance(body, dict) or not body.get("content"):
            continue
        allowed = body.get("allowed_mentions")
        if not isinstance(allowed, dict):
            leaks.append(f"{call.method} {call.path}: no allowed_mentions for {body['content'][:80]!r}")
            continue
        parse = allowed.get("parse") or []
        if "everyone" in parse or "roles" in parse or allowed.get("roles"):
            leaks.append(f"{call.method} {call.path}: allowed_mentions {allowed} for {body['content'][:80]!r}")
    return leaks


def late_or_unanswered(fd: Any) -> list[str]:
    """Interactions without an answer, or answered after Discord's 3-second deadline."""
    bad = []
    for ix in fd.interactions:
        if not ix.acked:
            bad.append(f"{ix.name}: never answered ({ix.errors})")
        elif ix.ack_latency is not None and ix.ack_latency > ACK_DEADLINE:
            bad.append(f"{ix.name}: answered after {ix.ack_latency:.2f}s")
    return bad


def assert_clean(fd: Any, *, allow_errors: Callable[[str], bool] | None = None) -> None:
    """What must hold after any scenario: every interaction answered in time, no endpoint fakecord
    does not know, no ping leaks, no traceback or ERROR line in the bot's log."""
    assert late_or_unanswered(fd) == []
    assert fd.unknown_endpoints == []
    assert mention_leaks(fd) == []
    errors = [e for e in fd.bot_errors() if allow_errors is None or not allow_errors(e)]
    assert errors == [], "\n\n".join(errors)
