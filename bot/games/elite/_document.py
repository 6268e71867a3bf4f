"""An ELITE game in progress as one versioned document: what is stored, and the steps that change it.

Why a document and not a journal: the game used to be stored as the list of its steps and replayed
on start-up, which wrote every step twice (the live call and its replay) and meant a restart
re-ran the whole game.  Now the stored state *is* the game: the engine's snapshot
(`EliteGame.snapshot`, dice stream included) plus what the bot adds (host, language, the status
message and voice channel, the status log).  Every change is one unit of work
(bot/games/elite/storage.py): load the document, restore the game, apply one step (`apply`, the
one router from a button to an engine call), save it with a version check, retry on conflict.
The steps are also listed in `actions` (`[game time, step, *arguments]`): a record of what was
pressed, read by people and tests, never replayed.

Clock: the game reads the cog's clock (wall time, so every process over the database reads the
same instants, as the cluster's leases do).  A restart pauses a running timer at the document's
last stored instant (`saved_at`), so the downtime does not eat into the crew's Action Phase; they
press Resume when they are back at the table.

Moves: the document counts the steps that move the game on (`MOVES`: Next, Start, Pause/Resume
and the endings), under `moves`.  The status message's buttons for them carry that count in their
custom id, so a press made from a status message that has since moved on (a double click: both
presses carry the same count) is refused inside the unit of work instead of moving the game on
twice.  Steps a repeat of which is meant (±15 s, a peek, a timer call, `/elite roll`) and the pause
a restart makes do not count: they leave the buttons on the status message valid.

Documents of version 1 (a journal without a snapshot, stored before this change) are migrated
once by running their steps through `apply` (`migrate`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

from bot.games.elite._session import Session
from engine.elite.datapack import AlienAbility, DataPack
from engine.elite.game import EliteGame
from engine.elite.setup import EliteConfig
from engine.elite.timer import ActionTimer
from engine.elite.vocab import BOSSES, DEFEAT_CAUSES, HEROES, SWARM_TYPES, HeroId
from engine.vocab import Language

DOC_VERSION = 2
RESTART = "restart"  # the argument of a pause the bot made when it stopped (`[time, "pause", RESTART]`)
MAX_ACTIONS = 2000  # the record of steps keeps the newest ones (a game has a few hundred)
MOVES_KEY = "moves"  # the document key of how many steps moved the game on
# The steps that move the game on: a second press of the same button would do what nobody meant.
MOVES = frozenset({"next", "start", "pause", "resume", "victory", "defeat", "stop"})


@dataclass
class GameDoc:
    """What the bot keeps beside the engine's game (the document's other fields)."""

    guild_id: int
    channel_id: int
    host_id: int
    lang: Language
    seed: int
    config: dict[str, Any]
    status_message_id: int | None = None
    voice_channel_id: int | None = None
    paused_at_restart: bool = False  # a restart paused the running timer; Resume clears it
    moves: int = 0  # steps that moved the game on (`MOVES`): what the status buttons carry

    @classmethod
    def of(cls, state: dict[str, Any]) -> GameDoc:
        return cls(
            guild_id=int(state["guild_id"]),
            channel_id=int(state["channel_id"]),
            host_id=int(state["host_id"]),
            lang=cast(Language, state["lang"]),
            seed=int(state["seed"]),
            config=dict(state["config"]),
            status_message_id=state.get("status_message_id"),
            voice_channel_id=state.get("voice_channel_id"),
            paused_at_restart=bool(state.get("paused_at_restart", False)),
            moves=moves(state),
        )


def new_state(doc: GameDoc, session: Session) -> dict[str, Any]:
    """The document of a game just set up (no step taken yet)."""
    return write(
        {
            "version": DOC_VERSION,
            "guild_id": doc.guild_id,
            "channel_id": doc.channel_id,
            "host_id": doc.host_id,
            "lang": doc.lang,
            "seed": doc.seed,
            "config": doc.config,
            "actions": [],
        },
        session,
    )


def write(state: dict[str, Any], session: Session) -> dict[str, Any]:
    """`state` with the session's game and log written into it (in place; returned for chaining)."""
    state["game"] = session.game.snapshot()
    state["log"] = list(session.log)
    state["saved_at"] = session.game.clock()
    return state


def restore(state: dict[str, Any], pack: DataPack | None, clock: Callable[[], float]) -> Session:
    """The session a version-2 document describes, its game reading `clock`."""
    if state.get("version") != DOC_VERSION:
        raise ValueError(f"unknown ELITE document version {state.get('version')!r}")
    doc = GameDoc.of(state)
    game = EliteGame.restore(state["game"], EliteConfig.model_validate(doc.config), doc.seed, clock, pack)
    return Session(game, doc.lang, doc.host_id, doc.channel_id, [str(line) for line in state.get("log", [])])


def record(state: dict[str, Any], at: float, step: str, args: list[Any]) -> None:
    """Add a step to the document's record of what was pressed (never replayed)."""
    actions = state.setdefault("actions", [])
    actions.append([at, step, *args])
    del actions[:-MAX_ACTIONS]


def moves(state: dict[str, Any]) -> int:
    """How many steps moved the stored game on (0 for a document stored before they were counted)."""
    return int(state.get(MOVES_KEY) or 0)


def count_move(state: dict[str, Any], step: str, args: list[Any]) -> None:
    """Count `step` when it moves the game on (in place).  The pause a restart or a clean stop makes
    is not the crew's: the status message's buttons stay valid across it."""
    if step in MOVES and args != [RESTART]:
        state[MOVES_KEY] = moves(state) + 1


def timer_running(state: dict[str, Any]) -> bool:
    """Whether the stored game's Action Phase timer was running when it was saved (a clock some
    process must drive)."""
    game = state.get("game") or {}
    timer = game.get("timer") or {}
    return bool(game.get("phase") == "action" and timer.get("state") == "running")


def pause_for_restart(state: dict[str, Any]) -> bool:
    """A stored running timer paused at the document's last stored instant (the change a restart
    makes, in place); False when no timer was running."""
    game = state.get("game") or {}
    timer = game.get("timer")
    if game.get("phase") != "action" or not timer or timer.get("state") != "running":
        return False
    at = float(state.get("saved_at") or timer["run_from"])
    game["timer"] = ActionTimer.paused_at(timer, at)
    record(state, at, "pause", [RESTART])
    state["paused_at_restart"] = True
    return True


def apply(session: Session, action: str, args: list[Any]) -> list[str]:
    """Run one step on the session: the one place a button or command becomes an engine call.
    Returns the lines to post or speak (for a peek, the peeker's private line)."""
    if action == "next":
        return session.step()
    if action == "start":
        return session.start()
    if action == "pause":
        return session.pause()
    if action == "resume":
        return session.resume()
    if action == "adjust":
        return session.adjust(int(args[0]))
    if action == "poll":
        return session.calls()
    if action == "victory":
        return session.victory()
    if action == "stop":
        return session.abandon()
    if action == "defeat":
        cause = next(c for c in DEFEAT_CAUSES if c == args[0])
        return session.defeat(cause)
    if action == "peek":
        return [session.peek(int(args[0]), int(args[1]))]
    if action == "reveal":
        return session.reveal(int(args[0]))
    if action == "roll":
        kind = next(a for a in (*SWARM_TYPES, *BOSSES) if a == args[0])
        targets = {next(h for h in HEROES if h == name): int(n) for name, n in args[1].items()}
        ability = AlienAbility(hit_value=int(args[2])) if args[2] is not None else None
        return session.roll(kind, targets, ability)
    raise ValueError(f"unknown ELITE step {action!r}")


def roll_args(kind: str, targets: dict[HeroId, int], hit_value: int | None) -> list[Any]:
    return [kind, {str(h): n for h, n in targets.items()}, hit_value]


class _Pinned:
    """A clock pinned to one reading: a version-1 journal's steps run at their recorded times."""

    def __init__(self) -> None:
        self.at = 0.0

    def __call__(self) -> float:
        return self.at


def migrate(state: dict[str, Any], pack: DataPack | None) -> dict[str, Any]:
    """A version-2 document from a version-1 one (the journal stored before snapshots existed):
    its steps run once through `apply` on a clock pinned to each recorded time, then the game is
    written as a snapshot.  A timer left running is paused at the last recorded time."""
    if state.get("version") == DOC_VERSION:
        return state
    if state.get("version") != 1:
        raise ValueError(f"unknown ELITE document version {state.get('version')!r}")
    doc = GameDoc.of(state)
    actions = [list(a) for a in state.get("actions", [])]
    clock = _Pinned()
    clock.at = float(actions[0][0]) if actions else 0.0
    game = EliteGame(EliteConfig.model_validate(doc.config), doc.seed, clock, pack)
    session = Session(game, doc.lang, doc.host_id, doc.channel_id)
    for at, action, *args in actions:
        clock.at = float(at)
        apply(session, str(action), args)
    session.log[:] = [str(line) for line in state.get("log", session.log)]
    fresh = new_state(doc, session)
    fresh.update(
        actions=actions,
        status_message_id=doc.status_message_id,
        voice_channel_id=doc.voice_channel_id,
        saved_at=clock.at,
    )
    if actions and actions[-1][1:] == ["pause", RESTART]:
        fresh["paused_at_restart"] = True
    pause_for_restart(fresh)
    return fresh
