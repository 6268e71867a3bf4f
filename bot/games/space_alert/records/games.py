"""The other games' records beside the flights: Scarlet Legion voyages and Star World: Escape games.

Why here and not in each game: /logbook, /stats and the web pages are the places a server and a
player look back, and issues 26-28 ask them to show "games of every kind".  Legion and Escape keep
their finished games in the platform's `game_results` (one row per game, written by the unit of
work that ends it), so this module only reads those rows and words them; it imports neither game.
Names are what the table showed when the game ended, made inert where they are posted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.platform.i18n import t
from bot.platform.sessions import StoredResult
from bot.platform.text import plain_text, user_text

Inert = Callable[[object, int], str]  # user_text for Discord (markdown escaped), plain_text for the web

GAMES: tuple[str, ...] = ("legion", "escape")  # the session games that keep records
SHOWN = 5  # lines per game in /logbook: a short section, the game's own /<game> board has the rest
WON_OUTCOME = {"escape": "escaped"}  # Legion's outcome is the winning side


def _name(player: dict[str, Any], inert: Inert = user_text) -> str:
    return inert(player.get("name") or "", 40)


def _phrase(lang: str, key: str, fallback: str) -> str:
    """A catalogue text, or `fallback` for a code our catalogue has no words for (a pack's own)."""
    text = t(lang, key)
    return fallback if text == key else text


def legion_line(lang: str, r: StoredResult, inert: Inert = user_text) -> str:
    """`2026-11-27 · Delivery · the crew won · crew: A, B · Legion: C` (every side was revealed at
    the end, so the sides are public)."""
    mission = str(r.details.get("mission") or "?")
    sides = {
        side: ", ".join(_name(p, inert) for p in r.players if p.get("role") == side) or "—"
        for side in ("crew", "legion")
    }
    return t(
        lang,
        "records.legion.line",
        date=r.finished_at[:10],
        mission=inert(_phrase(lang, f"legion.mission.{mission}", mission), 60),
        winner=t(lang, f"records.legion.won_{'legion' if r.outcome == 'legion' else 'crew'}"),
        crew=sides["crew"],
        legion=sides["legion"],
    )


def escape_line(lang: str, r: StoredResult, inert: Inert = user_text) -> str:
    """`2026-11-27 · digital, hard · 12/20 h · A escaped (Data disk) · A, B`, or the storm."""
    d = r.details
    difficulty = str(d.get("difficulty") or "?")
    players = ", ".join(_name(p, inert) for p in r.players) or "—"
    winner = next((p for p in r.players if p.get("won")), None)
    if r.outcome == "escaped" and winner is not None:
        mission = str(d.get("mission") or "?")
        ending = t(
            lang,
            "records.escape.won",
            name=_name(winner, inert),
            mission=inert(_phrase(lang, f"escape.mission.{mission}", mission), 60),
        )
    else:
        ending = t(lang, "records.escape.stormed")
    return t(
        lang,
        "records.escape.line",
        date=r.finished_at[:10],
        mode=t(lang, f"records.escape.mode_{'referee' if d.get('mode') == 'referee' else 'digital'}"),
        difficulty=inert(_phrase(lang, f"escape.difficulty.{difficulty}", difficulty), 30),
        hours=int(d.get("hours") or 0),
        limit=int(d.get("limit") or 0),
        ending=ending,
        players=players,
    )


LINES = {"legion": legion_line, "escape": escape_line}


def logbook_sections(lang: str, results: dict[str, list[StoredResult]]) -> list[tuple[str, str]]:
    """(title, text) per game with records, newest first, each within an embed field's 1024."""
    sections = []
    for game in GAMES:
        found = results.get(game) or []
        if found:
            text = "\n".join(LINES[game](lang, r) for r in found[:SHOWN])
            sections.append((t(lang, f"records.{game}.title"), text[:1024]))
    return sections


@dataclass(frozen=True)
class Tally:
    """One player's games of one kind: played, won, and for Legion how many as the agent."""

    game: str
    played: int
    won: int
    as_agent: int = 0
    won_as_agent: int = 0


def tally(game: str, results: list[StoredResult], user_id: int) -> Tally | None:
    seats = [p for r in results for p in r.players if p.get("user_id") is not None and int(p["user_id"]) == user_id]
    if not seats:
        return None
    agent = [p for p in seats if p.get("role") == "legion"]
    return Tally(
        game,
        played=len(seats),
        won=sum(bool(p.get("won")) for p in seats),
        as_agent=len(agent),
        won_as_agent=sum(bool(p.get("won")) for p in agent),
    )


def career_line(lang: str, tally: Tally) -> str:
    """`Scarlet Legion: 5 voyages, 3 won (crew 2 of 3, Legion 1 of 2)` / `Escape: 4 games, 1 won`."""
    if tally.game == "legion":
        return t(
            lang,
            "records.legion.career",
            played=tally.played,
            won=tally.won,
            crew_won=tally.won - tally.won_as_agent,
            crew=tally.played - tally.as_agent,
            agent_won=tally.won_as_agent,
            agent=tally.as_agent,
        )
    return t(lang, f"records.{tally.game}.career", played=tally.played, won=tally.won)


def result_doc(r: StoredResult, lang: str) -> dict[str, Any]:
    """One finished game as the web documents list it: codes, numbers and names, and `summary`,
    the same line /logbook posts, worded in the page's language (as the flight page words its log)."""
    d = r.details
    doc: dict[str, Any] = {
        "summary": LINES[r.game](lang, r, plain_text) if r.game in LINES else r.outcome,
        "id": r.session_id,
        "game": r.game,
        "server_id": str(r.guild_id),
        "finished_at": r.finished_at,
        "outcome": r.outcome,
        "players": [
            {
                "name": str(p.get("name") or ""),
                "player_id": str(p["user_id"]) if p.get("user_id") is not None else None,
                "won": bool(p.get("won")),
                "role": p.get("role"),
            }
            for p in r.players
        ],
    }
    keep = (
        ("mission", "reason", "flights") if r.game == "legion" else ("mode", "difficulty", "hours", "limit", "mission")
    )
    doc.update({k: d.get(k) for k in keep})
    if r.game == "escape" and r.outcome != "escaped":
        doc["mission"] = None  # a loser's mission stays secret
    return doc


async def tallies(storage: Any, user_id: int, here: int | None) -> list[Tally]:
    """A player's other games, within /stats' scope: everywhere for yourself (`here` None), else
    this server's games and those of servers whose records are public (as the flights are)."""
    out: list[Tally] = []
    for game in GAMES:
        results = await storage.session_results(game=game, user_id=user_id, limit=500)
        if here is not None:
            others = {r.guild_id for r in results if r.guild_id != here}
            public = {s.guild_id for s in await storage.public_servers_among(others)} if others else set()
            results = [r for r in results if r.guild_id == here or r.guild_id in public]
        found = tally(game, results, user_id)
        if found is not None:
            out.append(found)
    return out
