"""What the director says and posts for each step: short lines built from the step reports.

The same lines serve the status message (text) and the voice (speech), in the game's language
(words from the one catalogue, `bot/platform/locales/elite/<lang>.json`).  Card names and effects
appear only when the owner's data pack has them.  Presentation, so it lives in the bot: the rules in
engine/elite report steps, never sentences.
"""

from __future__ import annotations

from bot.games.elite._i18n import text
from engine.elite.game import ActivationReport, EventReveal, SpawnReport
from engine.elite.setup import EliteSetup
from engine.vocab import Language


def _card_text(texts: dict[str, str], lang: Language) -> str:
    """The owner's text in the language asked for, else English, else whichever they typed."""
    return texts.get(lang) or texts.get("en") or next(iter(texts.values()), "")


def setup_lines(lang: Language, setup: EliteSetup) -> list[str]:
    cfg = setup.config
    lines = [
        " · ".join(
            (
                text(lang, f"map.{cfg.map}"),
                text(lang, f"mission.{cfg.mission}"),
                text(lang, f"difficulty.{cfg.difficulty}"),
                ", ".join(text(lang, f"hero.{h}") for h in cfg.heroes),
            )
        ),
        text(lang, "setup.cells", cells=", ".join(map(str, setup.objective_cells))),
        text(lang, "setup.weapons", count=setup.basic_weapons),
        text(lang, "setup.clusters", tokens=" · ".join(map(str, setup.cluster_tokens))),
        text(lang, "setup.dice", dice=setup.action_dice),
        text(lang, "setup.timeline"),
    ]
    tokens = setup.tokens
    if tokens.traps:
        lines.append(text(lang, "setup.traps", count=tokens.traps))
    if tokens.destruction_per_hero:
        lines.append(text(lang, "setup.destruction"))
    if tokens.recon_in_start_zone:
        lines.append(text(lang, "setup.recon", count=tokens.recon_in_start_zone))
    if tokens.exploration_face_down:
        lines.append(text(lang, "setup.exploration", count=tokens.exploration_face_down))
    return lines


def event_lines(lang: Language, reveal: EventReveal) -> list[str]:
    lines = [
        text(lang, "say.round", round=reveal.round),
        text(lang, "say.event", number=reveal.number, kind=text(lang, f"event.{reveal.kind}")),
    ]
    if reveal.card is not None:
        name, effect = _card_text(reveal.card.name, lang), _card_text(reveal.card.text, lang)
        lines += [s for s in (name, effect) if s]
    return lines


def spawn_lines(lang: Language, report: SpawnReport) -> list[str]:
    lines: list[str] = []
    if report.modifiers.extra_swarm or report.modifiers.extra_boss:
        lines.append(text(lang, "say.modifiers", swarm=report.modifiers.extra_swarm, boss=report.modifiers.extra_boss))
    if report.swarm_draws:
        for card in report.swarm_draws:
            swarm = text(lang, f"swarm.{card.type}")
            if card.cluster is None:
                lines.append(text(lang, "say.swarm_card_choose", swarm=swarm, count=card.count))
            else:
                lines.append(text(lang, "say.swarm_card", swarm=swarm, count=card.count, cluster=card.cluster))
            if card.activation:
                lines.append(text(lang, "say.swarm_activates"))
    elif report.swarm_cards:
        lines.append(text(lang, "say.spawn_draw", count=report.swarm_cards))
    for boss in report.bosses:
        if boss.boss is None:
            lines.append(text(lang, "say.all_clear"))
            continue
        lines.append(text(lang, "say.boss", boss=text(lang, f"boss.{boss.boss}"), cluster=boss.cluster))
        if boss.health is not None:
            lines.append(text(lang, "say.boss_health", health=boss.health))
    if report.boss_deck_empty:
        lines.append(text(lang, "say.boss_deck_empty"))
    return lines


def activation_lines(lang: Language, report: ActivationReport) -> list[str]:
    lines = [text(lang, "say.activation")]
    if report.extra_move:
        lines.append(text(lang, "say.extra_move", extra=report.extra_move))
    return lines
