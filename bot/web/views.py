"""Each page's document: the data of one page as plain JSON values.

One document feeds both the HTML page (a Jinja2 template lays it out) and its `.json` twin, so the
two can never disagree.  Documents hold codes, numbers, names and links; words are the template's
job, except the captain's log lines, threat names and loss causes, which are rendered here in the
page's language (the same code as the Discord posts).  Every builder returns None for what must
be a 404: unknown, or on a server whose records are private.
"""

from __future__ import annotations

from typing import Any

from bot.games.elite.storage import EliteStore
from bot.games.space_alert.campaign.storage import CampaignRecord, Campaigns
from bot.games.space_alert.comparisons import Comparison, Comparisons
from bot.games.space_alert.hindsight.answer import summary_text
from bot.games.space_alert.mission._log_i18n import cause_text, describe
from bot.games.space_alert.mission.cards import code_text
from bot.games.space_alert.records import games as session_games
from bot.games.space_alert.records.lines import flight_url, line_doc, player_url
from bot.games.space_alert.records.public import PublicLogbook
from bot.games.space_alert.threat_names import threat_name
from bot.platform import records
from bot.platform.i18n import t
from bot.platform.storage.web import PublicServer, WebStore
from bot.web.replays import Replays, log_by_turn, turn_alt

SCHEMA_VERSION = 1
LANGS: tuple[str, ...] = ("en", "ru", "cs", "sk")
TURN_LABELS = 13
LATEST = 20  # a server page's latest games (of every kind)


def server_url(guild_id: int) -> str:
    return f"/s/{guild_id}"


def server_doc(s: PublicServer) -> dict[str, Any]:
    return {
        "id": str(s.guild_id),
        "name": s.name,
        "language": s.language,
        "flights": s.games,  # the JSON's name for a server's count of games of every kind
        "last_flown": s.last_flown,
        "url": server_url(s.guild_id),
    }


def campaign_doc(c: CampaignRecord) -> dict[str, Any]:
    return {
        "id": c.id,
        "status": c.status,
        "missions": c.missions,
        "total": c.total,
        "destroyed_by": c.destroyed_by,
        "started_at": c.started_at,
        "finished_at": c.finished_at,
        "crew": [
            {"name": name, "player_id": str(uid) if uid else None, "url": player_url(uid)} for uid, name in c.crew
        ],
    }


def comparison_doc(c: Comparison, lang: str) -> dict[str, Any]:
    """A what-if comparison asked for on the flight: who, what changed (worded in `lang`), and the
    outcome and score against the real ones.  `member`, `outcome` and `total` are the what-if's."""
    if c.kind == "hindsight":
        changes = [summary_text(lang, item) for item in c.changes]
    else:
        changes = [
            t(
                lang,
                "web.whatif.turn",
                turn=item.get("turn"),
                real=code_text(lang, item.get("real") or "-"),
                alt=code_text(lang, item.get("alt") or "-"),
            )
            for item in c.changes
        ]
    return {
        "kind": c.kind,
        "member": c.asked_name,
        "player_id": str(c.asked_by) if c.asked_by is not None else None,
        "board": c.board or None,
        "changes": c.changes,
        "changes_text": changes,
        "real_outcome": c.real_outcome,
        "real_total": c.real_total,
        "outcome": c.alt_outcome,
        "total": c.alt_total,
        "delta": c.delta,
        "diverges_at": c.diverges_at,
        "asked_at": c.asked_at,
    }


async def index_page(store: WebStore, lang: str) -> dict[str, Any]:
    servers = await store.public_servers()
    return {"schema_version": SCHEMA_VERSION, "lang": lang, "servers": [server_doc(s) for s in servers]}


def page_language(asked: str | None, server: PublicServer | None, default: str) -> str:
    """`?lang=` when given, else the server's language setting, else the deployment's default."""
    if asked in LANGS:
        return asked
    if server is not None and server.language in LANGS:
        return server.language
    return default if default in LANGS else "en"


async def server_page(store: WebStore, guild_id: int, asked: str | None, default: str = "en") -> dict[str, Any] | None:
    server = await store.public_server(guild_id)
    if server is None:
        return None
    lang = page_language(asked, server, default)
    boards: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for b in await PublicLogbook(store).server_boards(guild_id):
        boards.setdefault((b.mission_id, b.normal, b.serious), []).append(
            {
                "rank": b.rank,
                "total": b.total,
                "flown_at": b.flown_at,
                "flight_id": b.flight_id,
                "url": flight_url(b.flight_id),
                "crew": list(b.crew),
            }
        )
    elite = EliteStore(store)
    standing = await elite.board(guild_id)
    elite_rows = await elite.rows(guild_id, limit=10)
    return {
        "schema_version": SCHEMA_VERSION,
        "lang": lang,
        "server": server_doc(server),
        "boards": [{"mission": m, "normal": n, "serious": s, "places": places} for (m, n, s), places in boards.items()],
        "latest": await records.server_lines(store, guild_id, limit=LATEST, lang=lang),
        "campaigns": [campaign_doc(c) for c in await Campaigns(store).ended_on_server(guild_id)],
        "elite": {
            "games": standing.games,
            "wins": standing.wins,
            "fewest_rounds": standing.fewest_rounds,
            "latest": elite_rows,
        },
        # Legion voyages and Escape games: the newest of each, one indexed query per game
        **{
            game: {
                "latest": [
                    session_games.result_doc(r, lang)
                    for r in await store.session_results(game=game, guild_id=guild_id, limit=10)
                ]
            }
            for game in session_games.GAMES
        },
    }


async def flight_page(
    store: WebStore,
    replays: Replays,
    flight_id: str,
    asked: str | None,
    default: str = "en",
) -> dict[str, Any] | None:
    """The flight's document, in `?lang=` or the server's language."""
    found = await PublicLogbook(store).public_flight(flight_id)
    if found is None:
        return None
    entry, record = found
    server = await store.public_server(entry.guild_id)
    if server is None:  # made private between the two reads
        return None
    lang = page_language(asked, server, default)
    result = entry.result
    score = dict(result.get("score") or {})
    threats = [
        {
            "id": th["id"],
            "name": threat_name(lang, th["id"]),
            "turn": th.get("turn"),
            "zone": th.get("zone"),
            "fate": th.get("fate"),
            "points": th.get("points", 0),
        }
        for th in result.get("threats", [])
    ]
    turns: list[dict[str, Any]] = []
    replay = await replays.replay(record) if record is not None and entry.game == "space_alert" else None
    if replay is not None:
        grouped = log_by_turn([e.model_dump(mode="json") for e in (replay.result.log or [])])
        for index, state in enumerate(replay.states):
            turns.append(
                {
                    "index": index,
                    "turn": state.turn,
                    "picture": f"/f/{entry.flight_id}/turn/{index}.png",
                    "alt": turn_alt(state, lambda cid: threat_name(lang, cid), lambda key, **kw: t(lang, key, **kw)),
                    "log": [describe(lang, e) for e in grouped.get(state.turn, [])] if index else [],
                }
            )
    line = line_doc(entry, lang)
    lost = result.get("lost") or {}
    if lost.get("cause") and not line["destroyed_by_text"]:
        line["destroyed_by_text"] = cause_text(lang, lost["cause"])
    return {
        "schema_version": SCHEMA_VERSION,
        "lang": lang,
        "server": server_doc(server),
        "flight": {
            **line,
            "language": entry.language,
            "score": {
                "threats": score.get("threats", 0),
                "threat_points_destroyed": entry.threat_points_destroyed,
                "threat_points_survived": entry.threat_points_survived,
                **{k: score.get(k, 0) for k in ("damage", "worst_zone", "knocked_out", "battlebots")},
                "observation": score.get("observation", entry.observation),
                "total": entry.total,
            },
            "damage": result.get("damage") or {},
            "lost": result.get("lost"),
            "threats": threats,
            "overview": f"/f/{entry.flight_id}/overview.png" if turns else None,
            "turns": turns,
            "whatifs": [comparison_doc(c, lang) for c in await Comparisons(store).of_flight(flight_id)],
        },
    }


async def player_page(store: WebStore, user_id: int, lang: str) -> dict[str, Any] | None:
    """A career on public servers."""
    others, known_as = await _other_games(store, user_id, lang)
    public = PublicLogbook(store)
    name = await public.player_name(user_id) or known_as  # a Legion-only player has a career too
    if name is None:
        return None
    totals = await public.player_totals(user_id)
    flights = [line_doc(e, lang) for e in await public.player_entries(user_id)]
    ids = {row.guild_id for row in totals if row.guild_id} | {int(line["server_id"]) for line in flights}
    servers = {s.guild_id: s for s in await store.public_servers_among(ids)}
    by_server: list[dict[str, Any]] = []
    by_difficulty: list[dict[str, Any]] = []
    for row in totals:
        figures = {"flights": row.flights, "survived": row.survived, "points": row.points}
        if row.guild_id:  # a server's row (both difficulties summed)
            server = servers.get(row.guild_id)
            if server is not None:
                by_server.append({**server_doc(server), **figures, "server_flights": server.games})
        else:
            by_difficulty.append({"normal": row.normal, "serious": row.serious, **figures})
    names = {str(k): v.name for k, v in servers.items()}
    for line in flights:
        line["server_name"] = names.get(line["server_id"])
        line["server_url"] = server_url(int(line["server_id"]))
    return {
        "schema_version": SCHEMA_VERSION,
        "lang": lang,
        "player": {
            "id": str(user_id),
            "name": name,
            "flights": sum(s["flights"] for s in by_server),
            "survived": sum(s["survived"] for s in by_server),
            "points": sum(s["points"] for s in by_server),
        },
        "servers": by_server,
        "difficulties": by_difficulty,
        "flights": flights,
        "games": others,
    }


async def _other_games(store: WebStore, user_id: int, lang: str) -> tuple[list[dict[str, Any]], str | None]:
    """The player's Legion voyages and Escape games on public servers, counted: one query per game
    and one public check for all (`[{"game", "played", "won", "as_agent", "won_as_agent", "summary"}]`),
    and the name of their newest such game (for a player who never flew)."""
    found = {game: await store.session_results(game=game, user_id=user_id, limit=500) for game in session_games.GAMES}
    guilds = {r.guild_id for results in found.values() for r in results}
    public = {s.guild_id for s in await store.public_servers_among(guilds)}
    out: list[dict[str, Any]] = []
    newest: tuple[str, str] | None = None
    for game, results in found.items():
        shown = [r for r in results if r.guild_id in public]
        for r in shown[:1]:
            named = [str(p.get("name") or "") for p in r.players if str(p.get("user_id")) == str(user_id)]
            if named and named[0] and (newest is None or r.finished_at > newest[0]):
                newest = (r.finished_at, named[0])
        tally = session_games.tally(game, shown, user_id)
        if tally is not None:
            out.append(
                {
                    "game": game,
                    "played": tally.played,
                    "won": tally.won,
                    "as_agent": tally.as_agent,
                    "won_as_agent": tally.won_as_agent,
                    "summary": session_games.career_line(lang, tally),
                }
            )
    return out, newest[1] if newest else None
