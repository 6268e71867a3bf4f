"""One Escape game's session document and every pure change of it, kept free of Discord.

Why a document of plain JSON: the platform's game-session store (bot/platform/sessions.py) keeps
`GameSession.state` as JSON and changes it only through `change_session`, which applies a pure
change in place and saves it with a version check.  So every step of the game is a function here
that takes the document (and a member id) and either changes it or returns a refusal code; the
cog only wraps these in `change_session` and renders the result.  Nothing of a game lives in the
bot's memory: a click after a restart reads the same document and goes on.

The document: the platform's table (bot/platform/tables.py: lang, seats by member id in seat
order, seat i being engine player i, and names) and beside it
    pack (the server's content pack or None), mode ("digital" | "referee"), difficulty, seed
    engine: the engine's versioned snapshot (engine/escape/snapshot.py), None in the lobby
    post_id: the public station post; log: the last public lines; actor: the seat last pinged
    step: how many steps were played; panels: each seat's open private panel (see `remember_panel`)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast, get_args

from bot.platform.tables import TableRules, new_table
from bot.platform.tables import name_of as name_of
from bot.platform.tables import seat_of as table_seat_of
from bot.platform.text import user_text
from engine.escape.content import Mission, Pack
from engine.escape.pack import PackRefusal, default_pack, load_pack
from engine.escape.policy import actor
from engine.escape.rules import Applied, Command, Event, apply
from engine.escape.setup import new_digital_game, new_referee_game
from engine.escape.snapshot import from_dict, to_dict
from engine.escape.state import State

MIN_PLAYERS = 2
MAX_PLAYERS = 4
MAX_LOG = 14
MODES = ("digital", "referee")
DIFFICULTIES = ("easy", "medium", "hard")


RULES = TableRules("escape", MIN_PLAYERS, MAX_PLAYERS)


def new_document(
    lang: str, mode: str, difficulty: str, seed: int, host_id: int, host_name: str, pack: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A lobby (the platform's table: lang, seats by member id, inert names) with the host seated
    first.  `pack` is the server's own content pack (raw JSON, checked when it was loaded), None
    for our default pack; the game keeps the pack it started with (the engine's snapshot has it)."""
    return new_table(
        host_id,
        host_name,
        lang,
        pack=pack,
        mode=mode,
        difficulty=difficulty,
        seed=seed,
        engine=None,
        post_id=None,
        log=[],
        actor=-1,
        mission_texts=[],
        enemy="next_player" if mode == "digital" else "bot",
    )


def seat_of(doc: dict[str, Any], member_id: int) -> int:
    """The member's seat, -1 when they have none (seats are by member id, never by name)."""
    seat = table_seat_of(doc, member_id)
    return -1 if seat is None else seat


def begin(doc: dict[str, Any]) -> str | None:
    """Deal the game (seed §2.1.3): missions and characters from the lobby's pack, the station laid
    out for a digital game; seats clockwise in the order members joined.  A refusal code (the
    table has checked the number of seats already)."""
    if doc["engine"] is not None:
        return "started"
    n = len(doc["seats"])
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        return "too_few" if n < MIN_PLAYERS else "too_many"
    pack = pack_of(doc)
    if len(pack.missions) < n or len(pack.characters) < n:
        return "pack_small"
    difficulty = cast(Any, doc["difficulty"])
    if doc["mode"] == "digital":
        state = new_digital_game(pack, int(doc["seed"]), difficulty, n)
        # Seed §2.1.8 step 2: the next player acts out the station's enemy (rules doc D29); a
        # crew may leave it to the bot (D8), as referee mode always does (issue 27).
        state.next_plays_enemy = doc.get("enemy", "next_player") == "next_player"
    else:
        texts = list(doc.get("mission_texts") or [])
        if texts and len(texts) < n:
            return "mission_texts"
        state = _referee_game(pack, int(doc["seed"]), difficulty, n, texts)
        if texts:  # which text each custom mission is, for the seat's panel (never the public post)
            dealt = [p.mission.id for p in state.players]
            doc["dealt_texts"] = {m: texts[int(m[len(CUSTOM) :])] for m in dealt}
    doc["engine"] = to_dict(state)
    doc["actor"] = actor(state)
    return None


def pack_of(doc: dict[str, Any]) -> Pack:
    """The lobby's pack: the server's, else ours (a stored pack that no longer loads falls back)."""
    raw = doc.get("pack")
    if raw is not None:
        pack = load_pack(raw)
        if not isinstance(pack, PackRefusal):
            return pack
    return default_pack()


CHARACTER = "set_character"  # the panel's select value for typing one's own character card
KIND_CODES = ("human", "mutant", "cyborg")


def set_character(doc: dict[str, Any], member_id: int, numbers: tuple[int, ...]) -> str | None:
    """Referee mode, the first hour: a seat's character card as the crew holds it (kind 0 human,
    1 mutant, 2 cyborg; AP, unarmed damage, carry weight, Health), replacing the one the bot dealt.
    Why only then: the seed drafts characters at setup (§2.1.3 step 8); later the card's numbers
    would rewrite a game already under way.  A refusal code of the engine's list, or None."""
    seat = seat_of(doc, member_id)
    snap = doc.get("engine")
    if seat < 0 or snap is None:
        return "no_such_player"
    if doc["mode"] != "referee":
        return "referee_only"
    if snap["hour"] != 0 or snap["winner"] >= 0 or snap["timed_out"]:
        return "game_over"
    if len(numbers) != 5:
        return "bad_numbers"
    kind, ap, unarmed, max_weight, health = numbers
    if not (0 <= kind < 3 and 1 <= ap <= 12 and 0 <= unarmed <= 10 and 1 <= max_weight <= 30 and 1 <= health <= 20):
        return "bad_numbers"
    char_id = f"crew{seat + 1}"
    snap["chars"][char_id] = {
        "id": char_id,
        "kind": KIND_CODES[kind],
        "ap": ap,
        "unarmed": unarmed,
        "max_weight": max_weight,
        "health": health,
    }
    player = snap["players"][seat]
    player["character"] = char_id
    player["health"] = health
    if snap["turn"] == seat and player["ap"] > ap:
        player["ap"] = ap  # a turn already begun keeps no more AP than the card gives
    return None


CUSTOM = "custom"  # the mission id of a text the host typed in: custom0, custom1, ...
MAX_MISSION_TEXT = 300


def mission_texts(raw: str | None) -> list[str]:
    """The host's mission texts for a referee game, typed once as `text | text | ...` (the missions
    of the box the crew owns; the seed gives no mission texts).  Each is kept inert and bounded."""
    if not raw:
        return []
    return [user_text(part, MAX_MISSION_TEXT) for part in raw.split("|") if part.strip()][: MAX_PLAYERS + 2]


def _referee_game(pack: Any, seed: int, difficulty: Any, n: int, texts: list[str] | None = None) -> State:
    """Referee mode: the box is on the table, so the bot deals only what must stay secret or be
    counted (missions privately, a character's numbers for the panel), seeded: the host's mission
    texts when given (no goals: the crew claims one, rules doc D12), else the pack's missions."""
    import random

    rng = random.Random(seed)
    if texts:
        missions = [Mission(f"{CUSTOM}{i}", ()) for i in rng.sample(range(len(texts)), n)]
    else:
        missions = rng.sample(list(pack.missions), n)
    chars = rng.sample(list(pack.characters), n)
    first = rng.randrange(n)
    return new_referee_game(seed, difficulty, chars, missions, first, pack)


# ---------------------------------------------------------------- the game


def state_of(doc: dict[str, Any]) -> State:
    """The engine's game from the document (SnapshotError when it cannot be restored)."""
    return from_dict(doc["engine"])


@dataclass(frozen=True)
class Step:
    """What one command did: the events, and the seat to act before and after it."""

    events: tuple[Event, ...]
    actor_before: int
    actor_after: int
    over: bool


def act(doc: dict[str, Any], member_id: int, command: Command) -> Step | str:
    """Apply a seated member's command; a refusal code ('seated' or the engine's) otherwise.  The
    member's own seat is the command's player, whatever the button said: nobody plays another seat."""
    seat = seat_of(doc, member_id)
    if seat < 0:
        return "seated"
    if doc["engine"] is None:
        return "lobby"
    state = state_of(doc)
    before = actor(state)
    result = apply(state, Command(command.kind, seat, command.target, command.cell, command.numbers))
    if not isinstance(result, Applied):
        return result.code
    doc["engine"] = to_dict(result.state)
    after = actor(result.state)
    doc["actor"] = after
    return Step(result.events, before, after, result.state.over)


# ---------------------------------------------------------------- the seats' open panels

# Discord lets an interaction's answer (an ephemeral panel) be edited through the interaction's
# token for 15 minutes; after 14 we no longer try (a minute's margin for a slow edit).
PANEL_TOKEN_S = 14 * 60


def count_step(doc: dict[str, Any]) -> None:
    """One more step played: panels drawn before it are out of date."""
    doc["step"] = int(doc.get("step", 0)) + 1


def remember_panel(doc: dict[str, Any], seat: int, token: str, now: float, step: int | None = None) -> None:
    """The seat's panel now on its screen: the token of the interaction that answered with it, when,
    and at which step it was drawn.  Why in the document: an ephemeral message can only be edited
    through that token, and a panel opened before a restart must still be refreshed after it.  One
    panel per seat (the newest): Discord gives no way to find the older ones again anyway.  `step`:
    the step the panel shows, when it was drawn from an earlier read of the document."""
    if 0 <= seat < len(doc["seats"]):
        shows = int(doc.get("step", 0)) if step is None else step
        doc.setdefault("panels", {})[str(seat)] = {"token": token, "at": now, "step": shows}


def stale_panels(doc: dict[str, Any], now: float) -> list[tuple[int, str]]:
    """The seats whose open panel was drawn before the last step and may still be edited."""
    step = int(doc.get("step", 0))
    return [
        (int(seat), str(panel["token"]))
        for seat, panel in sorted((doc.get("panels") or {}).items())
        if int(panel["step"]) < step and now - float(panel["at"]) < PANEL_TOKEN_S
    ]


def forget_panels(doc: dict[str, Any], tokens: set[str], now: float) -> bool:
    """Drop the panels of these tokens (they could not be edited) and every expired one; a seat's
    newer panel (another token) stays.  True when anything was dropped."""
    panels = doc.get("panels") or {}
    gone = [
        seat for seat, panel in panels.items() if panel["token"] in tokens or now - float(panel["at"]) >= PANEL_TOKEN_S
    ]
    for seat in gone:
        del panels[seat]
    return bool(gone)


def add_log(doc: dict[str, Any], lines: list[str]) -> None:
    doc["log"] = (list(doc["log"]) + lines)[-MAX_LOG:]


# ---------------------------------------------------------------- commands as component values


def encode(command: Command) -> str:
    """A command as a short string for a button's id or a select's value (player left out:
    the clicking member's seat is the player)."""
    parts = [command.kind, str(command.target), str(command.cell[0]), str(command.cell[1])]
    return ".".join(parts + [str(n) for n in command.numbers])


def decode(value: str) -> Command | None:
    """The command a component carried; None for anything malformed (a forged id)."""
    parts = value.split(".")
    if len(parts) < 4 or len(parts) > 13:
        return None
    try:
        numbers = tuple(int(p) for p in parts[1:])
    except ValueError:
        return None
    from engine.escape.rules import CommandKind

    kinds = get_args(CommandKind)  # every command the engine knows, from its own type
    if parts[0] not in kinds:
        return None
    kind = cast(CommandKind, parts[0])
    return Command(kind, -1, numbers[0], (numbers[1], numbers[2]), numbers[3:])
