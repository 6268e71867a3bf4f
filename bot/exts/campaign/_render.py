"""Embeds and components of a campaign: the vote, the repair menu, the standing and the score.

Custom ids carry the channel and the choice (`sa-camp:<channel>:<what>:<value>`), so a press is
routed after a restart by reading the session stored for that channel.  English for now (the
shared catalogues are being reworked); the strings are gathered here to move them in one go.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from engine.campaign.repairs import Repair
from engine.campaign.scoring import CampaignScore
from engine.campaign.session import CampaignSession
from engine.campaign.vote import CONTINUE_CAUTION, DIFFICULTY_CAUTION

ID_TEMPLATE = r"sa-camp:(?P<channel>\d{1,21}):(?P<what>common|serious|continue|repair):(?P<value>[a-z_.\-]{1,40})"
SELECT_TEMPLATE = r"sa-camp:(?P<channel>\d{1,21}):(?P<what>repairmenu):(?P<value>-)"
LABELS = {
    "common": "Common threats",
    "serious": "Serious threats",
    "continue": "Go on?",
}


def campaign_id(channel_id: int, what: str, value: str) -> str:
    value_id = f"sa-camp:{channel_id}:{what}:{value}"
    if not (re.fullmatch(ID_TEMPLATE, value_id) or re.fullmatch(SELECT_TEMPLATE, value_id)):
        raise ValueError(f"not a campaign id: {value_id!r}")
    return value_id


def repair_value(repair: Repair) -> str:
    return "battlebots" if repair.kind == "battlebots" else f"{repair.zone}.{repair.token}"


def repair_from_value(value: str) -> Repair:
    if value == "battlebots":
        return Repair("battlebots")
    zone, _, token = value.partition(".")
    return Repair("token", zone, token)  # type: ignore[arg-type]  # checked by the repair step


def repair_label(repair: Repair) -> str:
    if repair.kind == "battlebots":
        return "a battlebot squad"
    return f"{repair.zone}: {str(repair.token).replace('_', ' ')}"


def vote_embed(session: CampaignSession) -> discord.Embed:
    c = session.campaign
    embed = discord.Embed(title=f"Exploration campaign — before mission {c.flown + 1} of 3")
    lines = []
    for kind in session.vote_kinds():
        votes = session.votes.get(kind, {})
        counts = ", ".join(f"{option} {sum(1 for v in votes.values() if v == option)}" for option in _options(kind))
        lines.append(f"**{LABELS[kind]}**: {counts}")
    lines.append(f"Voted: {len(_voters(session))}/{len(c.crew)} · all agree, else the majority; a tie is cautious.")
    if session.deadline is not None:
        lines.append(f"The vote closes <t:{int(session.deadline)}:R>.")
    embed.description = "\n".join(lines)
    if c.lines:
        embed.add_field(name="Flown", value=standing(session), inline=False)
    return embed


def _options(kind: str) -> tuple[str, ...]:
    return CONTINUE_CAUTION if kind == "continue" else DIFFICULTY_CAUTION


def _voters(session: CampaignSession) -> set[str]:
    kinds = session.vote_kinds()
    return {m for m in session.campaign.crew if all(m in session.votes.get(k, {}) for k in kinds)}


def vote_view(session: CampaignSession, channel_id: int, button: Any) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for row, kind in enumerate(session.vote_kinds()):
        for option in _options(kind):
            view.add_item(button(campaign_id(channel_id, kind, option), label=f"{LABELS[kind]}: {option}", row=row))
    return view


def repair_embed(session: CampaignSession) -> discord.Embed:
    c = session.campaign
    embed = discord.Embed(title=f"Repairs after mission {c.flown}")
    damage = "\n".join(
        f"{zone}: {', '.join(t.replace('_', ' ') for t in toks)}" for zone, toks in c.carried.damage.items()
    )
    lines = [
        damage or "No damage tokens.",
        f"Battlebot squads out of order: {c.carried.broken_squads}",
        "Each conscious crew member repairs one damage token or one squad (at most 2 tokens per zone).",
    ]
    if session.knocked_out:
        lines.append(f"Knocked out, recovering: {', '.join(session.knocked_out)}")
    chosen = ", ".join(f"{m}: {repair_label(r)}" for m, r in session.repairs.items())
    lines.append(f"Chosen: {chosen or 'nobody yet'}")
    if session.deadline is not None:
        lines.append(f"Whoever has not chosen <t:{int(session.deadline)}:R> gets the default repair.")
    embed.description = "\n".join(lines)
    return embed


def repair_view(session: CampaignSession, channel_id: int, select: Any) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    options = [
        discord.SelectOption(label=repair_label(r), value=repair_value(r)) for r in session.repair_choices()[:25]
    ]
    if options:
        view.add_item(select(campaign_id(channel_id, "repairmenu", "-"), options))
    return view


def standing(session: CampaignSession) -> str:
    return "\n".join(
        f"{i}. {line.mission}: {line.outcome}, threats {line.threat_points}, observation {line.observation}"
        for i, line in enumerate(session.campaign.lines, 1)
    )


def score_embed(session: CampaignSession, score: CampaignScore) -> discord.Embed:
    embed = discord.Embed(title="Exploration campaign — final score")
    body = [standing(session), ""]
    if score.total is None:
        body.append(f"💥 The ship was lost: the campaign is lost (destroyed by {score.destroyed_by}).")
    else:
        p = score.penalties
        body.append(
            f"Threat points {score.threat_points} · penalties of the last mission {p.total} "
            f"(damage {p.damage}, worst zone {p.worst_zone}, knocked out {p.knocked_out}, battlebots {p.battlebots})"
            f" · observation {score.observation}"
        )
        body.append(f"**Total: {score.total}**")
    embed.description = "\n".join(body)
    return embed
