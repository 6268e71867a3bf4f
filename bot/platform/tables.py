"""The table every session game sits at: seats by member id, the lobby, and one component kind
whose clicks reach the game with its session loaded.

Why in the platform: a game that keeps its state in a game session (bot/platform/sessions.py)
needs the same things around it: a lobby where members join and leave and the host begins or
cancels, seats by member id with names only rendered, buttons and selects that survive a restart,
a polite answer to a click on a game that has ended, and an apology instead of silence when a
handler fails.  Each game built them again; here they exist once, and a game adds only its rules
(`TableRules`: how many may sit, what beginning means) and its own moves (`TableGame.on_press`).

The session document a table keeps (the game adds its own keys beside these):
    lang   the game's language (en, ru, cs, sk)
    seats  member ids in seat order (seat i is the engine's player i); seats[0] is the host
    names  str(member id) -> the name shown (rendered inert, never a ping)

Component ids: `gm:<game>:<session id>:<action>:<arg>` (`TABLE.make`).  The lobby's actions are
`join`, `leave`, `begin` and `cancel`; every other action goes to the game's `on_press`.  Who may
press what is the game's permission table (`<game>.<action>`, declared in its package).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot.platform import components
from bot.platform.components import Components, handles
from bot.platform.errors import report_interaction_error
from bot.platform.i18n import t
from bot.platform.permissions import RULES, Seats, answer_refusal, guard
from bot.platform.sessions import GameSession
from bot.platform.text import user_text

log = logging.getLogger(__name__)

LOBBY_ACTIONS = ("join", "leave", "begin", "cancel")
NAME_LIMIT = 40  # characters of a display name shown at the table

TABLE = components.register(
    "gm",
    {
        "game": r"[a-z]{2,12}",
        "sid": r"[A-Za-z0-9_\-]{6,24}",
        "action": r"[a-z_]{2,12}",
        "arg": r"[A-Za-z0-9_.~\-]{1,50}",
    },
    summary="a session game's lobby, public post and private panels (bot/platform/tables.py)",
    example=("legion", "AbCd_-123456", "join", "-"),
)


@dataclass(frozen=True)
class TableRules:
    """What a game tells the table: its id (also its sessions' `game`) and how many may sit."""

    game: str
    min_players: int
    max_players: int


class TableGame(Protocol):
    """A game served by the table.  `rules` sizes its lobby; `begin` turns a full lobby into the
    game (pure: it changes the session document and returns a refusal, or None to go on, and may
    run twice on a retried unit of work; the refusal is a catalogue key, or a text already in the
    game's language); the `on_*` hooks answer the interaction."""

    rules: TableRules

    def begin(self, session: GameSession) -> str | None: ...

    async def on_lobby(self, interaction: discord.Interaction, session: GameSession, action: str) -> None: ...

    async def on_press(
        self, interaction: discord.Interaction, session: GameSession, action: str, arg: str, values: list[str]
    ) -> None: ...


_GAMES: dict[str, Callable[[], TableGame | None]] = {}


def serve(game: str, find: Callable[[], TableGame | None]) -> None:
    """Route the table's clicks for `game` to what `find` returns (the game's cog, looked up at
    click time so a reloaded extension is found again)."""
    _GAMES[game] = find


# -- the document ----------------------------------------------------------------------------------
def new_table(host_id: int, host_name: str, lang: str, **game_fields: Any) -> dict[str, Any]:
    """A lobby's document with the host in seat 0."""
    return {"lang": lang, "seats": [host_id], "names": {str(host_id): user_text(host_name, NAME_LIMIT)}, **game_fields}


def seats_of(session: GameSession) -> Seats:
    """The host and seated members, for the permission check."""
    return Seats.of(session.host_id, session.state.get("seats", ()))


def seat_of(doc: dict[str, Any], member_id: int) -> int | None:
    seats: list[int] = doc.get("seats", [])
    return seats.index(member_id) if member_id in seats else None


def name_of(doc: dict[str, Any], seat: int) -> str:
    """The shown name of a seat, inert (user text never pings)."""
    seats: list[int] = doc.get("seats", [])
    member = seats[seat] if 0 <= seat < len(seats) else 0
    return user_text(str(doc.get("names", {}).get(str(member), "?")), NAME_LIMIT)


def join(doc: dict[str, Any], rules: TableRules, member_id: int, name: str) -> str | None:
    """Sit down; a refusal code (`already_seated`, `full`) or None."""
    if member_id in doc["seats"]:
        return "already_seated"
    if len(doc["seats"]) >= rules.max_players:
        return "full"
    doc["seats"].append(member_id)
    doc["names"][str(member_id)] = user_text(name, NAME_LIMIT)
    return None


def leave(doc: dict[str, Any], member_id: int) -> str | None:
    """Stand up; the host cancels instead (`host_stays`), a stranger has no seat (`not_seated`)."""
    if member_id not in doc["seats"]:
        return "not_seated"
    if doc["seats"][0] == member_id:
        return "host_stays"
    doc["seats"].remove(member_id)
    doc["names"].pop(str(member_id), None)
    return None


def ready(doc: dict[str, Any], rules: TableRules) -> str | None:
    """Whether the lobby may begin: `too_few` / `too_many`, or None."""
    n = len(doc["seats"])
    if n < rules.min_players:
        return "too_few"
    if n > rules.max_players:
        return "too_many"
    return None


def lobby_line(doc: dict[str, Any], rules: TableRules) -> str:
    """Who sits at the table, in seat order, with the count against the limits (inert names)."""
    lang = str(doc.get("lang", "en"))
    names = ", ".join(name_of(doc, i) for i in range(len(doc["seats"])))
    return t(lang, "table.seated", names=names, count=len(doc["seats"]), lo=rules.min_players, hi=rules.max_players)


# -- components ------------------------------------------------------------------------------------
def button(
    game: str,
    sid: str,
    action: str,
    arg: str = "-",
    *,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    row: int | None = None,
    disabled: bool = False,
) -> TableButton:
    return TableButton(TABLE.make(game, sid, action, arg), label=label[:80], style=style, row=row, disabled=disabled)


def select(
    game: str,
    sid: str,
    action: str,
    options: list[tuple[str, str]],
    *,
    placeholder: str,
    arg: str = "-",
    row: int | None = None,
) -> TableSelect:
    """A select of (value, label) choices; Discord allows 25."""
    opts = [discord.SelectOption(label=label[:100], value=value[:100]) for value, label in options[:25]]
    return TableSelect(TABLE.make(game, sid, action, arg), options=opts, placeholder=placeholder[:150], row=row)


def lobby_view(game: str, sid: str, lang: str) -> Components:
    """Join, Leave, Begin (the host) and Cancel (the host)."""
    return Components(
        button(game, sid, "join", label=t(lang, "table.join"), style=discord.ButtonStyle.success, row=0),
        button(game, sid, "leave", label=t(lang, "table.leave"), row=0),
        button(game, sid, "begin", label=t(lang, "table.begin"), style=discord.ButtonStyle.primary, row=0),
        button(game, sid, "cancel", label=t(lang, "table.cancel"), style=discord.ButtonStyle.danger, row=0),
    )


async def _route(interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
    parts = TABLE.parse(custom_id)
    find = _GAMES.get(parts["game"]) if parts else None
    handler = find() if find is not None else None
    storage = getattr(interaction.client, "storage", None)
    if parts is None or handler is None or storage is None:
        await answer_refusal(interaction, t("en", "table.unavailable"))
        return
    try:
        session = await storage.load_session(parts["sid"])
        if session is None or session.game != parts["game"] or not session.active:
            lang = session.state.get("lang", "en") if session is not None else "en"
            await answer_refusal(interaction, t(str(lang), "table.over"))
            return
        lang = str(session.state.get("lang", "en"))
        action = parts["action"]
        if action not in RULES.games.get(session.game, {}):  # a forged or outdated id: no such move
            await answer_refusal(interaction, t(lang, "table.unavailable"))
            return
        if not await guard(interaction, f"{session.game}.{action}", lang, seats_of(session)):
            return
        if action in LOBBY_ACTIONS:
            await _lobby(interaction, storage, handler, session, action)
        else:
            await handler.on_press(interaction, session, action, parts["arg"], values)
    except Exception as exc:  # every click gets an answer; the log gets the traceback
        await report_interaction_error(interaction, exc, flight_id=parts["sid"])


async def _lobby(
    interaction: discord.Interaction, storage: Any, handler: TableGame, session: GameSession, action: str
) -> None:
    """One lobby press as one unit of work; the game answers it (its lobby post is its own)."""
    user = interaction.user
    name = str(getattr(user, "display_name", None) or user)
    refused: list[str | None] = [None]

    def change(s: GameSession) -> bool:
        refused[0] = None
        if s.status != "lobby":
            refused[0] = "started"
        elif action == "join":
            refused[0] = join(s.state, handler.rules, user.id, name)
        elif action == "leave":
            refused[0] = leave(s.state, user.id)
        elif action == "cancel":
            s.status = "abandoned"
        else:
            refused[0] = ready(s.state, handler.rules) or handler.begin(s)
            if refused[0] is None:
                s.status = "running"
        return refused[0] is None

    stored = await storage.change_session(session.id, change)
    lang = str(session.state.get("lang", "en"))
    if stored is None or refused[0] is not None:
        code = refused[0] or "started"
        # the table's own codes, else the game's catalogue key (text already in words passes through)
        await answer_refusal(interaction, t(lang, f"table.refused.{code}" if code in REFUSALS else code))
        return
    await handler.on_lobby(interaction, stored, action)


# The table's own refusal codes (a game's `begin` may return its own text key instead).
REFUSALS = ("already_seated", "full", "not_seated", "host_stays", "too_few", "too_many", "started")


@handles(TABLE)
class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=TABLE.pattern(action=r"(?!pick_)[a-z_]{2,12}")
):
    """Any session game's button (any action but a select's `pick_...`), routed by its custom id
    (works after a restart)."""

    def __init__(
        self,
        custom_id: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id, label=label, style=style, row=row, disabled=disabled))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableButton:
        return cls(match.string, label=getattr(item, "label", None))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _route(interaction, self.custom_id, [])


@handles(TABLE)
class TableSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=TABLE.pattern(action=r"pick_[a-z]{1,7}")):
    """Any session game's select (its action starts with `pick_`); the chosen values travel in the
    interaction, not the id."""

    def __init__(
        self,
        custom_id: str,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=custom_id,
                options=options or [discord.SelectOption(label="-", value="-")],
                placeholder=placeholder,
                row=row,
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> TableSelect:
        return cls(match.string, options=list(getattr(item, "options", []) or []) or None)

    async def callback(self, interaction: discord.Interaction) -> None:
        data: Any = interaction.data or {}
        await _route(interaction, self.custom_id, [str(v) for v in data.get("values", [])])
