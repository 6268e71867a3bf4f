"""One channel's ELITE game as the bot sees it: the engine's game plus the status text and lines.

Kept free of Discord so the whole driver is testable: every button maps to one method here that
returns the public lines to post or speak (and, for a peek, a private line).  The cog renders
`status()` into the one status message it edits after each step.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from bot.games.elite._announce import activation_lines, event_lines, setup_lines, spawn_lines
from bot.games.elite._i18n import call_text, text
from engine.elite.datapack import AlienAbility
from engine.elite.game import ActivationReport, EliteGame, EventReveal, GameError, RoundEnd, SpawnReport
from engine.elite.logbook import LogbookRow
from engine.elite.timer import ActionTimer, TimerCall
from engine.elite.vocab import SWARM_TYPES, BossId, DefeatCause, HeroId, SwarmType
from engine.vocab import Language

MAX_LOG_LINES = 12
MAX_STATUS_CHARS = 1900


def mmss(seconds: float) -> str:
    whole = max(0, round(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


@dataclass
class Session:
    game: EliteGame
    lang: Language
    host_id: int
    channel_id: int
    log: list[str] = field(default_factory=list)

    def _t(self, key: str, **values: object) -> str:
        return text(self.lang, key, **values)

    def _note(self, lines: list[str], *, text_only: tuple[str, ...] = ()) -> list[str]:
        """Add lines to the status log; return the ones to speak (checklists are text only)."""
        self.log.extend([*lines, *text_only])
        del self.log[:-MAX_LOG_LINES]
        return lines

    # -- text --------------------------------------------------------------------------------------
    def setup_text(self) -> str:
        return "\n".join(setup_lines(self.lang, self.game.setup))

    def status(self) -> str:
        g = self.game
        cfg = g.config
        head = " · ".join(
            (
                "Project: ELITE",
                self._t(f"map.{cfg.map}"),
                self._t(f"mission.{cfg.mission}"),
                self._t(f"difficulty.{cfg.difficulty}"),
            )
        )
        lines = [f"**{head}**"]
        if g.phase == "over" and g.result is not None:
            result = self._t(f"result.{g.result}")
            lines.append(f"**{result}**" + (f": {self._t(f'cause.{g.cause}')}" if g.cause else ""))
        elif g.round:
            lines.append(f"{self._t('say.round', round=g.round)} {self._t(f'phase.{g.phase}')}")
        timer = g.timer
        if g.phase == "action" and timer is not None:
            lines.append(f"⏱ {mmss(timer.remaining())} ({self._t(f'timer.{timer.state}')})")
        if g.active_events:
            lines.append(self._t("ui.events", events=", ".join(map(str, g.active_events))))
        for boss in g.bosses.values():
            health = "?" if boss.health is None else str(boss.health)
            cluster = self._t("ui.cluster", cluster=boss.cluster)
            lines.append(f"#{boss.uid} {self._t(f'boss.{boss.boss}')} · {cluster} · ♥ {health}")
        if g.exploration is not None:
            marks = []
            for tok in g.exploration.public_view():
                if tok.state == "hidden":
                    marks.append(f"{tok.cell}:▮")
                elif tok.state == "face_up":
                    marks.append(f"{tok.cell}:relic")
            lines.append(self._t("ui.exploration", tokens=" ".join(marks) or "✓"))
        lines.append(self._t("ui.boss_deck", left=len(g.boss_deck)))
        head_text = "\n".join(lines)
        log = [f"> {line}" for line in self.log[-MAX_LOG_LINES:]]
        # Discord refuses content over 2,000 characters; owners' card texts can be long.
        while log and len(head_text) + 2 + len("\n".join(log)) > MAX_STATUS_CHARS:
            log.pop(0)
        if not log:
            return head_text[:MAX_STATUS_CHARS]
        return f"{head_text}\n\n" + "\n".join(log)[-MAX_STATUS_CHARS:]

    # -- steps -------------------------------------------------------------------------------------
    def step(self) -> list[str]:
        """The Next button: the next phase of the round."""
        report = self.game.advance()
        if isinstance(report, EventReveal):
            return self._note(event_lines(self.lang, report))
        if isinstance(report, SpawnReport):
            return self._note([self._t("phase.spawn"), *spawn_lines(self.lang, report)])
        if isinstance(report, ActionTimer):
            return self._note([self._t("say.get_ready")])
        if isinstance(report, ActivationReport):
            return self._note(activation_lines(self.lang, report))
        if isinstance(report, RoundEnd):
            return self._note([self._t("phase.end_of_round")], text_only=(self._t("checklist.end_of_round"),))
        return self._note(self.ending())

    def start(self) -> list[str]:
        self.game.start_timer()
        return []

    def pause(self) -> list[str]:
        self.game.pause()
        return self._note([self._t("say.paused")])

    def resume(self) -> list[str]:
        self.game.resume()
        return self._note([self._t("say.resumed")])

    def adjust(self, delta_s: int) -> list[str]:
        self.game.adjust_time(delta_s)
        key = "say.time_added" if delta_s > 0 else "say.time_removed"
        return self._note([self._t(key, seconds=abs(delta_s))])

    def calls(self) -> list[str]:
        """Timer calls due now, as words; time's up adds the checklist to the log."""
        calls: list[TimerCall] = self.game.poll()
        words = [call_text(self.lang, c) for c in calls]
        if any(c.kind == "times_up" for c in calls):
            self._note([words[-1]], text_only=(self._t("checklist.times_up"),))
        return words

    def peek(self, cell: int, viewer: int) -> str:
        view = self.game.peek(cell, viewer)
        self._note([self._t("ui.peeked", cell=cell)])
        return f"{self._t('ui.cell', cell=cell)}: {self._t(f'exploration.{view.kind}')}"

    def reveal(self, cell: int) -> list[str]:
        result = self.game.reveal(cell)
        return self._note([f"{self._t('ui.cell', cell=cell)}: {self._t(f'exploration.{result.kind}')}"])

    def roll(self, kind: SwarmType | BossId, targets: Mapping[HeroId, int], ability: AlienAbility | None) -> list[str]:
        """`/elite roll`: the alien's Hit dice against each hero in range, then the damage moved on
        each hero's track (a death ends the game).  One step, so the stored game holds the dice
        and the damage together.  Returns the lines to post: the alien, then one per hero."""
        game = self.game
        rolls = game.roll_alien(kind, targets, ability)
        name = self._t(f"swarm.{kind}" if kind in SWARM_TYPES else f"boss.{kind}")
        lines = [f"**{name}**"]
        for r in rolls:
            dice = "🎲 " + (" ".join(map(str, r.rolls)) or "—")
            line = self._t("ui.damage", hero=self._t(f"hero.{r.hero}"), dice=dice, damage=r.damage)
            moved = game.damage_hero(r.hero, r.damage) if game.phase != "over" else None
            if moved is not None and moved.died:
                line += f"; {self._t('ui.dies')}"
            elif moved is not None and moved.dice_locked:
                line += f"; {self._t('ui.locks', count=moved.dice_locked)}"
            lines.append(line)
        if game.phase == "over":
            self._note(self.ending())
        return lines

    def victory(self) -> list[str]:
        self.game.declare_victory()
        return self._note(self.ending())

    def defeat(self, cause: DefeatCause) -> list[str]:
        self.game.declare_defeat(cause)
        return self._note(self.ending())

    def abandon(self) -> list[str]:
        self.game.abandon()
        return self._note(self.ending())

    def ending(self) -> list[str]:
        g = self.game
        if g.result == "victory":
            return [self._t("say.victory")]
        if g.result == "defeat":
            return [self._t("say.defeat", cause=self._t(f"cause.{g.cause}"))]
        return [self._t("result.abandoned")]

    def row(self) -> LogbookRow | None:
        try:
            return self.game.logbook_row()
        except GameError:
            return None
