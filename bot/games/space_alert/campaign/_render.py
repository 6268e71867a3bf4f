"""Embeds and components of a campaign: the vote, the repair menu, the standing and the score.

Custom ids carry the channel and the choice (`sa-camp:<channel>:<what>:<value>`), so a press is
routed after a restart by reading the session stored for that channel.  Every text takes the
server's language (the catalogue's `campaign.` keys, through _text.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot.games.space_alert.campaign._text import option_label, tx
from bot.games.space_alert.threat_names import threat_name
from bot.platform import components
from bot.platform.components import Components
from bot.platform.i18n import t
from engine.campaign.repairs import Repair
from engine.campaign.scoring import CampaignScore
from engine.campaign.session import CampaignSession
from engine.campaign.vote import CONTINUE_CAUTION, DIFFICULTY_CAUTION

KIND = components.register(
    "sa-camp",
    {"channel": r"\d{1,21}", "what": "common|serious|continue|repair|repairmenu", "value": r"[a-z_.\-]{1,40}"},
    summary="a campaign's vote buttons and repair menu",
    example=("123456789012345678", "common", "white"),
)
ID_TEMPLATE = KIND.pattern(what="common|serious|continue|repair")
SELECT_TEMPLATE = KIND.pattern(what="repairmenu", value="-")


def campaign_id(channel_id: int, what: str, value: str) -> str:
    return KIND.make(channel_id, what, value)


def repair_value(repair: Repair) -> str:
    return "battlebots" if repair.kind == "battlebots" else f"{repair.zone}.{repair.token}"


def repair_from_value(value: str) -> Repair:
    if value == "battlebots":
        return Repair("battlebots")
    zone, _, token = value.partition(".")
    return Repair("token", zone, token)  # type: ignore[arg-type]  # checked by the repair step


def repair_label(lang: str, repair: Repair) -> str:
    if repair.kind == "battlebots":
        return tx(lang, "repair.squad")
    return f"{tx(lang, f'zone.{repair.zone}')}: {tx(lang, f'token.{repair.token}')}"


def vote_embed(lang: str, session: CampaignSession) -> discord.Embed:
    c = session.campaign
    embed = discord.Embed(title=tx(lang, "vote.title", n=c.flown + 1))
    lines = []
    for kind in session.vote_kinds():
        votes = session.votes.get(kind, {})
        counts = ", ".join(
            f"{option_label(lang, kind, option)} {sum(1 for v in votes.values() if v == option)}"
            for option in _options(kind)
        )
        lines.append(f"**{tx(lang, f'label.{kind}')}**: {counts}")
    lines.append(tx(lang, "vote.voted", voted=len(_voters(session)), crew=len(c.crew)))
    if session.deadline is not None:
        lines.append(tx(lang, "vote.closes", when=f"<t:{int(session.deadline)}:R>"))
    embed.description = "\n".join(lines)
    if c.lines:
        embed.add_field(name=tx(lang, "flown"), value=standing(lang, session), inline=False)
    return embed


def _options(kind: str) -> tuple[str, ...]:
    return CONTINUE_CAUTION if kind == "continue" else DIFFICULTY_CAUTION


def _voters(session: CampaignSession) -> set[str]:
    kinds = session.vote_kinds()
    return {m for m in session.campaign.crew if all(m in session.votes.get(k, {}) for k in kinds)}


def vote_view(lang: str, session: CampaignSession, channel_id: int, button: Any) -> discord.ui.View:
    view = Components()
    for row, kind in enumerate(session.vote_kinds()):
        for option in _options(kind):
            label = f"{tx(lang, f'label.{kind}')}: {option_label(lang, kind, option)}"
            view.add_item(button(campaign_id(channel_id, kind, option), label=label[:80], row=row))
    return view


def repair_embed(lang: str, session: CampaignSession, names: Mapping[str, str] | None = None) -> discord.Embed:
    """The repair step; the session keys members by id, `names` (member id -> name) renders them."""
    names = names or {}
    c = session.campaign
    embed = discord.Embed(title=tx(lang, "repair.title", n=c.flown))
    damage = "\n".join(
        f"{tx(lang, f'zone.{zone}')}: {', '.join(tx(lang, f'token.{tok}') for tok in toks)}"
        for zone, toks in c.carried.damage.items()
    )
    lines = [
        damage or tx(lang, "repair.none"),
        tx(lang, "repair.squads", n=c.carried.broken_squads),
        tx(lang, "repair.rule"),
    ]
    if session.knocked_out:
        lines.append(tx(lang, "repair.knocked_out", names=", ".join(names.get(m, m) for m in session.knocked_out)))
    chosen = ", ".join(f"{names.get(m, m)}: {repair_label(lang, r)}" for m, r in session.repairs.items())
    lines.append(tx(lang, "repair.chosen", chosen=chosen or tx(lang, "repair.nobody")))
    if session.deadline is not None:
        lines.append(tx(lang, "repair.default", when=f"<t:{int(session.deadline)}:R>"))
    embed.description = "\n".join(lines)
    return embed


def repair_view(lang: str, session: CampaignSession, channel_id: int, select: Any) -> discord.ui.View:
    view = Components()
    options = [
        discord.SelectOption(label=repair_label(lang, r)[:100], value=repair_value(r))
        for r in session.repair_choices()[:25]
    ]
    if options:
        view.add_item(select(campaign_id(channel_id, "repairmenu", "-"), options, tx(lang, "repair.placeholder")))
    return view


def standing(lang: str, session: CampaignSession) -> str:
    return "\n".join(
        tx(
            lang,
            "line",
            i=i,
            mission=line.mission,
            outcome=t(lang, f"outcome.{line.outcome}"),
            threats=line.threat_points,
            observation=line.observation,
        )
        for i, line in enumerate(session.campaign.lines, 1)
    )


def score_embed(lang: str, session: CampaignSession, score: CampaignScore) -> discord.Embed:
    embed = discord.Embed(title=tx(lang, "score.title"))
    body = [standing(lang, session), ""]
    if score.total is None:
        killer = threat_name(lang, score.destroyed_by) if score.destroyed_by else "?"
        body.append(tx(lang, "score.lost", threat=killer))
    else:
        p = score.penalties
        body.append(
            tx(
                lang,
                "score.parts",
                threats=score.threat_points,
                penalties=p.total,
                damage=p.damage,
                worst=p.worst_zone,
                knocked=p.knocked_out,
                bots=p.battlebots,
                observation=score.observation,
            )
        )
        body.append(tx(lang, "score.total", total=score.total))
    embed.description = "\n".join(body)
    return embed
