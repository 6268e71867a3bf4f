"""Embeds and texts: lobby, logbook, leaderboard, resolution result and the captain's log.

Rendering only: every number shown is read from a stored record or an engine `Result`; nothing
here decides anything about the game.  Discord limits (embed field 1024, description 4096,
message 2000 characters) are respected by chunking, because a long captain's log must arrive
complete rather than be cut by an HTTP 400.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import discord

from bot.games.space_alert.campaign.lobby import campaign_field
from bot.games.space_alert.logbook import LeaderboardRow, LogbookEntry
from bot.games.space_alert.mission.storage import FlightRecord
from bot.platform.i18n import t
from bot.platform.text import escape, strip_unsafe, user_text

ROLE_EMOJI = {"captain": "⭐", "comms": "📡", "security": "🛡️"}
ZONE_EMOJI = {"red": "🟥", "white": "⬜", "blue": "🟦", None: "🟨"}
COLOR_LOBBY = discord.Colour.blurple()
COLOR_FLIGHT = discord.Colour.orange()
COLOR_WIN = discord.Colour.green()
COLOR_LOSS = discord.Colour.red()


def mission_label(options: dict[str, Any], lang: str = "en") -> str:
    """The mission's name as players read it: an official id, a custom id, or "random (seed …)"."""
    mission = str(options.get("mission", "?"))
    if mission == "random" and options.get("seed") is not None:
        preset = options.get("preset", "mission")
        if preset != "mission":
            return t(lang, "mission.random_preset", preset=t(lang, f"preset.{preset}"), seed=options["seed"])
        return t(lang, "mission.random", seed=options["seed"])
    return user_text(mission)


def difficulty_label(lang: str, normal: str, serious: str) -> str:
    return t(
        lang,
        "difficulty.pair",
        normal=t(lang, f"difficulty.{normal}"),
        serious=t(lang, f"difficulty.{serious}"),
    )


def crew_lines(lang: str, record: FlightRecord) -> list[str]:
    lines = []
    for member in record.crew:
        roles = " ".join(f"{ROLE_EMOJI[r]} {t(lang, f'role.{r}')}" for r in member.roles if r in ROLE_EMOJI)
        host = f" ({t(lang, 'lobby.host')})" if member.user_id == record.host_id else ""
        lines.append(f"<@{member.user_id}>{host}" + (f" — {roles}" if roles else ""))
    return lines


def lobby_embed(record: FlightRecord, androids: int, notes: list[str] | None = None) -> discord.Embed:
    lang = record.language
    o = record.options
    embed = discord.Embed(title=t(lang, "lobby.title"), colour=COLOR_LOBBY, description=t(lang, "lobby.help"))
    embed.add_field(name=t(lang, "lobby.mission"), value=mission_label(o, lang), inline=True)
    embed.add_field(
        name=t(lang, "lobby.difficulty"), value=difficulty_label(lang, o["normal"], o["serious"]), inline=True
    )
    embed.add_field(
        name=t(lang, "lobby.voice"),
        value=t(lang, "lobby.voice_on" if record.voice else "lobby.voice_off") + f" · {lang}",
        inline=True,
    )
    campaign = campaign_field(lang, o)
    if campaign is not None:
        embed.add_field(name=campaign[0], value=campaign[1], inline=False)
    crew = crew_lines(lang, record) or [t(lang, "lobby.empty")]
    if androids:
        crew.append(t(lang, "lobby.androids", n=androids))
    embed.add_field(name=t(lang, "lobby.crew", n=len(record.crew)), value="\n".join(crew)[:1024], inline=False)
    if notes:
        embed.add_field(name=t(lang, "lobby.notes"), value="\n".join(notes)[:1024], inline=False)
    embed.set_footer(text=f"flight {record.id}")
    return embed


def closed_embed(record: FlightRecord, text: str) -> discord.Embed:
    return discord.Embed(title=t(record.language, "lobby.title"), description=text, colour=discord.Colour.dark_grey())


# -- results ------------------------------------------------------------------------------------
def threat_points(result: dict[str, Any]) -> tuple[int, int]:
    """(points of destroyed threats, points of survived threats) from a Result dict."""
    destroyed = sum(t["points"] for t in result.get("threats", []) if t.get("fate") == "destroyed")
    survived = sum(t["points"] for t in result.get("threats", []) if t.get("fate") == "survived")
    return destroyed, survived


PENALTY_KEYS: tuple[str, ...] = ("damage", "worst_zone", "knocked_out", "battlebots")


def result_embed(
    lang: str, result: dict[str, Any], *, title: str, names: dict[str, str] | None = None
) -> discord.Embed:
    """Outcome, score breakdown (threat points, every penalty, observation) and each threat's fate."""
    won = result["outcome"] == "survived"
    score = result["score"]
    embed = discord.Embed(title=title, colour=COLOR_WIN if won else COLOR_LOSS)
    lines = [t(lang, "result.survived" if won else "result.destroyed")]
    lost = result.get("lost")
    if lost:
        from bot.games.space_alert.mission._log_i18n import cause_text

        lines.append(t(lang, "result.lost", turn=lost["turn"], cause=cause_text(lang, lost["cause"])))
    lines.append(t(lang, "result.total", total=score["total"]))
    embed.description = "\n".join(lines)
    destroyed, survived = threat_points(result)
    breakdown = [
        t(lang, "score.threats", n=score["threats"], destroyed=destroyed, survived=survived),
        *(t(lang, f"score.{k}", n=score[k]) for k in PENALTY_KEYS),
        t(lang, "score.observation", n=score["observation"]),
        f"**{t(lang, 'score.total', n=score['total'])}**",
    ]
    embed.add_field(name=t(lang, "result.score"), value="\n".join(breakdown), inline=False)
    fates = []
    for threat in result.get("threats", []):
        zone = ZONE_EMOJI.get(threat.get("zone"), "🟨")
        name = (names or {}).get(threat["id"], threat["id"])
        fates.append(
            f"{zone} T+{threat['turn']} {name}: {t(lang, 'fate.' + threat['fate'])}"
            + (f" ({threat['points']})" if threat.get("points") else "")
        )
    if fates:
        embed.add_field(name=t(lang, "result.threats"), value="\n".join(fates)[:1024], inline=False)
    damage = result.get("damage") or {}
    if damage:
        embed.add_field(
            name=t(lang, "result.damage"),
            value=" ".join(f"{ZONE_EMOJI[z]} {damage.get(z, 0)}" for z in ("red", "white", "blue")),
            inline=True,
        )
    return embed


def is_no_op(entry: dict[str, Any]) -> bool:
    """A threat's line that changed nothing worth reading ("moves 0 energy into the shield"): left
    out of the captain's log.  A crew member's card is never left out: a card that did nothing
    is a `no_effect` line saying why (a refuel that filled nothing still spent a capsule)."""
    kind = entry.get("kind")
    if kind == "energy":  # an older engine's "moves 0 energy" (today's writes `no_effect` with the reason)
        return not entry.get("amount") and not entry.get("heroic_bonus")
    if kind == "energy_moved":
        return not entry.get("amount") and not entry.get("overflow")
    return False


def captains_log(lang: str, entries: Iterable[dict[str, Any]]) -> list[str]:
    """The resolution log turn by turn, as messages of at most 2000 characters."""
    from bot.games.space_alert.mission._log_i18n import describe

    chunks: list[str] = []
    current = f"**{t(lang, 'log.title')}**"
    last_turn: int | None = None
    for entry in entries:
        if is_no_op(entry):
            continue
        lines = []
        if entry.get("turn") != last_turn:
            last_turn = entry.get("turn")
            lines.append(f"\n__{t(lang, 'log.turn', n=last_turn)}__")
        # the line carries crew names (display names, GAME.json names): shown inert
        lines.append(f"• {escape(strip_unsafe(describe(lang, entry)))}")
        for line in lines:
            if len(current) + len(line) + 1 > 1900:
                chunks.append(current)
                current = ""
            current = f"{current}\n{line}" if current else line
    if current:
        chunks.append(current)
    return chunks


# -- logbook and leaderboard ----------------------------------------------------------------------
def logbook_embed(lang: str, entries: list[LogbookEntry]) -> discord.Embed:
    from bot.games.space_alert.mission._log_i18n import cause_text

    embed = discord.Embed(title=t(lang, "logbook.title"), colour=COLOR_LOBBY)
    if not entries:
        embed.description = t(lang, "logbook.empty")
        return embed
    for e in entries[:10]:
        campaign = f" · {t(lang, 'evening.logbook.campaign')}" if e.campaign_id else ""
        crew = ", ".join(user_text(c.name) + (f" ({'/'.join(c.roles)})" if c.roles else "") for c in e.crew)
        cause = cause_text(lang, e.destroyed_by) if e.destroyed_by else ""
        destroyed_by = f" — {t(lang, 'logbook.lost_cause', cause=cause)}" if cause else ""
        mission = user_text(e.mission_id) + (
            f" (seed {e.seed})" if e.mission_id == "random" and e.seed is not None else ""
        )
        penalties = ", ".join(f"{t(lang, 'penalty.' + k)} {v}" for k, v in e.penalties.items() if v)
        value = (
            f"{'✅' if e.outcome == 'survived' else '💥'} {t(lang, 'outcome.' + e.outcome)}{destroyed_by}\n"
            f"{threat_counts(lang, e)}"
            f"{' · ' + penalties if penalties else ''} · {t(lang, 'logbook.observation', n=e.observation)}"
            f" · **{t(lang, 'score.total', n=e.total)}**\n"
            f"{crew} · <#{e.channel_id}>"
        )
        if paused := float((e.result or {}).get("paused_s") or 0.0):  # the flight was paused: for how long
            from bot.games.space_alert.mission._pause import duration_text

            value += "\n" + t(lang, "pause.result", duration=duration_text(lang, paused))
        embed.add_field(
            name=f"{e.flown_at[:10]} · {mission} · {difficulty_label(lang, e.normal_difficulty, e.serious_difficulty)}"
            + campaign,
            value=value[:1024],
            inline=False,
        )
    return embed


def threat_counts(lang: str, e: LogbookEntry) -> str:
    """Threats destroyed and survived, counted (as /stats counts them) and with their points: a
    lost ship's destroyed threats score nothing, so points alone read as "0 destroyed"."""
    fates = [th.get("fate") for th in (e.result or {}).get("threats", [])]
    return t(
        lang,
        "logbook.threats",
        destroyed=fates.count("destroyed"),
        survived=fates.count("survived"),
        destroyed_points=e.threat_points_destroyed,
        survived_points=e.threat_points_survived,
    )


def leaderboard_embed(lang: str, rows: list[LeaderboardRow], lost: list[LogbookEntry] | None = None) -> discord.Embed:
    """Best surviving flights, then the flights lost (with what destroyed the ship), kept apart."""
    from bot.games.space_alert.mission._log_i18n import cause_text

    embed = discord.Embed(title=t(lang, "leaderboard.title"), colour=COLOR_WIN)
    lost = lost or []
    if not rows and not lost:
        embed.description = t(lang, "leaderboard.empty")
        return embed
    lines = [
        f"**{user_text(r.mission_id)}** · {difficulty_label(lang, r.normal_difficulty, r.serious_difficulty)}: "
        f"**{r.total}** — {', '.join(user_text(c) for c in r.crew) or '?'} ({r.flown_at[:10]})"
        for r in rows
    ]
    embed.description = "\n".join(lines)[:4096] or t(lang, "leaderboard.no_survivors")
    if lost:
        lost_lines = []
        for e in lost[:10]:
            level = difficulty_label(lang, e.normal_difficulty, e.serious_difficulty)
            killer = t(lang, "logbook.lost_cause", cause=cause_text(lang, e.destroyed_by)) if e.destroyed_by else ""
            crew = ", ".join(user_text(c.name) for c in e.crew if c.user_id is not None) or "?"
            parts = [f"💥 **{user_text(e.mission_id)}** · {level}", killer, f"{crew} ({e.flown_at[:10]})"]
            lost_lines.append(" — ".join(p for p in parts if p))
        embed.add_field(name=t(lang, "leaderboard.lost"), value="\n".join(lost_lines)[:1024], inline=False)
    return embed
