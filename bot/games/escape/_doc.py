"""One Escape game's session document and every pure change of it, kept free of Discord.

Why a document of plain JSON: the platform's game-session store (bot/platform/sessions.py) keeps
`GameSession.state` as JSON and changes it only through `change_session`, which applies a pure
change in place and saves it with a version check.  So every step of the game is a function here
that takes the document (and a member id) and either changes it or returns a refusal code; the
cog only wraps these in `change_session` and renders the result.  Nothing of a game lives in the
bot's memory: a click after a restart reads the same document and goes on.

The document:
    lang, mode ("digital" | "referee"), difficulty, seed
    seats: member ids in seating order (seat i is engine player i), names: id -> shown name
    engine: the engine's versioned snapshot (engine/escape/snapshot.py), None in the lobby
    post_id: the public station post; log: the last public lines; actor: the seat last pinged
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from engine.escape.content import Pack
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


def new_document(
    lang: str, mode: str, difficulty: str, seed: int, host_id: int, host_name: str, pack: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A lobby with its host seated first (the host opened it to play).  `pack` is the server's
    own content pack (raw JSON, checked when it was loaded), None for our default pack; the game
    keeps the pack it started with (the engine's snapshot carries it)."""
    return {
        "pack": pack,
        "lang": lang,
        "mode": mode,
        "difficulty": difficulty,
        "seed": seed,
        "seats": [host_id],
        "names": {str(host_id): host_name},
        "engine": None,
        "post_id": None,
        "lobby_id": None,
        "log": [],
        "actor": -1,
        "recorded": False,
    }


def seat_of(doc: dict[str, Any], member_id: int) -> int:
    """The member's seat, -1 when they have none (seats are by member id, never by name)."""
    seats: list[int] = doc["seats"]
    return seats.index(member_id) if member_id in seats else -1


def name_of(doc: dict[str, Any], seat: int) -> str:
    seats: list[int] = doc["seats"]
    if not 0 <= seat < len(seats):
        return "?"
    return str(doc["names"].get(str(seats[seat]), "?"))


# ---------------------------------------------------------------- the lobby


def join(doc: dict[str, Any], member_id: int, name: str) -> str | None:
    """Take a seat; a refusal code when the game runs, the member sits already or it is full."""
    if doc["engine"] is not None:
        return "running"
    if member_id in doc["seats"]:
        return "already_seated"
    if len(doc["seats"]) >= MAX_PLAYERS:
        return "full"
    doc["seats"].append(member_id)
    doc["names"][str(member_id)] = name
    return None


def leave(doc: dict[str, Any], member_id: int) -> str | None:
    """Give a seat back (not the host's: the host cancels instead)."""
    if doc["engine"] is not None:
        return "running"
    if member_id not in doc["seats"]:
        return "not_seated"
    if doc["seats"][0] == member_id:
        return "host_cancels"
    doc["seats"].remove(member_id)
    doc["names"].pop(str(member_id), None)
    return None


def begin(doc: dict[str, Any]) -> str | None:
    """Deal the game (seed §2.1.3): missions and characters from our default pack, the station
    laid out for a digital game; seats clockwise in the order members joined."""
    if doc["engine"] is not None:
        return "running"
    n = len(doc["seats"])
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        return "players"
    pack = pack_of(doc)
    if len(pack.missions) < n or len(pack.characters) < n:
        return "pack_small"
    difficulty = cast(Any, doc["difficulty"])
    if doc["mode"] == "digital":
        state = new_digital_game(pack, int(doc["seed"]), difficulty, n)
    else:
        state = _referee_game(pack, int(doc["seed"]), difficulty, n)
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


def _referee_game(pack: Any, seed: int, difficulty: Any, n: int) -> State:
    """Referee mode: the box is on the table, so the bot deals only what must stay secret or be
    counted (missions privately, a character's numbers for the panel) from the pack, seeded."""
    import random

    rng = random.Random(seed)
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
    from engine.escape.rules import REFEREE_ONLY, CommandKind

    kinds = {
        "end_turn", "move", "unlock_portal", "jump", "loot", "heal", "reload", "requisition", "reactor",
        "assault", "escape", "challenge", "attack", "flee", "drop", "take_spoil", "repair", "use", *REFEREE_ONLY,
    }  # fmt: skip
    if parts[0] not in kinds:
        return None
    kind = cast(CommandKind, parts[0])
    return Command(kind, -1, numbers[0], (numbers[1], numbers[2]), numbers[3:])
