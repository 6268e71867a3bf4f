"""An ELITE game in progress as a journal, so a restarted bot resumes it.

Why a journal and not a snapshot: `EliteGame` (engine/elite) is deterministic given its config,
seed, data pack and the times its steps happened, but it has no serialised form. So the director
records every step that changes the game (`[game time, action, *arguments]`: the buttons, peeks,
reveals, defeat causes, alien rolls and the timer's calls) and appends each entry to the stored
journal as one unit of work (storage `change_elite_game`: load, append, save with a version check).
On start-up `rebuild` replays it on a clock pinned to each recorded time, which gives back the very
same game (dice and draws included, they come from the seeded stream in the same order); then the
clock runs on from the last recorded time, so the downtime does not eat into an Action Phase. A
timer that was running is paused there: the crew presses Resume when they are back at the table. The
voice channel the director spoke in is stored too, so the cog can rejoin it (bot/games/elite/_cog.py,
`resume_stored`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from bot.games.elite._session import Session
from engine.elite.datapack import AlienAbility, DataPack
from engine.elite.game import EliteGame
from engine.elite.setup import EliteConfig
from engine.elite.vocab import BOSSES, DEFEAT_CAUSES, HEROES, SWARM_TYPES, HeroId
from engine.vocab import Language

JOURNAL_VERSION = 1
RESTART = "restart"  # the argument of a pause the bot made when it stopped (`[time, "pause", RESTART]`)


class ShiftClock:
    """The game's clock: the cog's clock plus an offset, or pinned to one reading while a
    journal is replayed.  After `release` it continues from the pinned reading."""

    def __init__(self, base: Callable[[], float]) -> None:
        self.base = base
        self.offset = 0.0
        self.pinned: float | None = None

    def __call__(self) -> float:
        return self.pinned if self.pinned is not None else self.base() + self.offset

    def pin(self, at: float) -> None:
        self.pinned = at

    def release(self) -> None:
        if self.pinned is not None:
            self.offset = self.pinned - self.base()
        self.pinned = None


@dataclass
class Journal:
    """What a stored game is rebuilt from; `state()` is the document storage keeps."""

    guild_id: int
    channel_id: int
    host_id: int
    lang: Language
    seed: int
    config: dict[str, Any]
    actions: list[list[Any]] = field(default_factory=list)
    status_message_id: int | None = None
    voice_channel_id: int | None = None
    paused_at_restart: bool = False  # not stored: `rebuild` paused a running timer

    def state(self, session: Session) -> dict[str, Any]:
        return {
            "version": JOURNAL_VERSION,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "host_id": self.host_id,
            "lang": self.lang,
            "seed": self.seed,
            "config": self.config,
            "status_message_id": self.status_message_id,
            "voice_channel_id": self.voice_channel_id,
            "actions": self.actions,
            "log": list(session.log),
        }

    @classmethod
    def from_state(cls, state: dict[str, Any]) -> Journal:
        if state.get("version") != JOURNAL_VERSION:
            raise ValueError(f"unknown ELITE journal version {state.get('version')!r}")
        return cls(
            guild_id=int(state["guild_id"]),
            channel_id=int(state["channel_id"]),
            host_id=int(state["host_id"]),
            lang=cast(Language, state["lang"]),
            seed=int(state["seed"]),
            config=dict(state["config"]),
            actions=[list(a) for a in state["actions"]],
            status_message_id=state.get("status_message_id"),
            voice_channel_id=state.get("voice_channel_id"),
        )


def apply(session: Session, action: str, args: list[Any]) -> list[str]:
    """Run one journal step on the session (the same call the live button made)."""
    game = session.game
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
        for hero_roll in game.roll_alien(kind, targets, ability):
            if game.phase != "over":
                game.damage_hero(hero_roll.hero, hero_roll.damage)
        return []
    raise ValueError(f"unknown journal action {action!r}")


def roll_args(kind: str, targets: dict[HeroId, int], hit_value: int | None) -> list[Any]:
    return [kind, {str(h): n for h, n in targets.items()}, hit_value]


def rebuild(state: dict[str, Any], pack: DataPack | None, base_clock: Callable[[], float]) -> tuple[Session, Journal]:
    """The session a stored journal describes, replayed step by step; its timer is paused if it
    was running (and the pause is journalled)."""
    journal = Journal.from_state(state)
    clock = ShiftClock(base_clock)
    first = float(journal.actions[0][0]) if journal.actions else base_clock()
    clock.pin(first)
    game = EliteGame(EliteConfig.model_validate(journal.config), journal.seed, clock, pack)
    session = Session(game, journal.lang, journal.host_id, journal.channel_id)
    for at, action, *args in journal.actions:
        clock.pin(float(at))
        apply(session, str(action), args)
    session.log[:] = [str(line) for line in state.get("log", session.log)]
    clock.release()
    timer = game.timer
    if game.phase == "action" and timer is not None and timer.state == "running":
        session.pause()
        journal.actions.append([clock(), "pause", RESTART])
    last = journal.actions[-1] if journal.actions else []
    journal.paused_at_restart = timer is not None and timer.state == "paused" and last[1:] == ["pause", RESTART]
    return session, journal
