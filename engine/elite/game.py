"""One ELITE game as a state machine: up to 8 rounds of Event -> Spawn -> Action -> Activation -> End.

The director holds what the table cannot hide or would rather not handle: the event timeline, the
Boss Spawn deck with its d6 cluster rolls and boss health, the Swarm Spawn deck when a data pack
provides one, the hidden Exploration tokens, the Action Phase timer and the modifiers revealed
tokens carry into the next Spawn and Activation.  Everything on the board (minis, paths, pushes)
stays with the crew.  Each step returns a small report the adapter renders in text and voice.

Randomness: the setup uses `Random(seed)`; play uses its own stream seeded from the same seed, so
a game is replayable and the posted setup does not depend on later draws.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engine.common.clock import Clock
from engine.common.dice import roll_d6
from engine.elite import tables
from engine.elite.activation import ActivationError, DamageResult, HeroRoll, apply_damage, roll_ability
from engine.elite.datapack import AlienAbility, BossCard, DataPack, EventCard, SwarmSpawnCard, SwarmStat
from engine.elite.decks import BossDeck, SwarmDeck
from engine.elite.errors import EliteError
from engine.elite.exploration import ExplorationTokens, Modifiers, PeekView, Reveal
from engine.elite.logbook import LogbookRow
from engine.elite.setup import EliteConfig, EliteSetup, event_kind, make_setup
from engine.elite.timer import ActionTimer, TimerCall
from engine.elite.vocab import (
    BOSSES,
    CLUSTERS,
    DEFEAT_CAUSES,
    GAME_RESULTS,
    HEROES,
    PHASES,
    BossId,
    ClusterNumber,
    DefeatCause,
    EventKind,
    GameResult,
    HeroId,
    Phase,
    SwarmType,
    is_boss,
    is_swarm,
)

SNAPSHOT_VERSION = 1
_V = TypeVar("_V")


class GameError(EliteError, RuntimeError):
    """A step asked for in the wrong phase, or on a finished game."""


def _one_of(value: object, options: tuple[_V, ...], what: str) -> _V:
    """`value` as the member of `options` it equals (a stored word checked against the vocabulary)."""
    found = next((o for o in options if o == value), None)
    if found is None:
        raise ValueError(f"unknown {what} {value!r} in a stored game")
    return found


@dataclass(frozen=True, slots=True)
class EventReveal:
    round: int
    number: int
    kind: EventKind
    card: EventCard | None  # from the data pack, when the owner entered it
    active_persistent: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BossSpawn:
    """One Boss Spawn card: All Clear (boss None) or a boss placed at the cluster a d6 chose."""

    boss: BossId | None
    roll: int | None = None
    cluster: ClusterNumber | None = None
    health: int | None = None  # printed Health, when the pack has the boss card
    uid: int | None = None


@dataclass(frozen=True, slots=True)
class SpawnReport:
    round: int
    swarm_cards: int
    swarm_draws: tuple[SwarmSpawnCard, ...]  # empty without a pack: "draw N swarm cards"
    boss_cards: int
    bosses: tuple[BossSpawn, ...]
    boss_deck_left: int
    boss_deck_empty: bool
    modifiers: Modifiers


@dataclass(frozen=True, slots=True)
class ActivationReport:
    round: int
    extra_move: int
    bosses_in_play: tuple[BossInPlay, ...]


@dataclass(frozen=True, slots=True)
class RoundEnd:
    round: int
    removed_events: tuple[int, ...]
    last_round: bool


@dataclass
class BossInPlay:
    uid: int
    boss: BossId
    cluster: ClusterNumber
    health: int | None


@dataclass(frozen=True, slots=True)
class BossHit:
    uid: int
    boss: BossId
    health: int
    killed: bool


@dataclass
class EliteGame:
    config: EliteConfig
    seed: int
    clock: Clock
    pack: DataPack | None = None
    setup: EliteSetup = field(init=False)
    round: int = field(default=0, init=False)
    phase: Phase = field(default="setup", init=False)
    result: GameResult | None = field(default=None, init=False)
    cause: DefeatCause | None = field(default=None, init=False)
    bosses_killed: int = field(default=0, init=False)
    timer: ActionTimer | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.setup = make_setup(self.config, self.seed)
        self._rng = random.Random(f"elite-play:{self.seed}")
        self.boss_deck = BossDeck.shuffled(self._rng)
        spawn_cards = self.pack.swarm_spawn if self.pack else []
        self.swarm_deck = SwarmDeck.shuffled(spawn_cards, self._rng) if spawn_cards else None
        self.exploration = (
            ExplorationTokens(self.setup.objective_cells, self._rng) if self.config.mission == "exploration" else None
        )
        self.pending = Modifiers()
        self.active_events: list[int] = []
        self.completed_events: set[int] = set()
        self.bosses: dict[int, BossInPlay] = {}
        self.hero_damage: dict[HeroId, int] = {}
        self._next_uid = 1

    # -- guards ------------------------------------------------------------------------------------
    def _need(self, *phases: Phase) -> None:
        if self.phase == "over":
            raise GameError("game_over")
        if self.phase not in phases:
            raise GameError("wrong_phase", phase=self.phase)

    def _timer(self) -> ActionTimer:
        if self.phase != "action" or self.timer is None:
            raise GameError("timer_not_in_phase")
        return self.timer

    # -- 1. Events ---------------------------------------------------------------------------------
    def begin_round(self) -> EventReveal | None:
        """Start the next round and reveal its event; after round 8 the game is lost on time."""
        self._need("setup", "end_of_round")
        if self.round >= tables.ROUNDS:
            self.declare_defeat("time")
            return None
        self.round += 1
        self.phase = "event"
        number = self.setup.event_timeline[self.round - 1]
        kind = event_kind(number)
        if kind == "persistent":
            self.active_events.append(number)
        return EventReveal(
            self.round, number, kind, self.pack.event(number) if self.pack else None, tuple(self.active_events)
        )

    def complete_event(self, number: int) -> None:
        """A persistent event's slots were filled: it stops at the end of this Action Phase."""
        if number not in self.active_events:
            raise GameError("event_not_in_play", number=number)
        self.completed_events.add(number)

    # -- 2. Alien Spawn ----------------------------------------------------------------------------
    def spawn(self) -> SpawnReport:
        self._need("event")
        self.phase = "spawn"
        mods, self.pending = self.pending, Modifiers(extra_move=self.pending.extra_move)
        swarm_n = self.config.spawn_players + tables.SWARM_EXTRA[self.config.difficulty] + mods.extra_swarm
        boss_n = max(0, tables.BOSS_CARDS[self.config.difficulty] + mods.extra_boss)
        draws: list[SwarmSpawnCard] = []
        if self.swarm_deck is not None:
            for _ in range(swarm_n):
                card = self.swarm_deck.draw(self._rng)
                if card is not None:
                    draws.append(card)
        bosses = tuple(self._draw_boss() for _ in range(boss_n))
        return SpawnReport(
            self.round,
            swarm_n,
            tuple(draws),
            boss_n,
            tuple(b for b in bosses if b is not None),
            len(self.boss_deck),
            not self.boss_deck.cards,
            Modifiers(extra_swarm=mods.extra_swarm, extra_boss=mods.extra_boss),
        )

    def _draw_boss(self) -> BossSpawn | None:
        drawn, boss = self.boss_deck.draw()
        if not drawn:
            return None
        if boss is None:
            return BossSpawn(None)
        roll = roll_d6(self._rng)
        cluster = tables.cluster_for_roll(roll)
        card = self.pack.boss(boss) if self.pack else None
        health = card.health if card else None
        uid = self._next_uid
        self._next_uid += 1
        self.bosses[uid] = BossInPlay(uid, boss, cluster, health)
        return BossSpawn(boss, roll, cluster, health, uid)

    def set_boss_health(self, uid: int, health: int) -> None:
        """Without a pack the crew types the printed Health so the director can track it."""
        if health < 1:
            raise GameError("boss_health_min")
        self._boss(uid).health = health

    def hit_boss(self, uid: int, hits: int) -> BossHit:
        """Remove Health tokens; at 0 the boss is killed (its card and mini leave the game)."""
        boss = self._boss(uid)
        if boss.health is None:
            raise GameError("boss_health_unknown")
        if hits < 0:
            raise GameError("negative_hits")
        boss.health = max(0, boss.health - hits)
        if boss.health == 0:
            self.kill_boss(uid)
        return BossHit(uid, boss.boss, boss.health, boss.health == 0)

    def kill_boss(self, uid: int) -> BossId:
        boss = self._boss(uid)
        del self.bosses[uid]
        self.bosses_killed += 1
        return boss.boss

    def _boss(self, uid: int) -> BossInPlay:
        if self.phase == "over":
            raise GameError("game_over")
        try:
            return self.bosses[uid]
        except KeyError:
            raise GameError("no_boss", uid=uid) from None

    # -- 3. Action Phase ---------------------------------------------------------------------------
    def open_action(self) -> ActionTimer:
        """Enter the Action Phase with the timer set (2:00, changed by events a pack describes)."""
        self._need("spawn")
        self.phase = "action"
        change = 0
        if self.pack:
            for number in {*self.active_events, self.setup.event_timeline[self.round - 1]}:
                card = self.pack.event(number)
                if card and number not in self.completed_events:
                    change += card.timer_change_s
        self.timer = ActionTimer(self.clock, max(tables.TIME_STEP_S, tables.ACTION_PHASE_S + change))
        return self.timer

    def start_timer(self) -> None:
        self._timer().start()

    def pause(self) -> None:
        self._timer().pause()

    def resume(self) -> None:
        self._timer().resume()

    def adjust_time(self, delta_s: float) -> float:
        return self._timer().adjust(delta_s)

    def poll(self) -> list[TimerCall]:
        return self._timer().poll() if self.phase == "action" and self.timer else []

    def peek(self, cell: int, viewer: int) -> PeekView:
        return self._tokens().peek(cell, viewer)

    def reveal(self, cell: int) -> Reveal:
        """Reveal a token: its modifiers apply to the next Spawn (and the next Activation)."""
        result = self._tokens().reveal(cell)
        self.pending = self.pending + result.modifiers
        return result

    def remove_relic(self, cell: int) -> None:
        self._tokens().remove_relic(cell)

    def _tokens(self) -> ExplorationTokens:
        if self.phase == "over":
            raise GameError("game_over")
        if self.exploration is None:
            raise GameError("no_exploration")
        return self.exploration

    # -- 4. Alien Activation -----------------------------------------------------------------------
    def activate(self, *, force: bool = False) -> ActivationReport:
        """After time's up (or `force`, when the crew ends the phase by hand), aliens activate."""
        self._need("action")
        if not force and (self.timer is None or self.timer.state != "times_up"):
            raise GameError("action_running")
        self.phase = "activation"
        extra = self.pending.extra_move
        self.pending = Modifiers(self.pending.extra_swarm, self.pending.extra_boss, 0, self.pending.search_cards)
        return ActivationReport(self.round, extra, tuple(self.bosses.values()))

    def roll_alien(
        self, alien: SwarmType | BossId, in_range: Mapping[HeroId, int], ability: AlienAbility | None = None
    ) -> tuple[HeroRoll, ...]:
        """The activation helper: roll an alien type's ability (stats from the pack, or given)."""
        self._need("spawn", "activation")
        if ability is None:
            card: SwarmStat | BossCard | None = None
            if self.pack is not None:
                if is_swarm(alien):
                    card = self.pack.swarm_stat(alien)
                elif is_boss(alien):
                    card = self.pack.boss(alien)
            if card is None:
                raise GameError("no_alien_values", alien=alien)
            ability = card.ability
        try:
            return roll_ability(self._rng, ability, in_range)
        except ActivationError as exc:
            raise GameError(exc.code, **exc.values) from None

    def damage_hero(self, hero: HeroId, damage: int) -> DamageResult | None:
        """Move a hero's damage marker when the pack has the hero's track (None otherwise).

        A death ends the game at once (defeat: a hero died).
        """
        if hero not in self.config.heroes:
            raise GameError("hero_not_in_game", hero=hero)
        track = self.pack.hero(hero) if self.pack else None
        if track is None:
            return None
        result = apply_damage(track, self.hero_damage.get(hero, 0), damage)
        self.hero_damage[hero] = result.position
        if result.died and self.phase != "over":
            self.declare_defeat("hero_died")
        return result

    # -- 5. End of Round ---------------------------------------------------------------------------
    def end_round(self) -> RoundEnd:
        self._need("activation")
        self.phase = "end_of_round"
        removed = tuple(n for n in self.active_events if n in self.completed_events)
        self.active_events = [n for n in self.active_events if n not in self.completed_events]
        return RoundEnd(self.round, removed, self.round == tables.ROUNDS)

    def declare_victory(self) -> None:
        """Victory is checked at End of Round: the objective is done and every hero is in the SZ."""
        self._need("end_of_round")
        self._finish("victory", None)

    def declare_defeat(self, cause: DefeatCause) -> None:
        """A hero died or an alien reached the Starting Zone (any phase), or round 8 ended."""
        self._need("setup", "event", "spawn", "action", "activation", "end_of_round")
        self._finish("defeat", cause)

    def abandon(self) -> None:
        self._need("setup", "event", "spawn", "action", "activation", "end_of_round")
        self._finish("abandoned", None)

    def _finish(self, result: GameResult, cause: DefeatCause | None) -> None:
        if self.timer is not None and self.timer.state == "running":
            self.timer.pause()
        self.result, self.cause, self.phase = result, cause, "over"

    # -- the stored form ---------------------------------------------------------------------------
    # Why a snapshot: the bot keeps a game in progress as one versioned document and changes it by
    # load -> step -> save; restoring must give back the very same game, dice stream included, so
    # the random generator's state is part of it.  The setup is not stored: it follows from the
    # config and seed (`make_setup`), as the logbook already relies on.

    def snapshot(self) -> dict[str, Any]:
        """Everything that changed since the game was set up, as JSON-able values."""
        version, internal, gauss = self._rng.getstate()
        return {
            "version": SNAPSHOT_VERSION,
            "round": self.round,
            "phase": self.phase,
            "result": self.result,
            "cause": self.cause,
            "bosses_killed": self.bosses_killed,
            "rng": [version, list(internal), gauss],
            "boss_deck": {"cards": list(self.boss_deck.cards), "drawn": list(self.boss_deck.drawn)},
            "swarm_deck": None
            if self.swarm_deck is None
            else {
                "cards": [c.model_dump(mode="json") for c in self.swarm_deck.cards],
                "discard": [c.model_dump(mode="json") for c in self.swarm_deck.discard],
                "reshuffles": self.swarm_deck.reshuffles,
            },
            "exploration": None if self.exploration is None else self.exploration.snapshot(),
            "pending": [
                self.pending.extra_swarm,
                self.pending.extra_boss,
                self.pending.extra_move,
                self.pending.search_cards,
            ],
            "active_events": list(self.active_events),
            "completed_events": sorted(self.completed_events),
            "bosses": [[b.uid, b.boss, b.cluster, b.health] for b in self.bosses.values()],
            "hero_damage": dict(self.hero_damage),
            "next_uid": self._next_uid,
            "timer": None if self.timer is None else self.timer.snapshot(),
        }

    @classmethod
    def restore(
        cls, data: dict[str, Any], config: EliteConfig, seed: int, clock: Clock, pack: DataPack | None = None
    ) -> EliteGame:
        """The game `snapshot` described, with the config, seed and pack it was set up with."""
        if data.get("version") != SNAPSHOT_VERSION:
            raise ValueError(f"unknown ELITE snapshot version {data.get('version')!r}")
        game = cls(config, seed, clock, pack)
        game.round = int(data["round"])
        game.phase = _one_of(data["phase"], PHASES, "phase")
        game.result = None if data["result"] is None else _one_of(data["result"], GAME_RESULTS, "result")
        game.cause = None if data["cause"] is None else _one_of(data["cause"], DEFEAT_CAUSES, "defeat cause")
        game.bosses_killed = int(data["bosses_killed"])
        version, internal, gauss = data["rng"]
        game._rng.setstate((int(version), tuple(int(n) for n in internal), gauss))
        deck = data["boss_deck"]
        game.boss_deck = BossDeck(
            [None if c is None else _one_of(c, BOSSES, "boss") for c in deck["cards"]],
            [None if c is None else _one_of(c, BOSSES, "boss") for c in deck["drawn"]],
        )
        swarm = data.get("swarm_deck")
        game.swarm_deck = (
            None
            if swarm is None
            else SwarmDeck(
                [SwarmSpawnCard.model_validate(c) for c in swarm["cards"]],
                [SwarmSpawnCard.model_validate(c) for c in swarm["discard"]],
                int(swarm["reshuffles"]),
            )
        )
        tokens = data.get("exploration")
        game.exploration = None if tokens is None else ExplorationTokens.restore(tokens)
        game.pending = Modifiers(*(int(n) for n in data["pending"]))
        game.active_events = [int(n) for n in data["active_events"]]
        game.completed_events = {int(n) for n in data["completed_events"]}
        game.bosses = {
            int(uid): BossInPlay(
                int(uid),
                _one_of(boss, BOSSES, "boss"),
                _one_of(cluster, CLUSTERS, "cluster"),
                None if health is None else int(health),
            )
            for uid, boss, cluster, health in data["bosses"]
        }
        game.hero_damage = {_one_of(h, HEROES, "hero"): int(n) for h, n in data["hero_damage"].items()}
        game._next_uid = int(data["next_uid"])
        timer = data.get("timer")
        game.timer = None if timer is None else ActionTimer.restore(clock, timer)
        return game

    # -- the whole loop ----------------------------------------------------------------------------
    def advance(self) -> object:
        """Take the next step of the round (the adapter's "Next" button)."""
        steps: dict[Phase, Callable[[], object]] = {
            "setup": self.begin_round,
            "event": self.spawn,
            "spawn": self.open_action,
            "action": self.activate,
            "activation": self.end_round,
            "end_of_round": self.begin_round,
        }
        if self.phase == "over":
            raise GameError("game_over")
        return steps[self.phase]()

    def logbook_row(self) -> LogbookRow:
        if self.result is None:
            raise GameError("game_not_over")
        return LogbookRow(
            map=self.config.map,
            mission=self.config.mission,
            difficulty=self.config.difficulty,
            players=self.config.players,
            heroes=self.config.heroes,
            rounds=self.round,
            result=self.result,
            cause=self.cause,
            bosses_killed=self.bosses_killed,
            seed=self.seed,
        )
